/**
 * A stack made with the previous release keeps working, unchanged, after upgrading to this one: a
 * program using every resource type (13) through the dynamic classes is installed the way a user
 * installs it (npm, from the previous release's tarball, tests/fixtures/previous-release), `up`
 * runs with it; then npm installs the current package (`npm pack` of this tree) over it, and
 * `pulumi preview --expect-no-changes` passes, as does a preview after the next `up` (which changes
 * nothing in the cloud). The state written by the previous release (its serialized provider stubs,
 * inputs without the hidden keys this release records) is read by this one.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TEST_TIMEOUT_MS, eventCollector, REPO_ROOT, stateResources, toolPath } from "../harness/engine";
import { baseSpec, changes, prepareCloud, previewNoChanges, secretValues, typesOf, writeDynamicSpec, type Spec } from "../support/zero-diff";
import { resourceTypes } from "../resources";
import { engineFile } from "../harness/engine/engine-file";
import { zeroDiffSteps } from "../support/zero-diff/steps";

jest.setTimeout(3 * ENGINE_TEST_TIMEOUT_MS);

/** Resource types added after the previous release (issues 30 and 35): its package cannot declare them. */
const ADDED_SINCE: readonly string[] = ["krcloud:objectstorage:BucketFolder", "krcloud:cache:Backup"];

const PREVIOUS = path.join(REPO_ROOT, "tests", "fixtures", "previous-release", "pulumi-krcloud-0.1.0-0930844.tgz");
const PROGRAM = path.join(REPO_ROOT, "tests", "programs", "zero-diff");
const PULUMI_VERSION: string = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).dependencies["@pulumi/pulumi"];

let dir: string;
let spec: Spec;
let stack: Stack;

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, encoding: "utf8", env: { ...process.env, PATH: toolPath(), npm_config_update_notifier: "false" } });
}

/** Installs `tarball` as the program's pulumi-krcloud, as a user does: a dependency on the file, then `npm install`. */
function installPackage(tarball: string): void {
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "krcloud-previous-release",
      private: true,
      main: "index.js",
      dependencies: { "pulumi-krcloud": `file:${tarball}`, "@pulumi/pulumi": PULUMI_VERSION },
    }),
  );
  // The npm cache filled by `npm ci` serves the dependencies; the registry only when it lacks one.
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], dir);
}

/** A file only the previous release has: its resources were declared in provider/<service>/resources.ts. */
function installedIsPrevious(): boolean {
  return fs.existsSync(path.join(dir, "node_modules", "pulumi-krcloud", "dist", "provider", "objectstorage", "resources.js"));
}

const engine = engineFile({ label: "previous-release", project: "prevrel" });
const { timed, note, destroyLeavesNothing } = zeroDiffSteps(engine, "previous release (0930844) -> this package");

beforeAll(async () => {
  const fx = await prepareCloud(engine.project);
  dir = path.join(engine.sandbox.root, "programs", "previous-release");
  fs.mkdirSync(dir, { recursive: true });
  for (const f of ["Pulumi.yaml", "index.js"]) fs.copyFileSync(path.join(PROGRAM, f), path.join(dir, f));
  // The previous release has no type added since: its program declares the types it has.
  const all = baseSpec(fx, secretValues("prev"));
  spec = { resources: all.resources.filter((r) => !ADDED_SINCE.includes(r.type)) };
  writeDynamicSpec(dir, spec);
});

test("a program using every resource type runs up with the previous release, installed by npm", async () => {
  expect([...typesOf(spec)].sort()).toEqual(
    resourceTypes()
      .filter((t) => !ADDED_SINCE.includes(t))
      .sort(),
  );
  // A copy in the sandbox: npm records the path of a file: dependency.
  const previous = path.join(engine.sandbox.root, path.basename(PREVIOUS));
  fs.copyFileSync(PREVIOUS, previous);
  await timed("npm install of the previous release", () => installPackage(previous));
  expect(installedIsPrevious()).toBe(true);
  expect(fs.lstatSync(path.join(dir, "node_modules", "pulumi-krcloud")).isSymbolicLink()).toBe(false);

  stack = await engine.stack(dir, "prev");
  const up = await timed("up with the previous release", () => stack.up({ color: "never" }));
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges?.create).toBe(spec.resources.length + 1);
});

test("after npm installs this package over it, preview changes no resource (it adds the stack's identity); the first run is a targeted up and works; a preview after the next up shows no changes", async () => {
  // dist is built (the tests run from it): no prepack build.
  const packed = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", engine.sandbox.root], REPO_ROOT)) as { filename: string }[];
  await timed("npm install of this package", () => installPackage(path.join(engine.sandbox.root, packed[0]!.filename)));
  expect(installedIsPrevious()).toBe(false);

  // The one change of the upgrade: the stack's identity (the provider resource krcloud-stack),
  // which the previous release did not have; every resource it made previews unchanged.
  const { events, onEvent } = eventCollector();
  await timed("preview after the upgrade", () => stack.preview({ color: "never", onEvent }));
  expect(changes(events)).toEqual([]);
  const creates = events.flatMap((e) => (e.resourcePreEvent?.metadata.op === "create" ? [e.resourcePreEvent.metadata.urn] : []));
  expect(creates).toEqual([expect.stringMatching(/::pulumi:providers:pulumi::krcloud-stack$/)]);
  const n = events.filter((e) => e.resourcePreEvent?.metadata.op === "same" && e.resourcePreEvent.metadata.type.includes("dynamic/krcloud/")).length;
  expect(n).toBe(spec.resources.length);

  // The first run after the upgrade targets one resource (issue 38 item 7): the engine creates the
  // identity with it (a provider is targeted implicitly), and changes nothing else.
  const target = stateResources(await stack.exportStack()).find((r) => r.type.startsWith("pulumi-nodejs:dynamic/krcloud/"))!.urn;
  const targeted = await timed("targeted up after the upgrade", () => stack.up({ color: "never", target: [target] }));
  const targetedChanges: Record<string, number> = { ...targeted.summary.resourceChanges };
  delete targetedChanges.same;
  expect(targetedChanges).toEqual({ create: 1 });

  const up = await timed("up after the upgrade", () => stack.up({ color: "never" }));
  const { same, ...changed } = up.summary.resourceChanges ?? {};
  expect(changed).toEqual({});
  expect(same).toBeGreaterThanOrEqual(spec.resources.length + 1);
  await timed("preview after that up", () => previewNoChanges(stack, "after the upgrade and an up"));
  note(`${n} resources of ${typesOf(spec).size} types made by the previous release: 0 changes after the upgrade`);
});

test("destroy with this package leaves nothing behind", async () => {
  await destroyLeavesNothing("destroy", stack);
});
