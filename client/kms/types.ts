/**
 * Key management (spec 03 section A): types of requests and answers. Every answer is wrapped in the
 * envelope `{code, message, data, requestId}`; these are the `data` parts, as the client returns them.
 */

/** A data key: `plaintext` (Base64) to use at once and never store, `ciphertext` to keep beside the data. */
export interface DataKey {
  plaintext: string;
  ciphertext: string;
  /** The key version, parsed from the ciphertext's `<prefix>:<version>` prefix; undefined when absent. */
  keyVersion?: number;
}

export interface EncryptResult {
  /** Base64 ciphertext, starting with the `<prefix>:<version>` prefix; keep it exactly as returned. */
  ciphertext: string;
  /** The key version used. */
  version: number;
}

export interface EncryptInput {
  /** Plain text to encrypt, at most 4 KB (UTF-8 bytes). */
  input: string;
  /** Additional authenticated data, at most 64 KB; the same value must be given to decrypt. */
  aad?: string;
}

export interface DecryptInput {
  ciphertext: string;
  aad?: string;
}

export interface VerifyInput {
  /** Base64 of the original data. */
  input: string;
  /** The signature or HMAC to check (Base64 for HMAC). */
  output: string;
}
