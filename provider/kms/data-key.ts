/**
 * krcloud:kms:DataKey — a data key generated once with a KMS key: the Base64 plaintext key (secret)
 * for encrypting data locally, and its ciphertext to store beside that data. A new key only when the
 * KMS key or `triggers` change (a replacement). Read and delete make no call.
 * Spec: 03-kms-dataquery-hadoop.md sections A.2, A.4.
 */
import { z } from "zod";
import { reasonFor, resourceClass } from "../core";
import { madeOnce, madeOnceInputs } from "./made-once";
import { keyId } from "./validation";
import type { DataKeyArgs } from "./args";

export function dataKeyInputs() {
  return madeOnceInputs({
    keyId: keyId().describe("The symmetric KMS key that encrypts the data key. Changing it makes a new data key."),
  });
}
export type DataKeyInputs = z.infer<ReturnType<typeof dataKeyInputs>>;

export function dataKeyOutputs() {
  return dataKeyInputs().extend({
    plaintext: z.string().describe("The data key, Base64. Secret: use it to encrypt locally; never store it next to the data."),
    ciphertext: z.string().describe("The data key encrypted by the KMS key, with its `<prefix>:<key version>` prefix: store it next to the data it protects."),
    keyVersion: z.number().optional().describe("The KMS key version, from the ciphertext's prefix."),
  });
}
export type DataKeyOutputs = z.infer<ReturnType<typeof dataKeyOutputs>>;

export const dataKey = madeOnce("krcloud:kms:DataKey", dataKeyInputs, dataKeyOutputs, {
  description:
    "A data key generated once with a KMS key: a secret Base64 plaintext key and its ciphertext. A new key only when the KMS key or triggers change.",
  replaceOn: reasonFor(["keyId", "triggers"], "a data key is made once: a new data key is generated (data encrypted with the old one needs the old one)"),
  secretOutputs: ["plaintext"],
  unverifiable: "a data key is made once by a generate call: the cloud keeps nothing to compare with (refresh makes no call)",
  noun: "data key",
  doing: "generating a data key",
  async make(c, inputs) {
    const k = await c.generateDataKey(inputs.keyId);
    return { ...inputs, plaintext: k.plaintext, ciphertext: k.ciphertext, keyVersion: k.keyVersion };
  },
});

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { DataKeyArgs } from "./args";
/** A data key generated once: a secret Base64 plaintext key and its ciphertext. */
export const DataKey = resourceClass<DataKeyArgs, DataKeyOutputs>(dataKey);
export type DataKey = InstanceType<typeof DataKey>;
