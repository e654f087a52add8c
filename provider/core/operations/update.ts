/**
 * update: converges against the cloud as it is now, not the recorded outputs (after a partial
 * failure or drift the state is not what the cloud has). A step whose answer was lost says the
 * change may have been applied; a failure after some steps applied is recorded (partial failure).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { mayHaveApplied, verifyTokenProject } from "../../../client/core";
import { withOfferedValues } from "../hints";
import { withCreateKey, withoutHidden } from "../properties";
import { CREATE_KEY, isPartialFailure, PROVIDER_KEY } from "../resource";
import { forgetListings } from "../list-reads";
import { toPlain } from "../sanitize";
import { isCoreToken } from "../stack-identity";
import { clean, contextFor, counted, forEngine, partialFailureError, signIn, type Call } from "./env";

export async function update(call: Call, id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<dynamic.UpdateResult> {
  const { def, env, opts } = call;
  const provider = news[PROVIDER_KEY];
  const desired = withoutHidden(news);
  const ctx = contextFor("update", env, opts);
  // A definition that rewrites where its ownership marker lives (a description) keeps it.
  const key = news[CREATE_KEY] ?? olds[CREATE_KEY];
  if (typeof key === "string") ctx.createKey = key;
  try {
    await signIn(def, ctx);
    const outs = await counted(ctx, `updating ${def.describe(id)}`, async () => {
      // Converge against the cloud as it is now, not the recorded outputs: after a partial
      // failure or drift the state is not what the cloud has.
      const current = await def.read(ctx, id, withoutHidden(olds));
      if (current === undefined) {
        throw new Error(`${def.describe(id)} no longer exists: run \`pulumi refresh\` so it is recreated`);
      }
      for (const k of def.localInputs ?? []) current[k] = olds[k];
      if (!isCoreToken(def.token)) await verifyTokenProject(ctx.settings);
      return def.update(ctx, id, current, desired);
    });
    return { outs: toPlain(withCreateKey(outs, ctx.createKey)) };
  } catch (e) {
    throw forEngine(clean(partialFailureError(await withOfferedValues(def, ctx, desired, mayHaveBeenApplied(e)), provider, ctx.createKey)));
  } finally {
    // A write of the type: what is kept of its listings no longer stands for the cloud (list-reads.ts).
    forgetListings(def.token);
  }
}

/**
 * An update step whose request may have been applied before its answer was lost says so: the next
 * `up` reads the cloud and converges from what it finds (a replica added, say), never repeating it
 * blindly.
 */
function mayHaveBeenApplied(e: unknown): unknown {
  const cause = isPartialFailure(e) ? e.cause : e;
  if (!mayHaveApplied(cause)) return e;
  const note =
    " The change may have been applied before the answer was lost: the next `pulumi up` reads the resource as the cloud has it and goes on from there.";
  const err = e as Error;
  if (typeof err?.message === "string" && !err.message.includes(note)) err.message += note;
  return e;
}
