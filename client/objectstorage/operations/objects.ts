/** Objects and folders (spec 4.3), and the URLs handed to users. */

import { isApiError, orUndefined } from "../../core";
import { InvalidArgumentError } from "../errors";
import { OBJECT_META, metadataHeaders } from "../metadata";
import { isByteSource, type ByteSource } from "../byte-source";
import { MAX_SINGLE_UPLOAD_BYTES } from "../limits";
import { objectInfoFromHeaders } from "../parse";
import { containerPath, objectPath } from "../path";
import type { ContentHeaders, CopyObjectOptions, GetObjectResult, MoveObjectOptions, ObjectInfo, PutObjectOptions } from "../types";
import { DIRECTORY_TYPE, contentHeaders, definedEtag, wrap, type Ops } from "./context";

/** A folder: a zero-byte object `{path}/` of type `application/directory`. */
export async function createFolder(
  c: Ops,
  bucket: string,
  path: string,
  metadata?: Record<string, string>,
  o: { headers?: Record<string, string> } = {},
): Promise<void> {
  const folder = `${path.replace(/\/+$/, "")}/`;
  const action = `creating folder "${bucket}/${folder}"`;
  if (folder === "/") throw new InvalidArgumentError(`${action}: a folder path is required`);
  await c.send({
    operation: "CreateFolder",
    idempotent: true,
    method: "PUT",
    path: objectPath(c.account(action), bucket, folder),
    headers: { ...o.headers, "content-type": DIRECTORY_TYPE, "content-length": "0", ...wrap(action, () => metadataHeaders(OBJECT_META, metadata)) },
    body: "",
    action,
  });
}

/**
 * Uploads in one request (up to 5 GiB, spec 8). A ByteSource is streamed (each attempt opens it
 * anew), so memory does not grow with the size. Returns the ETag without quotes.
 */
export async function putObject(c: Ops, bucket: string, key: string, body: Buffer | string | ByteSource, o: PutObjectOptions = {}): Promise<{ etag?: string }> {
  const action = `uploading object "${bucket}/${key}"`;
  const data = isByteSource(body) ? body : typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const size = isByteSource(data) ? data.size : data.length;
  if (size > MAX_SINGLE_UPLOAD_BYTES)
    throw new InvalidArgumentError(`${action}: ${size} bytes exceed the single-upload limit of ${MAX_SINGLE_UPLOAD_BYTES} bytes (5 GiB); use uploadLarge`);
  const res = await c.send({
    operation: "PutObject",
    idempotent: true,
    method: "PUT",
    path: objectPath(c.account(action), bucket, key),
    headers: {
      ...o.headers,
      ...contentHeaders(o),
      etag: o.expectedMd5,
      "content-type": o.contentType ?? "application/octet-stream",
      "content-length": String(size),
      ...wrap(action, () => metadataHeaders(OBJECT_META, o.metadata)),
    },
    body: isByteSource(data) ? () => data.open() : data,
    action,
  });
  return definedEtag(res.headers);
}

export async function headObject(c: Ops, bucket: string, key: string): Promise<ObjectInfo> {
  const action = `reading object "${bucket}/${key}"`;
  const res = await c.send({ operation: "HeadObject", idempotent: true, method: "HEAD", path: objectPath(c.account(action), bucket, key), action });
  return objectInfoFromHeaders(bucket, key, res.headers);
}

export async function findObject(c: Ops, bucket: string, key: string): Promise<ObjectInfo | undefined> {
  return orUndefined(headObject(c, bucket, key));
}

/**
 * Sets the object's user metadata. Upstream Swift replaces all `X-Object-Meta-*` of the object
 * with the ones sent (keys not sent are removed); pass the complete map.
 */
export async function setObjectMetadata(
  c: Ops,
  bucket: string,
  key: string,
  metadata: Record<string, string>,
  o: { contentType?: string } & ContentHeaders = {},
): Promise<void> {
  const action = `setting the metadata of object "${bucket}/${key}"`;
  await c.send({
    operation: "UpdateObjectMetadata",
    // Replaces the metadata with the map sent: a repeat changes nothing.
    idempotent: true,
    method: "POST",
    path: objectPath(c.account(action), bucket, key),
    headers: { "content-length": "0", "content-type": o.contentType, ...contentHeaders(o), ...wrap(action, () => metadataHeaders(OBJECT_META, metadata)) },
    body: "",
    action,
  });
}

export async function getObject(c: Ops, bucket: string, key: string): Promise<GetObjectResult> {
  const action = `downloading object "${bucket}/${key}"`;
  const res = await c.send({ operation: "GetObject", idempotent: true, method: "GET", path: objectPath(c.account(action), bucket, key), action });
  return { ...objectInfoFromHeaders(bucket, key, res.headers), body: res.body };
}

/** Fails with NotFound when the object does not exist; see deleteObjectIfExists. */
export async function deleteObject(c: Ops, bucket: string, key: string): Promise<void> {
  const action = `deleting object "${bucket}/${key}"`;
  await c.send({ operation: "DeleteObject", idempotent: true, method: "DELETE", path: objectPath(c.account(action), bucket, key), action });
}

/** Returns false when the object was already gone. */
export async function deleteObjectIfExists(c: Ops, bucket: string, key: string): Promise<boolean> {
  return (await orUndefined(deleteObject(c, bucket, key).then(() => true))) ?? false;
}

export async function copyObject(
  c: Ops,
  srcBucket: string,
  srcKey: string,
  dstBucket: string,
  dstKey: string,
  o: CopyObjectOptions = {},
): Promise<{ etag?: string }> {
  const action = `copying object "${srcBucket}/${srcKey}" to "${dstBucket}/${dstKey}"`;
  const res = await c.send({
    operation: "CopyObject",
    idempotent: true,
    method: "COPY",
    ...transfer(c, srcBucket, srcKey, dstBucket, dstKey, o.metadata, action),
  });
  return definedEtag(res.headers);
}

/** What a COPY and a MOVE send: the source's path, its `Destination` and the metadata the result gets. */
function transfer(c: Ops, srcBucket: string, srcKey: string, dstBucket: string, dstKey: string, metadata: Record<string, string> | undefined, action: string) {
  return {
    path: objectPath(c.account(action), srcBucket, srcKey),
    headers: { destination: c.destination(dstBucket, dstKey), ...wrap(action, () => metadataHeaders(OBJECT_META, metadata)) },
    action,
  };
}

/**
 * MOVE (spec 4.3; unavailable for encrypted buckets). Upstream Swift has no MOVE and answers 405;
 * with `fallbackToCopy` that answer (or 501) turns into COPY followed by DELETE of the source.
 */
export async function moveObject(c: Ops, srcBucket: string, srcKey: string, dstBucket: string, dstKey: string, o: MoveObjectOptions = {}): Promise<void> {
  const action = `moving object "${srcBucket}/${srcKey}" to "${dstBucket}/${dstKey}"`;
  try {
    await c.send({
      operation: "MoveObject",
      // After a MOVE that was applied the source is gone: a repeat would fail with 404.
      idempotent: false,
      method: "MOVE",
      ...transfer(c, srcBucket, srcKey, dstBucket, dstKey, o.metadata, action),
    });
  } catch (e) {
    if (!(o.fallbackToCopy && isApiError(e) && (e.status === 405 || e.status === 501))) throw e;
    await copyObject(c, srcBucket, srcKey, dstBucket, dstKey, { metadata: o.metadata });
    await deleteObject(c, srcBucket, srcKey);
  }
}

/** `{endpoint}/v1/{project}/{bucket}`. */
export function bucketUrl(c: Ops, bucket: string): string {
  return c.transport.url(containerPath(c.account("building a bucket URL"), bucket));
}

/** `{endpoint}/v1/{project}/{bucket}/{key}`, segments percent-encoded. */
export function objectUrl(c: Ops, bucket: string, key: string): string {
  return c.transport.url(objectPath(c.account("building an object URL"), bucket, key));
}
