/**
 * Bucket records of the extension API (seed 2.1): tolerant zod schemas and flatteners.
 *
 * Tolerance: unknown fields pass through into `raw`; `bytes` and `objectCount` may be integers or
 * numeric strings (2.1 describes `bytes` both ways); `account` is read only when `project` is
 * absent (deprecated, 9). Schemas are built per call (factories), never held at module level.
 */

import { z } from "zod";
import { once } from "../core";
import { ResponseFormatError } from "./errors";
import { CONTAINER_META, metadataFromHeaders } from "./metadata";
import type { Bucket, BucketAcl, BucketPage, BucketSummary } from "./types";

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
