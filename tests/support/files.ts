/**
 * Folders on disk for tests that read files (a BucketFolder's path, a program's directory): a tree
 * written from a map of relative path -> content, and a temp directory holding one for a test file,
 * removed after its tests. Each hands what it made to `set` (`(d) => (dir = d)`), so the file keeps
 * its own variable.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** `files` (relative path -> content) written under `dir`, made with its subfolders; returns `dir`. */
export function writeTree(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), body);
  }
  return dir;
}

/** A temp directory named `<prefix>XXXXXX` holding `files`, made before the file's tests and removed after them. */
export function treeForFile(prefix: string, files: Record<string, string>, set: (dir: string) => void): void {
  let dir: string | undefined;
  beforeAll(() => {
    dir = writeTree(mkdtempSync(join(tmpdir(), prefix)), files);
    set(dir);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}
