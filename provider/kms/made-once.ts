/**
 * What Ciphertext and DataKey share: each is made by one KMS call at create, with a key the program
 * names, and the service keeps no record of it. Read returns what was recorded, since nothing in the
 * service can tell it apart or lose it (a refresh never re-encrypts and never fails on a deactivated
 * key version); every input replaces, so an update only records; delete has nothing to remove.
 */
import { createHash } from "node:crypto";
import { rethrowAs } from "../../sdk/core";
import type { KmsClient } from "../../sdk/kms";
import type { ResourceDefinition } from "../core";
import { kms } from "./client";

type Declared<I extends { keyId: string }, O extends I & { ciphertext: string }> = Pick<
  ResourceDefinition<I, O>,
  "token" | "description" | "inputs" | "outputs" | "replaceOn" | "secretInputs" | "secretOutputs"
>;

export interface MadeOnceSpec<I extends { keyId: string }, O extends I & { ciphertext: string }> extends Declared<I, O> {
  /** `ciphertext`, `data key`: names the resource in messages. */
  noun: string;
  /** `encrypting`, `generating a data key`: what the call does, for its error. */
  doing: string;
  /** The one call, and the outputs from it: the inputs and what it made (the id derives from its ciphertext). */
  make: (c: KmsClient, inputs: I) => Promise<O>;
}

export function madeOnce<I extends { keyId: string }, O extends I & { ciphertext: string }>(spec: MadeOnceSpec<I, O>): ResourceDefinition<I, O> {
  const { noun, doing, make, ...declared } = spec;
  return {
    ...declared,
    // `keyId` is a key of every I here; TypeScript cannot see that through the generic.
    offered: {
      keyId: { hint: "no such KMS key in this project: give the id of a key of the project (the seed's KMS interface lists no keys; the console does)" },
    } as ResourceDefinition<I, O>["offered"],
    describe: (id) => `${noun} "${id}"`,

    async create(ctx, inputs) {
      const outs = await make(kms(ctx), inputs).catch(rethrowAs(`${doing} with KMS key "${inputs.keyId}"`));
      return { id: stableId(outs.ciphertext), outs };
    },
    read: async (_ctx, _id, olds) => olds,
    update: async (_ctx, _id, current, news) => ({ ...current, ...news }),
    delete: async () => undefined,
  };
}

/** A stable id from the ciphertext (never a timestamp, as aws_kms_ciphertext's is). */
export function stableId(cipher: string): string {
  return createHash("sha256").update(cipher).digest("hex").slice(0, 32);
}
