/**
 * read: the resource as the cloud has it now, or an empty id when it is gone (refresh drops it and
 * the next up recreates it). The inputs it returns mirror the cloud, so a refresh causes no false
 * diff; the create key and a partial failure's marker are kept.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { verifyTokenProject } from "../../../client/core";
import { withCreateKey, withoutHidden } from "../properties";
import { CREATE_KEY, inputsFromOutputs, PARTIAL_KEY, READ_ERROR_KEY, READ_ERRORS_ENV, type AnyDefinition, type Context } from "../resource";
import { readFromListOrOwn } from "../list-reads";
import { toPlain } from "../sanitize";
import { isCoreToken } from "../stack-identity";
import { beforeDeadline, DeadlineExceededError } from "../wait";
import { clean, contextFor, forEngine, signIn, type Call } from "./env";

export async function read(call: Call, id: string, props: Record<string, unknown>): Promise<dynamic.ReadResult> {
  const { def, env, opts } = call;
  const ctx = contextFor("read", env, opts);
  const olds = withoutHidden(props);
  const marker = (props ?? {})[PARTIAL_KEY];
  const createKey = (props ?? {})[CREATE_KEY];
  try {
    // `customTimeouts.read` (native plugin) bounds the whole read, a slow answer included.
    const deadline = ctx.deadline;
    const outs = deadline
      ? await beforeDeadline(
          readNow(def, ctx, id, olds),
          deadline,
          () => new DeadlineExceededError(`reading ${def.describe(id)}: no answer within ${deadline.description}`),
        )
      : await readNow(def, ctx, id, olds);
    // An empty id tells the engine the resource is gone: refresh drops it and the next up recreates it.
    if (outs === undefined) return { id: "", props: {} };
    for (const k of def.localInputs ?? []) if (olds[k] !== undefined) outs[k] = olds[k];
    const plain = toPlain(outs);
    const kept = withCreateKey(plain, createKey);
    return { id, props: marker === undefined ? kept : { ...kept, [PARTIAL_KEY]: marker }, inputs: withCreateKey(inputsFromOutputs(def, plain), createKey) };
  } catch (e) {
    const err = clean(e);
    // The drift check (krcloud-drift) reports a resource it could not read and goes on with the others.
    if (process.env[READ_ERRORS_ENV] === "report") {
      const kept = toPlain(olds);
      return {
        id,
        props: { ...withCreateKey(kept, createKey), [READ_ERROR_KEY]: (err as Error)?.message ?? String(err) },
        inputs: withCreateKey(inputsFromOutputs(def, kept), createKey),
      };
    }
    throw forEngine(err);
  }
}

async function readNow(def: AnyDefinition, ctx: Context, id: string, olds: Record<string, unknown>): Promise<Record<string, unknown> | undefined> {
  await signIn(def, ctx);
  // With another project's token a read finds nothing and says "gone": refresh would drop
  // what exists (orphaned for good), so the token is checked here too: first, unless the
  // record the read returns names the project (then only when it does not, or is gone).
  if (!def.projectOf && !isCoreToken(def.token)) await verifyTokenProject(ctx.settings);
  // Reads of a type that arrive together are answered from its list pages where it declares they can be (list-reads.ts).
  const read = await readFromListOrOwn(def, ctx, id, olds);
  if (def.projectOf && (read === undefined || def.projectOf(read, ctx.settings.projectId) !== ctx.settings.projectId)) await verifyTokenProject(ctx.settings);
  return read;
}
