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
import { forEachLimit } from "../../client/core/concurrency";
import { containsUnknown, markerOf, OWNER_METADATA_KEY, PartialFailure, defineResource, reasonFor, resourceClass, type Context } from "../core";
import { DEFAULT_MULTIPART_THRESHOLD, DEFAULT_PART_SIZE, headerValue, multipartThresholdInput, partSizeInput } from "./bucket-object";
import { objectStorage } from "./client";
import { changedFiles, decodeManifest, encodeManifest, manifestDigest, remember, totalBytes, type Manifest } from "./folder/manifest";
import { folderDeleting, knowFolder, removeClaim, takeLeft, writeClaim } from "./folder/handover";
import { excluded, folderManifest, scanFolder } from "./folder/scan";
import { deleteAll, FOLDER_CONCURRENCY, listPrefix, storedEntry, storedMatches, uploadAll, type Stored } from "./folder/upload";
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
        "Whether files removed from the folder are deleted from the bucket (default true). False: removed files stay in the bucket, no longer managed. Objects under the prefix that the folder did not upload are governed by `deleteExtraObjects`.",
      ),
    deleteExtraObjects: z
      .boolean()
      .default(false)
      .describe(
        "Whether objects under the prefix that the folder did not upload and its exclude globs do not leave out (`extraObjects`) are deleted: by every update (a refresh that finds one plans an update) and by destroy. Default false: they are kept, reported in `extraObjects` (drift to look at), and neither an update nor destroy touches them. Keys outside the prefix are never touched.",
      ),
    multipartThreshold: multipartThresholdInput().describe("Files larger than this many bytes are uploaded by multipart upload, as a BucketObject's."),
    partSize: partSizeInput().describe("Multipart part size in bytes, 5 MiB to 5 GiB."),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "If objects under the prefix with the folder's keys exist and this stack did not make them, manage them instead of failing: those whose content, size and content type are the file's are taken as they are (from the listing, no upload; with `cacheControl` set, one HEAD each to compare it), the others are overwritten. This is how a stack of BucketObjects moves to one BucketFolder in one `up` without writing or deleting an object: the folder records in the bucket's metadata that it holds them, and the old BucketObjects' deletes leave them.",
      ),
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
        "Objects under the prefix that the folder did not upload and its exclude globs do not leave out, as the last create, update or refresh found them (same form as `manifest`): drift to look at. Kept unless `deleteExtraObjects` is set (another resource may own them); to accept one, add its key (relative to the prefix) to `exclude`.",
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
    "A local folder of files under a bucket prefix, as one resource: state holds a manifest (key, MD5, size, content type), an update uploads only the changed files and deletes the removed ones, a refresh reads the listing (one request per 1,000 objects) and reports drift per key (a changed, missing or extra object; not `cacheControl`, which the listing does not carry). An import reads the listing into the manifest: the next `up` uploads only the files that differ. With `adopt`, it takes over the objects of per-file BucketObjects in one `up` without writing or deleting one.",
  replaceOn: reasonFor(["bucket", "prefix"], "a folder's bucket and prefix are where its objects are: they are uploaded there and deleted from the old place"),
  // Under the same bucket and prefix (`up --replace`), the old folder's delete would remove what the
  // new one uploaded: deleted first. Elsewhere the new one is uploaded first.
  deleteBeforeReplace: (olds, news) => olds.bucket === news.bucket && olds.prefix === news.prefix,
  localInputs: ["adopt"],
  // The engine compares the manifest's digest; what differs is said per key from these.
  driftOutputs: ["manifest", "extraObjects"],
  projectOf: (_outputs, configured) => configured,
  describe: (id) => `folder "${id}"`,
  importId: "`<bucket>/<prefix>`, the prefix empty or ending with `/` (`site-files/www/`)",
  unlisted: "a folder is a set of objects under a prefix, not a thing the service lists: list the bucket's objects instead",
  derive: [
    {
      from: ["path", "prefix", "include", "exclude", "hidden", "contentTypes", "defaultContentType", "multipartThreshold", "partSize"],
      to: "manifestDigest",
      compute: (i) => {
        const m = scanFolder(i);
        // This process's BucketObject deletes ask which keys are a folder's (folder/handover.ts).
        if (!containsUnknown(i.bucket)) knowFolder(i.bucket, i.prefix, m.keys());
        return remember(m);
      },
    },
  ],
  diffNotes: (olds, news) => {
    const notes: string[] = [];
    if (olds.manifestDigest !== news.manifestDigest && typeof news.manifestDigest === "string") {
      // Removed files are named also when they stay in the bucket (deleteRemoved false): they leave the manifest.
      const c = changedFiles(decodeManifest(olds.manifest), folderManifest(news), true);
      const n = c.changed.length + c.added.length + c.removed.length;
      const first = [...c.changed.map((k) => `~${k}`), ...c.added.map((k) => `+${k}`), ...c.removed.map((k) => `-${k}`)].slice(0, 5);
      if (n > 0)
        notes.push(
          `${amount(n, "file")} ${n === 1 ? "differs" : "differ"} (${c.changed.length} changed, ${c.added.length} added, ${c.removed.length} removed${news.deleteRemoved ? "" : ", left in the bucket"}): ${first.join(", ")}${n > 5 ? ", ..." : ""}`,
        );
    }
    const extra = news.deleteExtraObjects ? extraToDelete(decodeManifest(olds.extraObjects), news) : [];
    if (extra.length > 0)
      notes.push(
        `${amount(extra.length, "object")} under the prefix that the folder did not upload ${extra.length === 1 ? "is" : "are"} deleted (deleteExtraObjects): ${extra.slice(0, 5).join(", ")}${extra.length > 5 ? ", ..." : ""}`,
      );
    return notes;
  },

  async create(ctx, inputs) {
    const c = objectStorage(ctx);
    const id = folderId(inputs);
    const manifest = folderManifest(inputs);
    knowFolder(inputs.bucket, inputs.prefix, manifest.keys());
    // Without adopt, every key must be seen (a key beyond a lagging object count would be uploaded
    // over without the ownership check): the listing goes on to its short page.
    const stored = await listPrefix(c, inputs.bucket, inputs.prefix, { toShortPage: !inputs.adopt });
    const present = [...manifest.keys()].filter((k) => stored.has(k));
    const skip = await alreadyThere(ctx, c, inputs, manifest, stored, present);
    // A handover (objects this folder did not upload, taken over with adopt): recorded in the
    // bucket before the folder is, so the old BucketObjects' deletes leave them, whenever they run.
    if (inputs.adopt && present.length > 0) {
      await writeClaim(c, inputs.bucket, inputs.prefix, markerOf(ctx.createKey), inputs.exclude);
      ctx.progress(
        `${bucketFolder.describe(id)}: ${skip.size} of the ${present.length} objects already there hold the files' content and are taken over as they are`,
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
    const extra = extraIn(stored, manifest, inputs);
    try {
      await uploadAll(ctx, c, inputs, manifest, todo, done, largeEtags);
      if (inputs.deleteExtraObjects) await deleteAll(c, inputs.bucket, [...extra.keys()], (k) => extra.delete(k));
    } catch (e) {
      // What went up is recorded: the next `up` sees the missing entries as a change and uploads them.
      throw new PartialFailure(id, outputsOf(c, inputs, done, largeEtags, extra), e);
    }
    return { id, outs: outputsOf(c, inputs, done, largeEtags, extra) };
  },

  readsFromList: { no: "its read is a listing already (the objects under its prefix), one per folder" },

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
      // deleted but by deleteExtraObjects. An import takes every key under the prefix.
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
    knowFolder(bucket, prefix, manifest.keys());
    const base: BucketFolderInputs = imported ? { ...importedInputs(), bucket, prefix } : olds;
    return outputsOf(c, { ...base, bucket, prefix }, manifest, largeEtags, extra);
  },

  async update(ctx, id, current, news) {
    const c = objectStorage(ctx);
    const want = folderManifest(news);
    knowFolder(news.bucket, news.prefix, want.keys());
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
    // What the update's read found under the prefix that is not the folder's, with the new globs.
    const extra = new Map([...decodeManifest(current.extraObjects)].filter(([k]) => !want.has(k) && !excluded(k.slice(news.prefix.length), news.exclude)));
    const strays = news.deleteExtraObjects ? [...extra.keys()] : [];
    if (changed.length + (news.deleteRemoved ? removed.length : 0) + strays.length > 0)
      ctx.progress(
        `${bucketFolder.describe(id)}: uploading ${amount(changed.length, "changed file")}${news.deleteRemoved ? `, deleting ${amount(removed.length, "removed one")}` : ""}${strays.length > 0 ? ` and ${amount(strays.length, "object")} it did not upload` : ""}`,
      );
    try {
      await uploadAll(ctx, c, news, want, changed, done, largeEtags);
      if (news.deleteRemoved) await deleteAll(c, news.bucket, removed, (key) => keptRemoved.delete(key));
      await deleteAll(c, news.bucket, strays, (key) => extra.delete(key));
    } catch (e) {
      throw new PartialFailure(id, outputsOf(c, news, new Map([...keptRemoved, ...done]), largeEtags, extra), e);
    }
    return outputsOf(c, news, done, largeEtags, extra);
  },

  async delete(ctx, id, olds) {
    const c = objectStorage(ctx);
    const { bucket, prefix } = olds.bucket !== undefined ? { bucket: olds.bucket, prefix: olds.prefix ?? "" } : parseFolderId(id);
    folderDeleting(bucket, prefix);
    const keys = new Set(Object.keys(olds.manifest ?? {}));
    // Only under the prefix, never another key of the bucket; objects the folder did not upload only with deleteExtraObjects.
    if (olds.deleteExtraObjects === true)
      for (const k of (await listPrefix(c, bucket, prefix)).keys()) if (!excluded(k.slice(prefix.length), olds.exclude ?? [])) keys.add(k);
    await deleteAll(c, bucket, [...keys]);
    await removeClaim(c, bucket, prefix);
    // Objects this process's BucketObject deletes left to the folder (they were handed over to it).
    const left = takeLeft(bucket, prefix).filter((k) => !keys.has(k));
    await deleteAll(c, bucket, left);
    ctx.progress(`${bucketFolder.describe(id)}: ${amount(keys.size + left.length, "object")} deleted`);
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

/** The inputs an import records (the program's come with the next `up`). */
function importedInputs(): Omit<BucketFolderInputs, "bucket" | "prefix"> {
  return {
    path: ".",
    include: ["**"],
    exclude: [],
    hidden: false,
    contentTypes: {},
    defaultContentType: DEFAULT_CONTENT_TYPE,
    deleteRemoved: true,
    deleteExtraObjects: false,
    multipartThreshold: DEFAULT_MULTIPART_THRESHOLD,
    partSize: DEFAULT_PART_SIZE,
    adopt: false,
  };
}

/**
 * Of the folder's keys already in the bucket, those not to upload again. Without adopt, each is
 * read (HEAD): one this create's earlier attempt made (its marker) with the same content is kept;
 * one without the marker refuses the whole create before any upload. With adopt, the listing
 * decides (same MD5, size and content type: kept), with no request per key unless `cacheControl`
 * is set, which the listing does not show.
 */
async function alreadyThere(
  ctx: Context,
  c: ObjectStorageClient,
  inputs: BucketFolderInputs,
  manifest: Manifest,
  stored: Map<string, Stored>,
  present: readonly string[],
): Promise<Set<string>> {
  const skip = new Set<string>();
  if (present.length === 0) return skip;
  if (inputs.adopt && inputs.cacheControl === undefined) {
    for (const k of present) if (storedMatches(stored.get(k)!, manifest.get(k)!)) skip.add(k);
    return skip;
  }
  const id = folderId(inputs);
  const mine = markerOf(ctx.createKey);
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
    const named = foreign
      .slice(0, 5)
      .map((k) => `"${k}"`)
      .join(", ");
    throw new Error(
      `creating ${bucketFolder.describe(id)}: ${foreign.length} of its keys exist already without this stack's ownership marker (${named}${foreign.length > 5 ? ", ..." : ""}), so another stack (or someone outside Pulumi) made them. Set adopt: true on this resource to take them over (those holding the files' content as they are, the others overwritten; its destroy will then delete them), or choose another prefix`,
    );
  }
  if (skip.size > 0 && !inputs.adopt)
    ctx.progress(
      `${bucketFolder.describe(id)}: ${skip.size} files are there already with this stack's marker and the same content (an earlier attempt); not uploading them again`,
    );
  return skip;
}

/** The listed objects under the prefix that are not the folder's files and its exclude globs do not leave out. */
function extraIn(stored: Map<string, Stored>, manifest: Manifest, inputs: Pick<BucketFolderInputs, "prefix" | "exclude">): Manifest {
  const out: Manifest = new Map();
  for (const [k, s] of stored) if (!manifest.has(k) && !excluded(k.slice(inputs.prefix.length), inputs.exclude)) out.set(k, storedEntry(s));
  return out;
}

/** The recorded extra objects the next update deletes (deleteExtraObjects), with the program's globs. */
function extraToDelete(extra: Manifest, news: BucketFolderInputs): string[] {
  const want = folderManifest(news);
  return [...extra.keys()].filter((k) => !want.has(k) && !excluded(k.slice(news.prefix.length), news.exclude)).sort();
}

function outputsOf(
  c: ObjectStorageClient,
  inputs: BucketFolderInputs,
  manifest: Manifest,
  largeEtags: Record<string, string>,
  extra: Manifest,
): BucketFolderOutputs {
  const etags: Record<string, string> = {};
  for (const k of Object.keys(largeEtags).sort()) if (manifest.has(k)) etags[k] = largeEtags[k]!;
  // What was recorded, not what check saw: a partial upload (or a refresh's drift) differs from the
  // folder, so the next up has work; so do objects deleteExtraObjects is to delete.
  const digest = inputs.deleteExtraObjects && extra.size > 0 ? manifestDigest(new Map([...manifest, ...extra])) : manifestDigest(manifest);
  return {
    ...inputs,
    manifestDigest: digest,
    manifest: encodeManifest(manifest),
    extraObjects: encodeManifest(extra),
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

/** `1 changed file`, `3 changed files`. */
function amount(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
