/**
 * create: never a second copy. The definition's create runs under recovery.ts (a lost answer or a
 * name already taken is settled by finding what exists), and a failure after the cloud accepted the
 * create becomes the error the engine records the resource from (`partialFailureError`).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { verifyTokenProject } from "../../../client/core";
import { withOfferedValues } from "../hints";
import { replacingOf } from "../keep-data";
import { withCreateKey, withoutHidden } from "../properties";
import { createWithRecovery, describeCreate } from "../recovery";
import { CREATE_KEY, PROVIDER_KEY } from "../resource";
import { forgetListings } from "../list-reads";
import { toPlain } from "../sanitize";
import { isCoreToken } from "../stack-identity";
import { clean, contextFor, counted, forEngine, partialFailureError, signIn, type Call } from "./env";

export async function create(call: Call, inputs: Record<string, unknown>): Promise<dynamic.CreateResult> {
  const { def, env, opts } = call;
  const provider = inputs[PROVIDER_KEY];
  const news = withoutHidden(inputs);
  const ctx = contextFor("create", env, opts);
  if (typeof inputs[CREATE_KEY] === "string") ctx.createKey = inputs[CREATE_KEY];
  ctx.replacing = replacingOf(inputs);
  try {
    await signIn(def, ctx);
    if (!isCoreToken(def.token)) await verifyTokenProject(ctx.settings);
    const { id, outs } = await counted(ctx, `creating ${describeCreate(def, news)}`, () => createWithRecovery(def, ctx, news));
    return { id, outs: toPlain(withCreateKey(outs, ctx.createKey)) };
  } catch (e) {
    throw forEngine(clean(partialFailureError(await withOfferedValues(def, ctx, news, e), provider, ctx.createKey)));
  } finally {
    // A write of the type: what is kept of its listings no longer stands for the cloud (list-reads.ts).
    forgetListings(def.token);
  }
}
