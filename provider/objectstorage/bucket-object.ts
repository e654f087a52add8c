/**
 * krcloud:objectstorage:BucketObject — a file or a folder in a bucket, like aws.s3.BucketObject:
 * content from a local path or Pulumi asset (`source`), inline text (`content`) or Base64
 * (`contentBase64`). Content changes are detected by MD5, computed in `check` from a local source
 * without reading it into memory; uploads stream from the file, in parts over `multipartThreshold`.
 * Spec: 01-object-storage.md sections 2.2, 2.6, 4.3, 4.4, 8.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { isApiError, rethrowAs, withAction } from "../../client/core";
import {
  DEFAULT_PART_SIZE,
  MAX_PART_SIZE,
  MAX_SINGLE_UPLOAD_BYTES,
  MIN_PART_SIZE,
  OBJECT_PAGE_LIMIT,
  type ObjectStorageClient,
} from "../../client/objectstorage";
import {
  containsUnknown,
  markerOf,
  OWNER_METADATA_KEY,
  withoutReservedMetadata,
  PartialFailure,
  waitWithProgress,
  type Context,
  defineResource,
  reasonFor,
  resourceClass,
} from "../core";
import { metadataAsDeclared } from "./bucket";
import { objectStorage } from "./client";
import { claimKey, folderHolding } from "./folder/handover";
import {
  assetInput,
  BASE64,
  byteSource,
  canonicalSource,
  checkUploadLimits,
  hashFile,
  isMd5,
  resolveSource,
  sameSource,
  statAndHashFile,
  stripQuotes,
} from "./object-source";
import { bucketName, metadata, objectKey } from "./validation";
import type { BucketObjectArgs } from "./args";

const MIB = 1024 * 1024;
export { MIN_PART_SIZE, DEFAULT_PART_SIZE };
export const DEFAULT_MULTIPART_THRESHOLD = 16 * MIB;
export const DIRECTORY_TYPE = "application/directory";
/** How long a delete waits for the object to be gone. */
export const OBJECT_DELETE_TIMEOUT_MS = 2 * 60_000;

function bucketObjectShape() {
  return z.strictObject({
    bucket: bucketName().describe("The bucket. Changing it replaces the object."),
    key: objectKey().describe("Object name (full path, e.g. `images/logo.png`). Changing it replaces the object."),
    source: z
      .union([z.string().min(1), assetInput()], {
        // zod's own text for a value no option takes, "Invalid input", does not say what it takes.
        error: "must be a local file path or a Pulumi asset (FileAsset, StringAsset, or RemoteAsset with a file:// URI)",
      })
      .optional()
      .describe(
        "The content: a local file path, or a Pulumi asset: `FileAsset`, `StringAsset`, or `RemoteAsset` with a `file://` URI (http(s) is not supported: download it in the program). Files are streamed, never read into memory.",
      ),
    content: z.string().optional().describe("Inline UTF-8 content."),
    contentBase64: z.string().regex(BASE64, "must be Base64 (RFC 4648)").optional().describe("Inline binary content, Base64-encoded."),
    folder: z.boolean().default(false).describe("Create a folder (an `application/directory` object of size 0) instead of a file."),
    contentType: headerValue()
      .optional()
      .describe(
        "Content type; default `application/octet-stream` (files). A folder's is always `application/directory`, and any value given for a folder is recorded as that.",
      ),
    cacheControl: headerValue().optional().describe("`Cache-Control` stored with the object and answered on download."),
    contentDisposition: headerValue().optional().describe('`Content-Disposition` stored with the object, e.g. `attachment; filename="report.pdf"`.'),
    contentEncoding: headerValue().optional().describe("`Content-Encoding` stored with the object, e.g. `gzip` for pre-compressed content."),
    metadata: metadata().default({}).describe("User metadata (`X-Object-Meta-*`)."),
    multipartThreshold: multipartThresholdInput().describe(
      "Objects larger than this many bytes are uploaded by multipart upload; at most 5 GiB, the single-upload limit.",
    ),
    partSize: partSizeInput().describe(
      "Multipart part size in bytes, 5 MiB to 5 GiB; there may be at most 10000 parts, so partSize × 10000 must reach the object's size.",
    ),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "If an object with this key already exists and this stack did not make it (it lacks this stack's ownership marker), overwrite and manage it instead of failing.",
      ),
    contentMd5: z
      .string()
      .optional()
      .describe(
        "Computed by the provider from a file `source`: a change of the file's content is a change of this value. For inline content, set only when the stored object no longer matches it (`etag:<etag>`), so that the drift shows.",
      ),
  });
}

/** The size over which a file goes up in parts (a BucketObject's, each file of a BucketFolder). */
export function multipartThresholdInput() {
  return z
    .number()
    .int()
    .min(MIN_PART_SIZE, "must be at least 5 MiB (5242880 bytes): smaller objects never need parts")
    .max(MAX_SINGLE_UPLOAD_BYTES, "must be at most 5368709120 bytes (5 GiB): a single upload is limited to that")
    .default(DEFAULT_MULTIPART_THRESHOLD);
}

/** The size of each part of a multipart upload. */
export function partSizeInput() {
  return z
    .number()
    .int()
    .min(MIN_PART_SIZE, "parts must be at least 5 MiB (every part of a multipart upload but the last)")
    .max(MAX_PART_SIZE, "parts must be at most 5368709120 bytes (5 GiB): each is a single upload")
    .default(DEFAULT_PART_SIZE);
}

/**
 * A value that travels as an HTTP header (content type, cache control): undici refuses to send a
 * line break or a character beyond Latin-1.
 */
export function headerValue() {
  return z.string().regex(/^[\x20-\x7e]*$/, "must be printable ASCII (it travels as an HTTP header value)");
}

const inlineKeys = ["source", "content", "contentBase64"] as const;

export function bucketObjectInputs() {
  return bucketObjectShape()
    .refine((o) => o.folder || inlineKeys.filter((k) => o[k] !== undefined).length === 1, {
      message: "exactly one of source and content (or contentBase64) must be set for a file (or set folder: true)",
      path: ["source"],
    })
    .refine((o) => !o.folder || inlineKeys.every((k) => o[k] === undefined), {
      message: "a folder has no source or content (nor contentBase64)",
      path: ["folder"],
    })
    .refine((o) => o.folder || !o.key.endsWith("/"), {
      message: "a file's key must not end with '/': a name ending in '/' is a folder (set folder: true)",
      path: ["key"],
    })
    .refine((o) => !o.folder || [...folderName(o.key)].length <= 396, {
      message: "a folder is stored as its key with a trailing '/', which must fit in 396 characters: without the '/' the key may have at most 395",
      path: ["key"],
    });
}
export type BucketObjectInputs = z.infer<ReturnType<typeof bucketObjectInputs>>;

/** The name a folder is stored under, its key and a trailing "/" (createFolder): it must fit the object name limit too. */
function folderName(key: string): string {
  return key.endsWith("/") ? key : `${key}/`;
}

export function bucketObjectOutputs() {
  return bucketObjectShape().extend({
    etag: z.string().describe("The object's ETag as the service reports it (the MD5 of single-part uploads)."),
    size: z.number().describe("Size in bytes."),
    lastModified: z.string().optional().describe("Last modification time."),
    url: z.string().describe("The object's URL."),
  });
}
export type BucketObjectOutputs = z.infer<ReturnType<typeof bucketObjectOutputs>>;

export const bucketObject = defineResource("krcloud:objectstorage:BucketObject", bucketObjectInputs, bucketObjectOutputs, {
  description:
    "A file or folder in a bucket, with content from a file, a Pulumi asset, text or Base64. Uploads larger than `multipartThreshold` use multipart upload.",
  replaceOn: reasonFor(
    ["bucket", "key", "folder"],
    "an object's bucket, key and kind (folder or file) are what it is: another one is uploaded and this one deleted",
  ),
  // A replacement under the same key (`up --replace`) would otherwise upload over the object and
  // then delete it, and a create never overwrites an object of another create key: deleted first.
  // Under another key (or bucket) it is created first.
  deleteBeforeReplace: (olds, news) => containsUnknown([news.bucket, news.key, news.folder]) || objectId(olds) === objectId(news),
  localInputs: ["adopt"],
  // The ETag of single-part content is its MD5: with the size it tells a lot about secret content.
  secretWith: { content: ["etag", "size", "contentMd5"], contentBase64: ["etag", "size", "contentMd5"], source: ["etag", "size", "contentMd5"] },
  importId: "`<bucket>/<key>` (a folder: `<bucket>/<key>/`)",
  // The read is HEAD /v1/{project}/{bucket}/{key}: another project's token gets 403, so an object
  // found proves the token is the project's (a refresh of N objects is N requests).
  projectOf: (_outputs, configured) => configured,
  // The service stores the content, never shows it: after an import, the program's content stands
  // where the object's ETag is its MD5 (or a multipart ETag, which tells nothing), else it uploads.
  writeOnly: {
    paths: ["content", "contentBase64", "source", "contentMd5"],
    matches(recorded, news) {
      const etag = recorded.etag;
      if (typeof etag !== "string" || !isMd5(etag) || containsUnknown(news)) return true;
      const declared = typeof news.contentMd5 === "string" ? news.contentMd5 : inlineMd5(news);
      return declared === undefined || declared === etag;
    },
  },
  describe: (id) => `object "${id}"`,
  // A bucket's objects, by key prefix (`query.key`); folders are objects too (a subdir entry of a
  // delimited listing is not).
  list: {
    kind: ["object", "objects"],
    inputs: { bucket: "The bucket whose objects to list.", key: "Only the objects whose key starts with this." },
    parent: { token: "krcloud:objectstorage:Bucket", input: "bucket" },
    async page(ctx, { query, pageSize, continuation }) {
      const bucket = query?.bucket;
      if (bucket === undefined) throw new Error("listing objects: give the bucket (query `bucket`)");
      const limit = Math.min(pageSize ?? OBJECT_PAGE_LIMIT, OBJECT_PAGE_LIMIT);
      const page = await objectStorage(ctx).listObjects(bucket, { prefix: query?.key, marker: continuation, limit });
      const items = page.entries.flatMap((o) => (o.kind === "object" ? [{ id: `${bucket}/${o.name}`, name: o.name }] : []));
      return { items, continuation: page.nextMarker };
    },
  },

  derive: [
    // The Node SDK's asset brand, when a caller serialised the asset itself, is not state.
    { from: ["source"], to: "source", compute: (i) => canonicalSource(i.source) },
    // A folder is always stored as application/directory (createFolder): a contentType given for one
    // is recorded as that, or the object would show a diff at every preview.
    { from: ["folder", "contentType"], to: "contentType", compute: (i) => (i.folder && i.contentType !== undefined ? DIRECTORY_TYPE : i.contentType) },
    // A source file's content is not an input the engine can compare: its MD5 is. Inline content is
    // compared as itself, and hashing it would put a digest of a possibly secret value in state.
    // The spec's size limits are checked here too, where a file's size is first known (inline
    // content, a JavaScript string, stays far below 10000 parts of 5 MiB).
    {
      from: ["folder", "source"],
      to: "contentMd5",
      compute(i) {
        if (i.folder || i.source === undefined) return undefined;
        const r = resolveSource(i.source);
        if (r.kind === "text") return undefined;
        const { size, md5 } = statAndHashFile(r.path);
        // Part settings still unknown in a preview are checked again before the update.
        if (!containsUnknown([i.multipartThreshold, i.partSize])) checkUploadLimits(size, i.multipartThreshold, i.partSize, "source");
        return md5;
      },
    },
  ],

  async create(ctx, inputs) {
    const c = objectStorage(ctx);
    const id = objectId(inputs);
    await upload(ctx, c, inputs, inputs.adopt ? "overwrite" : "create");
    try {
      const outs = await readObject(c, inputs.bucket, objectPath(inputs), inputs);
      if (!outs) throw new Error(`object "${id}" was not found right after upload`);
      return { id, outs };
    } catch (e) {
      throw new PartialFailure(id, { ...inputs }, e);
    }
  },

  /** From the id alone (`pulumi import`: no olds), bucket and path come from the id. */
  readsFromList: { no: "a listing gives an object's size, hash and type, not its metadata and headers (a HEAD each)" },

  async read(ctx, id, olds) {
    const { bucket, path } = olds.bucket !== undefined && olds.key !== undefined ? { bucket: olds.bucket, path: objectPath(olds) } : parseObjectId(id);
    return readObject(objectStorage(ctx), bucket, path, olds);
  },

  async update(ctx, id, current, news) {
    const c = objectStorage(ctx);
    const contentChanged =
      current.contentMd5 !== news.contentMd5 ||
      current.content !== news.content ||
      current.contentBase64 !== news.contentBase64 ||
      // current comes from state, where the engine elides an asset's contents: compare hashes.
      !sameSource(current.source, news.source) ||
      (news.contentType !== undefined && current.contentType !== news.contentType);
    const headersChanged = (["cacheControl", "contentDisposition", "contentEncoding"] as const).some((k) => current[k] !== news[k]);
    if (contentChanged) {
      // A new upload replaces content, content type, headers and metadata at once.
      await upload(ctx, c, news, "overwrite");
    } else if (headersChanged || JSON.stringify(current.metadata) !== JSON.stringify(news.metadata)) {
      // Swift's POST replaces the metadata and these headers together: send the whole desired set,
      // the ownership marker included.
      await c
        .setObjectMetadata(news.bucket, objectPath(news), withOwner(ctx, news.metadata), {
          contentType: news.contentType,
          cacheControl: news.cacheControl,
          contentDisposition: news.contentDisposition,
          contentEncoding: news.contentEncoding,
        })
        .catch(rethrowAs(`setting the metadata of object "${id}"`));
    }
    const outs = await readObject(c, news.bucket, objectPath(news), news);
    if (!outs) throw new Error(`object "${id}" disappeared while it was being updated`);
    return outs;
  },

  async delete(ctx, id, olds) {
    const c = objectStorage(ctx);
    const { bucket, path } = olds.bucket !== undefined && olds.key !== undefined ? { bucket: olds.bucket, path: objectPath(olds) } : parseObjectId(id);
    // An object a BucketFolder took over (the move to one folder, folder/handover.ts) is the
    // folder's now: this resource leaves the state, the object stays.
    const holder = await folderHolding(c, bucket, path);
    if (holder !== undefined) {
      ctx.progress(
        holder.known
          ? `object "${id}" is left in the bucket: it is a file of the BucketFolder under "${bucket}/${holder.prefix}", which took it over`
          : `object "${id}" is left in the bucket: a BucketFolder took over the objects under "${bucket}/${holder.prefix}" (bucket metadata ${claimKey(holder.prefix)}): it is the folder's to keep, or to delete with its own delete`,
      );
      return;
    }
    await c.deleteObjectIfExists(bucket, path).catch(rethrowAs(`deleting object "${id}"`));
    await waitObjectDeleted(ctx, c, bucket, path);
  },
});

function objectId(o: Pick<BucketObjectInputs, "bucket" | "key" | "folder">): string {
  return `${o.bucket}/${objectPath(o)}`;
}

/** `{bucket}/{path}`: bucket names hold no `/`, so the first one splits. */
export function parseObjectId(id: string): { bucket: string; path: string } {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1) throw new Error(`object id "${id}" is not {bucket}/{key}`);
  return { bucket: id.slice(0, slash), path: id.slice(slash + 1) };
}

/** Folders are stored under their name with a trailing slash (section 4.3). */
function objectPath(o: Pick<BucketObjectInputs, "key" | "folder">): string {
  return o.folder && !o.key.endsWith("/") ? `${o.key}/` : o.key;
}

/** The object's metadata as sent: the program's, and the ownership marker of its create key. */
function withOwner(ctx: Context, metadata: Record<string, string>): Record<string, string> {
  const marker = markerOf(ctx.createKey);
  return marker === undefined ? metadata : { ...metadata, [OWNER_METADATA_KEY]: marker };
}

/**
 * An upload. A create (`mode: "create"`) never overwrites an object this stack did not make: a
 * single PUT carries `If-None-Match: *` (Swift refuses it with 412 when the key exists; a large
 * upload looks first), and an existing object is overwritten only when it carries this create's
 * ownership marker (an earlier attempt whose answer was lost, or a killed `up`). Otherwise the
 * create is refused, naming `adopt`.
 */
async function upload(ctx: Context, c: ObjectStorageClient, inputs: BucketObjectInputs, mode: "create" | "overwrite"): Promise<void> {
  const id = objectId(inputs);
  const path = objectPath(inputs);
  const metadata = withOwner(ctx, inputs.metadata);
  const ifAbsent = mode === "create" ? { "if-none-match": "*" } : undefined;
  /** On a 412 from a conditional create: whether the existing object is this create's own. */
  const existingIsOurs = async (): Promise<boolean> => {
    const found = await c.findObject(inputs.bucket, path).catch(rethrowAs(`reading object "${id}"`));
    if (found === undefined) return true;
    const mine = markerOf(ctx.createKey);
    if (mine !== undefined && found.metadata?.[OWNER_METADATA_KEY] === mine) {
      ctx.progress(`object "${id}" exists already and carries this stack's ownership marker (an earlier attempt made it); overwriting it`);
      return true;
    }
    throw new Error(
      `creating object "${id}": an object with this key exists, and it does not carry this stack's ownership marker, so another stack (or someone outside Pulumi) made it. Set adopt: true on this resource to overwrite and manage it (its destroy will then delete it), or choose another key`,
    );
  };
  const conditional = async (send: (headers: Record<string, string> | undefined) => Promise<unknown>): Promise<void> => {
    try {
      await send(ifAbsent);
    } catch (e) {
      if (!(ifAbsent && isApiError(e) && e.status === 412)) throw e;
      if (await existingIsOurs()) await send(undefined);
    }
  };
  try {
    if (inputs.folder) {
      await conditional((h) => c.createFolder(inputs.bucket, inputs.key.replace(/\/+$/, ""), metadata, { headers: h }));
      return;
    }
    const r = inputs.source === undefined ? undefined : resolveSource(inputs.source);
    const changed = () => new Error(`the content of "${r?.kind === "file" ? r.path : "source"}" changed since it was checked; run again`);
    const data = byteSource(inputs);
    const headers = {
      contentType: inputs.contentType,
      cacheControl: inputs.cacheControl,
      contentDisposition: inputs.contentDisposition,
      contentEncoding: inputs.contentEncoding,
      metadata,
    };
    if (data.size > inputs.multipartThreshold) {
      // Parts go up out of order and the multipart ETag is no MD5: the file is hashed again first.
      if (r?.kind === "file" && (await hashFile(r.path)) !== inputs.contentMd5) throw changed();
      // A large upload completes in a request no condition can guard: it looks first.
      if (ifAbsent) await existingIsOurs();
      const parts = Math.ceil(data.size / inputs.partSize);
      ctx.progress(`uploading "${id}" (${data.size} bytes) in ${parts} parts`);
      await c.uploadLarge(inputs.bucket, inputs.key, data, {
        ...headers,
        partSize: inputs.partSize,
        onProgress: (done: number) => ctx.progress(`"${id}": part ${done}/${parts} uploaded`),
      });
    } else {
      // A single PUT carries the MD5 from check as its ETag header: the service refuses (422) a
      // file that changed since, without a second read of the file here.
      const expectedMd5 = r?.kind === "file" ? inputs.contentMd5 : undefined;
      await conditional((h) =>
        c.putObject(inputs.bucket, inputs.key, data, { ...headers, expectedMd5, headers: h }).catch((e: unknown) => {
          throw expectedMd5 !== undefined && isApiError(e) && e.status === 422 ? withAction(e, changed().message) : e;
        }),
      );
    }
  } catch (e) {
    throw withAction(e, `uploading object "${id}"`);
  }
}

async function waitObjectDeleted(ctx: Context, c: ObjectStorageClient, bucket: string, path: string): Promise<void> {
  await waitWithProgress(ctx, {
    resource: `object "${bucket}/${path}"`,
    status: () => c.findObject(bucket, path).catch(rethrowAs(`reading object "${bucket}/${path}"`)),
    stateOf: () => "present",
    target: [],
    targetGone: true,
    timeoutMs: OBJECT_DELETE_TIMEOUT_MS,
  });
}

/**
 * The object as stored. The content's MD5 cannot be recomputed remotely for multipart objects, so
 * it is carried over while the ETag is the one recorded at upload; a different ETag means the
 * content changed behind our back and is reported as the MD5 (or `etag:<etag>`) so that it shows
 * as drift. Inline content is checked against its own MD5 where the ETag is one. With no prior
 * (import) everything is reported as the service has it.
 */
async function readObject(c: ObjectStorageClient, bucket: string, path: string, prior: Partial<BucketObjectOutputs>): Promise<BucketObjectOutputs | undefined> {
  const h = await c.findObject(bucket, path).catch(rethrowAs(`reading object "${bucket}/${path}"`));
  if (!h) return undefined;
  const imported = prior.key === undefined;
  const folder = imported ? path.endsWith("/") && h.contentType?.split(";")[0]?.trim() === DIRECTORY_TYPE : (prior.folder ?? false);
  const key = imported && folder ? path.replace(/\/+$/, "") : (prior.key ?? path);
  const etag = stripQuotes(h.etag ?? "");
  const reportType = imported ? !folder : prior.contentType !== undefined;
  return {
    bucket,
    key,
    source: prior.source,
    content: prior.content,
    contentBase64: prior.contentBase64,
    folder,
    contentType: reportType ? h.contentType : undefined,
    cacheControl: h.cacheControl,
    contentDisposition: h.contentDisposition,
    contentEncoding: h.contentEncoding,
    // The ownership marker is krcloud's, never the program's: it shows neither as metadata nor as drift.
    metadata: metadataAsDeclared(withoutReservedMetadata(h.metadata ?? {}), prior.metadata),
    multipartThreshold: prior.multipartThreshold ?? DEFAULT_MULTIPART_THRESHOLD,
    partSize: prior.partSize ?? DEFAULT_PART_SIZE,
    adopt: prior.adopt ?? false,
    // Imported: what the content is cannot be known (writeOnly compares the program's with the ETag).
    contentMd5: folder || imported ? undefined : storedContentMd5(prior, etag),
    etag,
    size: h.contentLength ?? 0,
    lastModified: h.lastModified,
    url: c.objectUrl(bucket, path),
  };
}

function storedContentMd5(prior: Partial<BucketObjectOutputs>, etag: string): string | undefined {
  const priorEtag = prior.etag;
  const changed = etag !== priorEtag;
  const asMd5 = isMd5(etag) ? etag : `etag:${etag}`;
  const inline = prior.content ?? (prior.contentBase64 !== undefined ? Buffer.from(prior.contentBase64, "base64") : undefined) ?? inlineAssetText(prior.source);
  if (inline !== undefined) {
    // A plain ETag is the content's MD5: compare. A multipart ETag is taken as the upload recorded
    // it, and a different one later is drift, whose marker is carried until an upload clears it.
    if (isMd5(etag)) return etag === md5(inline) ? undefined : etag;
    if (priorEtag === undefined) return undefined;
    return changed ? asMd5 : prior.contentMd5;
  }
  if (priorEtag === undefined) return isMd5(etag) ? etag : prior.contentMd5;
  return changed ? asMd5 : prior.contentMd5;
}

/** The MD5 of inline content (`content`, `contentBase64` or a text asset); undefined for none. */
function inlineMd5(i: Partial<BucketObjectInputs>): string | undefined {
  const inline = i.content ?? (i.contentBase64 !== undefined ? Buffer.from(i.contentBase64, "base64") : undefined) ?? inlineAssetText(i.source);
  return inline === undefined ? undefined : md5(inline);
}

function inlineAssetText(s: BucketObjectInputs["source"] | undefined): string | undefined {
  return s !== undefined && typeof s !== "string" ? s.text : undefined;
}

function md5(b: Buffer | string): string {
  return createHash("md5").update(b).digest("hex");
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { BucketObjectArgs } from "./args";
/** A file or folder in a bucket. */
export const BucketObject = resourceClass<BucketObjectArgs, BucketObjectOutputs>(bucketObject);
export type BucketObject = InstanceType<typeof BucketObject>;
