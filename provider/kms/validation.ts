import { z } from "zod";
import { nonEmpty } from "../core";
import { KMS_LIMITS } from "../../client/kms";

export function keyId() {
  return nonEmpty().describe("The KMS key's id.");
}

/** A UTF-8 string of at most `limit` bytes (spec section 8 counts bytes). */
export function utf8Within(limit: number, what: string) {
  return z
    .string()
    .refine((s) => Buffer.byteLength(s, "utf8") <= limit, `${what} must be at most ${limit} bytes (counted in UTF-8; a limit of the key management service)`);
}

export function plaintext() {
  return utf8Within(KMS_LIMITS.inputBytes, "plaintext");
}

export function aad() {
  return utf8Within(KMS_LIMITS.aadBytes, "aad");
}

/** Arbitrary values whose change replaces the resource: re-encryption or a new key on purpose. */
export function triggers() {
  return z
    .record(z.string(), z.string())
    .optional()
    .describe("Any values; changing them replaces the resource (for a deliberate re-encryption or a new data key, e.g. after a key rotation).");
}
