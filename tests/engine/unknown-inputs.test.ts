/**
 * Preview with unknown inputs, end to end: a program whose acl, metadata, CORS and lifecycle rules,
 * object source and content all come from another resource's outputs. The first preview (nothing
 * exists) and a preview while the upstream resource is being updated must plan creates and in-place
 * updates, never fail and never replace; up must then apply exactly that.
 */
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TEST_TIMEOUT_MS, eventCollector, krcloudOps, objectText, REPO_ROOT } from "../harness/engine";
import { engineFile } from "../harness/engine/engine-file";

const marker = () => expect.stringMatching(/^[0-9a-f]{16}$/) as unknown as string;
const OWNED = { "krcloud-owner": marker(), "krcloud-cors-owner": marker(), "krcloud-lifecycle-owner": marker() };

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const OS = "object-storage";
let stack: Stack;

const engine = engineFile({ label: "unknown-inputs", project: "unknown-inputs" });

beforeAll(async () => {
  const dir = engine.sandbox.copyProgram(path.join(REPO_ROOT, "tests/programs/unknown-inputs"));
  stack = await engine.stack(dir, "engine");
});

test("first run: preview plans creates with every input unknown, and up applies them", async () => {
  const preview = eventCollector();
  let printed = "";
  const first = await stack.preview({ color: "never", onEvent: preview.onEvent, onOutput: (o) => (printed += o) });
  // Node's "SQLite is an experimental feature" warning (loaded by Pulumi's closure serializer) is not shown.
  expect(printed).not.toMatch(/ExperimentalWarning|SQLite/);
  expect(krcloudOps(preview.events)).toEqual({
    upstream: "create",
    site: "create",
    "site-cors": "create",
    "site-lifecycle": "create",
    page: "create",
    note: "create",
  });
  expect(first.changeSummary.create).toBe(8); // with the stack and its identity (the provider resource krcloud-stack)
  expect(await engine.inventory()).toEqual([]);

  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  const site = up.outputs.siteName!.value as string;
  const bucket = (await engine.project.control.getResource<{ acl: { public?: string }; metadata: Record<string, string> }>(OS, "bucket", site))!;
  expect(bucket.acl.public).toBe("read-only");
  // With the ownership markers the creates wrote (the bucket's, its CORS policy's and lifecycle's; never outputs).
  expect(bucket.metadata).toEqual({ team: "web", generation: "1", ...OWNED });
  expect(up.outputs.corsOrigins!.value).toEqual(["https://app.example.com"]);
  expect(up.outputs.lifecycleDays!.value).toBe(30);
  expect(await objectText(engine.project, site, "index.html")).toBe("<h1>generation 1</h1>\n");
  expect(await objectText(engine.project, site, "note.txt")).toBe("made for web, generation 1\n");

  await stack.preview({ expectNoChanges: true, color: "never" });
});

test("an upstream update makes the inputs unknown again: preview plans updates in place, never a replacement", async () => {
  const site = (await stack.outputs()).siteName!.value as string;
  await stack.setConfig("krcloud-test-unknown-inputs:generation", { value: "2" });

  const preview = eventCollector();
  await stack.preview({ color: "never", onEvent: preview.onEvent });
  const planned = krcloudOps(preview.events);
  expect(planned.upstream).toBe("update");
  for (const name of ["site", "site-cors", "site-lifecycle", "page", "note"]) {
    // Unknown until upstream is updated, so each may change; none may be replaced.
    expect({ name, op: planned[name] ?? "same" }).toEqual({ name, op: expect.stringMatching(/^(update|same)$/) });
  }

  const run = eventCollector();
  const up = await stack.up({ color: "never", onEvent: run.onEvent });
  expect(Object.values(krcloudOps(run.events)).filter((op) => op !== "update")).toEqual([]);
  expect(up.outputs.siteName!.value).toBe(site);
  const bucket = (await engine.project.control.getResource<{ metadata: Record<string, string> }>(OS, "bucket", site))!;
  expect(bucket.metadata).toEqual({ team: "web", generation: "2", ...OWNED });
  expect(await objectText(engine.project, site, "index.html")).toBe("<h1>generation 2</h1>\n");
  expect(await objectText(engine.project, site, "note.txt")).toBe("made for web, generation 2\n");
  await stack.preview({ refresh: true, expectNoChanges: true, color: "never" });
});

test("destroy leaves nothing", async () => {
  await stack.destroy({ color: "never" });
  expect(await engine.inventory()).toEqual([]);
});
