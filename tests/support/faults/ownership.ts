/**
 * The fault matrix's ownership cells (issue: a stack must never take over, nor delete, what
 * another stack made), run in the create row of every type:
 *
 * - `twin`: two stacks of the same stack and project name, as two backends hold them (the same
 *   URNs, two stack identities), `up` one after the other against one cloud project. Both succeed
 *   and make resources of their own; the second one's `destroy` leaves the first one's resources
 *   untouched, whose own `destroy` then leaves nothing.
 * - `name/drop`, `name/5xx`, `name/LR`: another stack holds a resource of the name this stack
 *   declares; the create request meets a fault (dropped, a 500, its answer lost). The create is
 *   refused (F), naming `adopt`; nothing of the other stack's changes, its refresh and preview show
 *   nothing to do, and its `destroy` deletes it.
 *
 * A cell that lets a stack take over what the other made shows `X`.
 */
import { verifyTokenProject } from "../../../client/core";
import { definition } from "../../../provider/runtime";
import { cloudView, compareState, type Counts, type MatrixEnv } from "./cloud";
import type { CellResult, MessageCheck } from "./result";
import { FAULTS, type MatrixProject, type OwnershipFault, type TypeSpec } from "./columns";
import { SimStack, StepError, type Declared, type Entry, type Props } from "./sim-stack";

/** Why an ownership cell does not apply to `t`, or undefined. */
export function ownershipNotApplicable(t: TypeSpec, fault: OwnershipFault): string | undefined {
  if (fault === "twin") return undefined;
  return t.noName ?? (collidingArgs(t) === undefined ? "no name to collide on" : undefined);
}

/** The arguments that collide with the other stack's `target` of type `t`. */
function collidingArgs(t: TypeSpec): ((p: MatrixProject, theirs: SimStack) => Props) | undefined {
  if (t.collides) return t.collides;
  const nameKey = definition(t.token).autoName?.property;
  if (nameKey === undefined) return undefined;
  return (p, theirs) => ({ ...t.args(p, theirs), [nameKey]: theirs.entries.get("target")!.inputs[nameKey] });
}

async function attempt(fn: () => Promise<unknown>): Promise<(Error & Record<string, unknown>) | undefined> {
  try {
    await fn();
    return undefined;
  } catch (e) {
    return e instanceof StepError ? e.error : (e as Error & Record<string, unknown>);
  }
}

/**
 * The cloud against the state of `stacks`. A query run is history, not a resource: one that either
 * stack ran (its create key among `ran`'s) stays after a destroy without being an orphan.
 */
async function counts(env: MatrixEnv, p: MatrixProject, stacks: SimStack[], ran: SimStack[] = stacks): Promise<Counts> {
  const state: Entry[] = stacks.flatMap((s) => [...s.entries.values()]);
  const keys = new Set(ran.flatMap((s) => [...s.createKeys]));
  return compareState(state, await cloudView(await env.inventory(), p, state), keys);
}

const none = (c: Counts) => c.orphans.length + c.duplicates.length + c.ghosts.length === 0;

/** One ownership cell of type `t`. */
export async function runOwnershipCell(env: MatrixEnv, t: TypeSpec, fault: OwnershipFault): Promise<CellResult> {
  const started = Date.now();
  const type = t.token.replace(/^krcloud:/, "");
  const p = await env.project(`${type.split(":")[1]}own`);
  // Two stacks of one name: the same URNs, two identities (two backends).
  const theirs = new SimStack(p.id, (token) => env.resource(token));
  const mine = new SimStack(p.id, (token) => env.resource(token));
  const program: Declared[] = [...(t.deps?.(p) ?? []), { logical: "target", token: t.token, args: (s) => t.args(p, s) }];
  const notes: string[] = [];
  await theirs.up(program);
  await verifyTokenProject(p.settings);
  const theirTarget = theirs.entries.get("target")!;
  const result: CellResult = {
    type,
    op: "create",
    fault,
    operation: t.ops.create,
    fired: 0,
    after: { orphans: [], duplicates: [], ghosts: [] },
    final: { orphans: [], duplicates: [], ghosts: [] },
    converged: true,
    notes,
    ms: 0,
  };

  if (fault === "twin") {
    const error = await attempt(() => mine.up(program));
    if (error) {
      result.error = error.message;
      result.converged = false;
      notes.push("the twin stack's up failed");
    }
    const myTarget = mine.entries.get("target");
    if (myTarget && myTarget.id === theirTarget.id) {
      result.tookOver = true;
      notes.push(`both stacks hold ${myTarget.id}`);
    }
    result.after = await counts(env, p, [theirs, mine]);
    // The twin's destroy deletes only its own: the first stack's state still matches the cloud.
    const destroyed = await attempt(() => mine.destroy());
    if (destroyed) notes.push(`the twin stack's destroy failed: ${destroyed.message.split("\n")[0]}`);
    result.final = await counts(env, p, [theirs], [theirs, mine]);
  } else {
    const collide = collidingArgs(t)!;
    const spec = FAULTS[fault].spec!;
    const faultId = (await env.control<{ id: string }>("POST", "/faults", { service: t.service, operation: t.ops.create, ...spec })).id;
    const error = await attempt(() => mine.up([{ logical: "target", token: t.token, args: () => collide(p, theirs) }]));
    result.fired = (await env.control<{ faults: { id: string; fired: number }[] }>("GET", "/faults")).faults.find((f) => f.id === faultId)?.fired ?? 0;
    await env.control("DELETE", `/faults/${faultId}`);
    if (error) {
      result.error = error.message;
      result.message = refusalMessage(error, fault, [theirTarget.id, ...Object.values(theirTarget.inputs).filter((v): v is string => typeof v === "string")]);
    } else {
      result.tookOver = true;
      notes.push("the create was not refused: this stack now holds the other stack's resource");
    }
    if (mine.entries.has("target")) {
      result.tookOver = true;
      notes.push(`this stack recorded ${mine.entries.get("target")!.id}`);
    }
    result.after = await counts(env, p, [theirs, mine]);
    // The other stack's resource is as it was: its refresh and preview find nothing to do.
    const refreshed = await attempt(() => theirs.refresh());
    const steps = refreshed ? undefined : await theirs.plan(program);
    const changes = Object.entries(steps ?? {}).filter(([, s]) => s !== "same");
    if (refreshed || changes.length > 0) {
      result.converged = false;
      notes.push(refreshed ? `the other stack's refresh failed: ${refreshed.message.split("\n")[0]}` : `the other stack's preview: ${changes.join(", ")}`);
    }
    const destroyed = await attempt(() => mine.destroy());
    if (destroyed) notes.push(`this stack's destroy failed: ${destroyed.message.split("\n")[0]}`);
    result.final = await counts(env, p, [theirs, mine]);
  }

  // The first (other) stack's destroy leaves nothing.
  const last = await attempt(() => theirs.destroy());
  const left = await counts(env, p, [], [theirs, mine]);
  if (last || !none(left) || theirs.entries.size > 0) {
    result.converged = false;
    notes.push(`the other stack's destroy: ${last?.message.split("\n")[0] ?? "ok"}; left: ${JSON.stringify(left)}`);
  }
  await env.control("DELETE", "/faults");
  result.ms = Date.now() - started;
  return result;
}

/** The refusal names the resource, says it was creating it and why: the ownership marker, or `adopt`. */
function refusalMessage(err: Error & Record<string, unknown>, fault: OwnershipFault, names: readonly string[]): MessageCheck {
  const text = err.message;
  const printed = `${String(err)}: ${String(err.stack)}`;
  return {
    resource: names.some((n) => n.length > 3 && text.includes(n)),
    operation: /\bcreating\b/.test(text),
    cause: FAULTS[fault].cause.test(text),
    stackless: !/\n\s+at /.test(printed),
  };
}
