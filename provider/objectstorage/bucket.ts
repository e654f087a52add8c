/**
 * krcloud:objectstorage:Bucket — a bucket (Swift container) with encryption, public-read ACL and
 * metadata. Spec: 01-object-storage.md sections 2.1, 4.1, 4.2, 8.
 */
import { z } from "zod";
import { isConflict, rethrowAs, withAction } from "../../client/core";
import { BUCKET_PAGE_MAX, type BucketAcl, type ObjectStorageClient } from "../../client/objectstorage";
import {
  PartialFailure,
  waitWithProgress,
  type Context,
  defineResource,
  resourceClass,
  markerOf,
  OWNER_METADATA_KEY,
  withoutReservedMetadata,
  type ListRequest,
  byNamePrefix,
  NAME_PREFIX_FILTER,
  noRename,
  reasonFor,
} from "../core";
import { objectStorage } from "./client";
import { bucketName, isIpOrCidr, metadata } from "./validation";
import type { BucketArgs } from "./args";

/** How long a delete waits for the bucket to be gone. */
export const BUCKET_DELETE_TIMEOUT_MS = 5 * 60_000;

// ---------------------------------------------------------------------------------------------
// Schema

export function bucketInputs() {
  return z.strictObject({
    name: bucketName().describe(
      "Bucket name, 4 to 63 characters. When omitted: the resource's logical name plus a random suffix. Changing it replaces the bucket.",
    ),
    type: z.literal("STANDARD").default("STANDARD").describe("Bucket type; `STANDARD` is the only type."),
    encryption: z
      .strictObject({ type: z.literal("managed").describe("Encryption type: `managed` (provider-managed keys).") })
      .optional()
      .describe("Server-side encryption. Changing it replaces the bucket. Encrypted buckets cannot use MOVE or DLO/SLO large objects."),
    acl: z
      .strictObject({
        public: z.enum(["read-only", "deny"]).default("deny").describe("`read-only` allows token-less reads; `deny` forbids them."),
        publicReadAllowIpList: z
          .array(z.string().refine(isIpOrCidr, "must be an IP address or CIDR range"))
          .optional()
          .describe("When set with `read-only`, token-less reads are allowed only from these IP addresses or CIDR ranges."),
      })
      .default({ public: "deny" })
      .refine((a) => a.public === "read-only" || !a.publicReadAllowIpList?.length, {
        message: "publicReadAllowIpList only applies when public is read-only",
        path: ["publicReadAllowIpList"],
      })
      .describe("Public access. Defaults to `deny` (no token-less access)."),
    metadata: metadata()
      .default({})
      .describe("User metadata (`X-Container-Meta-*`): names 2 to 64 lower-case characters, values up to 512, 4096 bytes in all."),
    forceDestroy: z
      .boolean()
      .default(false)
      .describe("On delete, first delete every object (all pages, including large-object segments). Without it, deleting a non-empty bucket fails."),
    adopt: z
      .boolean()
      .default(false)
      .describe("If a bucket with this name already exists in the project, manage it instead of failing. Its ACL and metadata are then set to these inputs."),
  });
}
export type BucketInputs = z.infer<ReturnType<typeof bucketInputs>>;

export function bucketOutputs() {
  return bucketInputs().extend({
    project: z.string().describe("Project (account) ID that owns the bucket."),
    url: z.string().describe("The bucket's Swift URL: `{endpoint}/v1/{project}/{name}`."),
    createdAt: z.string().describe("Creation time (RFC 3339)."),
    lastModified: z.string().optional().describe("Last modification time (RFC 3339)."),
    storageClass: z.string().optional().describe("Storage class, `STANDARD`."),
    storagePolicy: z.string().optional().describe("Storage policy, `default-placement`."),
    bytes: z.number().describe("Total size of the objects in bytes. Refreshed by the service every 30 minutes, so it may lag; never a cause of diffs."),
    objectCount: z.number().describe("Number of objects. Refreshed by the service every 30 minutes, so it may lag; never a cause of diffs."),
  });
}
export type BucketOutputs = z.infer<ReturnType<typeof bucketOutputs>>;

// ---------------------------------------------------------------------------------------------
// Provider

export const bucket = defineResource("krcloud:objectstorage:Bucket", bucketInputs, bucketOutputs, {
  description: "An object storage bucket with encryption, public-read ACL and metadata.",
  replaceOn: {
    ...noRename("object storage", "bucket"),
    ...reasonFor(["type", "encryption"], "a bucket's type and encryption are set when it is created"),
  },
  replacementLoses:
    "The replacement is a new, empty bucket: the objects of this one are not moved; deleting it deletes them with forceDestroy, and fails while it holds any without.",
  deleteBeforeReplace: true,
  localInputs: ["forceDestroy", "adopt"],
  importId: "the bucket name",
  autoName: { property: "name", minLength: 4, maxLength: 63, lowerCase: true },
  recovery: {
    find: async (ctx, inputs) => ((await objectStorage(ctx).findBucket(inputs.name)) ? inputs.name : undefined),
    // The create request writes the marker as metadata (`X-Container-Meta-Krcloud-Owner`).
    markerOf: async (ctx, id) =>
      (
        await objectStorage(ctx)
          .findBucket(id)
          .catch(rethrowAs(`reading bucket "${id}"`))
      )?.metadata[OWNER_METADATA_KEY],
  },
  describe: (id) => `bucket "${id}"`,
  list: {
    kind: ["bucket", "buckets"],
    inputs: { name: NAME_PREFIX_FILTER },
    // The service filters by nothing: a page is filtered here, and may come back empty with a continuation.
    async page(ctx, request) {
      const { names, continuation } = await bucketNamesPage(ctx, request);
      return {
        items: byNamePrefix(
          names.map((name) => ({ id: name, name })),
          request.query,
        ),
        continuation,
      };
    },
  },

  // An empty IP list means no restriction, as does none: record it the way read reports it, or
  // every refresh would show a diff.
  derive: [{ from: ["acl"], to: "acl", compute: (inputs) => normalizeAcl(inputs.acl) }],

  async create(ctx, inputs) {
    const c = objectStorage(ctx);
    const name = inputs.name;
    const marker = markerOf(ctx.createKey);
    const owner = marker === undefined ? undefined : { [OWNER_METADATA_KEY]: marker };
    await c.createBucket({ name, type: inputs.type, encryption: inputs.encryption, metadata: owner }).catch((e: unknown) => {
      // Bucket names are global: a conflict that no bucket of this project explains (the core
      // looks for one, recovery.ts) is a bucket of another project.
      throw withAction(
        e,
        isConflict(e)
          ? `creating bucket "${name}": the name is taken by a bucket outside this project (bucket names are global); choose another name`
          : `creating bucket "${name}"`,
      );
    });
    // The bucket exists from here on: a failure below must leave it in state, not orphan it.
    try {
      const seen: Seen = {};
      const current = await waitBucketReadable(ctx, c, name, inputs, seen);
      // A service that does not keep metadata sent with the create (another reading of the API):
      // the marker is set right after, so a later create that meets this bucket can prove it ours.
      if (owner && seen.owner !== marker) await c.updateContainerMetadata(name, owner).catch(rethrowAs(`marking bucket "${name}" as this stack's`));
      return { id: name, outs: await converge(ctx, c, current, inputs) };
    } catch (e) {
      throw new PartialFailure(name, { ...inputs, acl: { public: "deny" }, metadata: {} }, e);
    }
  },

  readsFromList: { no: "the list gives bucket names only: a read needs the bucket's own metadata, ACLs and quota (its HEAD)" },

  async read(ctx, id, olds) {
    return readBucket(ctx, objectStorage(ctx), id, olds);
  },
  // The extension API finds a bucket in the token's project and its record names that project.
  projectOf: (outs) => outs.project,

  async update(ctx, id, current, news) {
    const c = objectStorage(ctx);
    try {
      return await converge(ctx, c, current, news);
    } catch (e) {
      throw new PartialFailure(id, current, e);
    }
  },

  async delete(ctx, id, olds) {
    const c = objectStorage(ctx);
    if (olds.forceDestroy) {
      ctx.progress(`emptying bucket "${id}" before deleting it (forceDestroy)`);
      await c.emptyBucket(id, { onProgress: (n: number) => ctx.progress(`bucket "${id}": ${n} objects deleted`) });
      // Unfinished multipart uploads hold parts in the bucket that no listing shows.
      const aborted = await c.abortAllMultipartUploads(id).catch(rethrowAs(`aborting the unfinished multipart uploads of bucket "${id}"`));
      if (aborted > 0) ctx.progress(`bucket "${id}": ${aborted} unfinished multipart uploads aborted`);
    }
    try {
      await c.deleteBucket(id);
    } catch (e) {
      if (isConflict(e) && !olds.forceDestroy) {
        throw withAction(e, `deleting bucket "${id}": the bucket is not empty; set forceDestroy: true to delete it with its objects, or empty it first`);
      }
      throw withAction(e, `deleting bucket "${id}"`);
    }
    await waitWithProgress(ctx, {
      resource: `bucket "${id}"`,
      status: () => c.findBucket(id).catch(rethrowAs(`reading bucket "${id}"`)),
      stateOf: () => "present",
      target: [],
      targetGone: true,
      timeoutMs: BUCKET_DELETE_TIMEOUT_MS,
    });
  },
});

// ---------------------------------------------------------------------------------------------
// Update steps

/**
 * Brings ACL and metadata from `current` to `desired`. Order: ACL first (the security-relevant
 * part), then metadata removals and sets in one request. `current.metadata` holds only the keys
 * this resource manages (see readBucket), so keys set by others are never removed.
 */
async function converge(ctx: Context, c: ObjectStorageClient, current: BucketOutputs, desired: BucketInputs): Promise<BucketOutputs> {
  const name = desired.name;
  if (JSON.stringify(normalizeAcl(current.acl)) !== JSON.stringify(normalizeAcl(desired.acl))) {
    const acl = normalizeAcl(desired.acl);
    await c.updateBucketAcl(name, acl.public === "deny" ? null : acl).catch(rethrowAs(`setting the ACL of bucket "${name}"`));
  }
  const set: Record<string, string> = {};
  for (const [k, v] of Object.entries(desired.metadata)) if (current.metadata[k] !== v) set[k] = v;
  const remove = Object.keys(current.metadata).filter((k) => !(k in desired.metadata));
  if (Object.keys(set).length || remove.length) {
    await c.updateContainerMetadata(name, set, remove).catch(rethrowAs(`setting the metadata of bucket "${name}"`));
  }
  const after = await readBucket(ctx, c, name, desired);
  if (!after) throw new Error(`bucket "${name}" disappeared while it was being updated`);
  return after;
}

// ---------------------------------------------------------------------------------------------
// Flatteners, finders and waiters

/**
 * One page of the project's bucket names, for the lists of buckets and of their documents: the
 * continuation is the offset of the next page (the service pages by offset, up to 100 a page).
 */
export async function bucketNamesPage(
  ctx: Context,
  request: Pick<ListRequest, "pageSize" | "continuation">,
): Promise<{ names: string[]; continuation?: string }> {
  const offset = request.continuation === undefined ? 0 : Number(request.continuation);
  if (!Number.isSafeInteger(offset) || offset < 0) throw new Error(`listing buckets: "${request.continuation}" is not a continuation this list gave`);
  const limit = Math.min(request.pageSize ?? BUCKET_PAGE_MAX, BUCKET_PAGE_MAX);
  const page = await objectStorage(ctx).listBuckets({ offset, limit });
  const next = offset + page.items.length;
  // An empty page ends the walk even if totalCount says otherwise (buckets deleted meanwhile);
  // without totalCount, a short page is the last one.
  const last = page.items.length === 0 || (page.totalCount !== undefined ? next >= page.totalCount : page.items.length < limit);
  return { names: page.items.flatMap((b) => (b.name === undefined ? [] : [b.name])), continuation: last ? undefined : String(next) };
}

/** What a read saw besides the outputs: the ownership marker the bucket carries. */
interface Seen {
  owner?: string;
}

/** How long a new bucket may take to answer reads; `customTimeouts.create` shortens it. */
export const BUCKET_READABLE_TIMEOUT_MS = 60_000;

/**
 * A new bucket as soon as it answers reads. Swift container listings and HEADs are eventually
 * consistent, so a bucket may be missing for a moment after its create succeeded.
 */
async function waitBucketReadable(ctx: Context, c: ObjectStorageClient, name: string, prior: BucketInputs, seen: Seen): Promise<BucketOutputs> {
  const b = await waitWithProgress(ctx, {
    resource: `bucket "${name}"`,
    status: () => readBucket(ctx, c, name, prior, seen),
    stateOf: () => "readable",
    target: ["readable"],
    notFoundTolerance: 5,
    minDelayMs: 200,
    maxDelayMs: 2_000,
    timeoutMs: BUCKET_READABLE_TIMEOUT_MS,
  });
  return b!;
}

function normalizeAcl(acl: BucketInputs["acl"] | undefined): BucketInputs["acl"] {
  if (!acl || acl.public !== "read-only") return { public: "deny" };
  return acl.publicReadAllowIpList?.length ? { public: "read-only", publicReadAllowIpList: [...acl.publicReadAllowIpList] } : { public: "read-only" };
}

/** A bucket's ACL as the service reports it, in the shape read and getBucket show. */
export function flattenAcl(acl: BucketAcl | null | undefined): BucketInputs["acl"] {
  return normalizeAcl(acl ? { public: acl.public ?? "deny", publicReadAllowIpList: acl.publicReadAllowIpList ?? undefined } : undefined);
}

/**
 * The bucket as the cloud has it, with provider-only inputs carried over from `prior`. Metadata is
 * limited to the keys this resource manages, those of `prior` (its last inputs or outputs): keys
 * others set on the bucket are neither reported as drift nor removed. Without a prior metadata map
 * (a read from the id alone) every key is reported.
 */
async function readBucket(
  ctx: Context,
  c: ObjectStorageClient,
  name: string,
  prior: Partial<Pick<BucketInputs, "forceDestroy" | "adopt" | "metadata">>,
  seen?: Seen,
): Promise<BucketOutputs | undefined> {
  const found = await c.findBucket(name).catch(rethrowAs(`reading bucket "${name}"`));
  if (!found) return undefined;
  // The ownership markers are krcloud's, never the program's: they show neither as metadata nor as drift.
  if (seen) seen.owner = found.metadata?.[OWNER_METADATA_KEY];
  const b = { ...found, metadata: withoutReservedMetadata(found.metadata ?? {}) };
  return {
    name: b.name,
    type: "STANDARD",
    encryption: b.useEncryption ? { type: "managed" } : undefined,
    acl: flattenAcl(b.acl),
    metadata: managedMetadata(b.metadata ?? {}, prior.metadata),
    forceDestroy: prior.forceDestroy ?? false,
    adopt: prior.adopt ?? false,
    project: b.project ?? ctxProject(ctx),
    url: c.bucketUrl(name),
    createdAt: b.createdAt ?? "",
    lastModified: b.lastModified,
    storageClass: b.storageClass,
    storagePolicy: b.storagePolicy,
    bytes: b.bytes ?? 0,
    objectCount: b.objectCount ?? 0,
  };
}

function managedMetadata(all: Record<string, string>, managed: Record<string, string> | undefined): Record<string, string> {
  if (managed === undefined) return all;
  return Object.fromEntries(Object.entries(metadataAsDeclared(all, managed)).filter(([k]) => k in managed));
}

/**
 * Metadata as the cloud stores it, with each declared value the cloud holds the only way it can
 * reported as declared. Metadata travels in HTTP headers: leading and trailing spaces of a value are
 * not part of it, and an empty value is no value (Swift removes the key). Reported as stored, such a
 * value would show as a change at every preview that no update could make.
 */
export function metadataAsDeclared(stored: Record<string, string>, declared: Record<string, string> | undefined): Record<string, string> {
  const out = { ...stored };
  for (const [k, v] of Object.entries(declared ?? {})) {
    const kept = v.trim();
    if (kept === "" ? out[k] === undefined : out[k] === kept) out[k] = v;
  }
  return out;
}

function ctxProject(ctx: Context): string {
  return ctx.settings.projectId ?? "";
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { BucketArgs } from "./args";
/** An object storage bucket with encryption, public-read ACL and metadata. `name` is optional: when omitted, the logical name plus a suffix derived from the stack and resource. */
export const Bucket = resourceClass<BucketArgs, BucketOutputs>(bucket);
export type Bucket = InstanceType<typeof Bucket>;
