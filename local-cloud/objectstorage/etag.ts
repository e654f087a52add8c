import { createHash } from "node:crypto";

export function md5Hex(data: Buffer): string {
  return createHash("md5").update(data).digest("hex");
}

/** An ETag as clients send it (quoted or not, any case) in the stored form: unquoted lowercase. */
export function stripQuotes(etag: string): string {
  return etag
    .trim()
    .replace(/^"(.*)"$/, "$1")
    .toLowerCase();
}

/**
 * S3's ETag of an object assembled by multipart upload: the MD5 of the concatenated binary MD5s of
 * the parts, then `-` and the part count (stored unquoted, sent quoted).
 */
export function multipartEtag(partEtags: string[]): string {
  const hash = createHash("md5");
  for (const etag of partEtags) hash.update(Buffer.from(stripQuotes(etag), "hex"));
  return `${hash.digest("hex")}-${partEtags.length}`;
}

/**
 * Swift's ETag of a large object manifest (SLO and DLO alike): the MD5 of the concatenated segment
 * ETags as hex text, in segment order (stored unquoted, sent quoted).
 */
export function manifestEtag(segmentEtags: string[]): string {
  const hash = createHash("md5");
  for (const etag of segmentEtags) hash.update(stripQuotes(etag), "utf8");
  return hash.digest("hex");
}

/**
 * The Etag response header for a stored ETag: Swift sends a plain object's MD5 bare, but quotes the
 * ETag of anything that is not the MD5 of the bytes (manifests, multipart objects).
 */
export function etagHeader(etag: string, assembled: boolean): string {
  return assembled || /-\d+$/.test(etag) ? `"${etag}"` : etag;
}
