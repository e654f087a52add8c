/**
 * A BucketFolder's manifest: each key with the MD5, size and content type of its file. Typed
 * everywhere in the provider; encoded to one string per key only where outputs are written (the
 * `manifest` output, `"<md5> <size> <content type>"`) and decoded once where state is read. The
 * engine compares only the manifest's digest, an input computed in check; the manifest itself
 * reaches diff and update through a process memo keyed by that digest.
 */
import { createHash } from "node:crypto";

/** One file of a manifest. */
export interface ManifestEntry {
  /** MD5 of the content (hex); `etag:<etag>` where the stored object's ETag is no MD5 of what was uploaded. */
  hash: string;
  size: number;
  contentType: string;
}

/** key -> entry, in key order. */
export type Manifest = Map<string, ManifestEntry>;

/**
 * The manifest as outputs record it: key -> `"<hash> <size> <contentType>"`. One string per file,
 * not an object of three, because the engine's cost of a map grows with its values (the plugin's
 * protobuf Struct), and a content type may hold spaces but a hash and a size do not.
 */
export type ManifestText = Record<string, string>;

export function entryText(e: ManifestEntry): string {
  return `${e.hash} ${e.size} ${e.contentType}`;
}

export function parseEntry(text: string): ManifestEntry {
  const a = text.indexOf(" ");
  const b = text.indexOf(" ", a + 1);
  return { hash: text.slice(0, a), size: Number(text.slice(a + 1, b)), contentType: text.slice(b + 1) };
}

export function sameEntry(a: ManifestEntry, b: ManifestEntry): boolean {
  return a.hash === b.hash && a.size === b.size && a.contentType === b.contentType;
}

/** The manifest with its keys in order (a Map iterates in insertion order). */
export function sortedManifest(m: Manifest): Manifest {
  return new Map([...m.keys()].sort().map((k) => [k, m.get(k)!]));
}

/** The outputs' form, keys in order. */
export function encodeManifest(m: Manifest): ManifestText {
  const out: ManifestText = {};
  for (const k of [...m.keys()].sort()) out[k] = entryText(m.get(k)!);
  return out;
}

/** The typed form of a recorded manifest (absent: empty). */
export function decodeManifest(t: ManifestText | undefined): Manifest {
  const out: Manifest = new Map();
  for (const k of Object.keys(t ?? {}).sort()) out.set(k, parseEntry(t![k]!));
  return out;
}

/**
 * SHA-256 of the manifest's keys and entries in key order: what the engine compares. It digests
 * the outputs' text form, so a digest recorded by an earlier release compares equal.
 */
export function manifestDigest(m: Manifest): string {
  const h = createHash("sha256");
  for (const k of [...m.keys()].sort()) h.update(`${k}\u0000${entryText(m.get(k)!)}\n`);
  return `sha256:${h.digest("hex")}`;
}

/** The total size of the manifest's files. */
export function totalBytes(m: Manifest): number {
  let n = 0;
  for (const e of m.values()) n += e.size;
  return n;
}

/** The keys whose entry differs between the recorded manifest and the folder's, in key order; `removed` only when they are deleted. */
export function changedFiles(have: Manifest, want: Manifest, deleteRemoved: boolean): { changed: string[]; added: string[]; removed: string[] } {
  const changed: string[] = [];
  const added: string[] = [];
  for (const k of [...want.keys()].sort()) {
    const h = have.get(k);
    if (h === undefined) added.push(k);
    else if (!sameEntry(h, want.get(k)!)) changed.push(k);
  }
  const removed = deleteRemoved ? [...have.keys()].filter((k) => !want.has(k)).sort() : [];
  return { changed, added, removed };
}

/**
 * Manifests check computed, by digest, for this process's diff and update (which get only the
 * digest from the engine): the last few, so a preview and its update do not hash the folder again.
 */
const memo = new Map<string, Manifest>();
const MEMO_KEPT = 4;

/** Keeps `m` for this process; its digest. */
export function remember(m: Manifest): string {
  const d = manifestDigest(m);
  memo.delete(d);
  memo.set(d, m);
  while (memo.size > MEMO_KEPT) memo.delete(memo.keys().next().value!);
  return d;
}

/** The manifest of a digest this process computed, if it still keeps it. */
export function recall(digest: unknown): Manifest | undefined {
  return typeof digest === "string" ? memo.get(digest) : undefined;
}
