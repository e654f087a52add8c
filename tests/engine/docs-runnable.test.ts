/**
 * Every command block the documentation marks runnable (`sh runnable`, docs/runnable-docs.md) runs,
 * as written, in a fresh sandbox: a copy of the repository, the machine's own PATH (no Node 24 or
 * Pulumi CLI of ours on it), its own Pulumi backend and home, a free port for the local cloud. One
 * sandbox per markdown file; its blocks run in order, like a user following the page. Blocks with
 * an `id` are run by the test that claims them (CLAIMED_BLOCKS), e.g. README's install command by
 * tests/engine/package.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CLAIMED_BLOCKS, DocsSandbox, documentationFiles, runnableBlocks } from "../support/docs/runnable";
import { REPO_ROOT } from "../harness/engine";

jest.setTimeout(20 * 60_000);

const files = documentationFiles().filter((f) => runnableBlocks(f).some((b) => b.id === undefined));

test("the documentation has runnable blocks, and every claimed block exists and is claimed by a test file that exists", () => {
  expect(files).toContain("README.md");
  const ids = documentationFiles().flatMap((f) => runnableBlocks(f).flatMap((b) => (b.id ? [`${f}#${b.id}`] : [])));
  expect(ids.sort()).toEqual(Object.keys(CLAIMED_BLOCKS).sort());
  for (const test of Object.values(CLAIMED_BLOCKS)) expect(fs.existsSync(path.join(REPO_ROOT, test))).toBe(true);
});

describe.each(files)("%s", (file) => {
  test("its runnable blocks run in a fresh sandbox", async () => {
    const sandbox = new DocsSandbox(path.basename(path.dirname(path.join(REPO_ROOT, file))) || "readme");
    try {
      const r = await sandbox.run(runnableBlocks(file).filter((b) => b.id === undefined));
      if (r.code !== 0) throw new Error(`the runnable blocks of ${file} failed (exit ${r.code}); the last of their output:\n${r.output.slice(-6000)}`);
    } finally {
      await sandbox.cleanup();
    }
  });
});
