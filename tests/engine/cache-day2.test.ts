/**
 * The day-2 operations (docs/changing-stateful-resources.md) through the real CLI: each function
 * through `pulumi do` (the native plugin), and from programs (the TypeScript classes' functions, and
 * a YAML program's `fn::invoke` on the plugin), against the resources of another stack that owns
 * them: a parameter group declaring `timeout`, one declaring nothing, a cluster, a Hadoop job cluster. After each: the owner's `preview --expect-no-changes` passes, with and
 * without a refresh (what a function changes is an output, never an input). A program's preview
 * runs its functions too: a function that changes something makes no request then (`dryRun`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { execFile } from "node:child_process";
import type { Stack } from "@pulumi/pulumi/automation";
import { startLocalCloud } from "../../local-cloud";
import { CacheClient } from "../../client/cache";
import { resolveSettings } from "../../client/core";
import { ENGINE_TEST_TIMEOUT_MS, pulumiBinDir, runPulumi } from "../harness/engine";
import { engineFile, jsProgram, yamlProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({
  label: "cache-day2",
  project: "day2",
  yaml: true,
  plugin: true,
  start: () => startLocalCloud({ port: 0, cacheEngine: "simulated" }),
});

const API_KEY = "day2-cluster-key";

/** The stack that owns the resources the functions act on. */
const OWNER = jsProgram("day2-owner", [
  'const params = new krcloud.cache.ParameterGroup("params", { baseParameterGroupId: "default.redis7.0.cluster", parameters: { timeout: "300" } });',
  'const bare = new krcloud.cache.ParameterGroup("bare", { baseParameterGroupId: "default.redis7.0.cluster" });',
  // On the default group: the functions of a program run at once, and a change of its group would apply to it meanwhile.
  'const sessions = new krcloud.cache.Cluster("sessions", { version: "7.0.15", flavorId: "redis.small", parameterGroupId: "default.redis7.0.cluster",',
  '  subnetIds: ["sn-a"], securityGroupIds: ["sg-1"], shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: [] }] });',
  'const logs = new krcloud.objectstorage.Bucket("logs", { forceDestroy: true });',
  'const nightly = new krcloud.hadoop.Cluster("nightly", { clusterVersion: "HDE-2.0.1", clusterType: "hadoop", keypairName: "kp",',
  '  masterFlavorName: "m2a.xlarge", workerFlavorName: "m2a.xlarge", workerCnt: 3, vpcId: "vpc-1", subnetId: "sn-1", adminPassword: "Adm1n-Pw!",',
  '  userTask: { type: "hive", terminationPolicy: "onSuccess", hiveQuery: "select 1", logBucketName: logs.name } });',
  "exports.paramsId = params.id;",
  "exports.bareId = bare.id;",
  "exports.clusterId = sessions.id;",
  "exports.hadoopId = nightly.id;",
]);

/** A program of the TypeScript classes calling every day-2 function on the owner's resources (ids from config). */
const OPS_TS = jsProgram(
  "day2-ops",
  [
    "const c = new pulumi.Config();",
    'const clusterId = c.require("clusterId");',
    'exports.backup = krcloud.cache.takeBackupOutput({ clusterId, name: "ops-backup" });',
    "exports.retried = krcloud.cache.retryParameterGroupApplyOutput({ clusterId });",
    'exports.rolledBack = krcloud.cache.rollbackParameterGroupOutput({ parameterGroupId: c.require("paramsId") });',
    'exports.reset = krcloud.cache.resetParameterGroupOutput({ parameterGroupId: c.require("bareId") });',
    "exports.nodes = krcloud.cache.getClusterNodesOutput({ clusterId });",
    'exports.rerun = krcloud.hadoop.rerunClusterOutput({ clusterId: c.require("hadoopId") });',
  ],
  { pulumi: true },
);

/** A YAML program taking a backup through the native plugin's invoke. */
const OPS_YAML = yamlProgram("day2-ops-yaml", [
  "configuration:",
  "  clusterId: { type: string }",
  "variables:",
  "  taken:",
  "    fn::invoke:",
  "      function: krcloud:cache:takeBackup",
  "      arguments:",
  "        clusterId: ${clusterId}",
  "        name: yaml-backup",
  "outputs:",
  "  dryRun: ${taken.dryRun}",
]);

const MUTATING = ["CreateBackup", "RetryParameterGroupApply", "RollbackParameterGroup", "ResetParameterGroup", "RerunCluster"];

let owner: Stack;
let ids: { paramsId: string; bareId: string; clusterId: string; hadoopId: string };
let sdk: CacheClient;
/** A project directory with a stack, for `pulumi do`. */
let doDir: string;

/** `pulumi do <args>` (JSON on stdout), settings from the environment as a user's shell has them. */
function pulumiDo(args: string[], extraEnv: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const p = engine.project;
  const env = {
    ...process.env,
    ...engine.sandbox.env(),
    KRCLOUD_LOCAL_CLOUD_URL: engine.cloud.url,
    KRCLOUD_PROJECT_ID: p.projectId,
    KRCLOUD_AUTH_TOKEN: p.token,
    KRCLOUD_CREDENTIAL_ID: p.credentialId,
    KRCLOUD_CREDENTIAL_SECRET: p.credentialSecret,
    ...extraEnv,
  };
  return new Promise((resolve, reject) => {
    execFile(
      path.join(pulumiBinDir(), "pulumi"),
      ["do", ...args, "--color", "never"],
      { cwd: doDir, env, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) =>
        err ? reject(new Error(`pulumi do ${args.join(" ")}: ${err.message}\n${stdout}\n${stderr}`)) : resolve(JSON.parse(stdout) as Record<string, unknown>),
    );
  });
}

/** How many requests of each operation that changes something the local cloud has served. */
async function mutating(): Promise<Record<string, number>> {
  const byOperation = (await engine.project.control.counters()).byOperation;
  return Object.fromEntries(MUTATING.map((op) => [op, Object.entries(byOperation).find(([k]) => k.endsWith(`.${op}`))?.[1] ?? 0]));
}

/** The operations of MUTATING served since `before` (each once or more). */
async function mutatingSince(before: Record<string, number>): Promise<string[]> {
  const now = await mutating();
  return MUTATING.filter((op) => now[op]! > before[op]!);
}

/** The owner stack shows no change: a plain preview, and one after a refresh. */
async function ownerUnchanged(): Promise<void> {
  await owner.preview({ color: "never", expectNoChanges: true });
  await owner.preview({ color: "never", expectNoChanges: true, refresh: true });
}

beforeAll(async () => {
  owner = await engine.programStack("day2-owner", OWNER);
  const up = await owner.up({ color: "never" });
  ids = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, String(v.value)])) as typeof ids;
  await engine.project.control.patchResource("hadoop", "cluster", ids.hadoopId, { apiKey: API_KEY });
  const p = engine.project;
  sdk = new CacheClient({
    settings: resolveSettings({ localCloudUrl: p.cloud.url, projectId: p.projectId, authToken: p.token }, () => undefined, {}),
  });
  doDir = path.join(engine.sandbox.root, "do-project");
  fs.mkdirSync(doDir);
  fs.writeFileSync(path.join(doDir, "Pulumi.yaml"), "name: day2-do\nruntime: yaml\n");
  await runPulumi(engine.sandbox, ["stack", "init", "dev"], doDir);
});

describe("through pulumi do", () => {
  test("takeBackup: a backup of the cluster, available; the owner's preview shows no change", async () => {
    const r = await pulumiDo(["krcloud:cache:takeBackup", "--cluster-id", ids.clusterId, "--name", "do-backup"]);
    expect(r).toMatchObject({ dryRun: false, clusterId: ids.clusterId, backup: { name: "do-backup", status: "Available", kind: "manual" } });
    const listed = (await pulumiDo(["krcloud:cache:getBackups"])) as { backups: { name: string }[] };
    expect(listed.backups.map((b) => b.name)).toContain("do-backup");
    // The same name again: the backup there, not a second one.
    const seq = await mutating();
    expect(await pulumiDo(["krcloud:cache:takeBackup", "--cluster-id", ids.clusterId, "--name", "do-backup"])).toMatchObject({
      backup: { id: (r.backup as { id: string }).id },
    });
    expect(await mutatingSince(seq)).toEqual([]);
    await ownerUnchanged();
  });

  test("retryParameterGroupApply: a cluster in Error-Sync is In-Sync after it; the owner's preview shows no change", async () => {
    await engine.project.control.patchResource("cache", "cluster", ids.clusterId, { parameterGroupSyncStatus: "Error-Sync" });
    const r = await pulumiDo(["krcloud:cache:retryParameterGroupApply", "--cluster-id", ids.clusterId]);
    expect(r).toMatchObject({ dryRun: false, retried: true, syncStatus: "In-Sync" });
    await ownerUnchanged();
  });

  test("rollbackParameterGroup: a change made outside the program is undone; the declared value stays; no drift", async () => {
    await sdk.parameterGroups.modify(ids.paramsId, { parameters: { "maxmemory-samples": "9" }, applyMode: "parallel" });
    const r = await pulumiDo(["krcloud:cache:rollbackParameterGroup", "--parameter-group-id", ids.paramsId]);
    expect(r).toMatchObject({ dryRun: false, syncStatus: "In-Sync", parameters: { timeout: "300" } });
    expect((r.parameters as Record<string, string>)["maxmemory-samples"]).toBeUndefined();
    await ownerUnchanged();
  });

  test("resetParameterGroup: a group that declares no value is back at its defaults; no drift", async () => {
    await sdk.parameterGroups.modify(ids.bareId, { parameters: { "tcp-keepalive": "100" }, applyMode: "parallel" });
    expect(await pulumiDo(["krcloud:cache:resetParameterGroup", "--parameter-group-id", ids.bareId])).toMatchObject({ dryRun: false, parameters: {} });
    await ownerUnchanged();
  });

  test("getClusterNodes: every node with its role and shard", async () => {
    const r = (await pulumiDo(["krcloud:cache:getClusterNodes", "--cluster-id", ids.clusterId])) as {
      clusterEnabled: boolean;
      nodes: { role: string; shardId: string }[];
    };
    expect(r.clusterEnabled).toBe(true);
    expect(r.nodes.map((n) => [n.role, n.shardId.startsWith(ids.clusterId)])).toEqual([["primary", true]]);
  });

  test("hadoop rerunCluster: the terminated job cluster runs again (its status, an output); the owner's preview shows no change", async () => {
    const r = await pulumiDo(["krcloud:hadoop:rerunCluster", "--cluster-id", ids.hadoopId], { KRCLOUD_HADOOP_API_KEY: API_KEY });
    expect(r).toMatchObject({ dryRun: false, clusterId: ids.hadoopId, requestStatus: "Success" });
    await ownerUnchanged();
  });
});

describe("from programs", () => {
  test("TypeScript: the preview makes no request that changes anything (dryRun); the up runs each function; the owner's preview shows no change", async () => {
    await sdk.parameterGroups.modify(ids.paramsId, { parameters: { "maxmemory-samples": "11" }, applyMode: "parallel" });
    await engine.project.control.patchResource("cache", "cluster", ids.clusterId, { parameterGroupSyncStatus: "Error-Sync" });
    const ops = await engine.programStack("day2-ops", OPS_TS);
    await ops.setAllConfig({
      clusterId: { value: ids.clusterId },
      paramsId: { value: ids.paramsId },
      bareId: { value: ids.bareId },
      hadoopId: { value: ids.hadoopId },
      "krcloud:hadoopApiKey": { value: API_KEY, secret: true },
    });
    const seq = await mutating();
    await ops.preview({ color: "never" });
    expect(await mutatingSince(seq)).toEqual([]);

    const up = await ops.up({ color: "never" });
    const out = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value as Record<string, unknown>]));
    expect(out.backup).toMatchObject({ dryRun: false, backup: { name: "ops-backup", status: "Available" } });
    expect(out.retried).toMatchObject({ dryRun: false, retried: true, syncStatus: "In-Sync" });
    expect(out.rolledBack).toMatchObject({ dryRun: false, parameters: { timeout: "300" } });
    expect((out.rolledBack!.parameters as Record<string, string>)["maxmemory-samples"]).toBeUndefined();
    expect(out.reset).toMatchObject({ dryRun: false, parameters: {} });
    expect(out.nodes).toMatchObject({ clusterEnabled: true });
    expect(out.rerun).toMatchObject({ dryRun: false, requestStatus: "Success" });
    expect((await mutatingSince(seq)).sort()).toEqual([...MUTATING].sort());
    await ownerUnchanged();
  });

  test("YAML on the native plugin: the invoke of a preview makes no backup (dryRun: true); the up takes it", async () => {
    const ops = await engine.programStack("day2-ops-yaml", OPS_YAML);
    await ops.setAllConfig({ clusterId: { value: ids.clusterId } });
    const seq = await mutating();
    await ops.preview({ color: "never" });
    expect(await mutatingSince(seq)).toEqual([]);
    const up = await ops.up({ color: "never" });
    expect(up.outputs.dryRun!.value).toBe(false);
    expect((await sdk.backups.list({ clusterName: undefined })).map((b) => b.name)).toContain("yaml-backup");
    await ownerUnchanged();
  });
});
