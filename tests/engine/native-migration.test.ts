/**
 * Moving a stack from the dynamic classes to the native plugin, with the real CLI: the program
 * switches its resources to the krcloud types with `aliases` of their dynamic types; preview and up
 * show no replacement (nothing is deleted or created in the cloud), the state then holds the plugin's
 * types, and refresh (which drops the leftover `__provider`) and destroy run through the plugin.
 *
 * The project holds a copy of this working tree's package (installProject), so the dynamic classes
 * and the stub's `require("pulumi-krcloud/runtime")` are this tree's code.
 */
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { byUrn, changedSteps, ENGINE_TEST_TIMEOUT_MS, eventCollector, installProject, nativeSite, stateResources, withoutSecrets } from "../harness/engine";
import { engineFile, previewSteps } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const site = nativeSite();

let stack: Stack;

const engine = engineFile({ label: "native-migration", project: "migration", plugin: true });

beforeAll(async () => {
  const dir = path.join(engine.sandbox.root, "programs", "migration");
  installProject(site.dir, dir);
  stack = await engine.stack(dir, "migration", {
    [`${site.ns}:mode`]: { value: "dynamic" },
    ...site.secrets,
  });
});

test("a stack made with the dynamic classes moves to the plugin with aliases and no replacement; refresh and destroy then run through the plugin", async () => {
  const first = await stack.up({ color: "never" });
  expect(first.summary.result).toBe("succeeded");
  const before = stateResources(await stack.exportStack());
  expect(before.map((r) => r.type)).toEqual(
    expect.arrayContaining(["pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket", "pulumi-nodejs:dynamic/krcloud/objectstorage:BucketObject"]),
  );
  const bucketName = first.outputs.bucketName!.value as string;
  const createdAt = (await engine.project.control.getResource("object-storage", "bucket", bucketName))?.created_at;

  await stack.setAllConfig({ [`${site.ns}:mode`]: { value: "native" }, [`${site.ns}:aliasDynamic`]: { value: "true" } });
  // Only the default providers change: the plugin's comes, the dynamic host's goes.
  const providerSteps = [
    { urn: expect.stringContaining("::pulumi:providers:krcloud::default"), op: "create" },
    { urn: expect.stringContaining("::pulumi:providers:pulumi-nodejs::default"), op: "delete" },
    // The dynamic classes' stack identity: the plugin needs none (its provider id is the stack's identity).
    { urn: expect.stringContaining("::pulumi:providers:pulumi::krcloud-stack"), op: "delete" },
  ];
  expect(byUrn(await previewSteps(stack))).toEqual(providerSteps);

  const up = eventCollector();
  const moved = await stack.up({ color: "never", onEvent: up.onEvent });
  expect(moved.summary.result).toBe("succeeded");
  expect(byUrn(changedSteps(up.events))).toEqual(providerSteps);
  expect(moved.outputs.bucketName!.value).toBe(bucketName);
  // The same bucket, never deleted and created again.
  expect((await engine.project.control.getResource("object-storage", "bucket", bucketName))?.created_at).toBe(createdAt);

  const state = await stack.exportStack();
  const types = stateResources(state).map((r) => r.type);
  expect(types).toEqual(expect.arrayContaining(["pulumi:providers:krcloud", "krcloud:objectstorage:Bucket", "krcloud:objectstorage:BucketObject"]));
  expect(types.filter((t) => t.startsWith("pulumi-nodejs:dynamic/"))).toEqual([]);
  const visible = JSON.stringify(withoutSecrets(state.deployment));
  for (const secret of [site.owner, site.content, engine.project.token]) expect(visible.includes(secret)).toBe(false);

  // Refresh runs through the plugin and drops the `__provider` the unchanged resources still carry
  // (a `same` step keeps the recorded outputs); the dynamic host could not serve state without it.
  const refresh = eventCollector();
  await stack.refresh({ color: "never", onEvent: refresh.onEvent });
  expect(changedSteps(refresh.events).filter((s) => s.op !== "refresh")).toEqual([]);
  expect(JSON.stringify(await stack.exportStack())).not.toContain("__provider");
  await engine.destroyLeavesNothing(stack);
});
