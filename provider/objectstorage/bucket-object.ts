/**
 * krcloud:objectstorage:BucketObject — a file (from a local `source` path or inline `content`) or a
 * folder in a bucket. Content changes are detected by MD5, computed in `check` from the local
 * source; objects over the multipart threshold are uploaded in parts of at least 5 MiB.
 * Seed: 01-object-storage.md sections 2.2, 2.6, 4.3, 4.4.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { z } from "zod";
import { rethrowAs, withAction } from "../../sdk/core";
import type { ObjectStorageClient } from "../../sdk/objectstorage";
import { CheckError, PartialFailure, type Context, type ResourceDefinition } from "../core";
import { objectStorage } from "./client";
import { bucketName, metadata, objectKey } from "./validation";

const MIB = 1024 * 1024;
/** Section 4.4: every part but the last is at least 5 MB. */
export const MIN_PART_SIZE = 5 * MIB;
export const DEFAULT_MULTIPART_THRESHOLD = 16 * MIB;
export const DEFAULT_PART_SIZE = 8 * MIB;

function bucketObjectShape() {
  return z
    .object({
      bucket: bucketName().describe("The bucket. Changing it replaces the object."),
      key: objectKey().describe("Object name (full path, e.g. `images/logo.png`). Changing it replaces the object."),
      source: z.string().min(1).optional().describe("Path of a local file to upload."),
      content: z.string().optional().describe("Inline UTF-8 content."),
      folder: z.boolean().default(false).describe("Create a folder (an `application/directory` object of size 0) instead of a file."),
      contentType: z.string().optional().describe("Content type; default `application/octet-stream` (files) or `application/directory` (folders)."),
      metadata: metadata().default({}).describe("User metadata (`X-Object-Meta-*`)."),
      multipartThreshold: z.number().int().min(MIN_PART_SIZE, "must be at least 5 MiB (5242880 bytes): smaller objects never need parts").default(DEFAULT_MULTIPART_THRESHOLD).describe("Objects larger than this many bytes are uploaded by multipart upload."),
      partSize: z.number().int().min(MIN_PART_SIZE, "parts must be at least 5 MiB (seed section 4.4)").default(DEFAULT_PART_SIZE).describe("Multipart part size in bytes, at least 5 MiB."),
      contentMd5: z
        .string()
        .optional()
        .describe("Computed by the provider from `source`: a change of the file's content is a change of this value. For inline `content`, set only when the stored object no longer matches it (`etag:<etag>`), so that the drift shows."),
    })
    .strict();
}

export function bucketObjectInputs() {
  return bucketObjectShape()
    .refine((o) => o.folder || (o.source === undefined) !== (o.content === undefined), {
      message: "exactly one of source and content must be set for a file (or set folder: true)",
      path: ["source"],
    })
    .refine((o) => !o.folder || (o.source === undefined && o.content === undefined), {
      message: "a folder has no source or content",
      path: ["folder"],
    });
}
export type BucketObjectInputs = z.infer<ReturnType<typeof bucketObjectInputs>>;

export function bucketObjectOutputs() {
  return bucketObjectShape().extend({
    etag: z.string().describe("The object's ETag as the service reports it (the MD5 of single-part uploads)."),
    size: z.number().describe("Size in bytes."),
    lastModified: z.string().optional().describe("Last modification time."),
    url: z.string().describe("The object's URL."),
  });
}
export type BucketObjectOutputs = z.infer<ReturnType<typeof bucketObjectOutputs>>;

export const bucketObject: ResourceDefinition<BucketObjectInputs, BucketObjectOutputs> = {
  token: "krcloud:objectstorage:BucketObject",
  description: "A file or folder in a bucket. Uploads larger than `multipartThreshold` use multipart upload.",
  inputs: bucketObjectInputs,
  outputs: bucketObjectOutputs,
  replaceOn: ["bucket", "key", "folder"],
  // The ETag of single-part content is its MD5: with the size it tells a lot about secret content.
  secretWith: { content: ["etag", "size", "contentMd5"] },
  describe: (id) => `object "${id}"`,

  // A source file's content is not an input the engine can compare: its MD5 is. Inline content is
  // compared as itself, and hashing it would put a digest of a possibly secret value in state.
  derive: [
    {
      from: ["folder", "source"],
      to: "contentMd5",
      compute(inputs) {
        if (inputs.folder || inputs.source === undefined) return undefined;
        try {
          if (!statSync(inputs.source).isFile()) throw new Error("not a file");
        } catch {
          throw new CheckError("source", `file "${inputs.source}" does not exist or is not a regular file`);
        }
        return md5(readFileSync(inputs.source));
      },
    },
  ],

  async create(ctx, inputs) {
    const c = objectStorage(ctx);
    const id = objectId(inputs);
    await upload(ctx, c, inputs);
    try {
      const outs = await readObject(c, inputs.bucket, inputs.key, inputs);
      if (!outs) throw new Error(`object "${id}" was not found right after upload`);
      return { id, outs };
    } catch (e) {
      throw new PartialFailure(id, { ...inputs }, e);
    }
  },

  async read(ctx, id, olds) {
    // An import reads from the id alone (`bucket/key`, folders `bucket/key/`).
    if (olds.bucket === undefined || olds.key === undefined) {
      const { bucket, key, folder } = parseObjectId(id);
      return readObject(objectStorage(ctx), bucket, key, { folder } as BucketObjectInputs);
    }
    return readObject(objectStorage(ctx), olds.bucket, olds.key, olds);
  },

  async update(ctx, id, current, news) {
    const c = objectStorage(ctx);
    const contentChanged =
      current.contentMd5 !== news.contentMd5 ||
      current.content !== news.content ||
      current.source !== news.source ||
      (news.contentType !== undefined && current.contentType !== news.contentType);
    if (contentChanged) {
      // A new upload replaces content, content type and metadata at once.
      await upload(ctx, c, news);
    } else if (JSON.stringify(current.metadata) !== JSON.stringify(news.metadata)) {
      await c
        .setObjectMetadata(news.bucket, objectPath(news), news.metadata)
        .catch(rethrowAs(`setting the metadata of object "${id}"`));
    }
    const outs = await readObject(c, news.bucket, news.key, news);
    if (!outs) throw new Error(`object "${id}" disappeared while it was being updated`);
    return outs;
  },

  async delete(ctx, _id, olds) {
    await objectStorage(ctx)
      .deleteObjectIfExists(olds.bucket, objectPath(olds))
      .catch(rethrowAs(`deleting object "${objectId(olds)}"`));
  },
};

function objectId(o: Pick<BucketObjectInputs, "bucket" | "key" | "folder">): string {
  return `${o.bucket}/${objectPath(o)}`;
}

/** The inverse of objectId. */
export function parseObjectId(id: string): { bucket: string; key: string; folder: boolean } {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1) throw new Error(`object id "${id}" is not of the form <bucket>/<key>`);
  const path = id.slice(slash + 1);
  const folder = path.endsWith("/");
  return { bucket: id.slice(0, slash), key: folder ? path.replace(/\/+$/, "") : path, folder };
}

/** Folders are stored under their name with a trailing slash (section 4.3). */
function objectPath(o: Pick<BucketObjectInputs, "key" | "folder">): string {
  return o.folder && !o.key.endsWith("/") ? `${o.key}/` : o.key;
}

function md5(b: Buffer): string {
  return createHash("md5").update(b).digest("hex");
}

function body(inputs: BucketObjectInputs): Buffer {
  if (inputs.source !== undefined) return readFileSync(inputs.source);
  return Buffer.from(inputs.content ?? "", "utf8");
}

async function upload(ctx: Context, c: ObjectStorageClient, inputs: BucketObjectInputs): Promise<void> {
  const id = objectId(inputs);
  try {
    if (inputs.folder) {
      await c.createFolder(inputs.bucket, inputs.key.replace(/\/+$/, ""), inputs.metadata);
      return;
    }
    const data = body(inputs);
    if (inputs.source !== undefined && md5(data) !== inputs.contentMd5) {
      throw new Error(`the content of "${inputs.source}" changed between preview and update; run again`);
    }
    if (data.length > inputs.multipartThreshold) {
      const parts = Math.ceil(data.length / inputs.partSize);
      ctx.progress(`uploading "${id}" (${data.length} bytes) in ${parts} parts`);
      await c.uploadLarge(inputs.bucket, inputs.key, data, {
        partSize: inputs.partSize,
        contentType: inputs.contentType,
        metadata: inputs.metadata,
        onProgress: (done: number) => ctx.progress(`"${id}": part ${done}/${parts} uploaded`),
      });
    } else {
      await c.putObject(inputs.bucket, inputs.key, data, { contentType: inputs.contentType, metadata: inputs.metadata });
    }
  } catch (e) {
    throw withAction(e, `uploading object "${id}"`);
  }
}

/**
 * The object as stored. The content's MD5 cannot be recomputed remotely for multipart objects, so
 * it is carried over while the ETag is the one recorded at upload; a different ETag means the
 * content changed behind our back and is reported as the MD5 (or `etag:<etag>`) so that it shows
 * as drift. Inline content is checked against its own MD5 where the ETag is one.
 */
async function readObject(c: ObjectStorageClient, bucket: string, key: string, prior: BucketObjectInputs | BucketObjectOutputs): Promise<BucketObjectOutputs | undefined> {
  const path = objectPath({ key, folder: prior.folder });
  const h = await c.findObject(bucket, path).catch(rethrowAs(`reading object "${bucket}/${path}"`));
  if (!h) return undefined;
  const etag = stripQuotes(h.etag ?? "");
  return {
    bucket,
    key,
    source: prior.source,
    content: prior.content,
    folder: prior.folder ?? false,
    contentType: prior.contentType === undefined ? undefined : h.contentType,
    metadata: h.metadata ?? {},
    multipartThreshold: prior.multipartThreshold ?? DEFAULT_MULTIPART_THRESHOLD,
    partSize: prior.partSize ?? DEFAULT_PART_SIZE,
    contentMd5: storedContentMd5(prior, etag),
    etag,
    size: h.contentLength ?? 0,
    lastModified: h.lastModified,
    url: c.objectUrl(bucket, path),
  };
}

function storedContentMd5(prior: BucketObjectInputs | BucketObjectOutputs, etag: string): string | undefined {
  if (prior.folder) return undefined;
  const priorEtag = (prior as Partial<BucketObjectOutputs>).etag;
  const changed = etag !== priorEtag;
  const asMd5 = isMd5(etag) ? etag : `etag:${etag}`;
  if (prior.content !== undefined) {
    // A plain ETag is the content's MD5: compare. A multipart ETag is taken as the upload recorded
    // it, and a different one later is drift, whose marker is carried until an upload clears it.
    if (isMd5(etag)) return etag === md5(Buffer.from(prior.content, "utf8")) ? undefined : etag;
    if (priorEtag === undefined) return undefined;
    return changed ? asMd5 : prior.contentMd5;
  }
  if (priorEtag === undefined) return isMd5(etag) ? etag : prior.contentMd5;
  return changed ? asMd5 : prior.contentMd5;
}

function isMd5(etag: string): boolean {
  return /^[0-9a-f]{32}$/.test(etag);
}

function stripQuotes(s: string): string {
  return s.replace(/^"|"$/g, "");
}
