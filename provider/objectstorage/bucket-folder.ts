/**
 * krcloud:objectstorage:BucketFolder — a local folder of files as one resource under a bucket
 * prefix, what `swift upload` or a sync tool does, with a manifest in state instead of one resource
 * per file. `check` walks the folder (include and exclude globs, hidden files on or off) and hashes
 * every file into a manifest, key -> "<md5> <size> <contentType>". The input the engine compares is a
 * digest of it (`manifestDigest`); the manifest itself is an output only, so a 10,000-file folder
 * does not cross the engine as an input on every step (each crossing of a 10,000-entry map costs
 * seconds). Diff and update compare the recorded manifest with the folder's to know which files
 * changed, without reading a body from the bucket. Refresh reads the JSON listing of the prefix
 * (one request per 1,000 objects) and reports per key what differs, what is missing and what is
 * there that the folder did not upload (`extraObjects`).
 *
 * Ownership: every upload carries this create's marker (`krcloud-owner` metadata, as a
 * BucketObject). A create that finds a key of the folder already there takes it over only when the
 * object carries the marker (an earlier attempt: a lost answer, a killed `up`) and the same hash
 * skips the upload; otherwise it refuses before uploading anything, naming `adopt`.
 */
import { z } from "zod";
import { rethrowAs } from "../../client/core";
import type { ObjectStorageClient } from "../../client/objectstorage";
import { forEachLimit } from "../../client/objectstorage/concurrency";
import { markerOf, OWNER_METADATA_KEY, PartialFailure, defineResource, resourceClass } from "../core";
import { DEFAULT_MULTIPART_THRESHOLD, DEFAULT_PART_SIZE, headerValue, multipartThresholdInput, partSizeInput } from "./bucket-object";
import { objectStorage } from "./client";
import { changedFiles, decodeManifest, encodeManifest, manifestDigest, remember, totalBytes, type Manifest } from "./folder/manifest";
import { excluded, folderManifest, scanFolder } from "./folder/scan";
import { deleteAll, FOLDER_CONCURRENCY, listPrefix, storedEntry, storedMatches, uploadAll } from "./folder/upload";
import { bucketName } from "./validation";
import type { BucketFolderArgs } from "./args";

export { FOLDER_CONCURRENCY } from "./folder/upload";
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

const manifestDescription =
  'Each key with `"<MD5> <size> <content type>"` of its file (never the content); an MD5 reads `etag:<ETag>` where the stored object\'s ETag is no MD5 of what was uploaded.';

/** A glob: never empty, and no NUL byte (no file name holds one). */
function glob() {
  return z
    .string()
    .min(1, "a glob must not be empty")
    .regex(/^[^\0]*$/, "a glob must not contain a NUL character");
}

function bucketFolderShape() {
  return z.strictObject({
    bucket: bucketName().describe("The bucket. Changing it replaces the folder (uploads it to the new bucket, then deletes it from the old)."),
    path: z.string().min(1).describe("The local folder to upload, relative to the program's directory or absolute."),
    prefix: z
      .string()
      .regex(/^([^/].*\/)?$/, "must be empty or end with '/', and must not start with '/' (keys are the prefix plus each file's relative path)")
      .refine((p) => [...p].length <= 395, "must be at most 395 characters: each key is the prefix plus a file's path, and a key has at most 396")
      .default("")
      .describe("The key prefix the files go under, empty or ending with `/` (`site/`). Changing it replaces the folder."),
    include: z
      .array(glob())
      .min(1, "must name at least one glob (default: every file, `**`)")
      .default(["**"])
      .describe("Globs (picomatch syntax, relative to `path`) of the files to upload; default every file."),
    exclude: z.array(glob()).default([]).describe("Globs of files to leave out, e.g. `**/*.map`."),
    hidden: z.boolean().default(false).describe("Whether files and folders whose name starts with `.` are uploaded (default: left out)."),
    contentTypes: z
      .record(z.string().regex(/^\.[A-Za-z0-9][A-Za-z0-9._+-]*$/, "keys are file extensions with their dot, e.g. `.wasm`"), headerValue())
      .default({})
      .describe('Content types by file extension (with its dot: `{".md": "text/markdown"}`), over the ones derived from the extension.'),
    defaultContentType: headerValue()
      .default(DEFAULT_CONTENT_TYPE)
      .describe("The content type of files whose extension names none (default `application/octet-stream`)."),
    cacheControl: headerValue()
      .optional()
      .describe(
        "`Cache-Control` stored with every file; a change uploads every file again. Not verified by a refresh (the listing does not carry it, and reading it back would be one HEAD per file): a change made behind Pulumi's back is not reported as drift.",
      ),
    deleteRemoved: z
      .boolean()
      .default(true)
      .describe(
        "Whether files removed from the folder are deleted from the bucket (default true). False: removed files stay in the bucket, no longer managed. Objects under the prefix that the folder did not upload are never touched.",
      ),
    multipartThreshold: multipartThresholdInput().describe("Files larger than this many bytes are uploaded by multipart upload, as a BucketObject's."),
    partSize: partSizeInput().describe("Multipart part size in bytes, 5 MiB to 5 GiB."),
    adopt: z
      .boolean()
      .default(false)
      .describe("If objects under the prefix with the folder's keys exist and this stack did not make them, overwrite and manage them instead of failing."),
    manifestDigest: z
      .string()
      .optional()
      .describe(
        "Computed by the provider in the preview from the folder: a digest of its manifest (every key with its content's MD5, size and content type). A changed file changes it; the output `manifest` says which.",
      ),
  });
}

export function bucketFolderInputs() {
  return bucketFolderShape();
}
export type BucketFolderInputs = z.infer<ReturnType<typeof bucketFolderInputs>>;

export function bucketFolderOutputs() {
  return bucketFolderShape().extend({
    manifest: z.record(z.string(), z.string()).default({}).describe(manifestDescription),
    extraObjects: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        "Objects under the prefix that the folder did not upload and its exclude globs do not leave out, as the last refresh found them (same form as `manifest`): drift to look at. They are never deleted (another resource may own them).",
      ),
    fileCount: z.number().describe("The number of files in the bucket under the manifest."),
    totalBytes: z.number().describe("Their total size in bytes."),
    largeEtags: z
      .record(z.string(), z.string())
      .default({})
      .describe("The ETags of the files uploaded in parts (a multipart ETag is no MD5): a different ETag later is drift."),
    url: z.string().describe("The URL of the prefix (each file is this plus its relative path)."),
  });
}
export type BucketFolderOutputs = z.infer<ReturnType<typeof bucketFolderOutputs>>;

export const bucketFolder = defineResource("krcloud:objectstorage:BucketFolder", bucketFolderInputs, bucketFolderOutputs, {
  description:
    "A local folder of files under a bucket prefix, as one resource: state holds a manifest (key, MD5, size, content type), an update uploads only the changed files and deletes the removed ones, a refresh reads the listing (one request per 1,000 objects) and reports drift per key (a changed, missing or extra object; not `cacheControl`, which the listing does not carry). An import reads the listing into the manifest: the next `up` uploads only the files that differ.",
  replaceOn: ["bucket", "prefix"],
  // Under the same bucket and prefix (`up --replace`), the old folder's delete would remove what the
  // new one uploaded: deleted first. Elsewhere the new one is uploaded first.
  deleteBeforeReplace: (olds, news) => olds.bucket === news.bucket && olds.prefix === news.prefix,
  localInputs: ["adopt"],
  // The engine compares the manifest's digest; what differs is said per key from these.
  driftOutputs: ["manifest", "extraObjects"],
  replaceReason: "a folder's bucket and prefix are where its objects are: they are uploaded there and deleted from the old place",
  projectOf: (_outputs, configured) => configured,
  describe: (id) => `folder "${id}"`,
  importId: "`<bucket>/<prefix>`, the prefix empty or ending with `/` (`site-files/www/`)",
  unlisted: "a folder is a set of objects under a prefix, not a thing the service lists: list the bucket's objects instead",
  derive: [
    {
      from: ["path", "prefix", "include", "exclude", "hidden", "contentTypes", "defaultContentType", "multipartThreshold", "partSize"],
      to: "manifestDigest",
      compute: (i) => remember(scanFolder(i)),
    },
  ],
  diffNotes: (olds, news) => {
    if (olds.manifestDigest === news.manifestDigest || typeof news.manifestDigest !== "string") return [];
    // Removed files are named also when they stay in the bucket (deleteRemoved false): they leave the manifest.
    const c = changedFiles(decodeManifest(olds.manifest), folderManifest(news), true);
    const n = c.changed.length + c.added.length + c.removed.length;
    const first = [...c.changed.map((k) => `~${k}`), ...c.added.map((k) => `+${k}`), ...c.removed.map((k) => `-${k}`)].slice(0, 5);
    return [
      `${n} files differ (${c.changed.length} changed, ${c.added.length} added, ${c.removed.length} removed${news.deleteRemoved ? "" : ", left in the bucket"}): ${first.join(", ")}${n > 5 ? ", ..." : ""}`,
    ];
  },

  async create(ctx, inputs) {
    const c = objectStorage(ctx);
    const id = folderId(inputs);
    const manifest = folderManifest(inputs);
    const stored = await listPrefix(c, inputs.bucket, inputs.prefix);
    // Keys already there: this create's own (an earlier attempt) or, with adopt, taken over;
    // anything else is refused before a single upload.
    const present = [...manifest.keys()].filter((k) => stored.has(k));
    const mine = markerOf(ctx.createKey);
    const skip = new Set<string>();
    if (present.length > 0) {
      const foreign: string[] = [];
      await forEachLimit(present, FOLDER_CONCURRENCY, async (key) => {
        const h = await c.findObject(inputs.bucket, key).catch(rethrowAs(`reading object "${inputs.bucket}/${key}"`));
        if (h === undefined) return;
        const ours = mine !== undefined && h.metadata?.[OWNER_METADATA_KEY] === mine;
        if (!ours && !inputs.adopt) foreign.push(key);
        else if (storedMatches(stored.get(key)!, manifest.get(key)!) && (h.cacheControl ?? undefined) === inputs.cacheControl) skip.add(key);
      });
      if (foreign.length > 0) {
        foreign.sort();
        throw new Error(
          `creating ${bucketFolder.describe(id)}: ${foreign.length} of its keys exist already without this stack's ownership marker (${foreign
            .slice(0, 5)
            .map((k) => `"${k}"`)
            .join(
              ", ",
            )}${foreign.length > 5 ? ", ..." : ""}), so another stack (or someone outside Pulumi) made them. Set adopt: true on this resource to overwrite and manage them (its destroy will then delete them), or choose another prefix`,
        );
      }
      if (skip.size > 0)
        ctx.progress(
          `${bucketFolder.describe(id)}: ${skip.size} files are there already with this stack's marker and the same content (an earlier attempt); not uploading them again`,
        );
    }
    const todo = [...manifest.keys()].filter((k) => !skip.has(k));
    const done: Manifest = new Map();
    const largeEtags: Record<string, string> = {};
    for (const k of skip) {
      done.set(k, manifest.get(k)!);
      const e = stored.get(k)!.etag;
      if (e !== manifest.get(k)!.hash) largeEtags[k] = e;
    }
    try {
      await uploadAll(ctx, c, inputs, manifest, todo, done, largeEtags);
    } catch (e) {
      // What went up is recorded: the next `up` sees the missing entries as a change and uploads them.
      throw new PartialFailure(id, outputsOf(c, inputs, done, largeEtags), e);
    }
    return { id, outs: outputsOf(c, inputs, done, largeEtags) };
  },

  async read(ctx, id, olds) {
    const c = objectStorage(ctx);
    const imported = olds.bucket === undefined;
    const { bucket, prefix } = imported ? parseFolderId(id) : { bucket: olds.bucket, prefix: olds.prefix ?? "" };
    const stored = await listPrefix(c, bucket, prefix);
    const recorded = decodeManifest(olds.manifest);
    const largeEtags: Record<string, string> = {};
    const manifest: Manifest = new Map();
    const extra: Manifest = new Map();
    for (const [key, s] of stored) {
      const found = storedEntry(s);
      const r = recorded.get(key);
      // A key the folder did not upload may be another resource's (a BucketObject beside it, under
      // the same prefix): reported as drift of its own, never taken into the manifest, so never
      // deleted. An import takes every key under the prefix.
      if (r === undefined) {
        if (imported) manifest.set(key, found);
        else if (!excluded(key.slice(prefix.length), olds.exclude ?? [])) extra.set(key, found);
        continue;
      }
      const expectedEtag = olds.largeEtags?.[key] ?? r.hash;
      if (s.etag === expectedEtag && s.size === r.size && s.contentType === r.contentType) {
        manifest.set(key, r);
        if (olds.largeEtags?.[key] !== undefined) largeEtags[key] = s.etag;
      } else manifest.set(key, found);
    }
    if (!imported && manifest.size === 0 && recorded.size > 0) return undefined;
    const base: BucketFolderInputs = imported
      ? {
          bucket,
          prefix,
          path: ".",
          include: ["**"],
          exclude: [],
          hidden: false,
          contentTypes: {},
          defaultContentType: DEFAULT_CONTENT_TYPE,
          deleteRemoved: true,
          multipartThreshold: DEFAULT_MULTIPART_THRESHOLD,
          partSize: DEFAULT_PART_SIZE,
          adopt: false,
        }
      : olds;
    return { ...outputsOf(c, { ...base, bucket, prefix }, manifest, largeEtags), extraObjects: encodeManifest(extra) };
  },

  async update(ctx, id, current, news) {
    const c = objectStorage(ctx);
    const want = folderManifest(news);
    const have = decodeManifest(current.manifest);
    const diff = changedFiles(have, want, news.deleteRemoved);
    const changed = current.cacheControl !== news.cacheControl ? [...want.keys()] : [...diff.changed, ...diff.added];
    const removed = diff.removed;
    const done: Manifest = new Map();
    const largeEtags: Record<string, string> = {};
    const changing = new Set(changed);
    for (const [k, e] of want) {
      if (changing.has(k)) continue;
      done.set(k, e);
      if (current.largeEtags?.[k] !== undefined) largeEtags[k] = current.largeEtags[k];
    }
    // Removed files no longer managed (deleteRemoved false) drop out of the manifest; deleted ones
    // stay in it until their delete is done, so a failure leaves them to the next up.
    const keptRemoved: Manifest = new Map();
    if (news.deleteRemoved) for (const k of removed) keptRemoved.set(k, have.get(k)!);
    if (changed.length + (news.deleteRemoved ? removed.length : 0) > 0)
      ctx.progress(
        `${bucketFolder.describe(id)}: uploading ${changed.length} changed files${news.deleteRemoved ? `, deleting ${removed.length} removed ones` : ""}`,
      );
    try {
      await uploadAll(ctx, c, news, want, changed, done, largeEtags);
      if (news.deleteRemoved) await deleteAll(c, news.bucket, removed, (key) => keptRemoved.delete(key));
    } catch (e) {
      throw new PartialFailure(id, outputsOf(c, news, new Map([...keptRemoved, ...done]), largeEtags), e);
    }
    return outputsOf(c, news, done, largeEtags);
  },

  async delete(ctx, id, olds) {
    const c = objectStorage(ctx);
    const { bucket } = olds.bucket !== undefined ? olds : parseFolderId(id);
    const keys = Object.keys(olds.manifest ?? {});
    await deleteAll(c, bucket, keys);
    ctx.progress(`${bucketFolder.describe(id)}: ${keys.length} objects deleted`);
  },
});

function folderId(o: { bucket: string; prefix: string }): string {
  return `${o.bucket}/${o.prefix}`;
}

/** `{bucket}/{prefix}`: bucket names hold no `/`, so the first one splits. */
export function parseFolderId(id: string): { bucket: string; prefix: string } {
  const slash = id.indexOf("/");
  if (slash <= 0) throw new Error(`folder id "${id}" is not {bucket}/{prefix}`);
  const prefix = id.slice(slash + 1);
  if (prefix !== "" && !prefix.endsWith("/")) throw new Error(`folder id "${id}": the prefix must be empty or end with '/'`);
  return { bucket: id.slice(0, slash), prefix };
}

function outputsOf(c: ObjectStorageClient, inputs: BucketFolderInputs, manifest: Manifest, largeEtags: Record<string, string>): BucketFolderOutputs {
  const etags: Record<string, string> = {};
  for (const k of Object.keys(largeEtags).sort()) if (manifest.has(k)) etags[k] = largeEtags[k]!;
  return {
    ...inputs,
    // What was recorded, not what check saw: a partial upload (or a refresh's drift) differs from the folder, so the next up has work.
    manifestDigest: manifestDigest(manifest),
    manifest: encodeManifest(manifest),
    extraObjects: {},
    fileCount: manifest.size,
    totalBytes: totalBytes(manifest),
    largeEtags: etags,
    url: inputs.prefix === "" ? `${c.bucketUrl(inputs.bucket)}/` : c.objectUrl(inputs.bucket, inputs.prefix),
  };
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

export type { BucketFolderArgs } from "./args";
/** A local folder of files under a bucket prefix, as one resource. */
export const BucketFolder = resourceClass<BucketFolderArgs, BucketFolderOutputs>(bucketFolder);
export type BucketFolder = InstanceType<typeof BucketFolder>;
