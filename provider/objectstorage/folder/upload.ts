/**
 * The bucket's side of a BucketFolder: the listing of its prefix, and the uploads, each file
 * streamed from disk with this create's ownership marker.
 */
import { join, resolve } from "node:path";
import { isApiError, mayHaveApplied, rethrowAs, withAction } from "../../../client/core";
import { fileSource, OBJECT_PAGE_LIMIT, type ObjectStorageClient } from "../../../client/objectstorage";
import { forEachLimit } from "../../../client/core/concurrency";
import { markerOf, OWNER_METADATA_KEY, type Context } from "../../core";
import { hashFile, isMd5, stripQuotes } from "../object-source";
import type { Manifest, ManifestEntry } from "./manifest";

/** Uploads (and deletes) in flight at once: as many as `swift upload`'s default object threads and more, within the transport's pool. */
export const FOLDER_CONCURRENCY = 16;

/** An object as the JSON listing shows it. */
export interface Stored {
  etag: string;
  size: number;
  contentType: string;
}

/**
 * The prefix's objects from the JSON listing: one request per 1,000 objects, and none for an empty
 * page after a full one where the answer counts the bucket's objects (client/objectstorage's
 * listAllObjects). `toShortPage`: for a caller that must see every key even where that count lags.
 */
export async function listPrefix(c: ObjectStorageClient, bucket: string, prefix: string, o: { toShortPage?: boolean } = {}): Promise<Map<string, Stored>> {
  const out = new Map<string, Stored>();
  const entries = await c
    .listAllObjects(bucket, { prefix: prefix === "" ? undefined : prefix, limit: OBJECT_PAGE_LIMIT, toShortPage: o.toShortPage })
    .catch(rethrowAs(`listing the objects of bucket "${bucket}" under "${prefix}"`));
  for (const e of entries) {
    if (e.kind !== "object") continue;
    out.set(e.name, { etag: stripQuotes(e.hash ?? ""), size: e.bytes ?? 0, contentType: (e.contentType ?? "").split(";")[0]!.trim() });
  }
  return out;
}

/** Whether a listed object holds a manifest entry's content (a multipart ETag, no MD5, is taken as holding it). */
export function storedMatches(s: Stored, m: ManifestEntry): boolean {
  return s.size === m.size && s.contentType === m.contentType && (s.etag === m.hash || !isMd5(s.etag));
}

/** The listed object as a manifest entry: its ETag where that is an MD5, else `etag:<ETag>`. */
export function storedEntry(s: Stored): ManifestEntry {
  return { hash: isMd5(s.etag) ? s.etag : `etag:${s.etag}`, size: s.size, contentType: s.contentType };
}

/** What an upload needs of a folder's inputs. */
export interface UploadInputs {
  bucket: string;
  path: string;
  prefix: string;
  cacheControl?: string;
  multipartThreshold: number;
  partSize: number;
}

/** The local file of a key: the folder plus the key without its prefix. */
export function fileOf(inputs: Pick<UploadInputs, "path" | "prefix">, key: string): string {
  return join(resolve(inputs.path), key.slice(inputs.prefix.length));
}

/**
 * Uploads `keys` of `manifest`, FOLDER_CONCURRENCY at a time, each with this create's marker,
 * recording each one done in `done` (and a multipart ETag in `largeEtags`). On the first failure no
 * new upload starts; the ones running finish, then the error is thrown.
 */
export async function uploadAll(
  ctx: Context,
  c: ObjectStorageClient,
  inputs: UploadInputs,
  manifest: Manifest,
  keys: readonly string[],
  done: Manifest,
  largeEtags: Record<string, string>,
): Promise<void> {
  const marker = markerOf(ctx.createKey);
  const metadata: Record<string, string> = marker === undefined ? {} : { [OWNER_METADATA_KEY]: marker };
  const sorted = [...keys].sort();
  let count = 0;
  await forEachLimit(sorted, FOLDER_CONCURRENCY, async (key) => {
    const entry = manifest.get(key)!;
    const file = fileOf(inputs, key);
    const where = `uploading "${file}" to "${inputs.bucket}/${key}"`;
    const headers = { contentType: entry.contentType, cacheControl: inputs.cacheControl, metadata };
    try {
      if (entry.size > inputs.multipartThreshold) {
        // Parts go up out of order and the multipart ETag is no MD5: the file is hashed again first
        // (streamed, so the other uploads go on meanwhile).
        if ((await hashFile(file)) !== entry.hash) throw changedSince(file);
        const r = await c.uploadLarge(inputs.bucket, key, fileSource(file, entry.size), { ...headers, partSize: inputs.partSize });
        const etag = r.etag !== undefined ? stripQuotes(r.etag) : (await c.findObject(inputs.bucket, key))?.etag;
        if (etag !== undefined && stripQuotes(etag) !== entry.hash) largeEtags[key] = stripQuotes(etag);
      } else {
        await putConverging(c, inputs.bucket, key, file, entry, headers);
      }
    } catch (e) {
      throw withAction(e, where);
    }
    done.set(key, entry);
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

/** Deletes `keys` (gone already is success), FOLDER_CONCURRENCY at a time, calling `deleted` after each. */
export async function deleteAll(c: ObjectStorageClient, bucket: string, keys: readonly string[], deleted: (key: string) => void = () => {}): Promise<void> {
  await forEachLimit(keys, FOLDER_CONCURRENCY, async (key) => {
    await c.deleteObjectIfExists(bucket, key).catch(rethrowAs(`deleting object "${bucket}/${key}"`));
    deleted(key);
  });
}
