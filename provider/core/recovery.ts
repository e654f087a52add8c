/**
 * Never lose track, never create twice, never take over what another stack made: the one place
 * where a create meets an existing resource or an unknown outcome. Every definition with a
 * `recovery` goes through here:
 *
 * - `adopt: true`: what `find` finds is taken over (its replace-on properties must match).
 * - Look first (`lookFirst`, resources without a unique name, such as a query run): what `find`
 *   finds by the create key is this resource's own, left by an earlier attempt; it is taken over.
 * - An unknown outcome (the answer lost after the request was sent, a connection closed under it, a
 *   5xx, an unreadable 2xx; see `mayHaveApplied`): `find` looks for what the request made. Not
 *   found after a second look: the request was not applied, and it is sent again, at most twice
 *   more.
 * - A conflict (409): the name is taken.
 *
 * Whatever `find` finds after an unknown outcome or a conflict is taken over only with proof that
 * this resource's create made it: the ownership marker its create request wrote (ownership.ts,
 * `markerOf`) is the marker of this create key, which no other stack shares (a twin stack of the
 * same name in another backend included). Without that proof the create is refused with the exact
 * `adopt` instruction, whatever name it was: generated or declared.
 *
 * "Taken over" means read, then the definition's own `update` converges it to the inputs; a failure
 * there leaves it in state (PartialFailure), so the next `up` resumes instead of orphaning it.
 */
import { isConflict, mayHaveApplied } from "../../client/core";
import { markerOf } from "./ownership";
import { assertAdoptable, inputSchema, isPartialFailure, PartialFailure, type AnyDefinition, type Context } from "./resource";

/** Attempts at a create whose earlier attempts provably left nothing. */
const MAX_ATTEMPTS = 3;
/** Between two looks for what a create made: time for a request still being applied to show. */
const LOOK_AGAIN_MS = 500;

export async function createWithRecovery(
  def: AnyDefinition,
  ctx: Context,
  inputs: Record<string, unknown>,
): Promise<{ id: string; outs: Record<string, unknown> }> {
  const r = def.recovery;
  if (!r) return def.create(ctx, inputs);
  const what = describeCreate(def, inputs);

  // A replacement that keeps the data is no first create: what its name finds is what it replaces.
  const adopting = ctx.replacing === undefined && (r.adopting ? r.adopting(inputs) : inputs.adopt === true);
  if (adopting || r.lookFirst) {
    const existing = await r.find(ctx, inputs, undefined);
    if (existing !== undefined) return takeOver(def, ctx, existing, inputs, adopting ? "adopt" : "resume");
  }

  for (let attempt = 1; ; attempt++) {
    const before = r.before ? await r.before(ctx, inputs) : undefined;
    try {
      return await def.create(ctx, inputs);
    } catch (e) {
      if (isPartialFailure(e)) throw e;
      const unknown = mayHaveApplied(e);
      const conflict = isConflict(e);
      if (!unknown && !conflict) throw e;

      const found = await look(r, ctx, inputs, before, e);
      if (found.error) throw unknownOutcome(what, e, found.error);
      if (found.id !== undefined) {
        const proof = await proves(r, ctx, found.id).catch((le: unknown) => ({ error: le }));
        if (typeof proof === "object") throw unknownOutcome(what, e, proof.error);
        if (proof) {
          ctx.progress(
            `${what}: ${unknown ? "the answer to the create request was lost" : "it exists already"}, and it carries this stack's ownership marker (made by an earlier attempt); taking over ${found.id}`,
          );
          return takeOver(def, ctx, found.id, inputs, "resume");
        }
        throw refusal(def, what, found.id, e);
      }
      if (conflict) throw e;
      // Nothing was made: the request was not applied, so sending it again makes one, not two.
      if (attempt >= MAX_ATTEMPTS) throw unknownOutcome(what, e, undefined);
      ctx.progress(`${what}: the create request failed without an answer (${firstLine(e)}); nothing was made, sending it again`);
    }
  }
}

/**
 * Whether `id`, found after an unknown outcome or a conflict, was made by this create: it carries
 * the marker of this create key. A definition without `markerOf` finds only what its own create
 * made (`find` by the create key, or as what was not there before the request).
 */
async function proves(r: NonNullable<AnyDefinition["recovery"]>, ctx: Context, id: string): Promise<boolean> {
  if (!r.markerOf) return true;
  const mine = markerOf(ctx.createKey);
  if (mine === undefined) return false;
  return (await r.markerOf(ctx, id)) === mine;
}

/**
 * `find`, tolerant: the lookup itself may meet the fault that lost the answer. Two looks, a second
 * apart, so that a create still being applied has a moment to show up before it is sent again.
 */
async function look(
  r: NonNullable<AnyDefinition["recovery"]>,
  ctx: Context,
  inputs: Record<string, unknown>,
  before: unknown,
  cause: unknown,
): Promise<{ id?: string; error?: unknown }> {
  let lastError: unknown;
  let looks = 0;
  for (let i = 0; i < 4 && looks < (isConflict(cause) ? 1 : 2); i++) {
    if (i > 0) await ctx.clock.sleep(LOOK_AGAIN_MS, ctx.deadline?.signal).catch(() => undefined);
    try {
      const id = await r.find(ctx, inputs, before);
      if (id !== undefined) return { id };
      looks++;
      lastError = undefined;
    } catch (e) {
      lastError = e;
    }
  }
  // A conflict with nothing found is the service's own answer; no second look is needed for it.
  return lastError !== undefined && !isConflict(cause) ? { error: lastError } : {};
}

async function takeOver(def: AnyDefinition, ctx: Context, id: string, inputs: Record<string, unknown>, how: "adopt" | "resume") {
  const current = await def.read(ctx, id, inputs);
  if (current === undefined) {
    throw new Error(
      how === "adopt"
        ? `adopting ${def.describe(id)}: it does not exist`
        : `${def.describe(id)} was found but disappeared before it could be taken over; run \`pulumi up\` again`,
    );
  }
  for (const k of def.localInputs ?? []) current[k] = inputs[k];
  if (how === "adopt") {
    assertAdoptable(def, id, current, inputs);
    ctx.progress(`adopting existing ${def.describe(id)}`);
  }
  try {
    return { id, outs: await def.update(ctx, id, current, inputs) };
  } catch (e) {
    // Ours from here on: whatever failed, it is recorded, and the next up resumes it.
    if (isPartialFailure(e)) throw e;
    throw new PartialFailure(id, current, e);
  }
}

function refusal(def: AnyDefinition, what: string, id: string, cause: unknown): Error {
  const adopt = inputSchema(def) as unknown as { shape?: Record<string, unknown> };
  const howToAdopt =
    adopt.shape && "adopt" in adopt.shape
      ? "If this stack is to manage it from now on, set `adopt: true` on this resource and run `pulumi up` again (its destroy will then delete it); otherwise choose another name."
      : "Choose another name, or delete the existing one.";
  const err = new Error(
    `creating ${what}: one already exists with this name (${id}), and it does not carry this stack's ownership marker, so another stack (or someone outside Pulumi) made it. ${howToAdopt}`,
  );
  (err as Error & { cause?: unknown }).cause = cause;
  return err;
}

/** The error of a create whose outcome could not be settled: it says what may exist and what the next up does. */
function unknownOutcome(what: string, cause: unknown, lookError: unknown): Error {
  const looked = lookError === undefined ? "nothing of it could be found" : `looking for it failed too (${firstLine(lookError)})`;
  return new Error(
    `creating ${what}: the request may or may not have been applied (${firstLine(cause)}); ${looked}. It may exist: the next \`pulumi up\` looks for it first and takes it over instead of creating a second one.`,
  );
}

/**
 * How messages name the resource a create makes: by its name, or, for a kind without a name input
 * (a query, a shard), as a new one of its kind (`a new data query`), never by its type's last word.
 */
export function describeCreate(def: AnyDefinition, inputs: Record<string, unknown>): string {
  const key = def.autoName?.property ?? "name";
  const name = inputs[key];
  return typeof name === "string" && name !== "" ? def.describe(name) : `a new ${def.describe("").replace(/\s*""$/, "")}`;
}

function firstLine(e: unknown): string {
  const m = (e as Error)?.message ?? String(e);
  return m.split("\n")[0]!;
}
