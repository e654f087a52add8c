/**
 * Key management functions for programs: decrypt, sign / verify a signature, create / verify an
 * HMAC. They run in the program's process (settings from the stack config and environment) on
 * every preview and update; decrypt, HMAC and verification are deterministic, so running them each
 * time changes nothing. A decrypted plaintext and an HMAC are secret Outputs in their `...Output`
 * forms. Encrypting and generating data keys are resources (Ciphertext, DataKey): a function would
 * give a new random ciphertext on every run.
 */
import { z } from "zod";
import { serviceLookups, type LookupArgs, type LookupResult } from "../core";
import { kms } from "./client";

// A failure names the lookup; the client's message names the operation and the key.
const lookup = serviceLookups("kms", kms);

const kmsKeyId = (what: string) => z.string().describe(what);

/** Decrypts a ciphertext. Works with an `Active` or `Deactivated` key version; in `decryptOutput` the plaintext is a secret Output. */
export const { decrypt, decryptOutput } = lookup("decrypt", {
  description: "Decrypts a ciphertext with a symmetric KMS key (an `Active` or `Deactivated` version).",
  args: () => ({
    keyId: kmsKeyId("The symmetric KMS key."),
    ciphertext: z.string().describe("The ciphertext exactly as encrypt returned it."),
    aad: z.string().optional().describe("The AAD given at encryption, if any."),
  }),
  result: () => z.object({ plaintext: z.string().describe("The decrypted text (secret).") }),
  secretResults: ["plaintext"],
  run: async (args, c) => ({ plaintext: await c.decrypt(args.keyId, { ciphertext: args.ciphertext, aad: args.aad }) }),
});
export type DecryptArgs = LookupArgs<typeof decrypt>;
export type DecryptResult = LookupResult<typeof decrypt>;

export const { sign, signOutput } = lookup("sign", {
  description: "Signs Base64 data with an asymmetric KMS key.",
  args: () => ({ keyId: kmsKeyId("An asymmetric signing key."), content: z.string().describe("Base64 of the data to sign, at most 4 KB decoded.") }),
  result: () => z.object({ signature: z.string().describe("The signature.") }),
  run: async (args, c) => ({ signature: await c.sign(args.keyId, args.content) }),
});
export type SignArgs = LookupArgs<typeof sign>;
export type SignResult = LookupResult<typeof sign>;

const verifyArgs = () => ({
  keyId: kmsKeyId("The signing or MAC key."),
  input: z.string().describe("Base64 of the original data."),
  output: z.string().describe("The signature, or the Base64 HMAC."),
});
const verifyResult = () => z.object({ valid: z.boolean().describe("Whether it verified.") });
export type VerifyArgs = z.infer<z.ZodObject<ReturnType<typeof verifyArgs>>>;
export type VerifyResult = z.infer<ReturnType<typeof verifyResult>>;

/** verifySignature and verifyHmac: the same arguments and answer, the key kind and the operation aside. */
function verifyLookup<N extends "verifySignature" | "verifyHmac">(operation: N, description: string) {
  return lookup<N, ReturnType<typeof verifyArgs>, VerifyResult>(operation, {
    description,
    args: verifyArgs,
    result: verifyResult,
    run: async (args, c) => ({ valid: await c[operation](args.keyId, { input: args.input, output: args.output }) }),
  });
}

export const { verifySignature, verifySignatureOutput } = verifyLookup("verifySignature", "Verifies a signature with an asymmetric KMS key.");

/** Creates an HMAC; in `createHmacOutput` the HMAC is a secret Output. */
export const { createHmac, createHmacOutput } = lookup("createHmac", {
  description: "Creates an HMAC of Base64 data with a MAC key.",
  args: () => ({ keyId: kmsKeyId("A MAC key."), content: z.string().describe("Base64 of the data, at most 4 KB decoded.") }),
  result: () => z.object({ hmac: z.string().describe("The Base64 HMAC (secret).") }),
  // An HMAC authenticates as the key would.
  secretResults: ["hmac"],
  run: async (args, c) => ({ hmac: await c.createHmac(args.keyId, args.content) }),
});
export type CreateHmacArgs = LookupArgs<typeof createHmac>;
export type CreateHmacResult = LookupResult<typeof createHmac>;

export const { verifyHmac, verifyHmacOutput } = verifyLookup("verifyHmac", "Verifies an HMAC with a MAC key.");
