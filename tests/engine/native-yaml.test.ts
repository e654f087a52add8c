/**
 * examples/yaml-static-site, a Pulumi YAML program, with the real CLI, pulumi-language-yaml and the
 * native plugin: up (bucket with CORS and lifecycle, an object, a lookup through `fn::invoke`), a
 * preview with no changes, and a destroy that leaves nothing behind.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../emulator";
import {
  changedSteps,
  discoverExamples,
  ENGINE_TEST_TIMEOUT_MS,
  eventCollector,
  installNativePlugin,
  newProject,
  providerConfig,
  pulumiYamlBinDir,
  Sandbox,
  startCloud,
  stateResources,
  type CloudProject,
} from "../harness/engine";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;
let stack: Stack;

beforeAll(async () => {
  if (!pulumiYamlBinDir()) throw new Error("pulumi-language-yaml is missing: run `make pulumi-yaml` (scripts/install-pulumi-yaml.sh)");
  const example = discoverExamples().find((e) => e.name === "yaml-static-site");
  if (!example || example.runtime !== "yaml") throw new Error("examples/yaml-static-site (runtime: yaml) is missing");
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "native-yaml" });
  project = await newProject(cloud, "yaml");
  await installNativePlugin(sandbox);
  stack = await sandbox.createStack(sandbox.copyProgram(example.dir), "yaml", providerConfig(project));
});

afterAll(async () => {
  await cloud?.close();
  sandbox?.cleanup();
});

test("up creates the bucket with CORS and lifecycle, the object, and runs the lookup", async () => {
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  const bucket = up.outputs.bucketName!.value as string;
  expect(bucket).toMatch(/^site-[0-9a-f]{7}$/);
  expect(up.outputs.url!.value).toBe(`${cloud.url}/object-storage/v1/${project.projectId}/${bucket}/index.html`);
  expect((up.outputs.storageInfo!.value as { swift?: { maxFileSize?: unknown } }).swift?.maxFileSize).toEqual(expect.any(Number));

  const inventory = (await project.control.inventory(project.projectId)).map((e) => `${e.kind}:${e.id}`).sort();
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
  const { events, onEvent } = eventCollector();
  await stack.preview({ color: "never", onEvent });
  expect(changedSteps(events)).toEqual([]);
});

test("destroy leaves nothing behind", async () => {
  const destroyed = await stack.destroy({ color: "never" });
  expect(destroyed.summary.result).toBe("succeeded");
  expect(await project.control.inventory(project.projectId)).toEqual([]);
});
