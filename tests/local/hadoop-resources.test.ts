/**
 * Hadoop clusters against the local cloud, driven as the engine drives them: a long-running
 * cluster (basic, workers scaled in place with the same id, disappears, bad input, waiter timeout)
 * and a job cluster that ends Terminated as its normal end, writes its log, and re-runs in place.
 */
import { getClusterVms } from "../../provider/hadoop/functions";
import { HadoopClient } from "../../client/hadoop";
import { ObjectStorageClient } from "../../client/objectstorage";
import { ADMIN_PASSWORD, smallCluster } from "../resources/hadoop/cluster";
import { EngineResource, rejection, type TestCloud } from "../support/local-cloud";
import { testCloudForFile } from "../support/local-cloud/per-file";

let tc: TestCloud;
let hadoop: EngineResource;
let sdk: HadoopClient;

testCloudForFile({ service: "hadoop", reset: true }, async (c) => {
  tc = c;
  hadoop = new EngineResource("krcloud:hadoop:Cluster");
  await hadoop.configure({ ...tc.config, "krcloud:hadoopApiKey": "cluster-key-123" });
  sdk = new HadoopClient({ settings: tc.settings });
});

const base = (over: Record<string, unknown> = {}) => ({
  name: "etl",
  ...smallCluster,
  adminPassword: ADMIN_PASSWORD,
  configurations: [{ classification: "core-site", properties: { "io.file.buffer.size": "65536", "fs.trash.interval": "60" } }],
  ...over,
});

test("long-running: Running with its VMs; a refresh shows no diff; workers scale in place, same id", async () => {
  const state = await hadoop.up(base());
  expect(state.outputs).toMatchObject({ status: "Running", clusterVersion: "HDE-2.0.1", masterCount: 1, apiKeyStatus: "impossible" });
  expect(state.outputs.vms).toHaveLength(4);
  expect((state.outputs.componentUrls as Record<string, string>).nameNodeUrl).toMatch(/^http/);
  // Key order of the configuration never causes a diff (it is canonicalised before it is encoded).
  const refreshed = (await hadoop.refresh(state))!;
  const reordered = base({ configurations: [{ classification: "core-site", properties: { "fs.trash.interval": "60", "io.file.buffer.size": "65536" } }] });
  expect((await hadoop.plan(refreshed, reordered)).diff.changes).toBe(false);

  const scaled = await hadoop.apply(refreshed, base({ workerCnt: 5 }));
  expect(scaled.id).toBe(state.id);
  expect(scaled.outputs).toMatchObject({ workerCnt: 5, status: "Running" });
  expect((await getClusterVms({ clusterId: state.id })).vms.filter((v) => !v.isMaster)).toHaveLength(5);
  expect((await hadoop.plan(scaled, base({ workerFlavorName: "m2a.2xlarge", workerCnt: 5 }))).diff.replaces).toEqual(["workerFlavorName"]);
});

test("long-running found terminated is gone; bad input is rejected in check with no request", async () => {
  const state = await hadoop.up(base());
  await tc.controlApi("PATCH", `/resources/hadoop/cluster/${state.id}`, { status: "Terminated(User)" });
  expect(await hadoop.refresh(state)).toBeUndefined();

  const before = tc.totalRequests();
  const { failures } = await hadoop.check({}, base({ workerCnt: 1, hdfsReplication: 2 }));
  expect(failures).toEqual([{ property: "workerCnt", reason: "workerCnt: must be at least hdfsReplication (2)" }]);
  expect(tc.totalRequests()).toBe(before);
});

test("waiter timeout: a cluster stuck Initializing fails naming it and stays in state; a create that ends Terminated fails with the reason and records nothing", async () => {
  await tc.controlApi("PUT", "/transitions", { service: "hadoop", kind: "cluster", mode: "duration", ms: 3_600_000 });
  const err = await rejection(hadoop.up(base({ timeouts: { create: "1s" } })));
  expect(err.message).toMatch(/Hadoop cluster "etl" \(.+\).*Initializing/);
  expect(err.id).toBeDefined();
  await tc.controlApi("PUT", "/transitions", { service: "hadoop", kind: "cluster", mode: "immediate" });

  await tc.controlApi("PATCH", "/resources/hadoop/create-failure/etl2", { reason: "no capacity for m2a.xlarge" });
  const failed = await rejection(hadoop.up(base({ name: "etl2" })));
  expect(failed.message).toMatch(/ended Terminated: no capacity for m2a.xlarge/);
  // A long-running cluster that terminated is gone: recorded, it would only stand in the way of the next up.
  expect(failed.id).toBeUndefined();
  await tc.controlApi("DELETE", "/resources/hadoop/create-failure/etl2");
  expect((await hadoop.up(base({ name: "etl2" }))).outputs.status).toBe("Running");
});

test("job cluster: runs, ends Terminated (normal end, kept in state, no change next time), writes its log, and re-runs in place", async () => {
  const os = new ObjectStorageClient({ settings: tc.settings });
  await os.createBucket({ name: "pipeline-logs" });
  const args = base({ name: "nightly", userTask: { type: "hive", terminationPolicy: "onSuccess", hiveQuery: "select 1", logBucketName: "pipeline-logs" } });
  const state = await hadoop.up(args);
  expect(state.outputs).toMatchObject({ status: "Terminated", logUrl: expect.stringMatching(/^pipeline-logs\/hadoop-service\/nightly\/.+\.log$/) });
  const logKey = (state.outputs.logUrl as string).slice("pipeline-logs/".length);
  expect((await os.getObject("pipeline-logs", logKey)).body.toString()).toMatch(/job succeeded/);

  const refreshed = (await hadoop.refresh(state))!;
  expect(refreshed.outputs.status).toBe("Terminated");
  expect((await hadoop.plan(refreshed, args)).diff.changes).toBe(false);

  // Re-run: refused without the cluster's API key, then runs and reports its request.
  const rerunArgs = { ...args, rerun: { trigger: "2026-11-23" } };
  expect((await rejection(hadoop.apply(refreshed, rerunArgs))).message).toMatch(/403/);
  await tc.controlApi("PATCH", `/resources/hadoop/cluster/${state.id}`, { apiKey: "cluster-key-123" });
  const rerun = await hadoop.apply(refreshed, rerunArgs);
  expect(rerun.id).toBe(state.id);
  expect(rerun.outputs).toMatchObject({ status: "Terminated", rerunRequestStatus: "Success", rerunRequestResult: "The cluster was re-run." });
  expect(tc.counts().RerunCluster).toBe(2);
});

test("a re-run of a cluster still running is refused", async () => {
  const args = base({ name: "keeps", userTask: { type: "hive", terminationPolicy: "never", hiveQuery: "select 1" } });
  const state = await hadoop.up(args);
  expect(state.outputs.status).toBe("Running");
  const err = await rejection(hadoop.apply(state, { ...args, rerun: { trigger: "1" } }));
  expect(err.message).toMatch(/a re-run needs a terminated job cluster; it is Running/);
  expect((await sdk.getCluster(state.id)).status).toBe("Running");
});
