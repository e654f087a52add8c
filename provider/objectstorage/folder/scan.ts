/**
 * The folder's side of a BucketFolder: which files its globs select, their keys (the prefix plus
 * each file's path relative to the folder, always with `/`), and each one's MD5, size and content
 * type. Local facts only: check may not use the network.
 */
import { statSync } from "node:fs";
import { extname, join, matchesGlob, resolve } from "node:path";
import fg from "fast-glob";
import * as mime from "mime-types";
import { CheckError } from "../../core";
import { checkUploadLimits } from "../object-source";
import { objectKey } from "../validation";
import { cachedHash, loadHashes, saveHashes } from "./hash-cache";
import { recall, remember, type Manifest } from "./manifest";

/** What a scan reads of a folder's inputs. */
export interface ScanInputs {
  path: string;
  prefix: string;
  include: string[];
  exclude: string[];
  hidden: boolean;
  contentTypes: Record<string, string>;
  defaultContentType: string;
  multipartThreshold: number;
  partSize: number;
}

/** The folder's manifest: every file the globs select, in key order. */
export function scanFolder(i: ScanInputs): Manifest {
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
  const out: Manifest = new Map();
  loadHashes(root);
  const hashed = { count: 0 };
  files.sort();
  for (const rel of files) {
    const key = `${i.prefix}${rel}`;
    const parsed = keyRule.safeParse(key);
    if (!parsed.success)
      throw new CheckError("path", `path: the key "${key}" of file "${rel}" ${parsed.error.issues[0]?.message ?? "is not a valid object name"}`);
    const file = join(root, rel);
    let st;
    try {
      st = statSync(file);
    } catch {
      throw new CheckError("path", `path: the file "${rel}" of "${i.path}" went away while the folder was read; run again`);
    }
    checkUploadLimits(st.size, i.multipartThreshold, i.partSize, "path");
    out.set(key, { hash: cachedHash(file, st, hashed), size: st.size, contentType: contentTypeOf(rel, i.contentTypes, i.defaultContentType) });
  }
  if (hashed.count > 0) saveHashes(root, files);
  return out;
}

/** The folder's manifest for `inputs`: the one check computed (by its digest), or (another process, a changed folder) a new scan. */
export function folderManifest(inputs: ScanInputs & { manifestDigest?: string }): Manifest {
  const known = recall(inputs.manifestDigest);
  if (known !== undefined) return known;
  const m = scanFolder(inputs);
  remember(m);
  return m;
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
 * Whether a key (relative to the prefix) is one the exclude globs leave out: such keys are not the
 * folder's, so a refresh does not report them as extra (a site's access logs under its prefix).
 */
export function excluded(relativeKey: string, exclude: readonly string[]): boolean {
  return exclude.some((g) => matchesGlob(relativeKey, g));
}
