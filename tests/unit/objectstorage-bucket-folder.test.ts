/**
 * BucketFolder's check-time facts (provider/objectstorage/bucket-folder.ts): which files a folder's
 * globs select, their keys, hashes and content types; no network.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentTypeOf, parseFolderId, scanFolder } from "../../provider/objectstorage/bucket-folder";

let root: string;
beforeAll(() => {
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
  expect(Object.keys(scanFolder({ ...base, path: root }))).toEqual([
    "site/app.js",
    "site/app.js.map",
    "site/blob",
    "site/docs/readme.md",
    "site/img/logo.SVG",
    "site/index.html",
  ]);
  expect(Object.keys(scanFolder({ ...base, path: root, hidden: true }))).toContain("site/.well-known/security.txt");
  expect(Object.keys(scanFolder({ ...base, path: root, exclude: ["**/*.map", "docs/**"] }))).toEqual([
    "site/app.js",
    "site/blob",
    "site/img/logo.SVG",
    "site/index.html",
  ]);
  expect(Object.keys(scanFolder({ ...base, path: root, include: ["*.html", "img/*"], prefix: "" }))).toEqual(["img/logo.SVG", "index.html"]);
});

test("each entry is the content's MD5, its size and its content type (overrides first, then the MIME database, then the default)", () => {
  const m = scanFolder({ ...base, path: root, contentTypes: { ".md": "text/x-markdown-custom" }, defaultContentType: "application/x-unknown" });
  expect(m["site/index.html"]).toEqual({ hash: createHash("md5").update("<p>").digest("hex"), size: 3, contentType: "text/html" });
  expect(m["site/docs/readme.md"]!.contentType).toBe("text/x-markdown-custom");
  expect(m["site/img/logo.SVG"]!.contentType).toBe("image/svg+xml");
  expect(m["site/blob"]!.contentType).toBe("application/x-unknown");
  expect(contentTypeOf("a/b.WASM", { ".wasm": "application/wasm" }, "x")).toBe("application/wasm");
});

test("a missing path or a file instead of a folder is a check failure naming path", () => {
  expect(() => scanFolder({ ...base, path: join(root, "nope") })).toThrow(/path: ".*nope" does not exist/);
  expect(() => scanFolder({ ...base, path: join(root, "blob") })).toThrow(/is not a folder/);
});

test("the id is <bucket>/<prefix>", () => {
  expect(parseFolderId("site/www/")).toEqual({ bucket: "site", prefix: "www/" });
  expect(parseFolderId("site/")).toEqual({ bucket: "site", prefix: "" });
  expect(() => parseFolderId("site/www")).toThrow(/must be empty or end with '\/'/);
});
