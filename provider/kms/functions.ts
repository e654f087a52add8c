/**
 * Key management functions for programs: decrypt, sign / verify a signature, create / verify an
 * HMAC. They run in the program's process (settings from the stack config and environment) on
 * every preview and update; decrypt, HMAC and verification are deterministic, so running them each
 * time changes nothing. A decrypted plaintext and an HMAC are secret Outputs in their `...Output`
 * forms. Encrypting and generating data keys are resources (Ciphertext, DataKey): a function would
 * give a new random ciphertext on every run.
 */
import { z } from "zod";
import { rethrowAs, type Settings } from "../../sdk/core";
import { KmsClient } from "../../sdk/kms";
import { lookupFunction, lookupOutput, type LookupDefinition } from "../core";

function client(settings: Settings): KmsClient {
  return new KmsClient({ settings });
}

const kmsKeyId = (what: string) => z.string().describe(what);

const decryptArgs = () =>
  z.object({
    keyId: kmsKeyId("The symmetric KMS key."),
    ciphertext: z.string().describe("The ciphertext exactly as encrypt returned it."),
    aad: z.string().optional().describe("The AAD given at encryption, if any."),
  });
const decryptResult = () => z.object({ plaintext: z.string().describe("The decrypted text (secret).") });
export type DecryptArgs = z.infer<ReturnType<typeof decryptArgs>>;
export type DecryptResult = z.infer<ReturnType<typeof decryptResult>>;

const decryptLookup: LookupDefinition<DecryptArgs, DecryptResult> = {
  token: "krcloud:kms:decrypt",
  description: "Decrypts a ciphertext with a symmetric KMS key (an `Active` or `Deactivated` version).",
  args: decryptArgs,
  result: decryptResult,
  secretResults: ["plaintext"],
  async run(args, settings) {
    const plaintext = await client(settings)
      .decrypt(args.keyId, { ciphertext: args.ciphertext, aad: args.aad })
      .catch(rethrowAs(`decrypt with KMS key "${args.keyId}"`));
    return { plaintext };
  },
};
/** Decrypts a ciphertext. Works with an `Active` or `Deactivated` key version. */
export const decrypt = lookupFunction(decryptLookup);
/** `decrypt` for Inputs; the plaintext is a secret Output. */
export const decryptOutput = lookupOutput(decryptLookup);

const signArgs = () =>
  z.object({ keyId: kmsKeyId("An asymmetric signing key."), content: z.string().describe("Base64 of the data to sign, at most 4 KB decoded.") });
const signResult = () => z.object({ signature: z.string().describe("The signature.") });
export type SignArgs = z.infer<ReturnType<typeof signArgs>>;
export type SignResult = z.infer<ReturnType<typeof signResult>>;

const signLookup: LookupDefinition<SignArgs, SignResult> = {
  token: "krcloud:kms:sign",
  description: "Signs Base64 data with an asymmetric KMS key.",
  args: signArgs,
  result: signResult,
  async run(args, settings) {
    return {
      signature: await client(settings)
        .sign(args.keyId, args.content)
        .catch(rethrowAs(`sign with KMS key "${args.keyId}"`)),
    };
  },
};
export const sign = lookupFunction(signLookup);
export const signOutput = lookupOutput(signLookup);

const verifyArgs = () =>
  z.object({
    keyId: kmsKeyId("The signing or MAC key."),
    input: z.string().describe("Base64 of the original data."),
    output: z.string().describe("The signature, or the Base64 HMAC."),
  });
const verifyResult = () => z.object({ valid: z.boolean().describe("Whether it verified.") });
export type VerifyArgs = z.infer<ReturnType<typeof verifyArgs>>;
export type VerifyResult = z.infer<ReturnType<typeof verifyResult>>;

/** verifySignature and verifyHmac: the same arguments and answer, the key kind and the operation aside. */
function verifyLookup(operation: "verifySignature" | "verifyHmac", description: string): LookupDefinition<VerifyArgs, VerifyResult> {
  return {
    token: `krcloud:kms:${operation}`,
    description,
    args: verifyArgs,
    result: verifyResult,
    async run(args, settings) {
      const verify = client(settings)[operation](args.keyId, { input: args.input, output: args.output });
      return { valid: await verify.catch(rethrowAs(`${operation} with KMS key "${args.keyId}"`)) };
    },
  };
}

const verifySignatureLookup = verifyLookup("verifySignature", "Verifies a signature with an asymmetric KMS key.");
export const verifySignature = lookupFunction(verifySignatureLookup);
export const verifySignatureOutput = lookupOutput(verifySignatureLookup);

const createHmacArgs = () => z.object({ keyId: kmsKeyId("A MAC key."), content: z.string().describe("Base64 of the data, at most 4 KB decoded.") });
const createHmacResult = () => z.object({ hmac: z.string().describe("The Base64 HMAC (secret).") });
export type CreateHmacArgs = z.infer<ReturnType<typeof createHmacArgs>>;
export type CreateHmacResult = z.infer<ReturnType<typeof createHmacResult>>;

const createHmacLookup: LookupDefinition<CreateHmacArgs, CreateHmacResult> = {
  token: "krcloud:kms:createHmac",
  description: "Creates an HMAC of Base64 data with a MAC key.",
  args: createHmacArgs,
  result: createHmacResult,
  // An HMAC authenticates as the key would.
  secretResults: ["hmac"],
  async run(args, settings) {
    return {
      hmac: await client(settings)
        .createHmac(args.keyId, args.content)
        .catch(rethrowAs(`createHmac with KMS key "${args.keyId}"`)),
    };
  },
};
export const createHmac = lookupFunction(createHmacLookup);
/** `createHmac` for Inputs; the HMAC is a secret Output. */
export const createHmacOutput = lookupOutput(createHmacLookup);

const verifyHmacLookup = verifyLookup("verifyHmac", "Verifies an HMAC with a MAC key.");
export const verifyHmac = lookupFunction(verifyHmacLookup);
export const verifyHmacOutput = lookupOutput(verifyHmacLookup);
