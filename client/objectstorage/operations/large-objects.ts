/** Large objects, DLO and SLO (spec 4.5; not available on encrypted buckets). */

import { apiErrorFor } from "../../core";
import { expandSloManifest, flattenSloManifest } from "../wire/large-object";
import { objectPath, objectRef } from "../path";
import type { SloDeleteResult, SloSegment } from "../types";
import { JSON_TYPE, definedEtag, jsonRequest, wrap, type Ops } from "./context";

/**
 * A DLO manifest: GET on it returns the concatenation of every object under
 * `{segmentBucket}/{segmentPrefix}` in name order. May be written before or after the segments.
 */
export async function putDloManifest(
  c: Ops,
  bucket: string,
  key: string,
  segmentPrefix: string,
  o: { segmentBucket?: string; contentType?: string } = {},
): Promise<void> {
  const action = `creating large object manifest "${bucket}/${key}"`;
  await c.send({
    operation: "PutDloManifest",
    idempotent: true,
    method: "PUT",
    path: objectPath(c.account(action), bucket, key),
    headers: {
      "x-object-manifest": objectRef(o.segmentBucket ?? bucket, segmentPrefix),
      "content-type": o.contentType ?? "application/octet-stream",
      "content-length": "0",
    },
    body: "",
    action,
  });
}

/**
 * An SLO manifest, written after its segments. The server checks each segment's existence and,
 * when given, its etag and size; on a mismatch it answers an error and creates no manifest.
 */
export async function putSloManifest(c: Ops, bucket: string, key: string, segments: readonly SloSegment[]): Promise<{ etag?: string }> {
  const action = `creating static large object "${bucket}/${key}"`;
  const res = await c.send(
    jsonRequest("PutSloManifest", "PUT", objectPath(c.account(action), bucket, key), action, {
      // Completes a large object from segments that were checked at that moment, like
      // CompleteMultipartUpload: not repeated after an answer was lost.
      idempotent: false,
      query: { "multipart-manifest": "put" },
      body: JSON.stringify(wrap(action, () => expandSloManifest(segments))),
    }),
  );
  return definedEtag(res.headers);
}

export async function getSloManifest(c: Ops, bucket: string, key: string): Promise<SloSegment[]> {
  const action = `reading the manifest of static large object "${bucket}/${key}"`;
  const res = await c.send({
    operation: "GetSloManifest",
    idempotent: true,
    method: "GET",
    path: objectPath(c.account(action), bucket, key),
    query: { "multipart-manifest": "get" },
    action,
  });
  return flattenSloManifest(res.body, action);
}

/**
 * Deletes an SLO manifest and its segments. Upstream Swift answers 200 with a bulk-delete report
 * whose own status and error list say whether it worked; a failing report becomes an ApiError.
 */
export async function deleteSlo(c: Ops, bucket: string, key: string): Promise<SloDeleteResult> {
  const action = `deleting static large object "${bucket}/${key}" and its segments`;
  const path = objectPath(c.account(action), bucket, key);
  const res = await c.send({
    operation: "DeleteSlo",
    idempotent: true,
    method: "DELETE",
    path,
    query: { "multipart-manifest": "delete" },
    headers: { accept: JSON_TYPE },
    action,
  });
  const report = c.json(res, action, { lenient: true }) as Record<string, unknown> | undefined;
  if (!report || typeof report !== "object") return {};
  const status = typeof report["Response Status"] === "string" ? Number.parseInt(report["Response Status"], 10) : undefined;
  const errors = Array.isArray(report.Errors) ? report.Errors : [];
  if ((status !== undefined && (status < 200 || status >= 300)) || errors.length > 0) {
    throw c.transport.redact(
      apiErrorFor({
        service: "objectstorage",
        operation: "DeleteSlo",
        method: "DELETE",
        path: c.transport.fullPath(path),
        status: status !== undefined && status >= 300 ? status : 400,
        apiMessage: `${typeof report["Response Body"] === "string" ? report["Response Body"] : ""} ${JSON.stringify(errors)}`.trim(),
        requestId: res.requestId,
        action,
      }),
    );
  }
  const out: SloDeleteResult = {};
  if (typeof report["Number Deleted"] === "number") out.deleted = report["Number Deleted"];
  if (typeof report["Number Not Found"] === "number") out.notFound = report["Number Not Found"];
  return out;
}
