/**
 * Where a BucketObject's content comes from, and the check-time facts about it: Pulumi assets as the
 * engine hands them to a dynamic provider, local files hashed and sized without reading them into
 * memory, inline text or Base64, and the spec's upload limits for that size.
 *
 * Assets: the dynamic provider host passes inputs as plain protobuf-Struct JSON (it does not
 * deserialise them, @pulumi/pulumi/cmd/dynamic-provider), so an asset arrives as the engine
 * marshals it: `{"4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17", hash,
 * path | text | uri}` (runtime/rpc.js specialSigKey / specialAssetSig; `hash` is the SHA-256 of
 * the content, computed by the engine). Seen with Pulumi 3.259 (docs/api-assumptions.md): check,
 * create and update's news get the asset in full, `path` as the program wrote it (relative to the
 * program directory, which is the provider's working directory); diff (olds and news), read and
 * update's olds get it with its contents elided, `{sig, hash}` only. So the hash is the asset's
 * identity in state, and content is never read from olds. The Node SDK's own serialisation
 * (serializeProperty) also copies the `__pulumiAsset` brand, which the engine drops: accepted and
 * dropped here.
 *
 * FileAsset and file:// RemoteAsset are read from the local file; StringAsset is inline text;
 * RemoteAsset over http(s) is refused: check must not use the network, and a digest of a remote
 * body would mean downloading it at every preview.
 */
import { createHash } from "node:crypto";
import { createReadStream, closeSync, openSync, readSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { bufferSource, fileSource, MAX_PART_NUMBER, MAX_SINGLE_UPLOAD_BYTES, type ByteSource } from "../../client/objectstorage";
import { CheckError } from "../core";

/** runtime/rpc.js `specialSigKey` and `specialAssetSig`. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const ASSET_SIG = "c44067f5952c0a294b673a41bacd8c17";

export function assetInput() {
  return z
    .strictObject({
      [SIG_KEY]: z.literal(ASSET_SIG),
      path: z.string().min(1).optional(),
      text: z.string().optional(),
      uri: z.string().min(1).optional(),
      hash: z.string().optional(),
      __pulumiAsset: z.boolean().optional(),
    })
    .refine((a) => [a.path, a.text, a.uri].filter((v) => v !== undefined).length === 1, "an asset has exactly one of path, text and uri");
}
export type SerializedAsset = z.infer<ReturnType<typeof assetInput>>;
export type SourceInput = string | SerializedAsset;

/** Base64 (RFC 4648, padding optional) of the bytes to store. */
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

export type Resolved = { kind: "file"; path: string } | { kind: "text"; text: string };

/** The asset as state records it: without the SDK's brand, which the engine never passes. */
export function canonicalSource(s: SourceInput | undefined): SourceInput | undefined {
  if (s === undefined || typeof s === "string") return s;
  const { __pulumiAsset: _brand, ...rest } = s;
  return rest;
}

/**
 * Whether two sources name the same content. An asset read back from state has its contents
 * elided (only `hash`): assets carrying hashes are compared by hash, anything else as JSON.
 */
export function sameSource(a: SourceInput | undefined, b: SourceInput | undefined): boolean {
  if (a !== undefined && b !== undefined && typeof a !== "string" && typeof b !== "string" && a.hash !== undefined && b.hash !== undefined)
    return a.hash === b.hash;
  return JSON.stringify(canonicalSource(a)) === JSON.stringify(canonicalSource(b));
}

export function resolveSource(s: SourceInput): Resolved {
  if (typeof s === "string") return { kind: "file", path: s };
  if (s.text === undefined && s.path === undefined && s.uri === undefined) {
    // An asset from state (contents elided) where content is needed: a defect, said plainly.
    throw new CheckError("source", "the asset arrived without its contents (only its hash); run the operation again");
  }
  if (s.text !== undefined) return { kind: "text", text: s.text };
  if (s.path !== undefined) return { kind: "file", path: resolve(s.path) };
  const uri = s.uri!;
  if (/^file:/i.test(uri)) return { kind: "file", path: fileURLToPath(uri) };
  throw new CheckError(
    "source",
    `RemoteAsset "${uri}" is not supported: only file:// URIs are read (check may not use the network); download it in the program and pass a FileAsset`,
  );
}

/**
 * Size and MD5 of a local file, read in 1 MiB chunks (check is synchronous; memory stays flat). A
 * failure names `property`, the input the file came from (a BucketObject's `source`, a folder's `path`).
 */
export function statAndHashFile(path: string, property = "source"): { size: number; md5: string } {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new Error("not a file");
    size = st.size;
  } catch {
    throw new CheckError(property, `file "${path}" does not exist or is not a regular file`);
  }
  const h = createHash("md5");
  const buf = Buffer.allocUnsafe(1024 * 1024);
  const fd = openSync(path, "r");
  try {
    for (let n; (n = readSync(fd, buf, 0, buf.length, null)) > 0;) h.update(buf.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return { size, md5: h.digest("hex") };
}

export function isMd5(etag: string): boolean {
  return /^[0-9a-f]{32}$/.test(etag);
}

/** An ETag without the quotes HTTP puts around it. */
export function stripQuotes(s: string): string {
  return s.replace(/^"|"$/g, "");
}

/** The same digest, streamed, for the check right before an upload. */
export async function hashFile(path: string): Promise<string> {
  const h = createHash("md5");
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) h.update(chunk as Buffer);
  return h.digest("hex");
}

/**
 * Spec 4.4 and 8 for an object of `size` bytes: up to `multipartThreshold` (at most 5 GiB, the
 * single-upload limit, enforced by the schema) it goes up in one PUT; above, in parts of
 * `partSize`, at most 10000 of them.
 */
export function checkUploadLimits(size: number, multipartThreshold: number, partSize: number, property: string): void {
  if (size <= multipartThreshold) {
    if (size > MAX_SINGLE_UPLOAD_BYTES)
      throw new CheckError(property, `${size} bytes exceed the single-upload limit of ${MAX_SINGLE_UPLOAD_BYTES} bytes (5 GiB)`);
    return;
  }
  const parts = Math.ceil(size / partSize);
  if (parts > MAX_PART_NUMBER) {
    throw new CheckError(
      "partSize",
      `${size} bytes in parts of ${partSize} bytes make ${parts} parts, over the limit of ${MAX_PART_NUMBER} parts per upload: partSize × ${MAX_PART_NUMBER} must be at least the size, so use a partSize of at least ${Math.ceil(size / MAX_PART_NUMBER)}`,
    );
  }
}

/** The bytes to upload; files are streamed, never read whole. */
export function byteSource(i: { source?: SourceInput; content?: string; contentBase64?: string }): ByteSource {
  if (i.contentBase64 !== undefined) return bufferSource(Buffer.from(i.contentBase64, "base64"));
  if (i.content !== undefined) return bufferSource(Buffer.from(i.content, "utf8"));
  const r = resolveSource(i.source!);
  if (r.kind === "text") return bufferSource(Buffer.from(r.text, "utf8"));
  return fileSource(r.path, statSync(r.path).size);
}
