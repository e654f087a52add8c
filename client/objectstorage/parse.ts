/**
 * Tolerant readers of the object storage API's answers: bucket records (spec 2.1), object listings
 * and headers (2.2, 2.6), account and container headers (2.6) and the capability document (2.5).
 * Schemas are built per call (factories), never held at module level. The XML documents (bucket
 * lifecycle, multipart, large-object manifests) are read and written by their own modules.
 */

import { z } from "zod";
import { once } from "../core";
import { ResponseFormatError } from "./errors";
import { CONTAINER_META, OBJECT_META, metadataFromHeaders } from "./metadata";
import type { AccountInfo, Bucket, BucketAcl, BucketPage, BucketSummary, Capabilities, ContainerInfo, ObjectInfo, ObjectListEntry } from "./types";
import { isRecord } from "./xml";

// ---- bucket records ----
// Bucket records of the extension API (spec 2.1): tolerant zod schemas and flatteners.
//
// Tolerance: unknown fields pass through into `raw`; `bytes` and `objectCount` may be integers or
// numeric strings (2.1 describes `bytes` both ways); `account` is read only when `project` is
// absent (deprecated, 9). Schemas are built per call (factories), never held at module level.

/** An integer, or a string holding one. */
export function looseInt() {
  return z.union([
    z.number(),
    z
      .string()
      .regex(/^\s*-?\d+(\.\d+)?\s*$/)
      .transform(Number),
  ]);
}

const aclSchema = once(() => {
  return z.looseObject({
    public: z.string().nullish(),
    public_read_allow_ip_list: z.array(z.string()).nullish(),
    permissions: z.unknown().optional(),
  });
});

/** Every field optional: the same schema reads full records and ListBuckets items ("not shown"). */
export const bucketRecordSchema = once(() => {
  return z.looseObject({
    project: z.string().nullish(),
    account: z.string().nullish(),
    name: z.string().nullish(),
    type: z.string().nullish(),
    bytes: looseInt().nullish(),
    objectCount: looseInt().nullish(),
    createdAt: z.string().nullish(),
    lastModified: z.string().nullish(),
    use_encryption: z.boolean().nullish(),
    encryption_type: z.string().nullish(),
    storageClass: z.string().nullish(),
    storagePolicy: z.string().nullish(),
    acl: aclSchema().nullish(),
  });
});

export const bucketPageSchema = once(() => {
  return z.looseObject({
    totalCount: looseInt().nullish(),
    offset: looseInt().nullish(),
    count: looseInt().nullish(),
    items: z.array(z.unknown()).nullish(),
  });
});

type BucketRecord = z.infer<ReturnType<typeof bucketRecordSchema>>;

function flattenAcl(a: z.infer<ReturnType<typeof aclSchema>> | null | undefined): BucketAcl | null | undefined {
  if (a === null) return null;
  if (a === undefined) return undefined;
  const acl: BucketAcl = {};
  if (a.public === "read-only" || a.public === "deny") acl.public = a.public;
  if (a.public_read_allow_ip_list !== undefined) acl.publicReadAllowIpList = a.public_read_allow_ip_list;
  if (a.permissions !== undefined) acl.permissions = a.permissions;
  return acl;
}

type BucketFields = Partial<Omit<Bucket, "metadata" | "raw">>;

function flattenFields(r: BucketRecord): BucketFields {
  const out: BucketFields = {};
  const project = r.project ?? r.account;
  if (project != null) out.project = project;
  if (r.name != null) out.name = r.name;
  if (r.type != null) out.type = r.type;
  if (r.bytes != null) out.bytes = r.bytes;
  if (r.objectCount != null) out.objectCount = r.objectCount;
  if (r.createdAt != null) out.createdAt = r.createdAt;
  if (r.lastModified != null) out.lastModified = r.lastModified;
  if (r.use_encryption != null) out.useEncryption = r.use_encryption;
  if (r.encryption_type != null) out.encryptionType = r.encryption_type;
  if (r.storageClass != null) out.storageClass = r.storageClass;
  if (r.storagePolicy != null) out.storagePolicy = r.storagePolicy;
  const acl = flattenAcl(r.acl);
  if (acl !== undefined) out.acl = acl;
  return out;
}

/** A full bucket record (GetBucketMeta, CreateBucket, UpdateBucketAcl) plus its metadata headers. */
export function flattenBucket(body: unknown, headers: Record<string, string>, fallback: { name: string; project?: string }, action: string): Bucket {
  const parsed = bucketRecordSchema().safeParse(body);
  if (!parsed.success) throw new ResponseFormatError(`${action}: unexpected bucket record: ${parsed.error.message}`);
  const fields = flattenFields(parsed.data);
  return {
    ...fields,
    name: fields.name ?? fallback.name,
    project: fields.project ?? fallback.project ?? "",
    metadata: metadataFromHeaders(CONTAINER_META, headers),
    raw: parsed.data,
  };
}

/** A ListBuckets item of unknown shape: a record is read like a bucket, a bare string as a name. */
export function flattenBucketSummary(item: unknown): BucketSummary {
  if (typeof item === "string") return { name: item, raw: item };
  const parsed = bucketRecordSchema().safeParse(item);
  if (!parsed.success) return { raw: item };
  return { ...flattenFields(parsed.data), raw: item };
}

export function flattenBucketPage(body: unknown, action: string): BucketPage {
  const parsed = bucketPageSchema().safeParse(body);
  if (!parsed.success) throw new ResponseFormatError(`${action}: unexpected bucket list: ${parsed.error.message}`);
  const items = (parsed.data.items ?? []).map(flattenBucketSummary);
  return {
    totalCount: parsed.data.totalCount ?? undefined,
    offset: parsed.data.offset ?? 0,
    count: parsed.data.count ?? items.length,
    items,
  };
}

// ---- objects ----
// Objects: listing entries (spec 2.2) and object headers (spec 2.6).
//
// Listing entries are either objects `{name, content_type, bytes, hash, last_modified}` or, with a
// delimiter, pseudo-directories `{subdir}`. `bytes` is read as an integer or numeric string, like the
// bucket record's. `last_modified` is kept as received: the spec says RFC 3339, upstream Swift sends
// `2024-05-01T10:00:00.123456` without a zone.

const objectEntrySchema = once(() => {
  return z.looseObject({
    name: z.string(),
    content_type: z.string().nullish(),
    bytes: looseInt().nullish(),
    hash: z.string().nullish(),
    last_modified: z.string().nullish(),
  });
});

export function flattenObjectListing(body: Buffer, action: string): ObjectListEntry[] {
  const text = body.toString("utf8").trim();
  // Upstream Swift answers an empty listing with 204 and no body.
  if (text === "") return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ResponseFormatError(`${action}: the object listing is not JSON (format=json was requested)`);
  }
  if (!Array.isArray(json)) throw new ResponseFormatError(`${action}: the object listing is not a JSON array`);
  // One schema per listing, not per entry: building a zod schema costs far more than using it
  // (make bench: 1,500 entries took 494 ms with a schema each).
  const schema = objectEntrySchema();
  return json.map((e, i): ObjectListEntry => {
    if (isRecord(e) && typeof e.subdir === "string" && e.name === undefined) return { kind: "subdir", subdir: e.subdir };
    const parsed = schema.safeParse(e);
    if (!parsed.success) throw new ResponseFormatError(`${action}: listing entry ${i} is not an object entry: ${parsed.error.message}`);
    const d = parsed.data;
    const entry: ObjectListEntry = { kind: "object", name: d.name };
    if (d.content_type != null) entry.contentType = d.content_type;
    if (d.bytes != null) entry.bytes = d.bytes;
    if (d.hash != null) entry.hash = d.hash;
    if (d.last_modified != null) entry.lastModified = d.last_modified;
    return entry;
  });
}

export function entryName(e: ObjectListEntry): string {
  return e.kind === "object" ? e.name : e.subdir;
}

export function stripQuotes(s: string | undefined): string | undefined {
  return s === undefined ? undefined : s.replace(/^"(.*)"$/, "$1");
}

export function intHeader(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === "") return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

export function objectInfoFromHeaders(bucket: string, key: string, headers: Record<string, string>): ObjectInfo {
  const info: ObjectInfo = {
    bucket,
    key,
    metadata: metadataFromHeaders(OBJECT_META, headers),
    staticLargeObject: /^true$/i.test(headers["x-static-large-object"] ?? ""),
    headers,
  };
  if (headers["content-type"] !== undefined) info.contentType = headers["content-type"];
  const len = intHeader(headers["content-length"]);
  if (len !== undefined) info.contentLength = len;
  const etag = stripQuotes(headers["etag"]);
  if (etag !== undefined) info.etag = etag;
  if (headers["last-modified"] !== undefined) info.lastModified = headers["last-modified"];
  if (headers["x-object-manifest"] !== undefined) info.dloManifest = headers["x-object-manifest"];
  if (headers["x-object-storage-class"] !== undefined) info.storageClass = headers["x-object-storage-class"];
  if (headers["cache-control"] !== undefined) info.cacheControl = headers["cache-control"];
  if (headers["content-disposition"] !== undefined) info.contentDisposition = headers["content-disposition"];
  if (headers["content-encoding"] !== undefined) info.contentEncoding = headers["content-encoding"];
  return info;
}

// ---- accounts and containers ----
// Swift account and container statistics from response headers (spec 2.6).

export function containerInfoFromHeaders(name: string, h: Record<string, string>): ContainerInfo {
  const info: ContainerInfo = { name, metadata: metadataFromHeaders(CONTAINER_META, h), headers: h };
  const set = <K extends keyof ContainerInfo>(k: K, v: ContainerInfo[K] | undefined): void => {
    if (v !== undefined) info[k] = v;
  };
  set("objectCount", intHeader(h["x-container-object-count"]));
  set("bytesUsed", intHeader(h["x-container-bytes-used"]));
  set("bytesUsedActual", intHeader(h["x-container-bytes-used-actual"]));
  set("storagePolicy", h["x-storage-policy"]);
  set("timestamp", intHeader(h["x-timestamp"]));
  return info;
}

/** The plain-text account listing: one bucket name per line. */
export function parseContainerNames(body: Buffer): string[] {
  return body
    .toString("utf8")
    .split(/\r?\n/)
    .filter((l) => l !== "");
}

export function accountInfoFromHeaders(containers: string[], h: Record<string, string>): AccountInfo {
  const info: AccountInfo = { containers };
  const set = <K extends keyof AccountInfo>(k: K, v: AccountInfo[K] | undefined): void => {
    if (v !== undefined) info[k] = v;
  };
  set("containerCount", intHeader(h["x-account-container-count"]));
  set("objectCount", intHeader(h["x-account-object-count"]));
  set("bytesUsed", intHeader(h["x-account-bytes-used"]));
  set("bytesUsedActual", intHeader(h["x-account-bytes-used-actual"]));
  set("timestamp", intHeader(h["x-timestamp"]));
  return info;
}

// ---- capabilities ----
// The capability document `GET /info` (spec 2.5), parsed tolerantly: every key optional, unknown
// keys and sections kept in `raw`. The spec capitalises `Account_listing_limit` and
// `max_Account_name_length`; upstream Swift writes them lower-case, and calls `max_meta_length`
// `max_meta_overall_size`. Both spellings are read.

const capabilitiesSchema = once(() => {
  const n = () => looseInt().nullish();
  return z.looseObject({
    swift: z
      .looseObject({
        version: z.union([z.string(), z.number()]).nullish(),
        Account_listing_limit: n(),
        account_listing_limit: n(),
        container_listing_limit: n(),
        max_file_size: n(),
        max_meta_length: n(),
        max_meta_overall_size: n(),
        min_meta_name_length: n(),
        max_meta_name_length: n(),
        min_meta_value_length: n(),
        max_meta_value_length: n(),
        min_object_name_length: n(),
        max_object_name_length: n(),
        min_container_name_length: n(),
        max_container_name_length: n(),
        max_Account_name_length: n(),
        max_account_name_length: n(),
        policies: z.array(z.looseObject({ name: z.string(), default: z.boolean().nullish() })).nullish(),
      })
      .nullish(),
    tempurl: z.looseObject({ methods: z.array(z.string()).nullish() }).nullish(),
    slo: z.looseObject({ max_manifest_segments: n(), min_segment_size: n(), max_manifest_size: n() }).nullish(),
  });
});

function defined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined || o[k] === null) delete o[k];
  return o;
}

export function flattenCapabilities(body: unknown): Capabilities {
  const p = capabilitiesSchema().safeParse(body);
  if (!p.success) throw new ResponseFormatError(`reading the capability document: ${p.error.message}`);
  const s = p.data.swift ?? {};
  const caps: Capabilities = {
    swift: defined({
      version: s.version == null ? undefined : String(s.version),
      accountListingLimit: s.Account_listing_limit ?? s.account_listing_limit ?? undefined,
      containerListingLimit: s.container_listing_limit ?? undefined,
      maxFileSize: s.max_file_size ?? undefined,
      maxMetaLength: s.max_meta_length ?? s.max_meta_overall_size ?? undefined,
      minMetaNameLength: s.min_meta_name_length ?? undefined,
      maxMetaNameLength: s.max_meta_name_length ?? undefined,
      minMetaValueLength: s.min_meta_value_length ?? undefined,
      maxMetaValueLength: s.max_meta_value_length ?? undefined,
      minObjectNameLength: s.min_object_name_length ?? undefined,
      maxObjectNameLength: s.max_object_name_length ?? undefined,
      minContainerNameLength: s.min_container_name_length ?? undefined,
      maxContainerNameLength: s.max_container_name_length ?? undefined,
      maxAccountNameLength: s.max_Account_name_length ?? s.max_account_name_length ?? undefined,
      policies: s.policies?.map((x) => (x.default == null ? { name: x.name } : { name: x.name, default: x.default })),
    }),
    raw: p.data,
  };
  if (p.data.tempurl) caps.tempurl = defined({ methods: p.data.tempurl.methods ?? undefined });
  if (p.data.slo) {
    caps.slo = defined({
      maxManifestSegments: p.data.slo.max_manifest_segments ?? undefined,
      minSegmentSize: p.data.slo.min_segment_size ?? undefined,
      maxManifestSize: p.data.slo.max_manifest_size ?? undefined,
    });
  }
  return caps;
}
