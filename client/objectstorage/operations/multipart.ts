/** Multipart upload (spec 4.4; abort is "not shown" and follows S3: DELETE ?uploadId=). */

import { forEachLimit } from "../../core/concurrency";
import { InvalidArgumentError, ResponseFormatError } from "../errors";
import { DEFAULT_PART_SIZE, MAX_PART_NUMBER, MAX_PART_SIZE, MIN_PART_SIZE } from "../limits";
import { OBJECT_META, metadataHeaders } from "../metadata";
import { isApiError, orUndefined } from "../../core";
import { bufferSource, isByteSource, type ByteSource } from "../byte-source";
import { buildCompleteXml, parseInitiateResult, parseListUploadsResult } from "../wire/multipart";
import { stripQuotes } from "../parse";
import { containerPath, objectPath } from "../path";
import type { ContentHeaders, MultipartUpload, MultipartUploadSummary, UploadedPart, UploadLargeOptions } from "../types";
import { XML_TYPE, contentHeaders, definedEtag, wrap, type Ops } from "./context";

const DEFAULT_PART_CONCURRENCY = 4;

export async function initiateMultipartUpload(
  c: Ops,
  bucket: string,
  key: string,
  o: { contentType?: string; metadata?: Record<string, string> } & ContentHeaders = {},
): Promise<MultipartUpload> {
  const action = `starting a multipart upload of "${bucket}/${key}"`;
  const res = await c.send({
    operation: "InitiateMultipartUpload",
    // Each call creates an upload with a server-chosen id: a repeat leaves an orphan upload.
    idempotent: false,
    method: "POST",
    path: objectPath(c.account(action), bucket, key),
    query: { uploads: true },
    headers: { "content-type": o.contentType, "content-length": "0", ...contentHeaders(o), ...wrap(action, () => metadataHeaders(OBJECT_META, o.metadata)) },
    body: "",
    action,
  });
  const r = parseInitiateResult(res.body.toString("utf8"), action);
  const upload: MultipartUpload = { bucket, key, uploadId: r.uploadId };
  if (r.tenant !== undefined) upload.tenant = r.tenant;
  return upload;
}

/** A ByteSource part is streamed (each attempt opens it anew). */
export async function uploadPart(c: Ops, upload: MultipartUpload, partNumber: number, body: Buffer | ByteSource): Promise<UploadedPart> {
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
    headers: { "content-type": "application/octet-stream", "content-length": String(isByteSource(body) ? body.size : body.length) },
    body: isByteSource(body) ? () => body.open() : body,
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
 * upload so no parts are left behind, then the original error is thrown. A ByteSource is streamed
 * part by part from its byte ranges: memory holds only what is in flight, whatever the size.
 */
export async function uploadLarge(
  c: Ops,
  bucket: string,
  key: string,
  body: Buffer | ByteSource,
  o: UploadLargeOptions = {},
): Promise<{ etag?: string; parts: number }> {
  const action = `uploading object "${bucket}/${key}" in parts`;
  const source = isByteSource(body) ? body : bufferSource(body);
  const size = source.size;
  const partSize = o.partSize ?? DEFAULT_PART_SIZE;
  if (!Number.isInteger(partSize) || partSize < MIN_PART_SIZE)
    throw new InvalidArgumentError(`${action}: partSize must be at least ${MIN_PART_SIZE} bytes (5 MiB)`);
  if (partSize > MAX_PART_SIZE) throw new InvalidArgumentError(`${action}: partSize must be at most ${MAX_PART_SIZE} bytes (5 GiB, one PUT per part)`);
  const count = Math.max(1, Math.ceil(size / partSize));
  if (count > MAX_PART_NUMBER) throw new InvalidArgumentError(`${action}: ${count} parts exceed ${MAX_PART_NUMBER}; use a larger partSize`);
  const upload = await initiateMultipartUpload(c, bucket, key, {
    contentType: o.contentType,
    metadata: o.metadata,
    cacheControl: o.cacheControl,
    contentDisposition: o.contentDisposition,
    contentEncoding: o.contentEncoding,
  });
  try {
    const parts: UploadedPart[] = [];
    let uploadedBytes = 0;
    const numbers = Array.from({ length: count }, (_, i) => i + 1);
    await forEachLimit(numbers, o.concurrency ?? DEFAULT_PART_CONCURRENCY, async (n) => {
      const start = (n - 1) * partSize;
      const end = Math.min(size, n * partSize);
      parts.push(await uploadPart(c, upload, n, { size: end - start, open: () => source.open(start, end) }));
      uploadedBytes += end - start;
      o.onProgress?.(parts.length, { partsDone: parts.length, parts: count, uploadedBytes, totalBytes: size });
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

/**
 * Unfinished multipart uploads of a bucket (spec 4.3: "List Multipart Uploads" supported, method
 * and path not shown; read the S3 way: `GET /v1/{account}/{bucket}?uploads`, answered with
 * `ListMultipartUploadsResult` > `Upload`* > `Key`, `UploadId`, `Initiated`, paged by
 * `IsTruncated` / `NextKeyMarker` / `NextUploadIdMarker`). A service without the operation (404,
 * 405 or 501) has none to report. Calls `onPage` per page, so a caller acts on each page without
 * holding them all.
 */
export async function forEachMultipartUploadPage(
  c: Ops,
  bucket: string,
  onPage: (uploads: MultipartUploadSummary[]) => Promise<void>,
  o: { prefix?: string } = {},
): Promise<void> {
  const action = `listing the unfinished multipart uploads of bucket "${bucket}"`;
  let keyMarker: string | undefined;
  let uploadIdMarker: string | undefined;
  for (;;) {
    let text: string;
    try {
      const res = await c.send({
        operation: "ListMultipartUploads",
        idempotent: true,
        method: "GET",
        path: containerPath(c.account(action), bucket),
        query: { uploads: true, prefix: o.prefix, "key-marker": keyMarker, "upload-id-marker": uploadIdMarker },
        action,
      });
      text = res.body.toString("utf8").trim();
    } catch (e) {
      if (isApiError(e) && LIST_UPLOADS_UNSUPPORTED.includes(e.status)) return;
      throw e;
    }
    const page = text === "" ? { uploads: [], truncated: false } : parseListUploadsResult(text, action);
    if (page.uploads.length > 0) await onPage(page.uploads);
    const advanced = page.nextKeyMarker !== undefined && (page.nextKeyMarker !== keyMarker || page.nextUploadIdMarker !== uploadIdMarker);
    if (!page.truncated || !advanced) return;
    keyMarker = page.nextKeyMarker;
    uploadIdMarker = page.nextUploadIdMarker;
  }
}

/** 404 (no such route, or no bucket: nothing to abort), 405, 501: no ListMultipartUploads here. */
const LIST_UPLOADS_UNSUPPORTED: readonly number[] = [404, 405, 501];

/**
 * Aborts every unfinished multipart upload of the bucket, page by page; returns how many. An upload
 * already gone (404) was finished or aborted by someone else and is not counted.
 */
export async function abortAllMultipartUploads(c: Ops, bucket: string, o: { concurrency?: number } = {}): Promise<number> {
  let aborted = 0;
  await forEachMultipartUploadPage(c, bucket, (uploads) =>
    forEachLimit(uploads, o.concurrency ?? DEFAULT_PART_CONCURRENCY, async (u) => {
      if (await orUndefined(abortMultipartUpload(c, { bucket, key: u.key, uploadId: u.uploadId }).then(() => true))) aborted++;
    }),
  );
  return aborted;
}
