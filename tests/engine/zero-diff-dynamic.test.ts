/**
 * Zero-diff suite, dynamic classes (the TypeScript/JavaScript front door), with the real CLI: for
 * every resource type (13) the next preview after `up` shows no changes, nor the preview after a
 * `pulumi refresh`, nor after adopting resources made outside Pulumi (`adopt: true`, a shard's
 * `adoptShardId`); and the same with every optional input set once (tests/support/zero-diff/
 * `variedSpec`: unicode, empty lists and maps, lists and map keys out of order). No change means
 * no update and no replace: `pulumi preview --expect-no-changes`.
 *
 * Two stacks of one program (tests/programs/zero-diff, which declares what `spec.json` lists):
 * `base` (minimal inputs, then the adopted resources added) and `varied`. The native plugin's door
 * is zero-diff-native.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../emulator";
import {
  ENGINE_TEST_TIMEOUT_MS,
  newProject,
  providerConfig,
  REPO_ROOT,
  Sandbox,
  startCloud,
  stateResources,
  type CloudProject,
  type InventoryEntry,
} from "../harness/engine";
import {
  adoptingSpec,
  baseSpec,
  makeOutside,
  prepareCloud,
  previewNoChanges,
  secretValues,
  typesOf,
  variedSpec,
  writeDynamicSpec,
  type CloudFixture,
  type OutsideResource,
  type SecretValues,
  type Spec,
} from "../support/zero-diff";
import { resourceTypes } from "../resources";

jest.setTimeout(3 * ENGINE_TEST_TIMEOUT_MS);

const PROGRAM = path.join(REPO_ROOT, "tests", "programs", "zero-diff");

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;
let fx: CloudFixture;
let secrets: SecretValues;
let baseDir: string;
let base: Stack;
let baseStackSpec: Spec;
let outside: OutsideResource[] = [];
const figures: string[] = [];
const started = Date.now();

/** What the local cloud holds for the project that the stacks made (not the fixture's key and database instances). */
async function leftBehind(): Promise<InventoryEntry[]> {
  const fixtures = new Set(["kms:key", "data-query:instance"]);
  return (await project.control.inventory(project.projectId)).filter((e) => !fixtures.has(`${e.service}:${e.kind}`));
}

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  const v = await fn();
  figures.push(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return v;
}

beforeAll(async () => {
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "zero-diff-dynamic" });
  project = await newProject(cloud, "zddyn");
  fx = await prepareCloud(project);
  secrets = secretValues("dyn");
  baseDir = sandbox.copyProgram(PROGRAM, "base");
  baseStackSpec = baseSpec(fx, secrets);
  writeDynamicSpec(baseDir, baseStackSpec);
  base = await sandbox.createStack(baseDir, "base", providerConfig(project));
});

afterAll(async () => {
  figures.push(`file total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`zero-diff, dynamic classes:\n  ${figures.join("\n  ")}`);
  await cloud?.close();
  sandbox?.cleanup();
});

test("the specs cover every resource type", () => {
  expect([...typesOf(baseStackSpec)].sort()).toEqual(resourceTypes().sort());
  expect([...typesOf(variedSpec(fx, secrets, "x", "/dev/null"))].sort()).toEqual(resourceTypes().sort());
});

test("every type with minimal inputs: up, then preview shows no changes; refresh, then preview shows no changes", async () => {
  const up = await timed("base: up", () => base.up({ color: "never" }));
  expect(up.summary.result).toBe("succeeded");
  const n = await timed("base: preview", () => previewNoChanges(base, "base after up"));
  expect(n).toBe(baseStackSpec.resources.length);
  await timed("base: refresh", () => base.refresh({ color: "never" }));
  await timed("base: preview after refresh", () => previewNoChanges(base, "base after refresh"));
  figures.push(`base: ${n} resources of ${typesOf(baseStackSpec).size} types, 0 changes after up and after refresh`);
});

test("resources made outside Pulumi (passwords and other write-only inputs included), adopted (adopt: true, adoptShardId): up takes them over, then preview and refresh-preview show no changes", async () => {
  const state = stateResources(await base.exportStack());
  const clusterId = state.find((r) => r.urn.endsWith("::zd-cluster"))?.id;
  const resultsBucket = state.find((r) => r.urn.endsWith("::zd-results"))?.id;
  expect([clusterId, resultsBucket]).toEqual([expect.any(String), expect.any(String)]);
  const targets = { clusterId: clusterId!, resultsBucket: resultsBucket! };
  const tag = project.projectId.slice(-6);
  outside = await timed("adopt: resources made through the SDK", async () => [
    ...(await makeOutside("plain", project, fx, secrets, `o${tag}`, targets)),
    ...(await makeOutside("secret", project, fx, secrets, `s${tag}`, targets)),
  ]);
  const adopted = adoptingSpec(outside);
  // Only types without an adopt of their own are left out: a query (a create runs it) and the KMS
  // resources (the cloud keeps no record of a ciphertext or data key). An object has no adopt flag:
  // its create writes the same content over it. A BucketFolder's adopt is tested against the local
  // cloud (tests/local/objectstorage-bucket-folder.test.ts): the outside resources hold no folder.
  const notAdoptable = ["krcloud:dataquery:Query", "krcloud:kms:Ciphertext", "krcloud:kms:DataKey", "krcloud:objectstorage:BucketFolder"];
  expect([...typesOf({ resources: adopted })].sort()).toEqual(
    resourceTypes()
      .filter((t) => !notAdoptable.includes(t))
      .sort(),
  );

  const before = new Map((await project.control.inventory(project.projectId)).map((e) => [`${e.service}:${e.kind}:${e.id}`, e]));
  writeDynamicSpec(baseDir, { resources: [...baseStackSpec.resources, ...adopted] });
  const up = await timed("adopt: up", () => base.up({ color: "never" }));
  const { same: _same, ...changed } = up.summary.resourceChanges ?? {};
  expect(changed).toEqual({ create: adopted.length });
  // Taken over, not made again: the cloud holds what it held.
  const after = (await project.control.inventory(project.projectId)).map((e) => `${e.service}:${e.kind}:${e.id}`);
  expect(after.filter((k) => !before.has(k))).toEqual([]);

  const n = await timed("adopt: preview", () => previewNoChanges(base, "adopted, after up"));
  await timed("adopt: refresh", () => base.refresh({ color: "never" }));
  await timed("adopt: preview after refresh", () => previewNoChanges(base, "adopted, after refresh"));
  figures.push(`adopt: ${adopted.length} adopted resources of ${typesOf({ resources: adopted }).size} types (${n} in the stack), 0 changes`);
});

test("every optional input set once (unicode, empty lists and maps, shuffled lists and keys): up, preview, refresh, preview show no changes", async () => {
  const dir = sandbox.copyProgram(PROGRAM, "varied");
  const asset = path.join(dir, "asset.txt");
  fs.writeFileSync(asset, "a file asset ✓\nsecond line\n");
  const spec = variedSpec(fx, secrets, `v${project.projectId.slice(-5)}`, asset);
  writeDynamicSpec(dir, spec);
  const varied = await sandbox.createStack(dir, "varied", providerConfig(project));
  try {
    const up = await timed("varied: up", () => varied.up({ color: "never" }));
    expect(up.summary.result).toBe("succeeded");
    const n = await timed("varied: preview", () => previewNoChanges(varied, "varied after up"));
    expect(n).toBe(spec.resources.length);
    await timed("varied: refresh", () => varied.refresh({ color: "never" }));
    await timed("varied: preview after refresh", () => previewNoChanges(varied, "varied after refresh"));
    figures.push(`varied: ${n} resources of ${typesOf(spec).size} types, 0 changes after up and after refresh`);
  } finally {
    const destroyed = await timed("varied: destroy", () => varied.destroy({ color: "never" }));
    expect(destroyed.summary.result).toBe("succeeded");
  }
});

test("destroy leaves nothing behind", async () => {
  const destroyed = await timed("base: destroy", () => base.destroy({ color: "never" }));
  expect(destroyed.summary.result).toBe("succeeded");
  expect(await leftBehind()).toEqual([]);
});
