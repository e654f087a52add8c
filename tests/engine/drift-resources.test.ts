/**
 * krcloud-drift through the real engine on one stack holding every krcloud resource type
 * (tests/programs/drift-all), all drifted together behind Pulumi's back: through the local cloud's
 * control API, or through the public API with the client where the control API cannot express the
 * change (a shard's replica removed, a data source recreated with another description). The check
 * must name each resource with the property path and the cloud's and program's values, report the
 * object deleted outside Pulumi as deleted, show secrets only as [secret], say that the KMS
 * resources and the query keep nothing to compare, and change nothing (state files and mutating
 * requests counted before and after).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startLocalCloud } from "../../local-cloud";
import { CacheClient } from "../../client/cache";
import { resolveSettings } from "../../client/core";
import { DataQueryClient } from "../../client/dataquery";
import { DEFACED, ENGINE_TEST_TIMEOUT_MS, md5, recipeFor, REPO_ROOT, type StateResource } from "../harness/engine";
import { backendDigest, driftedPaths, mutatingRequests, parseReport, resourceNamed, runDrift } from "../support/drift";
import { allDefinitions } from "../../provider/registry";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const PASSWORD = `Drift-${Date.now().toString(36)}-pw!`;
const NS = "krcloud-test-drift-all";

let stack: Stack;
let dir: string;

// Simulated cache nodes: drift is about records, and they settle at once.
const engine = engineFile({ label: "drift-resources", project: "driftall", start: () => startLocalCloud({ port: 0, cacheEngine: "simulated" }) });

beforeAll(async () => {
  await engine.project.control.patchResource("kms", "key", "drift-key", { projectId: engine.project.projectId, type: "symmetric" });
  await engine.project.control.patchResource("data-query", "instance", "drift-db", {
    projectId: engine.project.projectId,
    engine: "mysql",
    databases: { shop: "CREATE TABLE orders(id INTEGER); INSERT INTO orders VALUES (1), (2);" },
  });
  dir = engine.sandbox.copyProgram(path.join(REPO_ROOT, "tests", "programs", "drift-all"));
  stack = await engine.stack(dir, "all", { [`${NS}:password`]: { value: PASSWORD, secret: true } });
  await stack.up({ color: "never" });
});

function settings() {
  return resolveSettings({
    localCloudUrl: engine.cloud.url,
    projectId: engine.project.projectId,
    authToken: engine.project.token,
    credentialId: engine.project.credentialId,
    credentialSecret: engine.project.credentialSecret,
  });
}

const byName = (resources: StateResource[], name: string) => resources.find((r) => r.urn.endsWith(`::${name}`))!;

test("a clean stack of every type: exit 0, every resource listed, KMS resources and the query not checked", async () => {
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "all", "--format", "json"]);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  const [s] = parseReport(r.stdout).stacks;
  const statuses = Object.fromEntries(s!.resources.map((x) => [x.type, x.status]));
  expect(Object.keys(statuses).sort()).toHaveLength(15);
  expect(statuses).toEqual({
    "krcloud:objectstorage:Bucket": "clean",
    "krcloud:objectstorage:BucketCors": "clean",
    "krcloud:objectstorage:BucketLifecycle": "clean",
    "krcloud:objectstorage:BucketObject": "clean",
    "krcloud:objectstorage:BucketFolder": "clean",
    "krcloud:cache:ParameterGroup": "clean",
    "krcloud:cache:Cluster": "clean",
    "krcloud:cache:Shard": "clean",
    "krcloud:cache:InstanceSet": "clean",
    "krcloud:cache:Backup": "clean",
    "krcloud:dataquery:DataSource": "clean",
    "krcloud:dataquery:Query": "unverifiable",
    "krcloud:hadoop:Cluster": "clean",
    "krcloud:kms:Ciphertext": "unverifiable",
    "krcloud:kms:DataKey": "unverifiable",
  });
});

test("every type drifted at once: each reported with its property path and both values; secrets only as [secret]; nothing changed", async () => {
  const state = (await stack.exportStack()).deployment.resources as StateResource[];
  const control = engine.project.control;
  const find = (name: string) => byName(state, name);

  // Object storage and cache records through the control API (the recipes of the examples' drift test).
  for (const name of ["site", "site-cors", "site-lifecycle", "index", "params", "sessions", "queue"]) {
    const r = find(name);
    await recipeFor(r.type)!.drift(control, r);
  }
  await control.deleteResource("object-storage", "object", find("about").id!);
  await control.deleteResource("object-storage", "object", `${find("site").id!}/files/b.txt`);
  await control.patchResource("object-storage", "bucket", find("vault").id!, { metadata: null });
  await control.patchResource("hadoop", "cluster", find("etl").id!, { workerCnt: 5 });
  // The control API cannot reshape a shard or edit a data source: the public API can, through the client.
  const cache = new CacheClient({ settings: settings() });
  const [clusterId, shardId] = find("extra-shard").id!.split("/") as [string, string];
  const replica = (await cache.nodes.list(clusterId, shardId)).find((n) => n.role !== "primary" && n.role !== "PRIMARY")!;
  await cache.nodes.delete(clusterId, shardId, replica.id);
  const dq = new DataQueryClient({ settings: settings() });
  const shopName = find("shop").id!;
  await dq.deleteDataSource(shopName);
  await dq.createDataSource({
    name: shopName,
    type: "MYSQL",
    scope: "PRIVATE",
    instanceId: "drift-db",
    username: "reporter",
    password: PASSWORD,
    description: "edited by hand",
  });
  // KMS: a rotated key changes nothing the check can see.
  await control.patchResource("kms", "key", "drift-key", { rotate: true });

  const digest = backendDigest(engine.sandbox.backendDir);
  const mutating = await mutatingRequests(engine.cloud.controlUrl);
  const outDir = path.join(engine.sandbox.root, "reports");
  const started = Date.now();
  const r = await runDrift(engine.sandbox, [
    "--cwd",
    dir,
    "--stack",
    "all",
    "--format",
    "json",
    ...["table", "sarif", "junit", "github", "markdown"].map((f) => `--out=${f}=${path.join(outDir, `drift.${f}`)}`),
  ]);
  const seconds = (Date.now() - started) / 1000;
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: "" });

  // Read-only: no state file written, no mutating request sent.
  expect(backendDigest(engine.sandbox.backendDir)).toEqual(digest);
  expect(await mutatingRequests(engine.cloud.controlUrl)).toEqual(mutating);

  const report = parseReport(r.stdout);
  const s = report.stacks[0]!;
  expect(s.status).toBe("drift");
  const row = (name: string) => resourceNamed(s, name);
  expect(row("site")).toMatchObject({ status: "drifted", operation: "update" });
  expect(driftedPaths(row("site"))).toEqual([
    ["acl.public", "deny", "read-only"],
    ["metadata.purpose", undefined, "drift"],
  ]);
  // A secret is flagged, never shown; which side moved cannot be told without comparing it.
  expect(row("vault")).toMatchObject({
    status: "drifted",
    properties: [{ path: "metadata", cloud: "[secret]", program: "[secret]", secret: true, origin: "unknown" }],
  });
  expect(driftedPaths(row("site-cors"))).toEqual(
    expect.arrayContaining([
      ["rules[0].allowedOrigins[0]", "https://drift.invalid", "https://www.example.com"],
      ["rules[0].allowedMethods[0]", "PUT", "GET"],
    ]),
  );
  expect(driftedPaths(row("site-lifecycle"))).toEqual(
    expect.arrayContaining([
      ["rules[0].id", "drift", "expire-logs"],
      ["rules[0].prefix", "drift/", "logs/"],
    ]),
  );
  // Inline content is compared by its MD5, which the cloud computes (the program declares the content).
  expect(driftedPaths(row("index"))).toEqual([["contentMd5", md5(DEFACED), undefined]]);
  expect(row("about")).toMatchObject({ status: "deleted", operation: "create", disposition: "new" });
  // A folder's file deleted behind Pulumi's back: reported by its key.
  expect(row("site-files")).toMatchObject({ status: "drifted" });
  expect(JSON.stringify(row("site-files").properties)).toContain("files/b.txt");
  expect(driftedPaths(row("params"))).toEqual([["parameters.timeout", "1", "300"]]);
  expect(driftedPaths(row("sessions"))).toEqual([["description", "drifted behind Pulumi's back", "drift test cluster"]]);
  expect(driftedPaths(row("queue"))).toEqual([["description", "drifted behind Pulumi's back", "drift test instance set"]]);
  expect(driftedPaths(row("extra-shard"))).toEqual([["replicaSubnetIds[0]", undefined, "sn-c"]]);
  expect(row("shop")).toMatchObject({ status: "drifted", operation: "replace" });
  expect(driftedPaths(row("shop"))).toEqual([["description", "edited by hand", "orders"]]);
  expect(driftedPaths(row("etl"))).toEqual([["workerCnt", 5, 3]]);
  for (const name of ["sealed", "data-key"]) expect(row(name).status).toBe("unverifiable");
  // The query runs on the data source by name: the data source's replacement gets a new name
  // (created before the old one is deleted), so the query is replaced too, a consequence of the
  // program (pending), not drift of the query.
  expect(row("revenue")).toMatchObject({ status: "pending", operation: "replace" });
  const renamed = row("revenue").properties.find((p) => p.path === "dataSource");
  expect(renamed).toMatchObject({ origin: "program", cloud: shopName });
  expect(renamed?.program).toEqual(expect.stringMatching(/^shop_[0-9a-f]{7}$/));
  expect(renamed?.program).not.toBe(shopName);
  expect(row("sealed").note).toContain("the cloud keeps nothing to compare with");

  // Both ways out, for each drifted resource.
  expect(row("etl").fix).toMatchObject({ acceptValues: { workerCnt: 5 }, revert: expect.stringContaining(`--target '${row("etl").urn}'`) });

  // Every format from the one run; none holds the password, its ciphertext or a secret envelope.
  const files = fs.readdirSync(outDir).sort();
  expect(files).toEqual(["drift.github", "drift.junit", "drift.markdown", "drift.sarif", "drift.table"]);
  for (const text of [r.stdout, ...files.map((f) => fs.readFileSync(path.join(outDir, f), "utf8"))]) {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(Buffer.from(PASSWORD).toString("base64"));
    expect(text).not.toContain("4dabf18193072939515e22adb298388d");
  }
  const table = fs.readFileSync(path.join(outDir, "drift.table"), "utf8");
  expect(table).toContain("  metadata: secret, not compared");
  expect(table).toContain("  workerCnt: cloud 5, program 3");
  process.stdout.write(`drift check of 17 resources (15 types) took ${seconds.toFixed(1)} s\n`);
});

test("the drift program holds every registered resource type", () => {
  const registry = allDefinitions()
    .map((d) => d.token)
    .sort();
  const program = fs.readFileSync(path.join(dir, "index.ts"), "utf8");
  const used = [...program.matchAll(/new krcloud\.(\w+)\.(\w+)\(/g)].map((m) => `krcloud:${m[1]}:${m[2]}`);
  expect([...new Set(used)].sort()).toEqual(registry);
});

test("`pulumi up` after that drift puts the program back: the data source is replaced under a new name before the old one is deleted, the query with it; then nothing drifted", async () => {
  const before = (await stack.exportStack()).deployment.resources as StateResource[];
  const oldShop = byName(before, "shop").id!;
  const up = await stack.up({ color: "never", refresh: true });
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toMatchObject({ replace: 2 });

  const after = (await stack.exportStack()).deployment.resources as StateResource[];
  const newShop = byName(after, "shop").id!;
  expect(newShop).not.toBe(oldShop);
  expect(byName(after, "revenue").inputs?.dataSource).toBe(newShop);
  const names = (await new DataQueryClient({ settings: settings() }).listDataSources()).map((d) => d.name);
  expect(names).toEqual([newShop]);

  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "all", "--format", "json"]);
  const [s] = parseReport(r.stdout).stacks;
  expect(s!.resources.filter((x) => x.status !== "clean" && x.status !== "unverifiable").map((x) => [x.name, x.status])).toEqual([]);
  expect(r.code).toBe(0);
});
