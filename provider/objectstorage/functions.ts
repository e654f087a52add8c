/** Lookups: getBucket, getBuckets (all pages), getBucketObjects, getObjectStorageInfo, getTempUrl. */
import { z } from "zod";
import { OBJECT_PAGE_LIMIT, type ObjectListEntry, type ObjectStorageClient } from "../../client/objectstorage";
import { pickShapes, serviceLookups, type LookupArgs, type LookupResult } from "../core";
import { objectStorage } from "./client";
import { bucketOutputs, flattenAcl } from "./bucket";
import { bucketName } from "./validation";

const lookup = serviceLookups("objectstorage", objectStorage);

/** Looks up an existing bucket by name; fails when it does not exist. */
export const { getBucket, getBucketOutput } = lookup("getBucket", {
  description: "Looks up an existing bucket by name; fails when it does not exist.",
  args: () => ({ name: z.string().describe("Bucket name.") }),
  // The facts the Bucket resource's outputs state (its project, URL and creation time) are described there, once.
  result: () =>
    bucketOutputs()
      .pick({ project: true, url: true, createdAt: true })
      .extend({
        name: z.string().describe("Bucket name."),
        type: z.string().describe("Bucket type, `STANDARD`."),
        encrypted: z.boolean().describe("Whether server-side encryption is on."),
        acl: z
          .object({
            public: z.enum(["read-only", "deny"]).describe("`read-only` allows token-less reads; `deny` forbids them."),
            publicReadAllowIpList: z.array(z.string()).optional().describe("IP addresses or CIDR ranges token-less reads are limited to."),
          })
          .describe("Public access."),
        metadata: z.record(z.string(), z.string()).describe("User metadata (`X-Container-Meta-*`)."),
        bytes: z.number().describe("Total size of the objects in bytes (refreshed by the service every 30 minutes)."),
        objectCount: z.number().describe("Number of objects (refreshed by the service every 30 minutes)."),
      }),
  async run(args, c) {
    const b = await c.getBucket(args.name);
    return {
      name: b.name,
      project: b.project ?? "",
      type: b.type ?? "STANDARD",
      encrypted: Boolean(b.useEncryption),
      acl: flattenAcl(b.acl),
      metadata: b.metadata ?? {},
      createdAt: b.createdAt ?? "",
      bytes: b.bytes ?? 0,
      objectCount: b.objectCount ?? 0,
      url: c.bucketUrl(b.name),
    };
  },
});
export type GetBucketArgs = LookupArgs<typeof getBucket>;
export type GetBucketResult = LookupResult<typeof getBucket>;

/** A bucket as getBuckets lists it. */
const bucketSummaryShape = () => ({
  name: z.string().describe("Bucket name."),
  createdAt: z.string().optional().describe("Creation time (RFC 3339)."),
  bytes: z.number().optional().describe("Total size of the objects in bytes."),
  objectCount: z.number().optional().describe("Number of objects."),
});

/** Lists buckets, every page. */
export const { getBuckets, getBucketsOutput } = lookup("getBuckets", {
  description: "Lists buckets, every page.",
  args: () => ({
    prefix: z.string().optional().describe("Only buckets whose names start with this."),
    include: z.string().optional().describe("Only buckets whose names contain this (cannot be combined with prefix)."),
  }),
  result: () =>
    z.object({
      names: z.array(z.string()).describe("Names of the buckets found."),
      buckets: z.array(z.object(bucketSummaryShape())).describe("The buckets found, every page."),
    }),
  async run(args, c) {
    if (args.prefix && args.include) throw new Error("getBuckets: prefix and include cannot be combined (the bucket list takes one or the other)");
    const all = (await c.listAllBuckets({ prefix: args.prefix, include: args.include })).filter(
      (b): b is typeof b & { name: string } => typeof b.name === "string",
    );
    return { names: all.map((b) => b.name), buckets: pickShapes(bucketSummaryShape(), all) };
  },
});
export type GetBucketsArgs = LookupArgs<typeof getBuckets>;
export type GetBucketsResult = LookupResult<typeof getBuckets>;

/** An object as getBucketObjects lists it. */
const objectSummaryShape = () => ({
  key: z.string().describe("The object's key."),
  size: z.number().describe("Size in bytes."),
  etag: z.string().describe("Its ETag as the listing reports it (the MD5 of an object uploaded whole)."),
  contentType: z.string().describe("Its content type."),
  lastModified: z.string().describe("Last modification time, as the listing reports it."),
});

/**
 * Lists a bucket's objects (spec 01 §4.3, List objects), page after page of at most 1,000: every
 * one, those under a prefix, or one level of a folder tree (a delimiter groups the deeper keys).
 */
export const { getBucketObjects, getBucketObjectsOutput } = lookup("getBucketObjects", {
  description:
    "Lists a bucket's objects in name order, page after page of at most 1,000 (one request each): every one, those under `prefix`, or one level of a folder tree with `delimiter` (the deeper keys grouped in `prefixes`); at most `maxKeys` entries when set.",
  args: () => ({
    bucket: bucketName().describe("The bucket."),
    prefix: z.string().optional().describe("Only keys that start with this (`reports/`)."),
    delimiter: z
      .string()
      .min(1, "must not be empty")
      .optional()
      .describe("Groups every key holding it after `prefix` into one entry of `prefixes`, up to and including it: `/` lists one level of a folder tree."),
    maxKeys: z
      .number()
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .optional()
      .describe("At most this many entries, objects and prefixes together, in name order; default: every one (`truncated` says whether more are left)."),
  }),
  result: () =>
    z.object({
      keys: z.array(z.string()).describe("The keys of the objects found, in name order."),
      objects: z.array(z.object(objectSummaryShape())).describe("The objects found, in name order."),
      prefixes: z
        .array(z.string())
        .describe("With `delimiter`: the common prefixes of the keys grouped, each ending with the delimiter, in name order; empty otherwise."),
      truncated: z.boolean().describe("Whether `maxKeys` ended the listing before its last entry."),
    }),
  async run(args, c) {
    const { entries, truncated } = await listUpTo(c, args.bucket, { prefix: args.prefix, delimiter: args.delimiter }, args.maxKeys);
    const objects = entries.flatMap((e) =>
      e.kind === "object"
        ? [{ key: e.name, size: e.bytes ?? 0, etag: e.hash ?? "", contentType: e.contentType ?? "", lastModified: e.lastModified ?? "" }]
        : [],
    );
    return { keys: objects.map((o) => o.key), objects, prefixes: entries.flatMap((e) => (e.kind === "subdir" ? [e.subdir] : [])), truncated };
  },
});
export type GetBucketObjectsArgs = LookupArgs<typeof getBucketObjects>;
export type GetBucketObjectsResult = LookupResult<typeof getBucketObjects>;

/**
 * The listing's entries, page after page, up to `max` (all when undefined); `truncated` when
 * entries are left after the `max`th (a full last page is followed by one request of one entry to know).
 */
async function listUpTo(
  c: ObjectStorageClient,
  bucket: string,
  o: { prefix?: string; delimiter?: string },
  max: number | undefined,
): Promise<{ entries: ObjectListEntry[]; truncated: boolean }> {
  const entries: ObjectListEntry[] = [];
  for (let marker: string | undefined; ;) {
    const left = max === undefined ? OBJECT_PAGE_LIMIT : max - entries.length;
    if (left <= 0) {
      const next = await c.listObjects(bucket, { ...o, marker, limit: 1 });
      return { entries, truncated: next.entries.length > 0 };
    }
    const page = await c.listObjects(bucket, { ...o, marker, limit: Math.min(left, OBJECT_PAGE_LIMIT) });
    entries.push(...page.entries);
    if (page.nextMarker === undefined || page.nextMarker === marker) return { entries, truncated: false };
    marker = page.nextMarker;
  }
}

/** The service's capability document (`/info`): limits such as max_file_size, container_listing_limit. */
export const { getObjectStorageInfo, getObjectStorageInfoOutput } = lookup("getObjectStorageInfo", {
  description: "The service's capability document (`/info`): limits such as max_file_size, container_listing_limit.",
  // Named sections, not one open map: Pulumi's SDK generators read a result without properties as a
  // single value and would hand Python, Go and native TypeScript programs one section of it.
  result: () =>
    z.object({
      swift: z.record(z.string(), z.unknown()).describe("The object storage's limits (maxFileSize, containerListingLimit, ...), keys in camelCase."),
      tempurl: z.record(z.string(), z.unknown()).optional().describe("Temporary URLs: the methods they may sign; absent when not offered."),
      slo: z.record(z.string(), z.unknown()).optional().describe("Large objects from segments: their limits; absent when not offered."),
      raw: z.record(z.string(), z.unknown()).describe("The document as the service sent it, every section and key as received."),
    }),
  run: (_args, c) => c.getInfo(),
});

/** The default expiry: the end of the period after the current one, so stable within a period. */
function stableExpiry(nowSeconds: number, period: number): number {
  return (Math.floor(nowSeconds / period) + 2) * period;
}

/** Creates a temporary signed URL for token-less download of an object. */
export const { getTempUrl, getTempUrlOutput } = lookup("getTempUrl", {
  description: "Creates a temporary signed URL for token-less download of an object.",
  args: () => ({
    bucket: z.string().describe("The bucket."),
    key: z.string().describe("Object name."),
    expiresIn: z
      .number()
      .int("must be a whole number of seconds")
      .min(1, "must be at least 1 second")
      .optional()
      .describe(
        "How long the URL stays valid, in seconds (default 3600); the expiry is aligned to a multiple of this period, so the URL stays the same on every run within one period. Ignored when expiresAt is set.",
      ),
    expiresAt: z.number().optional().describe("Expiry as Unix seconds."),
  }),
  result: () =>
    z.object({
      url: z.string().describe("Absolute URL for token-less GET until expiresAt. It carries a signature: a secret."),
      expiresAt: z.number().describe("Expiry as Unix seconds."),
    }),
  // The URL carries a signature that grants access.
  secretResults: ["url"],
  async run(args, c) {
    const period = args.expiresIn ?? 3600;
    const expiresAt = args.expiresAt ?? stableExpiry(Math.floor(Date.now() / 1000), period);
    const t = await c.createTempUrl(args.bucket, args.key, expiresAt);
    return { url: t.absoluteUrl, expiresAt };
  },
});
/** `getTempUrl` for Inputs; a secret Output (the URL's signature grants access). */
export type GetTempUrlArgs = LookupArgs<typeof getTempUrl>;
export type GetTempUrlResult = LookupResult<typeof getTempUrl>;
