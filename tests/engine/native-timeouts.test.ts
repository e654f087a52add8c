/**
 * customTimeouts through the native plugin, with the real CLI: a cache instance set that settles in
 * 10 s (a duration transition on the local cloud) with `customTimeouts.create` of 2s fails at the
 * timeout, naming the resource, and stays in state; a bucket whose create waits on a slow answer
 * (a latency fault) fails at its 2s too, mid-poll; the next up finishes each. The instance set's
 * progress lines reach the display on its own row.
 *
 * Refreshes: `customTimeouts.read` bounds a refresh's read (a bucket whose read waits on a slow
 * answer fails at 2s, naming the resource and the timeout); and a cache cluster create held by the
 * local cloud past `customTimeouts.create` ends in a partial failure that asks the engine to refresh
 * the cluster before the next update, so the next `up` reads what the cloud made of it meanwhile
 * before it finishes it.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import * as path from "node:path";
import {
  REPO_ROOT,
  ENGINE_TEST_TIMEOUT_MS,
  eventCollector,
  expectFailure,
  nativeResourcesOfType,
  nativeSiteProgram,
  newProject,
  providerConfig,
  type CloudProject,
} from "../harness/engine";
import { engineFile, previewSteps, requireYamlHost } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const NS = "krcloud-test-native-site";
/** Far longer than the timeouts: a create or read that waited for it would take this long. */
const LATENCY_MS = 30_000;

let stack: Stack;
let bucketName: string;

const engine = engineFile({ label: "native-timeouts", project: "timeouts", plugin: true });

beforeAll(async () => {
  bucketName = `slow-${engine.project.projectId.slice(-10)}`;
  stack = await engine.stack(engine.sandbox.copyProgram(nativeSiteProgram()), "timeouts", {
    [`${NS}:createTimeout`]: { value: "2s" },
    [`${NS}:bucketName`]: { value: bucketName },
  });
});

test("a create slower than customTimeouts.create fails at the timeout, naming the resource, and the resource stays in state", async () => {
  await engine.project.control.addFault({ service: "object-storage", operation: "GetBucketMeta", action: "latency", latencyMs: LATENCY_MS, times: 1 });
  const { events, onEvent } = eventCollector();
  const text = await expectFailure(() => stack.up({ color: "never", onEvent }));

  expect(text).toContain(`krcloud:objectstorage:Bucket (site)`);
  expect(text).toContain(`bucket "${bucketName}" was not readable within the create timeout of 2s (customTimeouts)`);
  // From the start of the bucket's create to its failure (engine event times, whole seconds): the
  // timeout, not the slow answer.
  const started = events.find((e) => e.resourcePreEvent?.metadata.type === "krcloud:objectstorage:Bucket")?.timestamp;
  const failed = events.find((e) => e.resOpFailedEvent?.metadata.type === "krcloud:objectstorage:Bucket")?.timestamp;
  expect(started).toEqual(expect.any(Number));
  expect(failed! - started!).toBeGreaterThanOrEqual(1);
  expect(failed! - started!).toBeLessThanOrEqual(6);

  const [bucket] = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket");
  expect(bucket?.id).toBe(bucketName);
  expect((await engine.inventory()).map((e) => e.id)).toContain(bucketName);
});

test("the next up finishes the resource, then nothing is left to change", async () => {
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  expect(up.outputs.bucketName!.value).toBe(bucketName);
  expect(await previewSteps(stack)).toEqual([]);
  await stack.destroy({ color: "never" });
  expect(await engine.inventory()).toEqual([]);
});

/** A stack of the YAML program tests/programs/<program> in a project of its own. */
async function yamlProgramStack(program: string, projectName: string): Promise<{ project: CloudProject; stack: Stack }> {
  requireYamlHost();
  const project = await newProject(engine.cloud, projectName);
  const dir = engine.sandbox.copyProgram(path.join(REPO_ROOT, "tests", "programs", program));
  return { project, stack: await engine.sandbox.createStack(dir, projectName, providerConfig(project)) };
}

describe("a settling resource: a cache instance set that takes 10 s", () => {
  let cacheProject: CloudProject;
  let cacheStack: Stack;

  beforeAll(async () => {
    ({ project: cacheProject, stack: cacheStack } = await yamlProgramStack("native-cache", "cachetimeouts"));
  });

  test("customTimeouts.create of 2s fails at the timeout, naming the resource, long before it settles, and it stays in state", async () => {
    await cacheProject.control.setTransition({ service: "cache", kind: "instance", mode: "duration", ms: 10_000 });
    const { events, onEvent } = eventCollector();
    const text = await expectFailure(() => cacheStack.up({ color: "never", onEvent }));
    expect(text).toContain("krcloud:cache:InstanceSet (queue)");
    expect(text).toMatch(/cache instance set "slow-queue" \(\S+\) was not Running[^;]* within the create timeout of 2s \(customTimeouts\)/);
    const started = events.find((e) => e.resourcePreEvent?.metadata.type === "krcloud:cache:InstanceSet")?.timestamp;
    const failed = events.find((e) => e.resOpFailedEvent?.metadata.type === "krcloud:cache:InstanceSet")?.timestamp;
    expect(failed! - started!).toBeLessThanOrEqual(6);
    // The wait's progress line reaches the display on the instance set's own row (the engine's Log).
    const progress = events.filter((e) => e.diagnosticEvent?.urn?.endsWith("::queue")).map((e) => e.diagnosticEvent!);
    expect(progress).toContainEqual(
      expect.objectContaining({ message: expect.stringMatching(/cache instance set "slow-queue" .*waiting for Running/), ephemeral: true }),
    );
    const [set] = nativeResourcesOfType(await cacheStack.exportStack(), "krcloud:cache:InstanceSet");
    expect(set?.id).toEqual(expect.any(String));
    expect((await cacheProject.control.inventory(cacheProject.projectId)).map((e) => e.id)).toContain(set!.id);
  });

  test("once it settles, the next up finishes it with the same id; destroy leaves nothing", async () => {
    const [before] = nativeResourcesOfType(await cacheStack.exportStack(), "krcloud:cache:InstanceSet");
    await cacheProject.control.setTransition({ service: "cache", kind: "instance", mode: "immediate" });
    const up = await cacheStack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.instanceSetId!.value).toBe(before!.id);
    await cacheStack.destroy({ color: "never" });
    expect(await cacheProject.control.inventory(cacheProject.projectId)).toEqual([]);
  });
});

describe("customTimeouts.read", () => {
  let project: CloudProject;
  let stack: Stack;
  let bucketName: string;

  beforeAll(async () => {
    project = await newProject(engine.cloud, "readtimeout");
    bucketName = `read-${project.projectId.slice(-10)}`;
    stack = await engine.sandbox.createStack(
      engine.sandbox.copyProgram(nativeSiteProgram(), "native-site-reads"),
      "reads",
      providerConfig(project, { [`${NS}:readTimeout`]: { value: "2s" }, [`${NS}:bucketName`]: { value: bucketName } }),
    );
    expect((await stack.up({ color: "never" })).summary.result).toBe("succeeded");
  });

  test("a refresh read slower than customTimeouts.read fails at the timeout, naming the resource and the timeout", async () => {
    await project.control.addFault({ service: "object-storage", operation: "GetBucketMeta", action: "latency", latencyMs: LATENCY_MS, times: 1 });
    const started = Date.now();
    const text = await expectFailure(() => stack.refresh({ color: "never" }));
    expect(text).toContain("krcloud:objectstorage:Bucket (site)");
    expect(text).toContain(`reading bucket "${bucketName}": no answer within the read timeout of 2s (customTimeouts)`);
    // The whole refresh, CLI start included, ends long before the slow answer would have come.
    expect(Date.now() - started).toBeLessThan(LATENCY_MS / 2);
  });

  test("without the slow answer the same refresh passes, and the bucket is still in state; destroy leaves nothing", async () => {
    expect((await stack.refresh({ color: "never" })).summary.result).toBe("succeeded");
    expect(nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket").map((r) => r.id)).toEqual([bucketName]);
    await stack.destroy({ color: "never" });
    expect(await project.control.inventory(project.projectId)).toEqual([]);
  });
});

describe("a held cache cluster create: refresh before the next update", () => {
  /** How long the local cloud holds the cluster in Creating: past the 2s create timeout, short of the next up. */
  const HOLD_MS = 6_000;
  let project: CloudProject;
  let stack: Stack;
  let failedAt: number;

  beforeAll(async () => {
    ({ project, stack } = await yamlProgramStack("native-held-cluster", "heldcluster"));
  });

  test("the create times out while the cloud holds it: recorded as Creating, and the engine is asked to refresh it before the next update", async () => {
    await project.control.setTransition({ service: "cache", kind: "cluster", mode: "duration", ms: HOLD_MS });
    const text = await expectFailure(() => stack.up({ color: "never" }));
    failedAt = Date.now();
    expect(text).toContain("krcloud:cache:Cluster (sessions)");
    expect(text).toMatch(/cache cluster "held-sessions" .*within the create timeout of 2s \(customTimeouts\)/);
    const [cluster] = nativeResourcesOfType(await stack.exportStack(), "krcloud:cache:Cluster");
    expect(cluster?.outputs?.status).toBe("Creating");
    expect((cluster as unknown as { refreshBeforeUpdate?: boolean }).refreshBeforeUpdate).toBe(true);
  });

  test("the next up refreshes the cluster first, sees it Running, and finishes it with the same id; then nothing is asked any more", async () => {
    const [before] = nativeResourcesOfType(await stack.exportStack(), "krcloud:cache:Cluster");
    // The cloud finishes the create behind the engine's back.
    await new Promise((r) => setTimeout(r, Math.max(0, failedAt + HOLD_MS + 1_000 - Date.now())));
    const { events, onEvent } = eventCollector();
    const up = await stack.up({ color: "never", onEvent });
    expect(up.summary.result).toBe("succeeded");
    const ops = events.filter((e) => e.resourcePreEvent?.metadata.type === "krcloud:cache:Cluster").map((e) => e.resourcePreEvent!.metadata.op);
    // A refresh of the cluster, before its update.
    expect(ops[0]).toBe("refresh");
    expect(ops.slice(1)).toEqual(["update"]);
    const refreshed = events.find((e) => e.resOutputsEvent?.metadata.type === "krcloud:cache:Cluster" && e.resOutputsEvent.metadata.op === "refresh");
    expect(refreshed?.resOutputsEvent?.metadata.new?.outputs?.status).toBe("Running");
    expect(up.outputs.clusterId!.value).toBe(before!.id);
    expect(up.outputs.status!.value).toBe("Running");
    const [after] = nativeResourcesOfType(await stack.exportStack(), "krcloud:cache:Cluster");
    expect((after as unknown as { refreshBeforeUpdate?: boolean }).refreshBeforeUpdate ?? false).toBe(false);
    await stack.destroy({ color: "never" });
    expect((await project.control.inventory(project.projectId)).filter((e) => e.kind === "cluster")).toEqual([]);
  });
});
