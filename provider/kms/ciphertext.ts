/**
 * krcloud:kms:Ciphertext — a plaintext encrypted once with a KMS key, like `aws_kms_ciphertext`.
 * Encryption is not deterministic (random IV), so it happens only at create: a new ciphertext
 * appears only when the plaintext, key, AAD or `triggers` change (each a replacement). Read and
 * delete make no call: a refresh never re-encrypts and never fails on a deactivated key version,
 * and a key rotation never re-encrypts by itself. The plaintext is a secret input and output.
 * Spec: 03-kms-dataquery-hadoop.md sections A.2, A.4, A.8.
 */
import { z } from "zod";
import { reasonFor, resourceClass } from "../core";
import { madeOnce, madeOnceInputs } from "./made-once";
import { aad, keyId, plaintext } from "./validation";
import type { CiphertextArgs } from "./args";

export function ciphertextInputs() {
  return madeOnceInputs({
    keyId: keyId().describe("The symmetric KMS key to encrypt with. Changing it replaces the ciphertext."),
    plaintext: plaintext().describe("The text to encrypt, at most 4 KB. Secret: stored encrypted in state, never shown. Changing it replaces the ciphertext."),
    aad: aad().optional().describe("Additional authenticated data, at most 64 KB: decryption needs the same value. Changing it replaces the ciphertext."),
  });
}
export type CiphertextInputs = z.infer<ReturnType<typeof ciphertextInputs>>;

export function ciphertextOutputs() {
  return ciphertextInputs().extend({
    ciphertext: z.string().describe("The Base64 ciphertext, with its `<prefix>:<key version>` prefix; keep it exactly as it is."),
    keyVersion: z.number().describe("The key version that encrypted it."),
  });
}
export type CiphertextOutputs = z.infer<ReturnType<typeof ciphertextOutputs>>;

export const ciphertext = madeOnce("krcloud:kms:Ciphertext", ciphertextInputs, ciphertextOutputs, {
  description:
    "A plaintext encrypted once with a KMS key. Re-encrypted only when the plaintext, key, AAD or triggers change (each a replacement); refresh and delete make no call.",
  replaceOn: reasonFor(["keyId", "plaintext", "aad", "triggers"], "a ciphertext is made once: it is encrypted again (the old ciphertext still decrypts)"),
  secretInputs: ["plaintext"],
  unverifiable: "a ciphertext is made once by an encrypt call: the cloud keeps nothing to compare with (refresh makes no call)",
  noun: "ciphertext",
  doing: "encrypting",
  async make(c, inputs) {
    const r = await c.encrypt(inputs.keyId, { input: inputs.plaintext, aad: inputs.aad });
    return { ...inputs, ciphertext: r.ciphertext, keyVersion: r.version };
  },
});

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { CiphertextArgs } from "./args";
/** A plaintext encrypted once with a KMS key. The plaintext is always a secret, whatever the program passed. */
export const Ciphertext = resourceClass<CiphertextArgs, CiphertextOutputs>(ciphertext);
export type Ciphertext = InstanceType<typeof Ciphertext>;
