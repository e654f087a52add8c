/**
 * Zero-diff suite, native plugin (a Pulumi YAML program), with the real CLI: for every resource
 * type (13) the next preview after `up` shows no changes, nor the preview after a `pulumi refresh`,
 * nor after `pulumi import` of resources made outside Pulumi and declared with the values they were
 * made with; and the same with every optional input set once (tests/support/zero-diff/
 * `variedSpec`). No change means no update and no replace: `pulumi preview --expect-no-changes`.
 * Secret inputs are plain values in the YAML program, as YAML programs write them.
 *
 * Two stacks of generated YAML programs: `base` (minimal inputs, then the imported resources
 * added) and `varied`. The dynamic classes' door is zero-diff-dynamic.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { findDefinition } from "../../provider/registry";
import { ENGINE_TEST_TIMEOUT_MS, runPulumi, stateResources } from "../harness/engine";
import {
  baseSpec,
  changes,
  importFile,
  makeOutside,
  outsideTypes,
  prepareCloud,
  previewNoChanges,
  secretValues,
  typesOf,
  variedSpec,
  writeYamlProgram,
  type CloudFixture,
  type OutsideResource,
  type SecretValues,
  type Spec,
  type SpecResource,
} from "../support/zero-diff";
import { resourceTypes } from "../resources";
import { engineFile } from "../harness/engine/engine-file";
import { writeAsset, zeroDiffSteps } from "../support/zero-diff/steps";

jest.setTimeout(3 * ENGINE_TEST_TIMEOUT_MS);

const PROJECT = "krcloud-test-zero-diff-native";

const engine = engineFile({ label: "zero-diff-native", project: "zdnat", yaml: true, plugin: true });
const { timed, note, previewRefreshPreview, upPreviewRefresh, upPreviewRefreshDestroy, destroyLeavesNothing, targets } = zeroDiffSteps(
  engine,
  "zero-diff, native plugin (YAML)",
);

let fx: CloudFixture;
let secrets: SecretValues;
let baseDir: string;
let base: Stack;
let baseStackSpec: Spec;
/** What the base stack's program declares now. */
let declared: SpecResource[] = [];
/** The logical names of the resources imported with write-only inputs. */
let importedWriteOnly: string[] = [];
/** The types imported so far. */
const importedTypes = new Set<string>();

beforeAll(async () => {
  fx = await prepareCloud(engine.project);
  secrets = secretValues("nat");
  baseDir = path.join(engine.sandbox.root, "programs", "base");
  baseStackSpec = baseSpec(fx, secrets);
  declared = [...baseStackSpec.resources];
  writeYamlProgram(baseDir, PROJECT, { resources: declared });
  base = await engine.stack(baseDir, "base");
});

test("every type with minimal inputs: up, then preview shows no changes; refresh, then preview shows no changes", async () => {
  expect([...typesOf(baseStackSpec)].sort()).toEqual(resourceTypes().sort());
  await upPreviewRefresh("base", base, baseStackSpec);
});

/** `pulumi import` of the outside resources, then the program declares them as they were made. */
async function importAndDeclare(outside: readonly OutsideResource[], label: string): Promise<void> {
  const file = path.join(engine.sandbox.root, `import-${label}.json`);
  fs.writeFileSync(file, JSON.stringify(importFile(outside)));
  await timed(`${label}: pulumi import`, () =>
    runPulumi(engine.sandbox, ["import", "--file", file, "--yes", "--generate-code=false", "--protect=false", "--non-interactive", "--stack", "base"], baseDir),
  );
  const imported = stateResources(await base.exportStack()).filter((r) => outside.some((o) => r.urn.endsWith(`::${o.name}`)));
  expect(imported.map((r) => r.id).sort()).toEqual(outside.map((o) => o.importId).sort());
  declared = [...declared, ...outside.map((o) => ({ name: o.name, type: o.type, properties: o.properties }))];
  writeYamlProgram(baseDir, PROJECT, { resources: declared });
}

test("pulumi import of resources made outside Pulumi, declared as made: preview and refresh-preview show no changes", async () => {
  const outside = await timed("import: resources made through the client", async () =>
    makeOutside("plain", engine.project, fx, secrets, `o${engine.project.projectId.slice(-6)}`, await targets(base)),
  );
  // The types made outside Pulumi are importable (their definitions have an import id); of them,
  // the plain set holds every one that is not written with write-only inputs only (next test).
  const { made } = outsideTypes();
  expect(made.filter((t) => findDefinition(t)?.importId === undefined)).toEqual([]);
  for (const o of outside) importedTypes.add(o.type);
  expect(importedTypes.size).toBeGreaterThan(5);
  for (const t of importedTypes) expect(made).toContain(t);

  await importAndDeclare(outside, "import");
  const n = await previewRefreshPreview("import", base, "imported, declared as made", "imported, after refresh");
  note(`import: ${outside.length} imported resources of ${new Set(outside.map((o) => o.type)).size} types (${n} in the stack), 0 changes`);
});

// After `pulumi import`, an input the cloud never answers back (a cache user's password, a data
// source's instance, user and password, Hadoop's admin and metastore passwords, an object's inline
// content) is recorded empty or absent. A program declaring it must show no change (pulumi-aws
// #4644: an ElastiCache group imported without its auth token is replaced forever): the
// definitions declare these inputs `writeOnly`, and the program's value stands for them until it is
// recorded (an object's content only where the ETag is its MD5).
test("pulumi import of resources with write-only inputs (passwords, a data source, inline content) records them", async () => {
  const outside = await timed("import write-only: resources made through the client", async () =>
    makeOutside("secret", engine.project, fx, secrets, `s${engine.project.projectId.slice(-6)}`, await targets(base)),
  );
  await importAndDeclare(outside, "import write-only");
  importedWriteOnly = outside.map((o) => o.name);
  // Between the two sets, every type whose fixture makes it outside Pulumi was imported.
  for (const o of outside) importedTypes.add(o.type);
  expect([...importedTypes].sort()).toEqual(outsideTypes().made.sort());
});

test("after that import, the program declaring them as made shows no changes, and none after the next up and a refresh", async () => {
  const n = await timed("import write-only: preview", () => previewNoChanges(base, "imported with write-only inputs"));
  const up = await timed("import write-only: up", () => base.up({ color: "never" }));
  expect(up.summary.resourceChanges).not.toHaveProperty("update");
  expect(up.summary.resourceChanges).not.toHaveProperty("replace");
  await timed("import write-only: refresh", () => base.refresh({ color: "never" }));
  await timed("import write-only: preview after refresh", () => previewNoChanges(base, "imported with write-only inputs, after refresh"));
  note(`import write-only: ${n} resources in the stack, 0 changes after import, up and refresh`);

  // Recorded now: a new password in the program is a change again (a cache user's replaces the cluster).
  const before = declared;
  const hasPassword = (u: unknown) => typeof u === "object" && u !== null && (u as { password?: unknown }).password !== undefined;
  const target = declared.find((d) => importedWriteOnly.includes(d.name) && d.type === "krcloud:cache:Cluster" && hasPassword(d.properties.user))!;
  declared = declared.map((d) =>
    d === target ? { ...d, properties: { ...d.properties, user: { ...(d.properties.user as object), password: "Changed-pw-9!" } } } : d,
  );
  writeYamlProgram(baseDir, PROJECT, { resources: declared });
  try {
    const events: EngineEvent[] = [];
    await base.preview({ color: "never", onEvent: (e) => events.push(e) });
    const steps = changes(events);
    expect([...new Set(steps.map((c) => c.name))]).toEqual([target.name]);
    expect(steps.map((c) => c.op)).toContain("replace");
  } finally {
    declared = before;
    writeYamlProgram(baseDir, PROJECT, { resources: declared });
  }
});

test("every optional input set once (unicode, empty lists and maps, shuffled lists and keys): up, preview, refresh, preview show no changes", async () => {
  const dir = path.join(engine.sandbox.root, "programs", "varied");
  fs.mkdirSync(dir, { recursive: true });
  const spec = variedSpec(fx, secrets, `w${engine.project.projectId.slice(-5)}`, writeAsset(dir));
  writeYamlProgram(dir, PROJECT, spec);
  await upPreviewRefreshDestroy("varied", await engine.stack(dir, "varied"), spec);
});

test("destroy leaves nothing behind", async () => {
  await destroyLeavesNothing("base: destroy", base);
});
