/**
 * Key management (spec 03 A) with real cryptography from node:crypto: AES-256-GCM with AAD for
 * encrypt/decrypt and data keys, ECDSA P-256 (SHA-256) signatures, HMAC-SHA256. Each key has
 * versions; the ciphertext starts with `kms:<version>:` so decrypt finds its version after a
 * rotation. Keys are created through the control API (control.ts: the spec shows no key management
 * endpoint). The default version's state decides what is allowed (A.3): data key, encrypt, sign and
 * HMAC need `Active`; decrypt and the verifications also take `Deactivated`.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, sign, timingSafeEqual, verify } from "node:crypto";
import { AadTooLarge, DecryptionFailed, InputTooLarge, InvalidBase64, InvalidCiphertext, InvalidKeyUsage, KeyNotActive, KeyNotFound } from "./errors";
import { LIMITS, type Key, type KeyType, type Version } from "./model";

/** One method per operation of the API. */
export class KmsBackend {
  readonly keys = new Map<string, Key>();

  private key(projectId: string, id: string, type: KeyType, needs: "active" | "any"): Key {
    const k = this.keys.get(id);
    if (!k || k.projectId !== projectId) throw new KeyNotFound(`No key "${id}" in this project.`);
    if (k.type !== type) throw new InvalidKeyUsage(`Key "${id}" is a ${k.type} key; this operation needs a ${type} key.`);
    if (needs === "active" && this.defaultVersion(k).state !== "Active")
      throw new KeyNotActive(`The default version of key "${id}" is ${this.defaultVersion(k).state}; this operation needs Active.`);
    return k;
  }

  private defaultVersion(k: Key): Version {
    return k.versions[k.defaultVersion - 1]!;
  }

  dataKey(projectId: string, id: string): { plaintext: string; ciphertext: string } {
    const k = this.key(projectId, id, "symmetric", "active");
    const dk = randomBytes(32);
    return { plaintext: dk.toString("base64"), ciphertext: seal(this.defaultVersion(k), dk, undefined) };
  }

  encrypt(projectId: string, id: string, input: string, aad: string | undefined): { ciphertext: string; version: number } {
    if (Buffer.byteLength(input, "utf8") > LIMITS.input) throw new InputTooLarge(`input: at most ${LIMITS.input} bytes.`);
    if (aad !== undefined && Buffer.byteLength(aad, "utf8") > LIMITS.aad) throw new AadTooLarge(`aad: at most ${LIMITS.aad} bytes.`);
    const k = this.key(projectId, id, "symmetric", "active");
    const v = this.defaultVersion(k);
    return { ciphertext: seal(v, Buffer.from(input, "utf8"), aad), version: v.version };
  }

  decrypt(projectId: string, id: string, ciphertext: string, aad: string | undefined): string {
    const k = this.key(projectId, id, "symmetric", "any");
    const m = /^kms:(\d+):([A-Za-z0-9+/=]+)$/.exec(ciphertext);
    if (!m) throw new InvalidCiphertext("ciphertext: not a ciphertext of this service (kms:<version>:<data>).");
    const v = k.versions[Number(m[1]) - 1];
    if (!v) throw new InvalidCiphertext(`ciphertext: key "${id}" has no version ${m[1]}.`);
    const raw = Buffer.from(m[2]!, "base64");
    if (raw.length < 28) throw new InvalidCiphertext("ciphertext: too short.");
    const d = createDecipheriv("aes-256-gcm", v.secret!, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    if (aad !== undefined) d.setAAD(Buffer.from(aad, "utf8"));
    try {
      return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString("utf8");
    } catch {
      throw new DecryptionFailed("Decryption failed: the ciphertext, key or AAD does not match.");
    }
  }

  sign(projectId: string, id: string, content: string): string {
    const data = base64(content, "content");
    const v = this.defaultVersion(this.key(projectId, id, "asymmetric", "active"));
    return `${v.version}:${sign("sha256", data, v.privateKey!).toString("base64")}`;
  }

  verifySignature(projectId: string, id: string, input: string, output: string): boolean {
    const data = base64(input, "input");
    const k = this.key(projectId, id, "asymmetric", "any");
    const m = /^(\d+):([A-Za-z0-9+/=]+)$/.exec(output);
    const v = m ? k.versions[Number(m[1]) - 1] : undefined;
    if (!m || !v) return false;
    return verify("sha256", data, v.publicKey!, Buffer.from(m[2]!, "base64"));
  }

  hmac(projectId: string, id: string, content: string): string {
    const data = base64(content, "content");
    const v = this.defaultVersion(this.key(projectId, id, "mac", "active"));
    return createHmac("sha256", v.secret!).update(data).digest("base64");
  }

  verifyHmac(projectId: string, id: string, input: string, output: string): boolean {
    const data = base64(input, "input");
    const k = this.key(projectId, id, "mac", "any");
    const given = Buffer.from(output, "base64");
    return k.versions.some((v) => {
      const mac = createHmac("sha256", v.secret!).update(data).digest();
      return mac.length === given.length && timingSafeEqual(mac, given);
    });
  }
}

function seal(v: Version, plain: Buffer, aad: string | undefined): string {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", v.secret!, iv);
  if (aad !== undefined) c.setAAD(Buffer.from(aad, "utf8"));
  const body = Buffer.concat([c.update(plain), c.final()]);
  return `kms:${v.version}:${Buffer.concat([iv, c.getAuthTag(), body]).toString("base64")}`;
}

function base64(value: string, field: string): Buffer {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) throw new InvalidBase64(`${field}: must be Base64.`);
  const data = Buffer.from(value, "base64");
  if (data.length > LIMITS.content) throw new InputTooLarge(`${field}: at most ${LIMITS.content} bytes.`);
  return data;
}
