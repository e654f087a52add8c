import { header, type ApiResponse, type RequestContext } from "../../core/http";
import type { BucketStats } from "../backend";
import { InvalidArgument } from "../errors";
import { STORAGE_POLICY, swiftTimestamp, validateMetadataEntry, type Bucket } from "../model";
import type { Access } from "./auth";

/** A Swift container request after authorisation (`name` is the bucket, which may not exist). */
export interface ContainerRequest {
  account: string;
  name: string;
}

/** A Swift object request after authorisation: the bucket exists and the name is valid. */
export interface ObjectRequest {
  account: string;
  bucket: Bucket;
  name: string;
  access: Access;
}

export type ContainerHandler = (ctx: RequestContext, request: ContainerRequest) => ApiResponse;
export type ObjectHandler = (ctx: RequestContext, request: ObjectRequest) => ApiResponse | Promise<ApiResponse>;

export function metadataHeaders(ctx: RequestContext, prefix: string, { keepEmpty }: { keepEmpty: boolean }): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(ctx.headers)) {
    if (!name.startsWith(prefix) || raw === undefined) continue;
    const key = name.slice(prefix.length);
    const value = Array.isArray(raw) ? raw.join(", ") : raw;
    if (value === "" && !keepEmpty) continue;
    validateMetadataEntry(key, value);
    result[key] = value;
  }
  return result;
}

/** The content headers an object keeps from its PUT (or POST): stored as given, served on HEAD/GET. */
const CONTENT_HEADERS: Record<string, string> = {
  "cache-control": "Cache-Control",
  "content-disposition": "Content-Disposition",
  "content-encoding": "Content-Encoding",
};

export function contentHeadersOf(ctx: RequestContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [lower, name] of Object.entries(CONTENT_HEADERS)) {
    const v = header(ctx, lower);
    if (v !== undefined && v !== "") out[name] = v;
  }
  return out;
}

export function removeHeaders(ctx: RequestContext, prefix: string): string[] {
  return Object.keys(ctx.headers)
    .filter((name) => name.startsWith(prefix))
    .map((name) => name.slice(prefix.length));
}

/** Swift answers metadata header names title-cased (X-Object-Meta-Owner-Name); keys are stored lowercase. */
function titleCase(key: string): string {
  return key
    .split("-")
    .map((w) => (w === "" ? w : w[0]!.toUpperCase() + w.slice(1)))
    .join("-");
}

export function metaResponseHeaders(prefix: string, metadata: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) headers[`${prefix}${titleCase(key)}`] = value;
  return headers;
}

/** Percent-encodes each segment of a path for use in a header (Swift quotes names in headers). */
export function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}

export function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

export function listFormat(ctx: RequestContext): "plain" | "json" | "xml" {
  const format = ctx.query.get("format") ?? "plain";
  if (format !== "plain" && format !== "json" && format !== "xml") throw new InvalidArgument("format must be plain, json or xml.");
  return format;
}

export function optionalParam(ctx: RequestContext, name: string): string | undefined {
  return ctx.query.get(name) ?? undefined;
}

export function bucketStatsHeaders(bucket: Bucket, stats: BucketStats): Record<string, string> {
  return {
    "X-Container-Object-Count": String(stats.objectCount),
    "X-Container-Bytes-Used": String(stats.bytes),
    "X-Container-Bytes-Used-Actual": String(stats.bytesActual),
    "X-Storage-Policy": STORAGE_POLICY,
    "X-Timestamp": swiftTimestamp(bucket.createdAt),
    "Last-Modified": new Date(bucket.lastModified).toUTCString(),
    ...metaResponseHeaders("X-Container-Meta-", bucket.metadata),
  };
}
