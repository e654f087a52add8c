/**
 * Key management client (spec 03 section A): data keys, encrypt/decrypt with AAD, sign/verify,
 * HMAC create/verify. All operations are `POST {base_url}/api/v1/keys/{key_id}/...` with
 * `X-Auth-Token`. None changes state in the service, so every one may be repeated after a lost
 * answer (a repeated data-key call only yields another key, which the caller never saw).
 *
 * Sizes are checked before any request (spec section 8): encrypt input 4 KB, AAD 64 KB, sign and
 * HMAC content 4 KB.
 */
import { type ClientOptions, type HttpResponse, ServiceClient } from "../core";
import { InvalidArgumentError, ResponseFormatError } from "./errors";
import { dataFields, dataString, parseEnvelope, verifyResult } from "./parse";
import type { DataKey, DecryptInput, EncryptInput, EncryptResult, VerifyInput } from "./types";
import "./secrets";

/** Spec section 8. */
export const KMS_LIMITS = Object.freeze({ inputBytes: 4 * 1024, aadBytes: 64 * 1024, signBytes: 4 * 1024 });

const JSON_TYPE = "application/json";

export class KmsClient extends ServiceClient {
  constructor(opts: ClientOptions) {
    super("kms", opts);
  }

  async generateDataKey(keyId: string): Promise<DataKey> {
    const action = `generating a data key with KMS key "${keyId}"`;
    const env = await this.call("GenerateDataKey", keyId, "/data-key", undefined, action);
    const d = dataFields(env, ["plaintext", "ciphertext"], action);
    const ciphertext = String(d.ciphertext);
    return { plaintext: String(d.plaintext), ciphertext, keyVersion: keyVersionOf(ciphertext) };
  }

  async encrypt(keyId: string, input: EncryptInput): Promise<EncryptResult> {
    const action = `encrypting with KMS key "${keyId}"`;
    checkSize("input", Buffer.byteLength(input.input, "utf8"), KMS_LIMITS.inputBytes, action);
    if (input.aad !== undefined) checkSize("aad", Buffer.byteLength(input.aad, "utf8"), KMS_LIMITS.aadBytes, action);
    const env = await this.call("Encrypt", keyId, "/encrypt", { input: input.input, ...(input.aad !== undefined ? { aad: input.aad } : {}) }, action, [
      input.input,
      input.aad,
    ]);
    const d: Record<string, unknown> = dataFields(env, ["ciphertext"], action);
    const ciphertext = String(d.ciphertext);
    // `version` is stated as an integer; a numeric string, or only the ciphertext's prefix, is accepted too.
    const version = typeof d.version === "number" ? d.version : /^\d+$/.test(String(d.version)) ? Number(d.version) : keyVersionOf(ciphertext);
    if (version === undefined)
      throw new ResponseFormatError(`${action}: the answer gives no key version, neither as data.version nor in the ciphertext prefix`);
    return { ciphertext, version };
  }

  async decrypt(keyId: string, input: DecryptInput): Promise<string> {
    const action = `decrypting with KMS key "${keyId}"`;
    if (input.aad !== undefined) checkSize("aad", Buffer.byteLength(input.aad, "utf8"), KMS_LIMITS.aadBytes, action);
    const env = await this.call(
      "Decrypt",
      keyId,
      "/decrypt",
      { ciphertext: input.ciphertext, ...(input.aad !== undefined ? { aad: input.aad } : {}) },
      action,
      [input.aad],
    );
    return dataString(env, "plaintext", action);
  }

  /** Signs Base64 `content` with an asymmetric key. */
  async sign(keyId: string, content: string): Promise<string> {
    return this.digest("Sign", "/sign", "signature", keyId, content, `signing with KMS key "${keyId}"`);
  }

  async verifySignature(keyId: string, v: VerifyInput): Promise<boolean> {
    return this.verify("VerifySignature", "/sign/verify", keyId, v, `verifying a signature with KMS key "${keyId}"`);
  }

  /** An HMAC of Base64 `content` with a MAC key. */
  async createHmac(keyId: string, content: string): Promise<string> {
    return this.digest("CreateHmac", "/hmac", "hmac", keyId, content, `creating an HMAC with KMS key "${keyId}"`);
  }

  async verifyHmac(keyId: string, v: VerifyInput): Promise<boolean> {
    return this.verify("VerifyHmac", "/hmac/verify", keyId, v, `verifying an HMAC with KMS key "${keyId}"`);
  }

  /** A signature or an HMAC of Base64 `content`: the answer's `data[field]`. */
  private async digest(operation: string, suffix: string, field: string, keyId: string, content: string, action: string): Promise<string> {
    checkBase64("content", content, KMS_LIMITS.signBytes, action);
    return dataString(await this.call(operation, keyId, suffix, { content }, action, [content]), field, action);
  }

  /** Whether `v.output` is the signature or HMAC of Base64 `v.input`. */
  private async verify(operation: string, suffix: string, keyId: string, v: VerifyInput, action: string): Promise<boolean> {
    checkBase64("input", v.input, KMS_LIMITS.signBytes, action);
    return verifyResult(await this.call(operation, keyId, suffix, { input: v.input, output: v.output }, action), action);
  }

  /**
   * One operation. `secrets` are the request's secret values (a plaintext, an AAD, data to sign or
   * authenticate): an error body that echoes them shows `[redacted]` instead, as do the errors of
   * reading the answer.
   */
  private async call(
    operation: string,
    keyId: string,
    suffix: string,
    body: Record<string, unknown> | undefined,
    action: string,
    secrets: readonly (string | undefined)[] = [],
  ) {
    if (!keyId) throw new InvalidArgumentError(`${action}: the key id must not be empty`);
    const res: HttpResponse = await this.transport.request({
      operation,
      method: "POST",
      path: `/api/v1/keys/${encodeURIComponent(keyId)}${suffix}`,
      headers: { "content-type": JSON_TYPE },
      body: JSON.stringify(body ?? {}),
      action,
      idempotent: true,
      secrets,
    });
    try {
      return parseEnvelope(res.body, action);
    } catch (e) {
      throw this.transport.redact(
        e,
        secrets.filter((v): v is string => v !== undefined && v !== ""),
      );
    }
  }
}

/** `<prefix>:<version>:...` -> version; undefined when the ciphertext carries no numeric version there. */
export function keyVersionOf(ciphertext: string): number | undefined {
  const m = /^[^:]*:(\d+)(?::|$)/.exec(ciphertext);
  return m ? Number(m[1]) : undefined;
}

function checkSize(field: string, bytes: number, limit: number, action: string): void {
  if (bytes > limit) throw new InvalidArgumentError(`${action}: ${field} is ${bytes} bytes; the key management service accepts at most ${limit} bytes`);
}

/**
 * Base64 content whose decoded size is within `limit`. The spec says "up to 4 KB (Base64 input)":
 * the decoded size is checked, the looser reading; a service that counts the encoded text answers
 * 400 for what lies between (docs/api-assumptions.md).
 */
function checkBase64(field: string, value: string, limit: number, action: string): void {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) throw new InvalidArgumentError(`${action}: ${field} must be Base64 text`);
  checkSize(field, Buffer.from(value, "base64").length, limit, action);
}
