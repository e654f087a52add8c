/** Multipart upload (seed 4.4; abort is "not shown" and follows S3: DELETE ?uploadId=). */

import { forEachLimit } from "../concurrency";
import { InvalidArgumentError, ResponseFormatError } from "../errors";
import { DEFAULT_PART_SIZE, MAX_PART_NUMBER, MIN_PART_SIZE } from "../limits";
import { OBJECT_META, metadataHeaders } from "../metadata";
import { buildCompleteXml, parseInitiateResult } from "../multipart";
import { stripQuotes } from "../object";
import { objectPath } from "../path";
import type { MultipartUpload, UploadedPart, UploadLargeOptions } from "../types";
import { XML_TYPE, definedEtag, wrap, type Ops } from "./context";

const DEFAULT_PART_CONCURRENCY = 4;

export async function initiateMultipartUpload(c: Ops, bucket: string, key: string, o: { contentType?: string; metadata?: Record<string, string> } = {}): Promise<MultipartUpload> {
  const action = `starting a multipart upload of "${bucket}/${key}"`;
  const res = await c.send({
    operation: "InitiateMultipartUpload",
    // Each call creates an upload with a server-chosen id: a repeat leaves an orphan upload.
    idempotent: false,
    method: "POST",
    path: objectPath(c.account(action), bucket, key),
    query: { uploads: true },
    headers: { "content-type": o.contentType, "content-length": "0", ...wrap(action, () => metadataHeaders(OBJECT_META, o.metadata)) },
    body: "",
    action,
  });
  const r = parseInitiateResult(res.body.toString("utf8"), action);
  const upload: MultipartUpload = { bucket, key, uploadId: r.uploadId };
  if (r.tenant !== undefined) upload.tenant = r.tenant;
  return upload;
}

export async function uploadPart(c: Ops, upload: MultipartUpload, partNumber: number, body: Buffer): Promise<UploadedPart> {
  const action = `uploading part ${partNumber} of "${upload.bucket}/${upload.key}"`;
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw new InvalidArgumentError(`${action}: part numbers run from 1 to ${MAX_PART_NUMBER}`);
  }
  const res = await c.send({
    operation: "UploadPart",
    idempotent: true,
    method: "PUT",
    path: objectPath(c.account(action), upload.bucket, upload.key),
    query: { uploadId: upload.uploadId, partNumber },
    headers: { "content-type": "application/octet-stream", "content-length": String(body.length) },
    body,
    action,
  });
  const etag = stripQuotes(res.headers["etag"]);
  if (!etag) throw new ResponseFormatError(`${action}: the answer has no etag header`);
  return { partNumber, etag };
}

export async function completeMultipartUpload(c: Ops, upload: MultipartUpload, parts: readonly UploadedPart[]): Promise<{ etag?: string }> {
  const action = `completing the multipart upload of "${upload.bucket}/${upload.key}"`;
  const res = await c.send({
    operation: "CompleteMultipartUpload",
    // A completed upload id no longer exists: a repeat after a lost answer fails with 404 for an
    // object that was written.
    idempotent: false,
    method: "PUT",
    path: objectPath(c.account(action), upload.bucket, upload.key),
    query: { uploadId: upload.uploadId },
    headers: { "content-type": XML_TYPE },
    body: wrap(action, () => buildCompleteXml(parts)),
    action,
  });
  return definedEtag(res.headers);
}

export async function abortMultipartUpload(c: Ops, upload: MultipartUpload): Promise<void> {
  const action = `aborting the multipart upload of "${upload.bucket}/${upload.key}"`;
  await c.send({
    operation: "AbortMultipartUpload",
    idempotent: true,
    method: "DELETE",
    path: objectPath(c.account(action), upload.bucket, upload.key),
    query: { uploadId: upload.uploadId },
    action,
  });
}

/**
 * Uploads `body` by multipart: initiate, parts (a few at a time), complete. Any failure aborts the
 * upload so no parts are left behind, then the original error is thrown.
 */
export async function uploadLarge(c: Ops, bucket: string, key: string, body: Buffer, o: UploadLargeOptions = {}): Promise<{ etag?: string; parts: number }> {
  const action = `uploading object "${bucket}/${key}" in parts`;
  const partSize = o.partSize ?? DEFAULT_PART_SIZE;
  if (!Number.isInteger(partSize) || partSize < MIN_PART_SIZE) throw new InvalidArgumentError(`${action}: partSize must be at least ${MIN_PART_SIZE} bytes (5 MiB)`);
  const count = Math.max(1, Math.ceil(body.length / partSize));
  if (count > MAX_PART_NUMBER) throw new InvalidArgumentError(`${action}: ${count} parts exceed ${MAX_PART_NUMBER}; use a larger partSize`);
  const upload = await initiateMultipartUpload(c, bucket, key, { contentType: o.contentType, metadata: o.metadata });
  try {
    const parts: UploadedPart[] = [];
    let uploadedBytes = 0;
    const numbers = Array.from({ length: count }, (_, i) => i + 1);
    await forEachLimit(numbers, o.concurrency ?? DEFAULT_PART_CONCURRENCY, async (n) => {
      const chunk = body.subarray((n - 1) * partSize, Math.min(body.length, n * partSize));
      parts.push(await uploadPart(c, upload, n, chunk));
      uploadedBytes += chunk.length;
      o.onProgress?.(parts.length, { partsDone: parts.length, parts: count, uploadedBytes, totalBytes: body.length });
    });
    const done = await completeMultipartUpload(c, upload, parts);
    return { ...done, parts: count };
  } catch (e) {
    await abortMultipartUpload(c, upload).catch((abortError: unknown) =>
      c.opts.debug?.(`[krcloud objectstorage] abort after failed upload of "${bucket}/${key}" also failed: ${(abortError as Error).message}`),
    );
    throw e;
  }
}
