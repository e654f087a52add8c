/**
 * One cell of the fault matrix (re-exported by matrix.ts): arrange, inject the fault, run
 * the command, take the user's next step, compare the cloud with the state after each, check the
 * failure's message; and the cell's verdict, the letter code of the table.
 */
export type { CellResult, MessageCheck } from "./result";
import { closeAllPools, verifyTokenProject } from "../../../client/core";
import { cloudView, compareState, type Counts, type MatrixEnv } from "./cloud";
import type { CellResult, MessageCheck } from "./result";
import { FAULTS, isOwnershipFault, type FaultName, type MatrixProject, type Op, type TypeSpec } from "./columns";
import { ownershipNotApplicable, runOwnershipCell } from "./ownership";
import { SimStack, StepError, type Declared, type Props } from "./sim-stack";

/** Verbs that say what was being done (lower case, as messages phrase them: "creating bucket ..."). */
const OPERATION_WORDS: Record<Op, RegExp> = {
  create: /\b(creating|adding|running the|encrypting|generating|uploading|setting|putting)\b/,
  // An update reads the resource first: "reading" names the step that failed.
  update: /\b(updating|adding|scaling|modifying|setting|putting|uploading|reading|removing)\b/,
  read: /\b(reading|listing|looking)\b/,
  delete: /\b(deleting|removing|aborting|emptying)\b/,
};

const NAME_KEYS = ["name", "bucket", "clusterId", "keyId"];

function checkMessage(err: Error & Record<string, unknown>, op: Op, fault: FaultName, names: readonly string[], noun: RegExp | undefined): MessageCheck {
  const text = err.message;
  // What the dynamic provider host prints for check, diff, read and delete: `${e}: ${e.stack}`.
  const printed = `${String(err)}: ${String(err.stack)}`;
  return {
    resource: names.some((n) => n !== "" && text.includes(n)) || (noun?.test(text) ?? false),
    operation: OPERATION_WORDS[op].test(text),
    cause: FAULTS[fault].cause.test(text),
    stackless: !/\n\s+at /.test(printed),
  };
}

/** The letter code of a cell: R, F, or what went wrong. */
export function verdict(r: CellResult): string {
  if (r.na) return "n/a";
  const problems: string[] = [];
  // Not hit: the fault never fired, or a held transition or terminal state did not fail the command.
  // An ownership cell is refused before its request or has no fault at all.
  if (!isOwnershipFault(r.fault) && (r.fault === "stuck" || r.fault === "FAILED" ? r.error === undefined : r.fired === 0)) problems.push("N");
  if (r.tookOver) problems.push("X");
  // A twin stack's up must succeed; another stack's name must be refused.
  if (r.fault === "twin" && r.error !== undefined) problems.push("E");
  if (r.fault !== "twin" && isOwnershipFault(r.fault) && r.error === undefined) problems.push("E");
  if (r.final.orphans.length) problems.push("O");
  if (r.final.duplicates.length) problems.push("D");
  if (r.final.ghosts.length) problems.push("G");
  if (!r.converged) problems.push("S");
  if (r.message && !(r.message.resource && r.message.operation && r.message.cause && r.message.stackless)) problems.push("M");
  if (r.throttleReported === false) problems.push("T");
  if (problems.length) return problems.join("+");
  // °: something was left outside state between the failure and the next step, which took it over.
  return `${r.error ? "F" : "R"}${r.after.orphans.length ? "°" : ""}`;
}

function names(...sources: (Props | undefined)[]): string[] {
  const out: string[] = [];
  for (const s of sources) for (const k of NAME_KEYS) if (typeof s?.[k] === "string") out.push(s[k]);
  return out;
}

async function attempt(fn: () => Promise<unknown>): Promise<(Error & Record<string, unknown>) | undefined> {
  try {
    await fn();
    return undefined;
  } catch (e) {
    const err = e instanceof StepError ? e.error : (e as Error & Record<string, unknown>);
    return err;
  }
}

/**
 * Fails a cache node (or instance) that is still starting, once one shows up, while `until` runs:
 * the resource's wait must see it and stop. Returns what it failed, to repair it afterwards.
 */
async function failAStartingNode(env: MatrixEnv, p: MatrixProject, how: "node" | "instance", until: Promise<unknown>): Promise<string | undefined> {
  let settled = false;
  void until.finally(() => (settled = true)).catch(() => undefined);
  for (let i = 0; i < 2000 && !settled; i++) {
    for (const c of await p.cache.clusters.list()) {
      const pending =
        how === "node"
          ? (await p.cache.clusterTopology(c.id)).unsettledNodes.map((n) => n.nodeId)
          : Object.entries((await p.cache.instanceSetTopology(c.id)).instanceStates)
              .filter(([, s]) => s !== "running")
              .map(([id]) => id);
      if (pending[0] !== undefined) {
        await env.control("PATCH", `/resources/cache/${how}/${pending[0]}`, { status: "FAILED" });
        return pending[0];
      }
    }
    await new Promise((r) => setImmediate(r));
  }
  return undefined;
}

/** Why a cell does not apply (the operation makes no request, the type has no wait or no terminal state), or undefined. */
export function notApplicable(t: TypeSpec, op: Op, fault: FaultName): string | undefined {
  if (isOwnershipFault(fault)) return op === "create" ? ownershipNotApplicable(t, fault) : "decided at create";
  if (t.ops[op] === undefined) return t.na?.[op] ?? "no request";
  if (op === "update" && !t.updated) return t.na?.update ?? "no update";
  if (fault === "stuck" && t.stuck?.[op] === undefined) return t.stuck ? "no wait" : "no transition";
  if (fault === "FAILED" && !t.failed?.[op]) return "no terminal state";
  return undefined;
}

const withTimeouts = (args: Props, op: Op): Props => ({ ...args, timeouts: { [op]: "1s" } });

/** Runs one cell: arrange, fault, the command, the user's next step, and the comparisons. */
export async function runCell(env: MatrixEnv, t: TypeSpec, op: Op, fault: FaultName): Promise<CellResult> {
  const started = Date.now();
  const type = t.token.replace(/^krcloud:/, "");
  const blank: Counts = { orphans: [], duplicates: [], ghosts: [] };
  const na = (why: string): CellResult => ({ type, op, fault, na: why, fired: 0, after: blank, final: blank, converged: true, notes: [], ms: 0 });
  const operation = t.ops[op];
  const why = notApplicable(t, op, fault);
  if (why !== undefined || operation === undefined) return na(why ?? "no request");
  if (isOwnershipFault(fault)) return runOwnershipCell(env, t, fault);
  const stuckHere = fault === "stuck";
  const failedHow = fault === "FAILED" ? t.failed?.[op] : undefined;

  const p = await env.project(`${type.split(":")[1]}${op}`);
  const stack = new SimStack(p.id, (token) => env.resource(token));
  const deps = t.deps?.(p) ?? [];
  const timed = (args: Props) => (stuckHere && (op === "create" || op === "update") ? withTimeouts(args, op) : args);
  const good = (s: SimStack) => timed(t.args(p, s));
  const programOf = (args: (s: SimStack) => Props): Declared[] => [...deps, { logical: "target", token: t.token, args }];
  const createArgs = (s: SimStack) => (failedHow === "bad-sql" ? { ...good(s), query: "select * from no_such_table" } : good(s));
  const initial = programOf(op === "create" ? createArgs : good);
  const changed = programOf((s) => timed(t.updated!(p, s)));
  // The program after the cell: what the user's next step declares.
  const final = op === "update" ? changed : programOf(good);

  // Arrange: the dependencies (and for update, read and delete: the resource itself).
  await stack.up(op === "create" ? deps : initial);
  await verifyTokenProject(p.settings);
  let targetInputs: Props | undefined;
  let armed = true;
  stack.beforeCreate = async (d, inputs) => {
    if (d.logical !== "target") return;
    targetInputs = inputs;
    if (armed && failedHow === "hadoop-create-failure" && typeof inputs.name === "string") {
      await env.control("PATCH", `/resources/hadoop/create-failure/${inputs.name}`, { reason: "no capacity for m2a.xlarge (injected)" });
    }
  };

  // The resource as recorded before the command (update, read, delete): its names for the message check.
  const before = stack.entries.get("target");
  const notes: string[] = [];
  let faultId: string | undefined;
  const spec = FAULTS[fault].spec;
  if (stuckHere) await env.hold(t.service, t.stuck![op]!);
  if (failedHow === "node" || failedHow === "instance") await env.hold("cache", failedHow);
  if (spec) faultId = (await env.control<{ id: string }>("POST", "/faults", { service: t.service, operation, ...spec })).id;
  if (fault === "LR/fresh") await closeAllPools();
  if (fault === "LR/reused") await p.os.listBuckets();
  const progressBefore = env.progress().length;

  // The command.
  const command = (program: Declared[]) => (op === "read" ? stack.refresh() : op === "delete" ? stack.destroy() : stack.up(program).then(() => undefined));
  const run = command(op === "update" ? changed : initial);
  const failedNode = failedHow === "node" || failedHow === "instance" ? failAStartingNode(env, p, failedHow, run) : undefined;
  const error = await attempt(() => run);
  armed = false;
  const broken = await failedNode;
  if ((failedHow === "node" || failedHow === "instance") && broken === undefined) notes.push("no starting node was seen to fail");

  // The fault is cleared, the cause removed.
  let fired = 0;
  if (faultId) {
    fired = (await env.control<{ faults: { id: string; fired: number }[] }>("GET", "/faults")).faults.find((f) => f.id === faultId)?.fired ?? 0;
    await env.control("DELETE", `/faults/${faultId}`);
  }
  const progress = env.progress().slice(progressBefore);
  const after = compareState([...stack.entries.values()], await cloudView(await env.inventory(), p, [...stack.entries.values()]), stack.createKeys);
  if (stuckHere) await env.release(t.service, t.stuck![op]!);
  if (broken) await env.control("PATCH", `/resources/cache/${failedHow}/${broken}`, { status: "Running" });
  if (failedHow === "node" || failedHow === "instance") await env.release("cache", failedHow);
  if (failedHow === "hadoop-create-failure" && typeof targetInputs?.name === "string") {
    await env.control("DELETE", `/resources/hadoop/create-failure/${targetInputs.name}`);
  }

  // The user's next step.
  let nextError: (Error & Record<string, unknown>) | undefined;
  if (error) {
    nextError = await attempt(() => command(final));
  }
  const state = [...stack.entries.values()];
  const finalCounts = compareState(state, await cloudView(await env.inventory(), p, state), stack.createKeys);

  // Converged: after a destroy nothing is left; otherwise a refresh and a preview show no change.
  let converged = nextError === undefined;
  if (converged && op === "delete") {
    converged = stack.entries.size === 0;
    if (!converged) notes.push(`left in state: ${[...stack.entries.keys()].join(", ")}`);
  } else if (converged) {
    const refreshed = await attempt(() => stack.refresh());
    if (refreshed) {
      converged = false;
      notes.push(`refresh failed: ${refreshed.message.split("\n")[0]}`);
    } else {
      const steps = await stack.plan(final);
      const changes = Object.entries(steps).filter(([, s]) => s !== "same");
      if (changes.length) {
        converged = false;
        notes.push(`preview after refresh: ${changes.map(([l, s]) => `${l} ${s}`).join(", ")}`);
      }
    }
  }

  const target = stack.entries.get("target");
  const result: CellResult = {
    type,
    op,
    fault,
    operation,
    fired,
    after,
    final: finalCounts,
    converged,
    notes,
    ms: Date.now() - started,
  };
  if (error) {
    result.error = error.message;
    result.message = checkMessage(
      error,
      op,
      fault,
      [...names(targetInputs, target?.inputs, target?.outputs, before?.outputs), ...[target?.id, before?.id].filter((x) => x !== undefined)],
      t.noun,
    );
  }
  if (nextError) result.nextError = nextError.message;
  if (fault === "429" && !error && op !== "read") {
    result.throttleReported = progress.some((l) => /\d+ of \d+ requests were throttled \(429\) and retried/.test(l));
  }
  await env.control("DELETE", "/faults");
  return result;
}
