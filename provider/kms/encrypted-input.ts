/**
 * A password-like input given as a KMS ciphertext instead of a value: the provider decrypts it
 * only while it calls the service's API, so no plaintext is in the state, not even encrypted by the
 * stack's secrets provider. Pulumi stores even write-only values (as secrets, pulumi/pulumi#14298);
 * this is the way to store none: Terraform's write-only arguments, for Pulumi. Every password-like
 * input of every service takes one (`user.passwordCiphertext`, `passwordCiphertext`,
 * `adminPasswordCiphertext`, ...); a `krcloud.kms.Ciphertext` resource, or `ciphertext` from KMS
 * encrypt, gives one.
 */
import { z } from "zod";
import { nonEmpty } from "../core";
import type { Settings } from "../../client/core";
import { KmsClient } from "../../client/kms";

export function kmsEncrypted(what: string) {
  return z
    .strictObject({
      keyId: nonEmpty().describe("The symmetric KMS key that encrypted it."),
      ciphertext: nonEmpty().describe("The ciphertext exactly as KMS encrypt returned it (a `kms.Ciphertext` resource's `ciphertext`)."),
      aad: z.string().optional().describe("The AAD given at encryption, if any."),
    })
    .describe(
      `${what} as a KMS ciphertext instead of a value: the provider decrypts it only while calling the API, so no plaintext is kept in the state, not even encrypted. Changing it replaces the resource.`,
    );
}
export type KmsEncrypted = z.infer<ReturnType<typeof kmsEncrypted>>;

/** The plaintext of a KMS-encrypted input, for the one request that needs it; never recorded. */
export async function decryptInput(settings: Settings, value: KmsEncrypted, what: string): Promise<string> {
  try {
    return await new KmsClient({ settings }).decrypt(value.keyId, { ciphertext: value.ciphertext, aad: value.aad });
  } catch (e) {
    const err = e as Error;
    err.message = `decrypting ${what} with KMS key "${value.keyId}": ${err.message}`;
    throw err;
  }
}

/** The plain value of a password given either way (exactly one is set: check says so). */
export async function passwordOf(
  settings: Settings,
  plain: string | undefined,
  encrypted: KmsEncrypted | undefined,
  what: string,
): Promise<string | undefined> {
  if (plain !== undefined) return plain;
  return encrypted === undefined ? undefined : decryptInput(settings, encrypted, what);
}

/** A refinement: exactly one of the value and its KMS ciphertext, or (when optional) neither. */
export function oneOf(
  ctx: z.RefinementCtx,
  path: readonly (string | number)[],
  plain: unknown,
  encrypted: unknown,
  names: [string, string],
  required: boolean,
): void {
  if (plain !== undefined && encrypted !== undefined)
    ctx.addIssue({ code: "custom", path: [...path, names[1]], message: `give either ${names[0]} or ${names[1]}, not both` });
  else if (required && plain === undefined && encrypted === undefined)
    ctx.addIssue({ code: "custom", path: [...path, names[0]], message: `is required (or ${names[1]}, the same as a KMS ciphertext)` });
}
