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
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync, type Stats } from "node:fs";
import { homedir } from "node:os";
import { dirname, extname, join, matchesGlob, resolve } from "node:path";
import fg from "fast-glob";
import * as mime from "mime-types";
import { z } from "zod";
import { isApiError, mayHaveApplied, rethrowAs, withAction } from "../../client/core";
import { fileSource, OBJECT_PAGE_LIMIT, type ObjectStorageClient } from "../../client/objectstorage";
import { forEachLimit } from "../../client/core/concurrency";
import { CheckError, markerOf, OWNER_METADATA_KEY, PartialFailure, type Context, defineResource, resourceClass } from "../core";
import { DEFAULT_MULTIPART_THRESHOLD, DEFAULT_PART_SIZE, headerValue, multipartThresholdInput, partSizeInput } from "./bucket-object";
import { objectStorage } from "./client";
import { checkUploadLimits, isMd5, statAndHashFile, stripQuotes } from "./object-source";
import { bucketName, objectKey } from "./validation";
import type { BucketFolderArgs } from "./args";

/** Uploads (and deletes) in flight at once: as many as `swift upload`'s default object threads and more, within the transport's pool. */
export const FOLDER_CONCURRENCY = 16;
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

/** One file of a manifest. */
export interface ManifestEntry {
  /** MD5 of the content (hex); `etag:<etag>` where the stored object's ETag is no MD5 of what was uploaded. */
  hash: string;
  size: number;
  contentType: string;
}
/**
 * key -> `"<hash> <size> <contentType>"`: one string per file, not an object of three, because the
 * engine's cost of a map grows with its values (the plugin's protobuf Struct), and a content type
 * may hold spaces but a hash and a size do not.
 */
export type Manifest = Record<string, string>;

export function entryText(e: ManifestEntry): string {
  return `${e.hash} ${e.size} ${e.contentType}`;
}

export function parseEntry(text: string): ManifestEntry {
  const a = text.indexOf(" ");
  const b = text.indexOf(" ", a + 1);
  return { hash: text.slice(0, a), size: Number(text.slice(a + 1, b)), contentType: text.slice(b + 1) };
}

/** SHA-256 of the manifest's keys and entries in key order: what the engine compares. */
export function manifestDigest(m: Manifest): string {
  const h = createHash("sha256");
  for (const k of Object.keys(m).sort()) h.update(`${k}\u0000${m[k]}\n`);
  return `sha256:${h.digest("hex")}`;
}

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

/**
 * Whether a key (relative to the prefix) is one the exclude globs leave out: such keys are not the
 * folder's, so a refresh does not report them as extra (a site's access logs under its prefix).
 */
export function excluded(relativeKey: string, exclude: readonly string[]): boolean {
  return exclude.some((g) => matchesGlob(relativeKey, g));
}

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
    const c = changedFiles(olds.manifest ?? {}, manifestOf(news), true);
    const n = c.changed.length + c.added.length + c.removed.length;
    const first = [...c.changed.map((k) => `~${k}`), ...c.added.map((k) => `+${k}`), ...c.removed.map((k) => `-${k}`)].slice(0, 5);
    return [
      `${n} files differ (${c.changed.length} changed, ${c.added.length} added, ${c.removed.length} removed${news.deleteRemoved ? "" : ", left in the bucket"}): ${first.join(", ")}${n > 5 ? ", ..." : ""}`,
    ];
  },

  async create(ctx, inputs) {
    const c = objectStorage(ctx);
    const id = folderId(inputs);
    const manifest = manifestOf(inputs);
    const stored = await listPrefix(c, inputs.bucket, inputs.prefix);
    // Keys already there: this create's own (an earlier attempt) or, with adopt, taken over;
    // anything else is refused before a single upload.
    const present = Object.keys(manifest).filter((k) => stored.has(k));
    const mine = markerOf(ctx.createKey);
    const skip = new Set<string>();
    if (present.length > 0) {
      const foreign: string[] = [];
      await forEachLimit(present, FOLDER_CONCURRENCY, async (key) => {
        const h = await c.findObject(inputs.bucket, key).catch(rethrowAs(`reading object "${inputs.bucket}/${key}"`));
        if (h === undefined) return;
        const ours = mine !== undefined && h.metadata?.[OWNER_METADATA_KEY] === mine;
        if (!ours && !inputs.adopt) foreign.push(key);
        else if (sameEntry(stored.get(key)!, parseEntry(manifest[key]!)) && (h.cacheControl ?? undefined) === inputs.cacheControl) skip.add(key);
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
    const todo = Object.keys(manifest).filter((k) => !skip.has(k));
    const done: Manifest = {};
    const largeEtags: Record<string, string> = {};
    for (const k of skip) {
      done[k] = manifest[k]!;
      const e = stored.get(k)!.etag;
      if (e !== parseEntry(manifest[k]!).hash) largeEtags[k] = e;
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
    const recorded: Manifest = olds.manifest ?? {};
    const largeEtags: Record<string, string> = {};
    const manifest: Manifest = {};
    const extra: Manifest = {};
    for (const [key, s] of stored) {
      const found = entryText({ hash: isMd5(s.etag) ? s.etag : `etag:${s.etag}`, size: s.size, contentType: s.contentType });
      const text = recorded[key];
      // A key the folder did not upload may be another resource's (a BucketObject beside it, under
      // the same prefix): reported as drift of its own, never taken into the manifest, so never
      // deleted. An import takes every key under the prefix.
      if (text === undefined) {
        if (imported) manifest[key] = found;
        else if (!excluded(key.slice(prefix.length), olds.exclude ?? [])) extra[key] = found;
        continue;
      }
      const r = parseEntry(text);
      const expectedEtag = olds.largeEtags?.[key] ?? r.hash;
      if (s.etag === expectedEtag && s.size === r.size && s.contentType === r.contentType) {
        manifest[key] = text;
        if (olds.largeEtags?.[key] !== undefined) largeEtags[key] = s.etag;
      } else manifest[key] = found;
    }
    if (!imported && Object.keys(manifest).length === 0 && Object.keys(recorded).length > 0) return undefined;
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
    return { ...outputsOf(c, { ...base, bucket, prefix }, manifest, largeEtags), extraObjects: sortedMap(extra) };
  },

  async update(ctx, id, current, news) {
    const c = objectStorage(ctx);
    const want = manifestOf(news);
    const have: Manifest = current.manifest ?? {};
    const diff = changedFiles(have, want, news.deleteRemoved);
    const changed = current.cacheControl !== news.cacheControl ? Object.keys(want) : [...diff.changed, ...diff.added];
    const removed = diff.removed;
    const done: Manifest = {};
    const largeEtags: Record<string, string> = {};
    const changing = new Set(changed);
    for (const k of Object.keys(want)) {
      if (changing.has(k)) continue;
      done[k] = want[k]!;
      if (current.largeEtags?.[k] !== undefined) largeEtags[k] = current.largeEtags[k];
    }
    // Removed files no longer managed (deleteRemoved false) drop out of the manifest; deleted ones
    // stay in it until their delete is done, so a failure leaves them to the next up.
    const keptRemoved: Manifest = {};
    if (news.deleteRemoved) for (const k of removed) keptRemoved[k] = have[k]!;
    if (changed.length + (news.deleteRemoved ? removed.length : 0) > 0)
      ctx.progress(
        `${bucketFolder.describe(id)}: uploading ${changed.length} changed files${news.deleteRemoved ? `, deleting ${removed.length} removed ones` : ""}`,
      );
    try {
      await uploadAll(ctx, c, news, want, changed, done, largeEtags);
      if (news.deleteRemoved) {
        await forEachLimit(removed, FOLDER_CONCURRENCY, async (key) => {
          await c.deleteObjectIfExists(news.bucket, key).catch(rethrowAs(`deleting object "${news.bucket}/${key}"`));
          delete keptRemoved[key];
        });
      }
    } catch (e) {
      throw new PartialFailure(id, outputsOf(c, news, { ...keptRemoved, ...done }, largeEtags), e);
    }
    return outputsOf(c, news, done, largeEtags);
  },

  async delete(ctx, id, olds) {
    const c = objectStorage(ctx);
    const { bucket } = olds.bucket !== undefined ? olds : parseFolderId(id);
    const keys = Object.keys(olds.manifest ?? {});
    await forEachLimit(keys, FOLDER_CONCURRENCY, async (key) => {
      await c.deleteObjectIfExists(bucket, key).catch(rethrowAs(`deleting object "${bucket}/${key}"`));
    });
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
  const sorted = sortedMap(manifest);
  const etags: Record<string, string> = {};
  for (const k of Object.keys(largeEtags).sort()) if (sorted[k] !== undefined) etags[k] = largeEtags[k]!;
  return {
    ...inputs,
    // What was recorded, not what check saw: a partial upload (or a refresh's drift) differs from the folder, so the next up has work.
    manifestDigest: manifestDigest(sorted),
    manifest: sorted,
    extraObjects: {},
    fileCount: Object.keys(sorted).length,
    totalBytes: Object.values(sorted).reduce((n, e) => n + parseEntry(e).size, 0),
    largeEtags: etags,
    url: inputs.prefix === "" ? `${c.bucketUrl(inputs.bucket)}/` : c.objectUrl(inputs.bucket, inputs.prefix),
  };
}

interface Stored {
  etag: string;
  size: number;
  contentType: string;
}

/** The prefix's objects from the JSON listing: one request per 1,000 objects. */
async function listPrefix(c: ObjectStorageClient, bucket: string, prefix: string): Promise<Map<string, Stored>> {
  const out = new Map<string, Stored>();
  let marker: string | undefined;
  do {
    const page = await c
      .listObjects(bucket, { prefix: prefix === "" ? undefined : prefix, marker, limit: OBJECT_PAGE_LIMIT })
      .catch(rethrowAs(`listing the objects of bucket "${bucket}" under "${prefix}"`));
    for (const e of page.entries) {
      if (e.kind !== "object") continue;
      out.set(e.name, { etag: stripQuotes(e.hash ?? ""), size: e.bytes ?? 0, contentType: (e.contentType ?? "").split(";")[0]!.trim() });
    }
    marker = page.nextMarker;
  } while (marker !== undefined);
  return out;
}

function sameEntry(s: Stored, m: ManifestEntry): boolean {
  return s.size === m.size && s.contentType === m.contentType && (s.etag === m.hash || !isMd5(s.etag));
}

function sortedMap(m: Manifest): Manifest {
  const out: Manifest = {};
  for (const k of Object.keys(m).sort()) out[k] = m[k]!;
  return out;
}

/** The keys whose entry differs between the recorded manifest and the folder's, in key order; `removed` only when they are deleted. */
export function changedFiles(have: Manifest, want: Manifest, deleteRemoved: boolean): { changed: string[]; added: string[]; removed: string[] } {
  const changed: string[] = [];
  const added: string[] = [];
  for (const k of Object.keys(want).sort()) {
    if (have[k] === undefined) added.push(k);
    else if (have[k] !== want[k]) changed.push(k);
  }
  const removed = deleteRemoved
    ? Object.keys(have)
        .filter((k) => want[k] === undefined)
        .sort()
    : [];
  return { changed, added, removed };
}

/**
 * Manifests check computed, by digest, for this process's diff and update (which get only the
 * digest from the engine): the last few, so a preview and its update do not hash the folder again.
 */
const scanned = new Map<string, Manifest>();
const SCANS_KEPT = 4;

function remember(m: Manifest): string {
  const d = manifestDigest(m);
  scanned.delete(d);
  scanned.set(d, m);
  while (scanned.size > SCANS_KEPT) scanned.delete(scanned.keys().next().value!);
  return d;
}

/** The folder's manifest for `inputs`: the one check computed, or (another process, a changed folder) a new scan. */
function manifestOf(inputs: BucketFolderInputs): Manifest {
  const known = typeof inputs.manifestDigest === "string" ? scanned.get(inputs.manifestDigest) : undefined;
  if (known !== undefined) return known;
  const m = scanFolder(inputs);
  remember(m);
  return m;
}

/**
 * Uploads `keys` of `manifest`, FOLDER_CONCURRENCY at a time, each with this create's marker,
 * recording each one done in `done` (and a multipart ETag in `largeEtags`). On the first failure no
 * new upload starts; the ones running finish, then the error is thrown.
 */
async function uploadAll(
  ctx: Context,
  c: ObjectStorageClient,
  inputs: BucketFolderInputs,
  manifest: Manifest,
  keys: readonly string[],
  done: Manifest,
  largeEtags: Record<string, string>,
): Promise<void> {
  const root = resolve(inputs.path);
  const marker = markerOf(ctx.createKey);
  const metadata: Record<string, string> = marker === undefined ? {} : { [OWNER_METADATA_KEY]: marker };
  const sorted = [...keys].sort();
  let count = 0;
  await forEachLimit(sorted, FOLDER_CONCURRENCY, async (key) => {
    const entry = parseEntry(manifest[key]!);
    const file = join(root, key.slice(inputs.prefix.length));
    const where = `uploading "${file}" to "${inputs.bucket}/${key}"`;
    const headers = { contentType: entry.contentType, cacheControl: inputs.cacheControl, metadata };
    try {
      if (entry.size > inputs.multipartThreshold) {
        if (hashOf(file) !== entry.hash) throw changedSince(file);
        const r = await c.uploadLarge(inputs.bucket, key, fileSource(file, entry.size), { ...headers, partSize: inputs.partSize });
        const etag = r.etag !== undefined ? stripQuotes(r.etag) : (await c.findObject(inputs.bucket, key))?.etag;
        if (etag !== undefined && stripQuotes(etag) !== entry.hash) largeEtags[key] = stripQuotes(etag);
      } else {
        await putConverging(c, inputs.bucket, key, file, entry, headers);
      }
    } catch (e) {
      throw withAction(e, where);
    }
    done[key] = manifest[key]!;
    if (++count % 1000 === 0) ctx.progress(`"${inputs.bucket}/${inputs.prefix}": ${count}/${sorted.length} files uploaded`);
  });
}

/**
 * One PUT, the file streamed with its MD5 from check as the ETag header (the service refuses, 422, a
 * file that changed since). An answer lost after the request was sent is settled by one HEAD: the
 * object there with this hash and marker is this upload; otherwise the PUT is sent once more (a PUT
 * of the same body to the same key is the same object however often it lands).
 */
async function putConverging(
  c: ObjectStorageClient,
  bucket: string,
  key: string,
  file: string,
  entry: ManifestEntry,
  headers: { contentType: string; cacheControl?: string; metadata: Record<string, string> },
): Promise<void> {
  const put = () =>
    c.putObject(bucket, key, fileSource(file, entry.size), { ...headers, expectedMd5: entry.hash }).catch((e: unknown) => {
      throw isApiError(e) && e.status === 422 ? withAction(e, changedSince(file).message) : e;
    });
  for (let attempt = 1; ; attempt++) {
    try {
      await put();
      return;
    } catch (e) {
      if (!mayHaveApplied(e) || attempt >= 3) throw e;
      const h = await c.findObject(bucket, key);
      if (h !== undefined && stripQuotes(h.etag ?? "") === entry.hash && h.metadata?.[OWNER_METADATA_KEY] === headers.metadata[OWNER_METADATA_KEY]) return;
    }
  }
}

function changedSince(file: string): Error {
  return new Error(`the content of "${file}" changed since it was checked; run again`);
}

/**
 * The folder's manifest: every file the globs select, keyed by prefix + its path relative to the
 * folder (always `/`), with its MD5, size and content type. Local facts only (check: no network).
 */
export function scanFolder(
  i: Pick<BucketFolderInputs, "path" | "prefix" | "include" | "exclude" | "hidden" | "contentTypes" | "defaultContentType" | "multipartThreshold" | "partSize">,
): Manifest {
  const root = resolve(i.path);
  let st;
  try {
    st = statSync(root);
  } catch {
    throw new CheckError("path", `path: "${i.path}" does not exist`);
  }
  if (!st.isDirectory()) throw new CheckError("path", `path: "${i.path}" is not a folder (a single file is a BucketObject)`);
  let files: string[];
  try {
    files = fg.sync(i.include, { cwd: root, dot: i.hidden, ignore: i.exclude, onlyFiles: true, followSymbolicLinks: true, unique: true });
  } catch (e) {
    // A glob the library cannot take (a NUL byte, a pattern it refuses) is a bad input, not a crash.
    throw new CheckError(
      "include",
      `include and exclude: the globs cannot be matched against "${i.path}": ${(e as Error).message.split("\n")[0]!.slice(0, 200)}`,
    );
  }
  const keyRule = objectKey();
  const out: Manifest = {};
  loadHashes(root);
  const hashed = { count: 0 };
  files.sort();
  for (const rel of files) {
    const key = `${i.prefix}${rel}`;
    const parsed = keyRule.safeParse(key);
    if (!parsed.success)
      throw new CheckError("path", `path: the key "${key}" of file "${rel}" ${parsed.error.issues[0]?.message ?? "is not a valid object name"}`);
    const file = join(root, rel);
    const st = statSync(file);
    checkUploadLimits(st.size, i.multipartThreshold, i.partSize, "path");
    out[key] = entryText({ hash: cachedHash(file, st, hashed), size: st.size, contentType: contentTypeOf(rel, i.contentTypes, i.defaultContentType) });
  }
  if (hashed.count > 0) saveHashes(root, files);
  return out;
}

/** The content type of `file`: the program's override for its extension, the MIME database's, or the default. */
export function contentTypeOf(file: string, overrides: Record<string, string>, fallback: string): string {
  const ext = extname(file);
  if (ext !== "") {
    const exact = overrides[ext] ?? overrides[ext.toLowerCase()];
    if (exact !== undefined) return exact;
  }
  const found = mime.lookup(file);
  return found === false ? fallback : found;
}

/**
 * Hashes of the files already hashed, by path, with the size, mtime and inode they had: a file
 * whose three are unchanged is not read again (what git's index, rsync and `swift upload --changed`
 * rely on). Hashing is most of a check's cost (10,000 files of 637 MiB: seconds of CPU), and a
 * re-deploy of one changed file should read that file only. Kept in this process and, per folder,
 * in a cache file (`hashCacheFile`), so the next `pulumi up`'s plugin finds them; without it
 * (another machine, `KRCLOUD_FOLDER_HASH_CACHE=off`) every file is hashed. A file rewritten to the
 * same size within the same mtime tick in place (same inode) keeps its old hash and is not seen as
 * changed; a rename over it (editors, rsync, git) is a new inode.
 */
interface Known {
  size: number;
  mtimeMs: number;
  ino: number;
  hash: string;
}
const hashes = new Map<string, Known>();
const loadedRoots = new Set<string>();

function cachedHash(file: string, st: Stats, hashed: { count: number }): string {
  const known = hashes.get(file);
  if (known !== undefined && known.size === st.size && known.mtimeMs === st.mtimeMs && known.ino === st.ino) return known.hash;
  const hash = hashOf(file);
  hashes.set(file, { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, hash });
  hashed.count++;
  return hash;
}

/** The cache file of a folder's hashes: `KRCLOUD_FOLDER_HASH_CACHE` (a directory, or `off`), else under `$XDG_CACHE_HOME` or `~/.cache`. */
export function hashCacheFile(root: string): string | undefined {
  const setting = process.env.KRCLOUD_FOLDER_HASH_CACHE;
  if (setting === "off") return undefined;
  const dir = setting || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "krcloud", "folder-hashes");
  return join(dir, `${createHash("sha256").update(root).digest("hex").slice(0, 32)}.json`);
}

/** The folder's cached hashes into `hashes`, once per process; a missing or unreadable cache is no error (every file is hashed). */
function loadHashes(root: string): void {
  if (loadedRoots.has(root)) return;
  loadedRoots.add(root);
  const file = hashCacheFile(root);
  if (file === undefined) return;
  let saved: { root?: unknown; files?: Record<string, unknown> };
  try {
    saved = JSON.parse(readFileSync(file, "utf8")) as typeof saved;
  } catch {
    return;
  }
  if (saved.root !== root || saved.files === null || typeof saved.files !== "object") return;
  for (const [rel, v] of Object.entries(saved.files)) {
    if (!Array.isArray(v) || typeof v[0] !== "number" || typeof v[1] !== "number" || typeof v[2] !== "number" || typeof v[3] !== "string" || !isMd5(v[3]))
      continue;
    const f = join(root, rel);
    if (!hashes.has(f)) hashes.set(f, { size: v[0], mtimeMs: v[1], ino: v[2], hash: v[3] });
  }
}

/** The hashes of the folder's files into its cache file (written whole, then renamed: a reader never sees half of it); best effort. */
function saveHashes(root: string, rels: readonly string[]): void {
  const file = hashCacheFile(root);
  if (file === undefined) return;
  const files: Record<string, [number, number, number, string]> = {};
  for (const rel of rels) {
    const k = hashes.get(join(root, rel));
    if (k !== undefined) files[rel] = [k.size, k.mtimeMs, k.ino, k.hash];
  }
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ root, files }));
    renameSync(tmp, file);
  } catch {
    // A cache: a read-only home costs the next check its hashing, never a failure.
  }
}

function hashOf(file: string): string {
  return statAndHashFile(file).md5;
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

export type { BucketFolderArgs } from "./args";
/** A local folder of files under a bucket prefix, as one resource. */
export const BucketFolder = resourceClass<BucketFolderArgs, BucketFolderOutputs>(bucketFolder);
export type BucketFolder = InstanceType<typeof BucketFolder>;
