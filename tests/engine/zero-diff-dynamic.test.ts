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
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TEST_TIMEOUT_MS, REPO_ROOT } from "../harness/engine";
import {
  adoptingSpec,
  baseSpec,
  makeOutside,
  outsideTypes,
  prepareCloud,
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
import { engineFile } from "../harness/engine/engine-file";
import { writeAsset, zeroDiffSteps } from "../support/zero-diff/steps";

jest.setTimeout(3 * ENGINE_TEST_TIMEOUT_MS);

const PROGRAM = path.join(REPO_ROOT, "tests", "programs", "zero-diff");

const engine = engineFile({ label: "zero-diff-dynamic", project: "zddyn" });
const { timed, note, previewRefreshPreview, upPreviewRefresh, upPreviewRefreshDestroy, destroyLeavesNothing, targets } = zeroDiffSteps(
  engine,
  "zero-diff, dynamic classes",
);

let fx: CloudFixture;
let secrets: SecretValues;
let baseDir: string;
let base: Stack;
let baseStackSpec: Spec;
let outside: OutsideResource[] = [];

beforeAll(async () => {
  fx = await prepareCloud(engine.project);
  secrets = secretValues("dyn");
  baseDir = engine.sandbox.copyProgram(PROGRAM, "base");
  baseStackSpec = baseSpec(fx, secrets);
  writeDynamicSpec(baseDir, baseStackSpec);
  base = await engine.stack(baseDir, "base");
});

test("the specs cover every resource type", () => {
  expect([...typesOf(baseStackSpec)].sort()).toEqual(resourceTypes().sort());
  expect([...typesOf(variedSpec(fx, secrets, "x", "/dev/null"))].sort()).toEqual(resourceTypes().sort());
});

test("every type with minimal inputs: up, then preview shows no changes; refresh, then preview shows no changes", async () => {
  await upPreviewRefresh("base", base, baseStackSpec);
});

test("resources made outside Pulumi (passwords and other write-only inputs included), adopted (adopt: true, adoptShardId): up takes them over, then preview and refresh-preview show no changes", async () => {
  const made = await targets(base);
  const tag = engine.project.projectId.slice(-6);
  outside = await timed("adopt: resources made through the client", async () => [
    ...(await makeOutside("plain", engine.project, fx, secrets, `o${tag}`, made)),
    ...(await makeOutside("secret", engine.project, fx, secrets, `s${tag}`, made)),
  ]);
  const adopted = adoptingSpec(outside);
  // Every type whose fixture makes it outside Pulumi and says no reason it cannot be adopted
  // (tests/resources/<module>/<noun>.ts `outside`: a query's create runs it again; KMS resources
  // leave no record; a BucketFolder's adopt is tested against the local cloud).
  expect([...typesOf({ resources: adopted })].sort()).toEqual(outsideTypes().adoptable.sort());

  const before = new Map((await engine.inventory()).map((e) => [`${e.service}:${e.kind}:${e.id}`, e]));
  writeDynamicSpec(baseDir, { resources: [...baseStackSpec.resources, ...adopted] });
  const up = await timed("adopt: up", () => base.up({ color: "never" }));
  const { same: _same, ...changed } = up.summary.resourceChanges ?? {};
  expect(changed).toEqual({ create: adopted.length });
  // Taken over, not made again: the cloud holds what it held.
  const after = (await engine.inventory()).map((e) => `${e.service}:${e.kind}:${e.id}`);
  expect(after.filter((k) => !before.has(k))).toEqual([]);

  const n = await previewRefreshPreview("adopt", base, "adopted, after up", "adopted, after refresh");
  note(`adopt: ${adopted.length} adopted resources of ${typesOf({ resources: adopted }).size} types (${n} in the stack), 0 changes`);
});

test("every optional input set once (unicode, empty lists and maps, shuffled lists and keys): up, preview, refresh, preview show no changes", async () => {
  const dir = engine.sandbox.copyProgram(PROGRAM, "varied");
  const spec = variedSpec(fx, secrets, `v${engine.project.projectId.slice(-5)}`, writeAsset(dir));
  writeDynamicSpec(dir, spec);
  await upPreviewRefreshDestroy("varied", await engine.stack(dir, "varied"), spec);
});

test("destroy leaves nothing behind", async () => {
  await destroyLeavesNothing("base: destroy", base);
});
