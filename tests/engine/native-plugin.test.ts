/**
 * The native plugin pulumi-resource-krcloud with the real CLI: a program's resources served by the
 * plugin (state without `__provider` and without plaintext secrets), `preview --diff` with
 * per-property changes and the property that forces replacement, `pulumi import` of a bucket made
 * behind Pulumi's back and the `import` option (the next up shows no changes), destroy.
 */
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { resolveSettings } from "../../client/core";
import { ObjectStorageClient } from "../../client/objectstorage";
import {
  backendFiles,
  ENGINE_TEST_TIMEOUT_MS,
  eventCollector,
  isSecret,
  nativeResourcesOfType,
  nativeSite,
  runPulumi,
  stateResources,
} from "../harness/engine";
import { engineFile, previewSteps } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const site = nativeSite();

let stack: Stack;
let workDir: string;
let sdk: ObjectStorageClient;

const engine = engineFile({ label: "native", project: "native", plugin: true });

beforeAll(async () => {
  workDir = engine.sandbox.copyProgram(site.dir);
  stack = await engine.stack(workDir, "native", site.secrets);
  sdk = new ObjectStorageClient({
    settings: resolveSettings({ localCloudUrl: engine.cloud.url, authToken: engine.project.token, projectId: engine.project.projectId }),
  });
});

test("up creates the resources through the plugin; state holds no __provider and no plaintext secret", async () => {
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  const name = up.outputs.bucketName!.value as string;
  // Auto-named by the plugin from the engine's resource name and seed.
  expect(name).toMatch(/^site-[0-9a-f]{7}$/);
  expect(await sdk.findBucket(name)).toBeDefined();

  const state = await stack.exportStack();
  const types = stateResources(state).map((r) => r.type);
  expect(types).toEqual(expect.arrayContaining(["pulumi:providers:krcloud", "krcloud:objectstorage:Bucket", "krcloud:objectstorage:BucketObject"]));
  expect(types.filter((t) => t.startsWith("pulumi-nodejs:"))).toEqual([]);
  expect(JSON.stringify(state)).not.toContain("__provider");

  const [obj] = nativeResourcesOfType(state, "krcloud:objectstorage:BucketObject");
  for (const k of ["content", "etag", "size"]) expect([k, isSecret(obj!.outputs?.[k])]).toEqual([k, true]);
  const [bucket] = nativeResourcesOfType(state, "krcloud:objectstorage:Bucket");
  expect(isSecret(bucket!.outputs?.metadata)).toBe(true);

  // At rest (checkpoints, history, backups): none of the secrets in plaintext.
  for (const { file, text } of backendFiles(engine.sandbox.backendDir)) {
    for (const secret of [engine.project.token, engine.project.credentialSecret, site.owner, site.content]) {
      expect([file, text.includes(secret)]).toEqual([file, false]);
    }
  }
});

test("preview of an unchanged program shows no changes", async () => {
  expect(await previewSteps(stack)).toEqual([]);
});

test("preview --diff shows per-property changes and which property forces replacement", async () => {
  try {
    await previewDiffs();
  } finally {
    await stack.removeConfig(`${site.ns}:acl`);
    await stack.removeConfig(`${site.ns}:bucketName`);
  }
});

async function previewDiffs(): Promise<void> {
  await stack.setConfig(`${site.ns}:acl`, { value: "read-only" });
  const { events, onEvent } = eventCollector();
  const inPlace = await stack.preview({ color: "never", diff: true, onEvent });
  const step = events.map((e) => e.resourcePreEvent?.metadata).find((m) => m?.type === "krcloud:objectstorage:Bucket");
  expect(step?.op).toBe("update");
  expect(step?.detailedDiff).toEqual({ acl: { diffKind: "update", inputDiff: true } });
  expect(inPlace.stdout).toMatch(/~ acl\s*: \{\s*~ public: "deny" => "read-only"/);

  await stack.setConfig(`${site.ns}:bucketName`, { value: "renamed-site" });
  const replace = eventCollector();
  const replaced = await stack.preview({ color: "never", diff: true, onEvent: replace.onEvent });
  const meta = replace.events.map((e) => e.resourcePreEvent?.metadata).find((m) => m?.type === "krcloud:objectstorage:Bucket" && m.op !== "same");
  // A new name cannot collide with the old bucket: the replacement is created before the old one goes.
  expect(meta?.op).toBe("create-replacement");
  const replaceStep = replace.events.map((e) => e.resourcePreEvent?.metadata).find((m) => m?.type === "krcloud:objectstorage:Bucket" && m.op === "replace");
  expect(replaceStep?.detailedDiff).toEqual({ acl: { diffKind: "update", inputDiff: true }, name: { diffKind: "update-replace", inputDiff: true } });
  expect(replaceStep?.keys).toEqual(["name"]);
  expect(replaced.stdout).toContain("+-krcloud:objectstorage:Bucket: (replace)");
  expect(replaced.stdout).toMatch(/~ acl\s*: \{\s*~ public: "deny" => "read-only"/);
  expect(replaced.stdout).toMatch(/~ name\s*: "site-[0-9a-f]{7}" => "renamed-site"/);
}

test("pulumi import adopts a bucket made behind Pulumi's back; the declaring program then shows no changes", async () => {
  const name = `adopt-${engine.project.projectId.slice(-8)}`;
  await sdk.createBucket({ name });
  await sdk.updateContainerMetadata(name, { team: "ops" }, []);
  // Imported with the metadata it has: declare the same.
  await runPulumi(
    engine.sandbox,
    ["import", "krcloud:objectstorage:Bucket", "adopted", name, "--yes", "--generate-code=false", "--protect=false", "--non-interactive", "--stack", "native"],
    workDir,
  );
  const state = await stack.exportStack();
  const adopted = nativeResourcesOfType(state, "krcloud:objectstorage:Bucket").find((r) => r.urn.endsWith("::adopted"));
  expect(adopted?.id).toBe(name);
  expect(adopted?.inputs).toMatchObject({ name, metadata: { team: "ops" } });

  await stack.setConfig(`${site.ns}:adoptName`, { value: name });
  expect(await previewSteps(stack)).toEqual([]);
  const up = await stack.up({ color: "never" });
  expect(up.summary.resourceChanges).toEqual({ same: expect.any(Number) });
  expect((await sdk.findBucket(name))?.metadata).toEqual({ team: "ops" });
});

test("the import option adopts an existing bucket with no changes", async () => {
  const name = `imp-${engine.project.projectId.slice(-8)}`;
  await sdk.createBucket({ name });
  await stack.setConfig(`${site.ns}:importId`, { value: name });
  const up = await stack.up({ color: "never" });
  expect(up.summary.resourceChanges).toEqual({ same: expect.any(Number), import: 1 });
  expect(await previewSteps(stack)).toEqual([]);
});

test("destroy removes everything through the plugin", async () => {
  // Imported and adopted buckets are deleted too: they are managed now.
  await engine.destroyLeavesNothing(stack);
  expect(path.isAbsolute(workDir)).toBe(true);
});
