/**
 * krcloud:kms:Ciphertext — a plaintext encrypted once with a KMS key, like `aws_kms_ciphertext`.
 * Encryption is not deterministic (random IV), so it happens only at create: a new ciphertext
 * appears only when the plaintext, key, AAD or `triggers` change (each a replacement). Read and
 * delete make no call: a refresh never re-encrypts and never fails on a deactivated key version,
 * and a key rotation never re-encrypts by itself. The plaintext is a secret input and output.
 * Seed: 03-kms-dataquery-hadoop.md sections A.2, A.4, A.8.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { rethrowAs } from "../../sdk/core";
import { type ResourceDefinition, resourceClass, type InputArgs } from "../core";
import { kms } from "./client";
import { aad, keyId, plaintext, triggers } from "./validation";

export function ciphertextInputs() {
  return z
    .object({
      keyId: keyId().describe("The symmetric KMS key to encrypt with. Changing it replaces the ciphertext."),
      plaintext: plaintext().describe(
        "The text to encrypt, at most 4 KB. Secret: stored encrypted in state, never shown. Changing it replaces the ciphertext.",
      ),
      aad: aad().optional().describe("Additional authenticated data, at most 64 KB: decryption needs the same value. Changing it replaces the ciphertext."),
      triggers: triggers(),
    })
    .strict();
}
export type CiphertextInputs = z.infer<ReturnType<typeof ciphertextInputs>>;

export function ciphertextOutputs() {
  return ciphertextInputs().extend({
    ciphertext: z.string().describe("The Base64 ciphertext, with its `<prefix>:<key version>` prefix; keep it exactly as it is."),
    keyVersion: z.number().describe("The key version that encrypted it."),
  });
}
export type CiphertextOutputs = z.infer<ReturnType<typeof ciphertextOutputs>>;

export const ciphertext: ResourceDefinition<CiphertextInputs, CiphertextOutputs> = {
  token: "krcloud:kms:Ciphertext",
  description:
    "A plaintext encrypted once with a KMS key. Re-encrypted only when the plaintext, key, AAD or triggers change (each a replacement); refresh and delete make no call.",
  inputs: ciphertextInputs,
  outputs: ciphertextOutputs,
  replaceOn: ["keyId", "plaintext", "aad", "triggers"],
  offered: {
    keyId: { hint: "no such KMS key in this project: give the id of a key of the project (the seed's KMS interface lists no keys; the console does)" },
  },
  secretInputs: ["plaintext"],
  describe: (id) => `ciphertext "${id}"`,

  async create(ctx, inputs) {
    const r = await kms(ctx)
      .encrypt(inputs.keyId, { input: inputs.plaintext, aad: inputs.aad })
      .catch(rethrowAs(`encrypting with KMS key "${inputs.keyId}"`));
    return { id: stableId(r.ciphertext), outs: { ...inputs, ciphertext: r.ciphertext, keyVersion: r.version } };
  },

  ...recordedOnly<CiphertextInputs, CiphertextOutputs>(),
};

/**
 * Read, update and delete of what the service keeps no record of (a ciphertext, a data key): read
 * returns what was recorded, since nothing in the service can tell it apart or lose it; every input
 * replaces, so an update only records; delete has nothing to remove.
 */
export function recordedOnly<I extends Record<string, unknown>, O extends I>(): Pick<ResourceDefinition<I, O>, "read" | "update" | "delete"> {
  return {
    read: async (_ctx, _id, olds) => olds,
    update: async (_ctx, _id, current, news) => ({ ...current, ...news }),
    delete: async () => undefined,
  };
}

/** A stable id from the ciphertext (never a timestamp, as aws_kms_ciphertext's is). */
export function stableId(cipher: string): string {
  return createHash("sha256").update(cipher).digest("hex").slice(0, 32);
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

export type CiphertextArgs = InputArgs<z.input<ReturnType<typeof ciphertextInputs>>>;
/** A plaintext encrypted once with a KMS key. The plaintext is always a secret, whatever the program passed. */
export const Ciphertext = resourceClass<CiphertextArgs, CiphertextOutputs>(ciphertext);
export type Ciphertext = InstanceType<typeof Ciphertext>;
