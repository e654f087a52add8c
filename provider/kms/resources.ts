/** The key management resource classes users instantiate: `new krcloud.kms.Ciphertext("db-password", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { dynamicProps, moduleAndType, outputKeys, stubProvider, withSecretOutputs, type InputArgs } from "../core";
import { ciphertextOutputs, type ciphertextInputs, type CiphertextOutputs } from "./ciphertext";
import { dataKeyOutputs, type dataKeyInputs, type DataKeyOutputs } from "./data-key";

type Outputs<T> = { readonly [K in keyof T]-?: pulumi.Output<T[K]> };

export type CiphertextArgs = InputArgs<z.input<ReturnType<typeof ciphertextInputs>>>;
export type DataKeyArgs = InputArgs<z.input<ReturnType<typeof dataKeyInputs>>>;

/**
 * A plaintext encrypted once with a KMS key. The plaintext is made a secret here, whatever the
 * program passed, so it is encrypted in state and hidden in the CLI's output.
 */
export class Ciphertext extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:kms:Ciphertext";
  constructor(name: string, args: CiphertextArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      stubProvider(Ciphertext.token),
      name,
      dynamicProps(name, { ...args, plaintext: pulumi.secret(args.plaintext) }, outputKeys(ciphertextOutputs())),
      withSecretOutputs(opts, ["plaintext"]),
      ...moduleAndType(Ciphertext.token),
    );
  }
}
export interface Ciphertext extends Outputs<CiphertextOutputs> {}

/** A data key generated once: a secret Base64 plaintext key and its ciphertext. */
export class DataKey extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:kms:DataKey";
  constructor(name: string, args: DataKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(stubProvider(DataKey.token), name, dynamicProps(name, args, outputKeys(dataKeyOutputs())), withSecretOutputs(opts, ["plaintext"]), ...moduleAndType(DataKey.token));
  }
}
export interface DataKey extends Outputs<DataKeyOutputs> {}
