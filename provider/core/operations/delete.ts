/**
 * delete: waits until gone; gone already is success. A delete whose outcome is unknown is settled
 * by one read, and another project's token is refused before it could call something deleted.
 */
import { isNotFound, mayHaveApplied, verifyTokenProject } from "../../../client/core";
import { withoutHidden } from "../properties";
import type { AnyDefinition, Context } from "../resource";
import { forgetListings } from "../list-reads";
import { isCoreToken } from "../stack-identity";
import { clean, contextFor, counted, forEngine, signIn, type Call } from "./env";

/** `delete` is a reserved word: the operation is `deleteResource`. */
export async function deleteResource(call: Call, id: string, props: Record<string, unknown>): Promise<void> {
  const { def, env, opts } = call;
  const ctx = contextFor("delete", env, opts);
  try {
    await signIn(def, ctx);
    // Another project's token would find nothing, call it deleted and drop it from state.
    if (!isCoreToken(def.token)) await verifyTokenProject(ctx.settings);
    await counted(ctx, `deleting ${def.describe(id)}`, () => def.delete(ctx, id, withoutHidden(props)));
  } catch (e) {
    if (isNotFound(e)) return;
    const unsettled = await settleDelete(def, ctx, id, props, e);
    if (unsettled !== undefined) throw forEngine(clean(unsettled));
  } finally {
    // A write of the type: what is kept of its listings no longer stands for the cloud (list-reads.ts).
    forgetListings(def.token);
  }
}

/**
 * A delete whose outcome is unknown (every answer lost, say) is settled by one read: gone is a
 * successful delete, whichever attempt made it. Still there, the error says so; any other error is
 * returned as it is.
 */
async function settleDelete(def: AnyDefinition, ctx: Context, id: string, props: Record<string, unknown>, e: unknown): Promise<Error | undefined> {
  const err = e as Error;
  if (!mayHaveApplied(e)) return err;
  const still = await def.read(ctx, id, withoutHidden(props)).then(
    (r) => (r === undefined ? "gone" : "there"),
    () => "unknown",
  );
  if (still === "gone") {
    ctx.progress(`${def.describe(id)}: the answer to the delete request was lost, and it is gone: deleted`);
    return undefined;
  }
  const seen = still === "there" ? "it is still there, so it may not have been applied" : "reading it to see failed too";
  if (typeof err?.message === "string")
    err.message += `. The delete request may or may not have been applied (${seen}): run \`pulumi destroy\` (or \`up\`) again, which looks first`;
  return err;
}
