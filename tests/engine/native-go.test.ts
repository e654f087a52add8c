/**
 * examples/go-static-site, a Go program on the generated Go SDK (`make sdks`, sdk-gen/go, required
 * through a `replace`), run by the real CLI with pulumi-language-go (`make pulumi-languages`, which
 * builds the program with the go on PATH) and the native plugin: up, preview --expect-no-changes, a
 * change behind Pulumi's back reported by krcloud-drift and taken in by refresh, pulumi import of a
 * bucket made elsewhere, destroy.
 */
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../emulator";
import { resolveSettings } from "../../sdk/core";
import { ObjectStorageClient } from "../../sdk/objectstorage";
import { driftedPaths, parseReport, runDrift } from "../support/drift";
import {
  discoverExamples,
  ENGINE_TEST_TIMEOUT_MS,
  generateSdks,
  installNativePlugin,
  nativeResourcesOfType,
  newProject,
  providerConfig,
  pulumiLanguagesBinDir,
  runPulumi,
  Sandbox,
  startCloud,
  stateResources,
  wireGoProgram,
  buildGoProgram,
  type CloudProject,
} from "../harness/engine";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const STACK = "go";

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;
let stack: Stack;
let workDir: string;
let sdk: ObjectStorageClient;

beforeAll(async () => {
  if (!pulumiLanguagesBinDir()) throw new Error("pulumi-language-go is missing: run `make pulumi-languages` (scripts/install-pulumi-languages.sh)");
  const example = discoverExamples().find((e) => e.name === "go-static-site");
  if (!example || example.runtime !== "go") throw new Error("examples/go-static-site (runtime: go) is missing");
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "native-go" });
  project = await newProject(cloud, "golang");
  const sdkDir = path.join(sandbox.root, "sdk");
  await Promise.all([installNativePlugin(sandbox), generateSdks(sdkDir, { wheel: false })]);
  workDir = sandbox.copyProgram(example.dir);
  // As the example's README says: go.mod's `replace` names the generated SDK's directory.
  await wireGoProgram(workDir, path.join(sdkDir, "go"));
  // The host builds the program before every command. Built once here first, so that a cold Go
  // cache (the Pulumi Go SDK compiled from scratch: about 6 minutes on a loaded 2-core machine, 15
  // seconds warm) falls in this hook's time and not in up's.
  await buildGoProgram(workDir);
  stack = await sandbox.createStack(workDir, STACK, providerConfig(project));
  sdk = new ObjectStorageClient({ settings: resolveSettings({ localCloudUrl: cloud.url, authToken: project.token, projectId: project.projectId }) });
}, 900_000);

afterAll(async () => {
  await cloud?.close();
  sandbox?.cleanup();
});

test("up creates the bucket and its page through the plugin", async () => {
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  const bucket = up.outputs.bucketName!.value as string;
  expect(bucket).toMatch(/^site-[0-9a-f]{7}$/);
  expect(up.outputs.url!.value).toBe(`${cloud.url}/object-storage/v1/${project.projectId}/${bucket}/index.html`);

  const inventory = (await project.control.inventory(project.projectId)).map((e) => `${e.kind}:${e.id}`).sort();
  expect(inventory).toEqual([`bucket:${bucket}`, `object:${bucket}/index.html`]);
  expect(await (await fetch(up.outputs.url!.value as string)).text()).toBe("<h1>Hello from Go and krcloud</h1>");
  const types = stateResources(await stack.exportStack()).map((r) => r.type);
  expect(types.filter((t) => t.startsWith("krcloud:")).sort()).toEqual(["krcloud:objectstorage:Bucket", "krcloud:objectstorage:BucketObject"]);
});

test("preview --expect-no-changes of the unchanged program succeeds", async () => {
  const { stdout } = await runPulumi(sandbox, ["preview", "--expect-no-changes", "--non-interactive", "--color", "never", "--stack", STACK], workDir);
  expect(stdout).toMatch(/\b3 unchanged\b/);
});

test("a change behind Pulumi's back: krcloud-drift reports it, refresh takes it in, up puts the program's value back", async () => {
  const bucket = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket")[0]!;
  await project.control.patchResource("object-storage", "bucket", bucket.id!, { acl: { public: "deny" } });

  const r = await runDrift(sandbox, ["--cwd", workDir, "--stack", STACK, "--format", "json"]);
  expect({ code: r.code, stderr: r.stderr, out: r.code === 2 ? "" : r.stdout }).toEqual({ code: 2, stderr: "", out: "" });
  const site = parseReport(r.stdout).stacks[0]!.resources.find((x) => x.urn === bucket.urn)!;
  expect(driftedPaths(site)).toEqual([["acl.public", "deny", "read-only"]]);

  const refreshed = await stack.refresh({ color: "never" });
  expect(refreshed.summary.resourceChanges).toMatchObject({ update: 1 });
  const after = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket")[0]!;
  expect((after.outputs as { acl?: { public?: string } }).acl?.public).toBe("deny");

  const up = await stack.up({ color: "never" });
  expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
  expect((await sdk.findBucket(bucket.id!))?.acl).toMatchObject({ public: "read-only" });
});

test("pulumi import adopts a bucket made behind Pulumi's back", async () => {
  const name = `adopt-${project.projectId.slice(-8)}`;
  await sdk.createBucket({ name });
  await runPulumi(
    sandbox,
    ["import", "krcloud:objectstorage:Bucket", "adopted", name, "--yes", "--generate-code=false", "--protect=false", "--non-interactive", "--stack", STACK],
    workDir,
  );
  const adopted = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket").find((x) => x.urn.endsWith("::adopted"));
  expect(adopted?.id).toBe(name);
  expect(adopted?.inputs).toMatchObject({ name });
});

test("destroy leaves nothing behind, the imported bucket included", async () => {
  const destroyed = await stack.destroy({ color: "never" });
  expect(destroyed.summary.result).toBe("succeeded");
  expect(await project.control.inventory(project.projectId)).toEqual([]);
});
