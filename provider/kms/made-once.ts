/**
 * What Ciphertext and DataKey share: each is made by one KMS call at create, with a key the program
 * names, and the service keeps no record of it. Read returns what was recorded, since nothing in the
 * service can tell it apart or lose it (a refresh never re-encrypts and never fails on a deactivated
 * key version); every input replaces, so an update only records; delete has nothing to remove.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { rethrowAs } from "../../client/core";
import type { KmsClient } from "../../client/kms";
import type { ResourceDefinition, ResourceSpec } from "../core";
import { kms } from "./client";
import { triggers } from "./validation";

/** The inputs of a resource made once: `shape`, and `triggers` to make it again on purpose. */
export function madeOnceInputs<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject({ ...shape, triggers: triggers() });
}

export interface MadeOnceSpec<I extends { keyId: string }, O extends I & { ciphertext: string }> extends Pick<
  ResourceSpec<I, O>,
  "description" | "replaceOn" | "secretInputs" | "secretOutputs"
> {
  /** Why drift cannot be verified (always so: the service keeps no record of what the call made). */
  unverifiable: string;
  /** `ciphertext`, `data key`: names the resource in messages. */
  noun: string;
  /** `encrypting`, `generating a data key`: what the call does, for its error. */
  doing: string;
  /** The one call, and the outputs from it: the inputs and what it made (the id derives from its ciphertext). */
  make: (c: KmsClient, inputs: I) => Promise<O>;
}

export function madeOnce<I extends { keyId: string }, O extends I & { ciphertext: string }>(
  token: string,
  inputs: () => z.ZodType<I>,
  outputs: () => z.ZodType<O>,
  spec: MadeOnceSpec<NoInfer<I>, NoInfer<O>>,
): ResourceDefinition<I, O> {
  const { noun, doing, make, ...declared } = spec;
  return {
    token,
    inputs,
    outputs,
    ...declared,
    // `keyId` is a key of every I here; TypeScript cannot see that through the generic.
    offered: {
      keyId: {
        hint: "no such KMS key in this project: give the id of a key of the project (the key management API lists no keys; the console does; on the local cloud, make one with its control API: docs/local-cloud.md, Key management)",
        missing: true,
      },
    } as ResourceDefinition<I, O>["offered"],
    describe: (id) => `${noun} "${id}"`,
    unlisted: `a ${noun} is recorded only, in the state of the stack that made it: the key management service keeps no list of what it encrypted or generated`,

    async create(ctx, inputs) {
      const outs = await make(kms(ctx), inputs).catch(rethrowAs(`${doing} with KMS key "${inputs.keyId}"`));
      return { id: stableId(outs.ciphertext), outs };
    },
    readsFromList: { no: "its read makes no request: the key management service keeps nothing to read" },
    read: async (_ctx, _id, olds) => olds,
    update: async (_ctx, _id, current, news) => ({ ...current, ...news }),
    delete: async () => undefined,
  };
}

/** A stable id from the ciphertext (never a timestamp, as aws_kms_ciphertext's is). */
export function stableId(cipher: string): string {
  return createHash("sha256").update(cipher).digest("hex").slice(0, 32);
}
