/**
 * `pulumi up --target <a krcloud resource>` on the TypeScript door works on the first try (issue 38
 * item 7): as the first run of a new stack, whose identity does not exist yet, and on a stack made
 * before the identity became a provider resource (it holds a StackIdentity resource, which no
 * program declares any more). The identity is the id of the provider resource `krcloud-stack`
 * (provider/core/class.ts), which the engine targets implicitly: it is created with the targeted
 * resource, and nothing else is. (The first targeted run after an upgrade from the previous
 * release, which had no identity: previous-release.test.ts.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TEST_TIMEOUT_MS, stateResources } from "../harness/engine";
import { engineFile, jsProgram, previewSteps } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "targeted-up", project: "targeted" });
const PROJECT = "krcloud-targeted-up";
const BUCKET = "pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket";
const IDENTITY = "pulumi:providers:pulumi";

const program = jsProgram(PROJECT, [
  'const site = new krcloud.objectstorage.Bucket("site", { forceDestroy: true });',
  'new krcloud.objectstorage.BucketObject("index", { bucket: site.name, key: "index.html", content: "<h1>hi</h1>" });',
  'new krcloud.objectstorage.Bucket("logs", { forceDestroy: true });',
  "exports.site = site.name;",
]);

const urn = (stack: string, type: string, name: string) => `urn:pulumi:${stack}::${PROJECT}::${type}::${name}`;
const inState = async (stack: Stack) =>
  stateResources(await stack.exportStack())
    .filter((r) => r.type !== "pulumi:pulumi:Stack" && !r.urn.endsWith("::default"))
    .map((r) => `${r.type}::${r.urn.split("::").pop()}`)
    .sort();

test("the first run of a new stack targets one bucket: it and the stack's identity are created, nothing else; the next up makes the rest", async () => {
  const stack = await engine.programStack("first", program);
  const up = await stack.up({ color: "never", target: [urn("first", BUCKET, "site")] });
  expect(up.summary.result).toBe("succeeded");
  expect(await inState(stack)).toEqual([`${BUCKET}::site`, `${IDENTITY}::krcloud-stack`]);
  expect((await engine.inventory()).map((e) => e.kind)).toEqual(["bucket"]);

  const rest = await stack.up({ color: "never" });
  expect(rest.summary.resourceChanges).toMatchObject({ create: 2 });
  expect(await previewSteps(stack)).toEqual([]);
  await engine.destroyLeavesNothing(stack);
});

test("a stack holding the StackIdentity resource of earlier versions: a targeted up works and leaves it; the next untargeted up deletes it, and nothing else changes", async () => {
  // The resource as the classes declared it before (class.ts): the stub provider of its token, no request.
  const oldIdentity = [
    'const stub = (m) => (...a) => require("pulumi-krcloud/runtime").call("krcloud:index:StackIdentity", m, a);',
    'const provider = { configure: stub("configure|create|check|read|update"), create: stub("configure|create|check|read|update"), check: stub("configure|create|check|read|update"),',
    '  read: stub("configure|create|check|read|update"), update: stub("configure|create|check|read|update"), diff: stub("diff|delete"), delete: stub("diff|delete") };',
    'new pulumi.dynamic.Resource(provider, "krcloud-stack", { key: undefined }, {}, "krcloud/index", "StackIdentity");',
  ];
  const files = program["index.js"]!.split("\n");
  const before = { ...program, "index.js": [...files.slice(0, 2), 'const pulumi = require("@pulumi/pulumi");', ...oldIdentity, ...files.slice(2)].join("\n") };
  const stack = await engine.programStack("before", before);
  expect((await stack.up({ color: "never" })).summary.result).toBe("succeeded");
  const old = `pulumi-nodejs:dynamic/krcloud/index:StackIdentity::krcloud-stack`;
  expect(await inState(stack)).toContain(old);

  // This version's program declares no StackIdentity: the targeted resource changes, the old identity stays.
  for (const [file, text] of Object.entries(program)) fs.writeFileSync(path.join(stack.workspace.workDir, file), text);
  const targeted = await stack.up({ color: "never", target: [urn("before", BUCKET, "logs")] });
  expect(targeted.summary.result).toBe("succeeded");
  expect(await inState(stack)).toContain(old);

  const up = await stack.up({ color: "never" });
  const { same, ...changed } = up.summary.resourceChanges ?? {};
  expect(changed).toEqual({ delete: 1 });
  expect(same).toBeGreaterThan(0);
  expect(await inState(stack)).not.toContain(old);
  expect(await previewSteps(stack)).toEqual([]);
  await engine.destroyLeavesNothing(stack);
});
