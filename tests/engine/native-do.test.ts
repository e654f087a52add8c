/**
 * `pulumi do` on the native plugin, through the real CLI: `list` of every listable type on a local
 * cloud holding 3 of each (made outside Pulumi), unfiltered and filtered by the type's listInputs;
 * `create`, `patch`, `read` and `delete` of a bucket in a project's stack; a function
 * (`krcloud:cache:getFlavors`); and krcloud-drift --unmanaged finding, through the same `list`, what
 * `pulumi do … list` finds. Settings come from the environment (KRCLOUD_*), as a user's shell has them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { execFile } from "node:child_process";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import type { UnmanagedReport } from "../../drift/unmanaged/cli";
import {
  ENGINE_TEST_TIMEOUT_MS,
  installNativePlugin,
  newProject,
  providerConfig,
  pulumiBinDir,
  runPulumi,
  Sandbox,
  type CloudProject,
} from "../harness/engine";
import { smallCluster } from "../resources/hadoop/cluster";
import { EngineResource } from "../support/local-cloud";
import { mutatingRequests, runDrift } from "../support/drift";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;
let projectDir: string;
/** Ids by type of what the test made, each type's first two matching its filter, the third not. */
const made: Record<string, string[]> = {};

/** Creates a resource through its provider in this process: in the cloud, in no stack. */
async function outside(token: string, args: Record<string, unknown>, name: string): Promise<string> {
  const r = new EngineResource(token);
  const cfg = providerConfig(project);
  await r.configure(Object.fromEntries(Object.entries(cfg).map(([k, v]) => [k, v.value])));
  const { id } = await r.up(args, name);
  (made[token] ??= []).push(id);
  return id;
}

/** The krcloud settings of the project, as environment variables. */
function krcloudEnv(): Record<string, string> {
  return {
    KRCLOUD_LOCAL_CLOUD_URL: cloud.url,
    KRCLOUD_PROJECT_ID: project.projectId,
    KRCLOUD_AUTH_TOKEN: project.token,
    KRCLOUD_CREDENTIAL_ID: project.credentialId,
    KRCLOUD_CREDENTIAL_SECRET: project.credentialSecret,
  };
}

/** `pulumi do <args>` in the project directory; rejects with the output on a non-zero exit. */
function pulumiDo(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      path.join(pulumiBinDir(), "pulumi"),
      ["do", ...args, "--color", "never"],
      { cwd: projectDir, env: { ...process.env, ...sandbox.env(), ...krcloudEnv() }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => (err ? reject(new Error(`pulumi do ${args.join(" ")} failed: ${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

/** The ids `pulumi do <token> list --all` prints (JSON), sorted. */
async function listed(token: string, filters: string[] = []): Promise<string[]> {
  const out = JSON.parse(await pulumiDo([token, "list", "--all", ...filters])) as { id: string; name: string }[];
  return out.map((r) => r.id).sort();
}

beforeAll(async () => {
  cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
  sandbox = new Sandbox({ label: "native-do" });
  project = await newProject(cloud, "do");
  await project.control.patchResource("data-query", "instance", "do-db", {
    projectId: project.projectId,
    engine: "mysql",
    databases: { shop: "CREATE TABLE t(id INTEGER);" },
  });
  await installNativePlugin(sandbox);
  // A project directory with a stack: where `pulumi do create` records what it makes.
  projectDir = path.join(sandbox.root, "do-project");
  fs.mkdirSync(projectDir);
  fs.writeFileSync(path.join(projectDir, "Pulumi.yaml"), "name: do-project\nruntime: yaml\n");
  await runPulumi(sandbox, ["stack", "init", "dev"], projectDir);

  const suffix = project.projectId.slice(-8);
  const buckets: string[] = [];
  for (const n of ["keep-1", "keep-2", "other"]) buckets.push(await outside("krcloud:objectstorage:Bucket", { name: `${n}-${suffix}`, forceDestroy: true }, n));
  for (const bucket of buckets) {
    await outside(
      "krcloud:objectstorage:BucketCors",
      { bucket, rules: [{ allowedOrigins: ["https://app.example.com"], allowedMethods: ["GET"] }] },
      `c-${bucket}`,
    );
    await outside(
      "krcloud:objectstorage:BucketLifecycle",
      { bucket, rules: [{ id: "tmp", prefix: "tmp/", status: "Enabled", expirationDays: 7 }] },
      `l-${bucket}`,
    );
  }
  for (const key of ["docs/a.txt", "docs/b.txt", "img/c.png"])
    await outside("krcloud:objectstorage:BucketObject", { bucket: buckets[0], key, content: "x\n" }, key);
  for (const n of ["keep-pg-1", "keep-pg-2", "other-pg"])
    await outside("krcloud:cache:ParameterGroup", { name: n, baseParameterGroupId: "default.redis7.0.cluster", parameters: {} }, n);
  const cache = { version: "7.0.15", flavorId: "redis.small", subnetIds: ["sn-a", "sn-b"], securityGroupIds: ["sg-1"] };
  const shard = { primarySubnetId: "sn-a", replicaSubnetIds: [] };
  for (const [n, shards] of [
    ["keep-cl-1", 3],
    ["keep-cl-2", 1],
    ["other-cl", 1],
  ] as const)
    await outside("krcloud:cache:Cluster", { name: n, ...cache, parameterGroupId: "default.redis7.0.cluster", shards: Array(shards).fill(shard) }, n);
  for (const n of ["keep-is-1", "keep-is-2", "other-is"])
    await outside(
      "krcloud:cache:InstanceSet",
      { name: n, ...cache, parameterGroupId: "default.redis7.0.standalone", primarySubnetId: "sn-a", replicaSubnetIds: [] },
      n,
    );
  for (const n of ["keep_ds_1", "keep_ds_2", "other_ds"])
    await outside("krcloud:dataquery:DataSource", { name: n, type: "MYSQL", instanceId: "do-db", username: "reader", password: "Pw-do-1!" }, n);
  // Their results go to the second and third buckets: the first holds only the three objects.
  for (const [i, bucketName] of [buckets[1], buckets[1], buckets[2]].entries())
    await outside("krcloud:dataquery:Query", { query: `select ${i + 1} as one`, bucketName, path: "runs" }, `q${i}`);
  for (const n of ["keep-hd-1", "keep-hd-2", "other-hd"]) await outside("krcloud:hadoop:Cluster", { name: n, ...smallCluster }, n);
});

afterAll(async () => {
  await cloud?.close();
  sandbox?.cleanup();
});

describe("pulumi do … list of every listable type, 3 of each", () => {
  const byName = (token: string) => async () => {
    const ids = made[token]!;
    expect(await listed(token)).toEqual([...ids].sort());
    expect(await listed(token, ["--name", "keep"])).toEqual(ids.slice(0, 2).sort());
  };
  test("buckets, by name prefix", byName("krcloud:objectstorage:Bucket"));
  test("cache clusters, by name prefix", byName("krcloud:cache:Cluster"));
  test("cache instance sets, by name prefix", byName("krcloud:cache:InstanceSet"));
  test("custom parameter groups, by name prefix", byName("krcloud:cache:ParameterGroup"));
  test("data sources, by name prefix", byName("krcloud:dataquery:DataSource"));
  test("Hadoop clusters, by name prefix", byName("krcloud:hadoop:Cluster"));

  test("a bucket's objects, by bucket and key prefix", async () => {
    const bucket = made["krcloud:objectstorage:Bucket"]![0]!;
    expect(await listed("krcloud:objectstorage:BucketObject", ["--bucket", bucket])).toEqual([...made["krcloud:objectstorage:BucketObject"]!].sort());
    expect(await listed("krcloud:objectstorage:BucketObject", ["--bucket", bucket, "--key", "docs/"])).toEqual([
      `${bucket}/docs/a.txt`,
      `${bucket}/docs/b.txt`,
    ]);
  });

  test("CORS policies and lifecycle configurations, by bucket", async () => {
    const [first] = made["krcloud:objectstorage:Bucket"]!;
    for (const token of ["krcloud:objectstorage:BucketCors", "krcloud:objectstorage:BucketLifecycle"]) {
      expect(await listed(token)).toEqual([...made[token]!].sort());
      expect(await listed(token, ["--bucket", first!])).toEqual([first]);
    }
  });

  test("a cluster's shards, by clusterId", async () => {
    const [three, one] = made["krcloud:cache:Cluster"]!;
    const shards = await listed("krcloud:cache:Shard", ["--cluster-id", three!]);
    expect(shards).toHaveLength(3);
    for (const id of shards) expect(id.startsWith(`${three}/`)).toBe(true);
    expect(await listed("krcloud:cache:Shard", ["--cluster-id", one!])).toHaveLength(1);
  });

  test("query runs, by result bucket", async () => {
    const second = made["krcloud:objectstorage:Bucket"]![1]!;
    const runs = made["krcloud:dataquery:Query"]!;
    expect(await listed("krcloud:dataquery:Query")).toEqual([...runs].sort());
    expect(await listed("krcloud:dataquery:Query", ["--bucket-name", second])).toEqual(runs.slice(0, 2).sort());
  });

  test("without --all, one page: --count bounds the results", async () => {
    const out = JSON.parse(await pulumiDo(["krcloud:objectstorage:Bucket", "list", "--count", "2"])) as unknown[];
    expect(out).toHaveLength(2);
  });

  test("KMS outputs offer no list: the schema says they cannot be listed", async () => {
    const help = await pulumiDo(["krcloud:kms:Ciphertext", "--help"]);
    expect(help).toContain("It cannot be listed: a ciphertext is recorded only");
    expect(help).not.toMatch(/^\s+list\s/m);
  });
});

test("krcloud-drift --unmanaged finds, through the same list, what pulumi do … list finds", async () => {
  const before = await mutatingRequests(cloud.controlUrl);
  const r = await runDrift(sandbox, ["--cwd", projectDir, "--stack", "dev", "--unmanaged", "--format", "json"], krcloudEnv());
  expect(r.stderr).toBe("");
  const report = JSON.parse(r.stdout) as UnmanagedReport;
  for (const token of [
    "krcloud:objectstorage:Bucket",
    "krcloud:objectstorage:BucketCors",
    "krcloud:objectstorage:BucketLifecycle",
    "krcloud:cache:Cluster",
    "krcloud:cache:InstanceSet",
    "krcloud:cache:ParameterGroup",
    "krcloud:dataquery:DataSource",
    "krcloud:hadoop:Cluster",
  ]) {
    const found = report.resources.filter((x) => x.token === token).map((x) => x.id);
    expect([token, found.sort()]).toEqual([token, await listed(token)]);
  }
  // Shards and query runs are listed by the plugin but are no lines of their own in the drift report.
  expect(report.resources.filter((x) => x.token === "krcloud:cache:Shard" || x.token === "krcloud:dataquery:Query")).toEqual([]);
  expect(await mutatingRequests(cloud.controlUrl)).toEqual(before);
});

test("pulumi do … create, patch, read and delete of a bucket: recorded in the project's stack, then gone from cloud and stack", async () => {
  const name = `made-by-do-${project.projectId.slice(-8)}`;
  const created = await pulumiDo(["krcloud:objectstorage:Bucket", "create", "site", "--name", name, "--force-destroy", "--yes"]);
  expect(created).toContain(`Created site`);
  expect((await project.control.inventory(project.projectId)).map((e) => e.id)).toContain(name);
  const exported = async () =>
    (
      JSON.parse((await runPulumi(sandbox, ["stack", "export", "--stack", "dev"], projectDir)).stdout) as {
        deployment: { resources?: { type: string; id?: string; outputs?: Record<string, unknown> }[] };
      }
    ).deployment.resources?.filter((r) => r.type === "krcloud:objectstorage:Bucket") ?? [];
  expect((await exported()).map((r) => [r.id, r.outputs?.forceDestroy])).toEqual([[name, true]]);

  // patch: only the inputs given change, through the plugin's diff and update (a flag: --input-file
  // needs the pulumi-converter-yaml plugin, which this sandbox does not have).
  await pulumiDo(["krcloud:objectstorage:Bucket", "patch", "site", "--force-destroy=false", "--yes"]);
  expect((await exported()).map((r) => [r.id, r.outputs?.forceDestroy])).toEqual([[name, false]]);

  const read = await pulumiDo(["krcloud:objectstorage:Bucket", "read", name, "--output", "json"]);
  expect(JSON.parse(read.slice(read.indexOf("{")))).toMatchObject({ id: name, name, project: project.projectId });

  await pulumiDo(["krcloud:objectstorage:Bucket", "delete", "site", "--yes"]);
  expect((await project.control.inventory(project.projectId)).map((e) => e.id)).not.toContain(name);
  expect(await exported()).toEqual([]);
});

test("pulumi do krcloud:cache:getFlavors invokes the function and prints its result", async () => {
  const out = JSON.parse(await pulumiDo(["krcloud:cache:getFlavors"])) as { flavors: { id: string }[] };
  expect(out.flavors.map((f) => f.id)).toContain("redis.small");
});
