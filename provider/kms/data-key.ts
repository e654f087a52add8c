/**
 * krcloud:kms:DataKey — a data key generated once with a KMS key: the Base64 plaintext key (secret)
 * for encrypting data locally, and its ciphertext to store beside that data. A new key only when the
 * KMS key or `triggers` change (a replacement). Read and delete make no call.
 * Seed: 03-kms-dataquery-hadoop.md sections A.2, A.4.
 */
import { z } from "zod";
import { rethrowAs } from "../../sdk/core";
import { type ResourceDefinition, resourceClass, type InputArgs } from "../core";
import { recordedOnly, stableId } from "./ciphertext";
import { kms } from "./client";
import { keyId, triggers } from "./validation";

export function dataKeyInputs() {
  return z
    .object({
      keyId: keyId().describe("The symmetric KMS key that encrypts the data key. Changing it makes a new data key."),
      triggers: triggers(),
    })
    .strict();
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

export const dataKey: ResourceDefinition<DataKeyInputs, DataKeyOutputs> = {
  token: "krcloud:kms:DataKey",
  description:
    "A data key generated once with a KMS key: a secret Base64 plaintext key and its ciphertext. A new key only when the KMS key or triggers change.",
  inputs: dataKeyInputs,
  outputs: dataKeyOutputs,
  replaceOn: ["keyId", "triggers"],
  offered: {
    keyId: { hint: "no such KMS key in this project: give the id of a key of the project (the seed's KMS interface lists no keys; the console does)" },
  },
  secretOutputs: ["plaintext"],
  describe: (id) => `data key "${id}"`,

  async create(ctx, inputs) {
    const k = await kms(ctx)
      .generateDataKey(inputs.keyId)
      .catch(rethrowAs(`generating a data key with KMS key "${inputs.keyId}"`));
    return { id: stableId(k.ciphertext), outs: { ...inputs, plaintext: k.plaintext, ciphertext: k.ciphertext, keyVersion: k.keyVersion } };
  },

  ...recordedOnly<DataKeyInputs, DataKeyOutputs>(),
};

// ---------------------------------------------------------------------------------------------
// The class users instantiate

export type DataKeyArgs = InputArgs<z.input<ReturnType<typeof dataKeyInputs>>>;
/** A data key generated once: a secret Base64 plaintext key and its ciphertext. */
export const DataKey = resourceClass<DataKeyArgs, DataKeyOutputs>(dataKey);
export type DataKey = InstanceType<typeof DataKey>;
