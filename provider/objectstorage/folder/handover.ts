/**
 * Objects handed over to a BucketFolder: the move from one BucketObject per file to one folder
 * (docs/moving-to-bucket-folder.md). A folder created with `adopt: true` over keys that are already
 * there takes the objects whose content is its files' as they are, with no upload, and the engine
 * then deletes the BucketObjects the program no longer declares. Their delete must leave those
 * objects in the bucket, in whatever order and in whichever run it comes: an object that now
 * belongs to a folder is never deleted by the old BucketObject's delete.
 *
 * Two records say which objects a folder holds, and neither writes an object:
 *
 * - the claim, once per folder in the bucket's metadata (`krcloud-folder-<digest of the prefix>`,
 *   its marker and its exclude globs), written by the adopting create before it takes anything
 *   over and removed by the folder's delete. It outlives the process: a run killed in the middle
 *   of the move, a later `up` that drops the old resources, another provider process.
 * - this process's knowledge of the folders it has seen (check, create, update, read): their keys.
 *   Where it knows the folder, a BucketObject under the claimed prefix that is not one of the
 *   folder's files is deleted as usual; where it does not (a `destroy`, which runs no program), the
 *   object is left and recorded, and the folder's own delete in this process deletes it with its files.
 *
 * The listing cannot show metadata, so the claim cannot sit on each object without a write per
 * object; a marker object would be a write too, and would prove nothing about the keys beside it.
 */
import { createHash } from "node:crypto";
import { rethrowAs } from "../../../client/core";
import type { ObjectStorageClient } from "../../../client/objectstorage";
import { RESERVED_METADATA_PREFIX } from "../../core/ownership";
import { excluded } from "./scan";

/** Bucket metadata names of folder claims: `krcloud-folder-` and 16 hex digits of the prefix's SHA-256. */
export const FOLDER_CLAIM_PREFIX = `${RESERVED_METADATA_PREFIX}folder-`;
/** Spec 01 §8: a metadata value holds at most 512 characters. */
const MAX_CLAIM_VALUE = 512;

export interface FolderClaim {
  /** The adopting create's ownership marker (for people reading the bucket's metadata). */
  owner?: string;
  /** The folder's exclude globs: keys they match are not the folder's. Null: too long to record, so every key under the prefix counts as the folder's. */
  exclude: string[] | null;
}

export function claimKey(prefix: string): string {
  return `${FOLDER_CLAIM_PREFIX}${createHash("sha256").update(prefix).digest("hex").slice(0, 16)}`;
}

/** The claim as a metadata value: JSON in printable ASCII (it travels as a header), at most 512 characters. */
export function claimValue(owner: string | undefined, exclude: readonly string[]): string {
  const ascii = (v: unknown) => JSON.stringify(v).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
  const full = ascii({ owner, exclude });
  return full.length <= MAX_CLAIM_VALUE ? full : ascii({ owner, exclude: null });
}

/** A claim read back; anything unreadable counts as a claim of every key under the prefix (never delete what may be the folder's). */
export function parseClaim(value: string): FolderClaim {
  try {
    const v = JSON.parse(value) as { owner?: unknown; exclude?: unknown };
    const exclude = Array.isArray(v.exclude) && v.exclude.every((g) => typeof g === "string") ? v.exclude : null;
    return { owner: typeof v.owner === "string" ? v.owner : undefined, exclude };
  } catch {
    return { exclude: null };
  }
}

/** The prefixes a key may sit under as a folder's: "" and every part of it up to a `/`, longest first. */
export function prefixesOf(key: string): string[] {
  const out = [""];
  for (let i = key.indexOf("/"); i >= 0 && i < key.length - 1; i = key.indexOf("/", i + 1)) out.push(key.slice(0, i + 1));
  return out.reverse();
}

// ---------------------------------------------------------------------------------------------
// This process's knowledge of folders

interface Known {
  /** The folder's keys, as check, create, update or read last saw them. */
  keys?: ReadonlySet<string>;
  /** Keys a BucketObject's delete left for this folder without knowing its keys: its delete removes them. */
  left: Set<string>;
  /** Set when the folder's delete has begun: a BucketObject's delete no longer leaves its object to it. */
  deleting: boolean;
}
const folders = new Map<string, Known>();
const slot = (bucket: string, prefix: string): Known => {
  const k = `${bucket}\u0000${prefix}`;
  let f = folders.get(k);
  if (f === undefined) folders.set(k, (f = { left: new Set(), deleting: false }));
  return f;
};

/** Records the folder's keys for this process's BucketObject deletes. */
export function knowFolder(bucket: string, prefix: string, keys: Iterable<string>): void {
  const f = slot(bucket, prefix);
  f.keys = new Set(keys);
  f.deleting = false;
}

/** Marks the folder's delete as begun; the keys left to it since. */
export function folderDeleting(bucket: string, prefix: string): void {
  slot(bucket, prefix).deleting = true;
}

/** The keys BucketObject deletes left to the folder in this process (taken: asked again, none). */
export function takeLeft(bucket: string, prefix: string): string[] {
  const f = slot(bucket, prefix);
  const out = [...f.left].sort();
  f.left.clear();
  return out;
}

// ---------------------------------------------------------------------------------------------
// Requests

/** Writes the folder's claim into the bucket's metadata (one POST; the same claim again is no change). */
export async function writeClaim(c: ObjectStorageClient, bucket: string, prefix: string, owner: string | undefined, exclude: readonly string[]): Promise<void> {
  await c
    .updateContainerMetadata(bucket, { [claimKey(prefix)]: claimValue(owner, exclude) })
    .catch(rethrowAs(`recording in bucket "${bucket}"'s metadata that the folder "${prefix}" holds the objects it took over`));
}

/** Removes the folder's claim, when the bucket still holds one (one HEAD, and one POST if it does). */
export async function removeClaim(c: ObjectStorageClient, bucket: string, prefix: string): Promise<void> {
  const b = await c.findContainer(bucket).catch(rethrowAs(`reading the metadata of bucket "${bucket}"`));
  if (b?.metadata?.[claimKey(prefix)] === undefined) return;
  await c.updateContainerMetadata(bucket, {}, [claimKey(prefix)]).catch(rethrowAs(`removing the folder "${prefix}"'s claim from bucket "${bucket}"`));
}

/**
 * For a BucketObject's delete: the prefix of the folder that now holds `key`, whose delete must
 * leave the object; undefined when none does. One request: the bucket's metadata (Swift's HEAD
 * container, spec 01 §4.2, which a service without the extension API answers too).
 */
export async function folderHolding(c: ObjectStorageClient, bucket: string, key: string): Promise<{ prefix: string; known: boolean } | undefined> {
  const b = await c.findContainer(bucket).catch(rethrowAs(`reading the metadata of bucket "${bucket}"`));
  const metadata = b?.metadata ?? {};
  for (const prefix of prefixesOf(key)) {
    const value = metadata[claimKey(prefix)];
    if (value === undefined) continue;
    const claim = parseClaim(value);
    if (claim.exclude !== null && excluded(key.slice(prefix.length), claim.exclude)) continue;
    const f = slot(bucket, prefix);
    // This process knows the folder's files: the key is the folder's or it is not.
    if (f.keys !== undefined) {
      if (f.keys.has(key)) return { prefix, known: true };
      continue;
    }
    // Its delete has begun here: it does not take the object any more.
    if (f.deleting) continue;
    f.left.add(key);
    return { prefix, known: false };
  }
  return undefined;
}
