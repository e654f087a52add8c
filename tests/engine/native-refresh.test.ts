/**
 * Refreshes on the native plugin, with the real CLI: `customTimeouts.read` bounds a refresh's read
 * (a bucket whose read waits on a slow answer fails at 2s, naming the resource and the timeout); and
 * a cache cluster create held by the local cloud past `customTimeouts.create` ends in a partial
 * failure that asks the engine to refresh the cluster before the next update, so the next `up`
 * reads what the cloud made of it meanwhile before it finishes it.
 */
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import {
  ENGINE_TEST_TIMEOUT_MS,
  eventCollector,
  expectFailure,
  nativeResourcesOfType,
  nativeSiteProgram,
  newProject,
  providerConfig,
  REPO_ROOT,
  type CloudProject,
} from "../harness/engine";
import { engineFile, requireYamlHost } from "./engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const NS = "krcloud-test-native-site";
/** Far longer than the timeout: a read that waited for it would take this long. */
const LATENCY_MS = 30_000;

const engine = engineFile({ label: "native-refresh", plugin: true });

describe("customTimeouts.read", () => {
  let project: CloudProject;
  let stack: Stack;
  let bucketName: string;

  beforeAll(async () => {
    project = await newProject(engine.cloud, "readtimeout");
    bucketName = `read-${project.projectId.slice(-10)}`;
    stack = await engine.sandbox.createStack(
      engine.sandbox.copyProgram(nativeSiteProgram()),
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
    requireYamlHost();
    project = await newProject(engine.cloud, "heldcluster");
    stack = await engine.sandbox.createStack(
      engine.sandbox.copyProgram(path.join(REPO_ROOT, "tests", "programs", "native-held-cluster")),
      "held",
      providerConfig(project),
    );
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
