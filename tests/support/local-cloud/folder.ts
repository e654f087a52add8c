/**
 * What the BucketFolder files of tests/local share: hashes cached in the test process only (no
 * cache file under the home directory), the local cloud with the bucket `site-files` made before
 * each test, the folder resource, and fresh folders of files under a temp root of the file.
 */
import { join } from "node:path";
import { treeForFile, writeTree } from "../files";
import type { EngineResource, TestCloud } from "./index";
import { testCloudForFile } from "./per-file";

export interface FolderFiles {
  /** A fresh folder with `files` (relative path -> content). */
  makeFolder: (files: Record<string, string>) => string;
  /** The temp root the folders are made in. */
  root: () => string;
}

/** Registers the file's hooks; `set` gets the cloud and the BucketFolder resource before the file's tests. */
export function folderTestsForFile(tempPrefix: string, set: (tc: TestCloud, folder: EngineResource) => unknown): FolderFiles {
  beforeAll(() => {
    process.env.KRCLOUD_FOLDER_HASH_CACHE = "off";
  });
  testCloudForFile({ bucket: "site-files" }, async (tc) => set(tc, await tc.resource("krcloud:objectstorage:BucketFolder")));
  let root = "";
  let n = 0;
  treeForFile(tempPrefix, {}, (d) => (root = d));
  return { makeFolder: (files) => writeTree(join(root, `f${++n}`), files), root: () => root };
}
