/**
 * BucketFolder's check-time facts (provider/objectstorage/folder/): which files a folder's globs
 * select, their keys, hashes and content types, the manifest's forms and digest; no network.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseFolderId } from "../../provider/objectstorage/bucket-folder";
import { cachedHash, hashCacheFile } from "../../provider/objectstorage/folder/hash-cache";
import {
  changedFiles,
  decodeManifest,
  encodeManifest,
  manifestDigest,
  parseEntry,
  type Manifest,
  type ManifestText,
} from "../../provider/objectstorage/folder/manifest";
import { contentTypeOf, scanFolder } from "../../provider/objectstorage/folder/scan";

let root: string;
beforeAll(() => {
  // Hashes are cached in this process only: no cache file under the home directory.
  process.env.KRCLOUD_FOLDER_HASH_CACHE = "off";
  root = mkdtempSync(join(tmpdir(), "krcloud-folder-unit-"));
  for (const [rel, body] of Object.entries({
    "index.html": "<p>",
    "app.js": "1",
    "app.js.map": "{}",
    "img/logo.SVG": "<svg/>",
    "docs/readme.md": "# r",
    ".well-known/security.txt": "x",
    blob: "b",
  })) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), body);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const base = {
  prefix: "site/",
  include: ["**"],
  exclude: [] as string[],
  hidden: false,
  contentTypes: {} as Record<string, string>,
  defaultContentType: "application/octet-stream",
  multipartThreshold: 16 * 1024 * 1024,
  partSize: 8 * 1024 * 1024,
};

test("keys are the prefix plus each file's relative path; hidden files only when asked; excludes apply", () => {
  const keys = (m: Manifest) => [...m.keys()];
  expect(keys(scanFolder({ ...base, path: root }))).toEqual([
    "site/app.js",
    "site/app.js.map",
    "site/blob",
    "site/docs/readme.md",
    "site/img/logo.SVG",
    "site/index.html",
  ]);
  expect(keys(scanFolder({ ...base, path: root, hidden: true }))).toContain("site/.well-known/security.txt");
  expect(keys(scanFolder({ ...base, path: root, exclude: ["**/*.map", "docs/**"] }))).toEqual([
    "site/app.js",
    "site/blob",
    "site/img/logo.SVG",
    "site/index.html",
  ]);
  expect(keys(scanFolder({ ...base, path: root, include: ["*.html", "img/*"], prefix: "" }))).toEqual(["img/logo.SVG", "index.html"]);
});

test("each entry is the content's MD5, its size and its content type (overrides first, then the MIME database, then the default)", () => {
  const m = scanFolder({ ...base, path: root, contentTypes: { ".md": "text/x-markdown-custom" }, defaultContentType: "application/x-unknown" });
  expect(m.get("site/index.html")).toEqual({ hash: createHash("md5").update("<p>").digest("hex"), size: 3, contentType: "text/html" });
  // The outputs' form: one string per key.
  expect(encodeManifest(m)["site/index.html"]).toBe(`${createHash("md5").update("<p>").digest("hex")} 3 text/html`);
  expect(m.get("site/docs/readme.md")!.contentType).toBe("text/x-markdown-custom");
  expect(m.get("site/img/logo.SVG")!.contentType).toBe("image/svg+xml");
  expect(m.get("site/blob")!.contentType).toBe("application/x-unknown");
  expect(contentTypeOf("a/b.WASM", { ".wasm": "application/wasm" }, "x")).toBe("application/wasm");
});

test("a missing path or a file instead of a folder is a check failure naming path", () => {
  expect(() => scanFolder({ ...base, path: join(root, "nope") })).toThrow(/path: ".*nope" does not exist/);
  expect(() => scanFolder({ ...base, path: join(root, "blob") })).toThrow(/is not a folder/);
});

test("a file gone between the folder's listing and its hashing is a check failure naming path, not a BucketObject's source", () => {
  const dir = mkdtempSync(join(tmpdir(), "krcloud-folder-gone-"));
  try {
    const file = join(dir, "gone.txt");
    writeFileSync(file, "here");
    const st = statSync(file);
    rmSync(file);
    let caught: unknown;
    try {
      cachedHash(file, st, { count: 0 });
    } catch (e) {
      caught = e;
    }
    expect(caught).toMatchObject({ code: "KRCLOUD_CHECK", property: "path" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the id is <bucket>/<prefix>", () => {
  expect(parseFolderId("site/www/")).toEqual({ bucket: "site", prefix: "www/" });
  expect(parseFolderId("site/")).toEqual({ bucket: "site", prefix: "" });
  expect(() => parseFolderId("site/www")).toThrow(/must be empty or end with '\/'/);
});

test("a content type with spaces survives an entry's one-string form, and a recorded manifest decodes to what encoded it", () => {
  expect(parseEntry("etag:abc-2 42 text/html; charset=utf-8")).toEqual({ hash: "etag:abc-2", size: 42, contentType: "text/html; charset=utf-8" });
  const text: ManifestText = { "b.txt": "11 2 text/plain", "a.txt": "etag:abc-2 42 text/html; charset=utf-8" };
  expect(encodeManifest(decodeManifest(text))).toEqual(text);
  expect(Object.keys(encodeManifest(decodeManifest(text)))).toEqual(["a.txt", "b.txt"]);
  expect(decodeManifest(undefined).size).toBe(0);
});

test("the digest the engine compares changes with any file's entry and with its key, not with key order", () => {
  const m = decodeManifest({ "a.txt": "00 1 text/plain", "b.txt": "11 2 text/plain" });
  const d = manifestDigest(m);
  expect(manifestDigest(decodeManifest({ "b.txt": "11 2 text/plain", "a.txt": "00 1 text/plain" }))).toBe(d);
  expect(manifestDigest(new Map([...m, ["b.txt", { hash: "12", size: 2, contentType: "text/plain" }]]))).not.toBe(d);
  expect(manifestDigest(decodeManifest({ "a.txt": "00 1 text/plain", "c.txt": "11 2 text/plain" }))).not.toBe(d);
  // The digest of the recorded text form, as state written by earlier releases holds it.
  const textDigest = createHash("sha256").update("a.txt\u000000 1 text/plain\nb.txt\u000011 2 text/plain\n").digest("hex");
  expect(d).toBe(`sha256:${textDigest}`);
});

test("the changed files: changed, added and removed keys, in key order; removed ones only when they are deleted", () => {
  const have = decodeManifest({ a: "1 1 t", b: "2 1 t", c: "3 1 t" });
  const want = decodeManifest({ b: "2 1 t", a: "9 1 t", d: "4 1 t" });
  expect(changedFiles(have, want, true)).toEqual({ changed: ["a"], added: ["d"], removed: ["c"] });
  expect(changedFiles(have, want, false)).toEqual({ changed: ["a"], added: ["d"], removed: [] });
});

test("the hashes kept between scans never hide a change: a file rewritten to the same size is hashed again", () => {
  const dir = mkdtempSync(join(tmpdir(), "krcloud-folder-cache-"));
  try {
    const file = join(dir, "a.txt");
    writeFileSync(file, "one");
    utimesSync(file, 1_000_000, 1_000_000);
    const first = scanFolder({ ...base, path: dir });
    expect(scanFolder({ ...base, path: dir })).toEqual(first);
    writeFileSync(file, "two");
    utimesSync(file, 1_000_001, 1_000_001);
    expect(scanFolder({ ...base, path: dir }).get("site/a.txt")).toEqual({
      hash: createHash("md5").update("two").digest("hex"),
      size: 3,
      contentType: "text/plain",
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the hashes are kept per folder in a cache file, so the next process hashes only the files whose size, mtime or inode changed", () => {
  const dir = mkdtempSync(join(tmpdir(), "krcloud-folder-disk-"));
  const cacheDir = mkdtempSync(join(tmpdir(), "krcloud-folder-hashes-"));
  const before = process.env.KRCLOUD_FOLDER_HASH_CACHE;
  process.env.KRCLOUD_FOLDER_HASH_CACHE = cacheDir;
  try {
    writeFileSync(join(dir, "same.txt"), "same");
    writeFileSync(join(dir, "edited.txt"), "old");
    const first = scanFolder({ ...base, path: dir });
    const file = hashCacheFile(dir)!;
    const saved = JSON.parse(readFileSync(file, "utf8")) as { root: string; files: Record<string, [number, number, number, string]> };
    expect(Object.keys(saved.files).sort()).toEqual(["edited.txt", "same.txt"]);
    expect(saved.files["same.txt"]![3]).toBe(first.get("site/same.txt")!.hash);
    // A stand-in hash for the unchanged file shows that a new process takes it from the cache
    // instead of reading the file; the edited file (another size) is hashed again.
    saved.files["same.txt"]![3] = "0".repeat(32);
    writeFileSync(file, JSON.stringify(saved));
    writeFileSync(join(dir, "edited.txt"), "new content");
    jest.isolateModules(() => {
      const fresh = require("../../provider/objectstorage/folder/scan") as typeof import("../../provider/objectstorage/folder/scan");
      const m = fresh.scanFolder({ ...base, path: dir });
      expect(m.get("site/same.txt")!.hash).toBe("0".repeat(32));
      expect(m.get("site/edited.txt")!.hash).toBe(createHash("md5").update("new content").digest("hex"));
    });
    // Off: nothing is written.
    process.env.KRCLOUD_FOLDER_HASH_CACHE = "off";
    expect(hashCacheFile(dir)).toBeUndefined();
  } finally {
    if (before === undefined) delete process.env.KRCLOUD_FOLDER_HASH_CACHE;
    else process.env.KRCLOUD_FOLDER_HASH_CACHE = before;
    rmSync(dir, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  }
});
