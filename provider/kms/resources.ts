/** The key management resource classes users instantiate: `new krcloud.kms.Ciphertext("db-password", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { resourceArgs, type InputArgs, type ResourceOutputs } from "../core";
import { ciphertextOutputs, type ciphertextInputs, type CiphertextOutputs } from "./ciphertext";
import { dataKeyOutputs, type dataKeyInputs, type DataKeyOutputs } from "./data-key";

export type CiphertextArgs = InputArgs<z.input<ReturnType<typeof ciphertextInputs>>>;
export type DataKeyArgs = InputArgs<z.input<ReturnType<typeof dataKeyInputs>>>;

/**
 * A plaintext encrypted once with a KMS key. The plaintext is made a secret here, whatever the
 * program passed, so it is encrypted in state and hidden in the CLI's output.
 */
export class Ciphertext extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:kms:Ciphertext";
  constructor(name: string, args: CiphertextArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(Ciphertext.token, name, args, ciphertextOutputs(), opts, { inputs: ["plaintext"], outputs: ["plaintext"] }));
  }
}
export interface Ciphertext extends ResourceOutputs<CiphertextOutputs> {}

/** A data key generated once: a secret Base64 plaintext key and its ciphertext. */
export class DataKey extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:kms:DataKey";
  constructor(name: string, args: DataKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(DataKey.token, name, args, dataKeyOutputs(), opts, { outputs: ["plaintext"] }));
  }
}
export interface DataKey extends ResourceOutputs<DataKeyOutputs> {}
