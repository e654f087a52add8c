/**
 * BucketObject with Pulumi assets through the real engine: up, a preview with no changes, a new file
 * content updating only that object (re-uploaded), a metadata change updating it without an upload,
 * refresh with no drift, destroy leaving nothing behind. The engine hands assets to the dynamic
 * provider in full in check/create/update and elided to their hash in diff and read; this test is
 * what shows both are handled.
 *
 * The program's `pulumi-krcloud` is this checkout (not whatever the shared node_modules links to),
 * so the test exercises the code it sits next to.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TEST_TIMEOUT_MS, eventCollector, krcloudOps, objectText, REPO_ROOT } from "../harness/engine";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let stack: Stack;

/** node_modules of the repository, except `pulumi-krcloud`, which is this checkout. */
function linkThisCheckout(programDir: string): void {
  const nm = path.join(programDir, "node_modules");
  const shared = fs.realpathSync(path.join(REPO_ROOT, "node_modules"));
  fs.rmSync(nm, { recursive: true, force: true });
  fs.mkdirSync(nm);
  for (const e of fs.readdirSync(shared)) {
    if (e !== "pulumi-krcloud") fs.symlinkSync(path.join(shared, e), path.join(nm, e));
  }
  fs.symlinkSync(REPO_ROOT, path.join(nm, "pulumi-krcloud"), "dir");
}

const engine = engineFile({ label: "object-assets", project: "object-assets" });

beforeAll(async () => {
  const dir = engine.sandbox.copyProgram(path.join(REPO_ROOT, "tests/programs/object-assets"));
  linkThisCheckout(dir);
  stack = await engine.stack(dir, "engine");
});

function operations(since: number): string[] {
  return engine.cloud.control
    .requests(since)
    .filter((e) => e.service === "object-storage")
    .map((e) => e.operation);
}
const cursor = () => engine.cloud.control.requests().at(-1)?.seq ?? 0;

test("assets through the engine: create, no-change preview, content and metadata updates, refresh, destroy", async () => {
  const up = await stack.up();
  // The program's five, the stack and its identity (krcloud-stack).
  expect(up.summary.resourceChanges).toMatchObject({ create: 7 });
  const bucket = up.outputs.bucketName!.value as string;
  expect(await objectText(engine.project, bucket, "index.html")).toBe("<h1>generation 1</h1>\n");
  expect(await objectText(engine.project, bucket, "robots.txt")).toBe("User-agent: *\n");

  const quiet = eventCollector();
  await stack.preview({ onEvent: quiet.onEvent });
  expect(krcloudOps(quiet.events)).toEqual({});

  await stack.setConfig("generation", { value: "2" });
  let since = cursor();
  const changed = eventCollector();
  await stack.up({ onEvent: changed.onEvent });
  expect(krcloudOps(changed.events)).toEqual({ page: "update" });
  expect(operations(since)).toContain("PutObject");
  expect(await objectText(engine.project, bucket, "index.html")).toBe("<h1>generation 2</h1>\n");

  await stack.setConfig("team", { value: "ops" });
  since = cursor();
  const meta = eventCollector();
  await stack.up({ onEvent: meta.onEvent });
  expect(krcloudOps(meta.events)).toEqual({ page: "update" });
  expect(operations(since)).toContain("PostObject");
  expect(operations(since)).not.toContain("PutObject");

  await stack.refresh();
  const after = eventCollector();
  await stack.preview({ onEvent: after.onEvent });
  expect(krcloudOps(after.events)).toEqual({});

  await stack.destroy();
  expect(await engine.inventory()).toEqual([]);
});
