/**
 * Key management functions for programs: decrypt, sign / verify a signature, create / verify an
 * HMAC. They run in the program's process (settings from the stack config and environment) on
 * every preview and update; decrypt, HMAC and verification are deterministic, so running them each
 * time changes nothing. A decrypted plaintext is returned as a secret Output by `decryptOutput`.
 * Encrypting and generating data keys are resources (Ciphertext, DataKey): a function would give a
 * new random ciphertext on every run.
 */
import * as pulumi from "@pulumi/pulumi";
import { rethrowAs } from "../../sdk/core";
import { KmsClient } from "../../sdk/kms";
import { lookupSettings, outputForm, type LookupOptions } from "../core";

function client(opts: LookupOptions): KmsClient {
  return new KmsClient({ settings: lookupSettings(opts) });
}

export interface DecryptArgs {
  /** The symmetric KMS key. */
  keyId: string;
  /** The ciphertext exactly as encrypt returned it. */
  ciphertext: string;
  /** The AAD given at encryption, if any. */
  aad?: string;
}
export interface DecryptResult {
  plaintext: string;
}

/** Decrypts a ciphertext. Works with an `Active` or `Deactivated` key version. */
export async function decrypt(args: DecryptArgs, opts: LookupOptions = {}): Promise<DecryptResult> {
  const plaintext = await client(opts)
    .decrypt(args.keyId, { ciphertext: args.ciphertext, aad: args.aad })
    .catch(rethrowAs(`decrypt with KMS key "${args.keyId}"`));
  return { plaintext };
}

/** `decrypt` for Inputs; the plaintext is a secret Output. */
export function decryptOutput(args: { [K in keyof DecryptArgs]: pulumi.Input<DecryptArgs[K]> }): pulumi.Output<DecryptResult> {
  return pulumi.secret(outputForm(decrypt)(args));
}

export interface SignArgs {
  /** An asymmetric signing key. */
  keyId: string;
  /** Base64 of the data to sign, at most 4 KB decoded. */
  content: string;
}
export interface SignResult {
  signature: string;
}

export async function sign(args: SignArgs, opts: LookupOptions = {}): Promise<SignResult> {
  return {
    signature: await client(opts)
      .sign(args.keyId, args.content)
      .catch(rethrowAs(`sign with KMS key "${args.keyId}"`)),
  };
}
export const signOutput = outputForm(sign);

export interface VerifyArgs {
  keyId: string;
  /** Base64 of the original data. */
  input: string;
  /** The signature (verifySignature) or the Base64 HMAC (verifyHmac). */
  output: string;
}
export interface VerifyResult {
  valid: boolean;
}

export async function verifySignature(args: VerifyArgs, opts: LookupOptions = {}): Promise<VerifyResult> {
  return {
    valid: await client(opts)
      .verifySignature(args.keyId, { input: args.input, output: args.output })
      .catch(rethrowAs(`verifySignature with KMS key "${args.keyId}"`)),
  };
}
export const verifySignatureOutput = outputForm(verifySignature);

export interface CreateHmacArgs {
  /** A MAC key. */
  keyId: string;
  /** Base64 of the data, at most 4 KB decoded. */
  content: string;
}
export interface CreateHmacResult {
  hmac: string;
}

export async function createHmac(args: CreateHmacArgs, opts: LookupOptions = {}): Promise<CreateHmacResult> {
  return {
    hmac: await client(opts)
      .createHmac(args.keyId, args.content)
      .catch(rethrowAs(`createHmac with KMS key "${args.keyId}"`)),
  };
}
/** `createHmac` for Inputs; the HMAC is a secret Output (it authenticates as the key would). */
export function createHmacOutput(args: { [K in keyof CreateHmacArgs]: pulumi.Input<CreateHmacArgs[K]> }): pulumi.Output<CreateHmacResult> {
  return pulumi.secret(outputForm(createHmac)(args));
}

export async function verifyHmac(args: VerifyArgs, opts: LookupOptions = {}): Promise<VerifyResult> {
  return {
    valid: await client(opts)
      .verifyHmac(args.keyId, { input: args.input, output: args.output })
      .catch(rethrowAs(`verifyHmac with KMS key "${args.keyId}"`)),
  };
}
export const verifyHmacOutput = outputForm(verifyHmac);
