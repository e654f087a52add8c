/**
 * Hashes of a folder's files already hashed, by path, with the size, mtime and inode they had: a
 * file whose three are unchanged is not read again (what git's index, rsync and `swift upload
 * --changed` rely on). Hashing is most of a check's cost (10,000 files of 637 MiB: seconds of CPU),
 * and a re-deploy of one changed file should read that file only. Kept in this process and, per
 * folder, in a cache file (`hashCacheFile`), so the next `pulumi up`'s plugin finds them; without
 * it (another machine, a fresh CI clone, `KRCLOUD_FOLDER_HASH_CACHE=off`) every file is hashed once.
 * A file rewritten to the same size within the same mtime tick in place (same inode) keeps its old
 * hash and is not seen as changed; a rename over it (editors, rsync, git) is a new inode.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync, type Stats } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { isMd5, statAndHashFile } from "../object-source";

interface Known {
  size: number;
  mtimeMs: number;
  ino: number;
  hash: string;
}
const hashes = new Map<string, Known>();
const loadedRoots = new Set<string>();

/** The MD5 of `file` (whose stat is `st`): the cached one while size, mtime and inode are unchanged. */
export function cachedHash(file: string, st: Stats, hashed: { count: number }): string {
  const known = hashes.get(file);
  if (known !== undefined && known.size === st.size && known.mtimeMs === st.mtimeMs && known.ino === st.ino) return known.hash;
  // A file gone since the glob found it is a failure of the folder's `path`, not of a BucketObject's `source`.
  const hash = statAndHashFile(file, "path").md5;
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

/** The folder's cached hashes into this process's, once per process; a missing or unreadable cache is no error (every file is hashed). */
export function loadHashes(root: string): void {
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
export function saveHashes(root: string, rels: readonly string[]): void {
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
