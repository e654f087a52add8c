/**
 * examples/yaml-static-site, a Pulumi YAML program, with the real CLI, pulumi-language-yaml and the
 * native plugin: up (bucket with CORS and lifecycle, an object, a lookup through `fn::invoke`), a
 * preview with no changes, and a destroy that leaves nothing behind.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { discoverExamples, ENGINE_TEST_TIMEOUT_MS, stateResources } from "../harness/engine";
import { engineFile, previewSteps } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let stack: Stack;

const engine = engineFile({ label: "native-yaml", project: "yaml", yaml: true, plugin: true });

beforeAll(async () => {
  const example = discoverExamples().find((e) => e.name === "yaml-static-site");
  if (!example || example.runtime !== "yaml") throw new Error("examples/yaml-static-site (runtime: yaml) is missing");
  stack = await engine.stack(engine.sandbox.copyProgram(example.dir), "yaml");
});

test("up creates the bucket with CORS and lifecycle, the object, and runs the lookup", async () => {
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  const bucket = up.outputs.bucketName!.value as string;
  expect(bucket).toMatch(/^site-[0-9a-f]{7}$/);
  expect(up.outputs.url!.value).toBe(`${engine.cloud.url}/object-storage/v1/${engine.project.projectId}/${bucket}/index.html`);
  expect((up.outputs.storageInfo!.value as { swift?: { maxFileSize?: unknown } }).swift?.maxFileSize).toEqual(expect.any(Number));

  const inventory = (await engine.inventory()).map((e) => `${e.kind}:${e.id}`).sort();
  expect(inventory).toEqual([`bucket-cors:${bucket}`, `bucket-lifecycle:${bucket}`, `bucket:${bucket}`, `object:${bucket}/index.html`]);
  const page = await fetch(up.outputs.url!.value as string);
  expect(await page.text()).toBe("<h1>Hello from Pulumi YAML and krcloud</h1>");

  const types = stateResources(await stack.exportStack()).map((r) => r.type);
  expect(types.filter((t) => t.startsWith("krcloud:")).sort()).toEqual([
    "krcloud:objectstorage:Bucket",
    "krcloud:objectstorage:BucketCors",
    "krcloud:objectstorage:BucketLifecycle",
    "krcloud:objectstorage:BucketObject",
  ]);
});

test("preview of the unchanged program shows no changes", async () => {
  expect(await previewSteps(stack)).toEqual([]);
});

test("destroy leaves nothing behind", async () => {
  await engine.destroyLeavesNothing(stack);
});
