/**
 * The local cloud's on-demand backups on real redis-server nodes (`POST /v1/backups`, `GET
 * /v1/backups?clusterName=`, and the guessed get and delete): a backup is the real data of every
 * shard (each primary's RDB file), its `size` the bytes of those files, automatic backups are in the
 * same listing, a restore loads the data into the new nodes, an on-demand backup outlives its
 * cluster, and the spec's restore rules (60% of the new flavor's memory among them) answer 422.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { CacheClient } from "../../client/cache";
import { isConflict, isNotFound } from "../../client/core";
import { cacheClient, contents, expectedChecksum, smallClusterInput, writeKeys } from "../harness/cache-data";
import { clusterArgs, instanceSetArgs } from "../support/cache";
import { cacheBedForFile } from "../support/local-cloud/per-file";
import { rejection, type EngineResource, type TestCloud } from "../support/local-cloud";

jest.setTimeout(300_000);

let tc: TestCloud;
let cluster: EngineResource;
let iset: EngineResource;
let sdk: CacheClient;
const quit: { disconnect(): void }[] = [];

cacheBedForFile({ cacheEngine: "redis", reset: true }, (bed) => ({ tc, cluster, iset, sdk } = bed));
afterEach(() => {
  for (const c of quit.splice(0)) c.disconnect();
});

const oneShard = (over: Record<string, unknown> = {}) => clusterArgs({ shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: [] }], ...over });
const client = (endpoint: unknown, clusterMode = true) => {
  const c = cacheClient(String(endpoint), clusterMode);
  quit.push(c);
  return c;
};
/** The backup's RDB files on the local cloud's disk. */
const filesOf = (name: string) => {
  const dir = join(tc.cloud.dataDir, "cache", "backups", tc.projectId, name);
  return readdirSync(dir).map((f) => join(dir, f));
};
/** Until the backup's data is written (its status leaves Creating). */
async function available(id: string) {
  for (;;) {
    const b = await sdk.backups.get(id);
    if (b.state !== "creating") return b;
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("a backup on demand holds every shard's data: listed by cluster name beside the automatic ones, sized as its RDB files, restored key for key", async () => {
  const source = await cluster.up(clusterArgs({ name: "source", backupSchedule: { cron: "0 3 * * *", retentionDays: 2 } }));
  const c = client(source.outputs.primaryEndpoint);
  await writeKeys(c, 2_000);
  const before = await contents(c);
  expect(before.perShard.every((n) => n > 0)).toBe(true);

  const { id } = await sdk.backups.create({ clusterId: source.id, name: "source-now" });
  const b = await available(id);
  const bytes = filesOf("source-now").reduce((n, f) => n + statSync(f).size, 0);
  expect(filesOf("source-now")).toHaveLength(2);
  expect(b).toMatchObject({ id, name: "source-now", clusterId: source.id, clusterName: "source", clusterEnabled: true, shardCount: 2, kind: "manual" });
  expect(b.state).toBe("available");
  expect(b.sizeBytes).toBe(bytes);
  expect(bytes).toBeGreaterThan(2_000 * 60);

  tc.cloud.control.advanceClock({ days: 1 });
  const listed = await sdk.backups.list({ clusterName: "source" });
  expect(listed.map((x) => [x.name, x.kind])).toEqual([
    ["source-now", "manual"],
    [expect.stringMatching(/^source-\d{12}$/), "automatic"],
  ]);
  expect((await sdk.backups.list({ clusterName: "other" })).length).toBe(0);

  const restored = await cluster.up(clusterArgs({ name: "restored", restoreFromBackup: "source-now" }), "restored");
  const after = await contents(client(restored.outputs.primaryEndpoint));
  expect(after).toMatchObject({ keys: 2_000, checksum: before.checksum });
  expect(after.checksum).toBe(expectedChecksum(2_000));
});

test("an on-demand backup outlives its cluster (keepAutomaticBackups is about automatic ones); deleting it removes its files", async () => {
  const source = await iset.up(instanceSetArgs({ name: "queue", replicaSubnetIds: [], backupSchedule: { hour: 3, retentionDays: 2 } }));
  await writeKeys(client(source.outputs.primaryEndpoint, false), 100);
  const { id } = await sdk.backups.create({ clusterId: source.id, name: "queue-keep" });
  await available(id);
  tc.cloud.control.advanceClock({ days: 1 });
  expect((await sdk.backups.list({ clusterName: "queue" })).map((x) => x.kind).sort()).toEqual(["automatic", "manual"]);

  await iset.destroy({ ...source, outputs: { ...source.outputs, keepAutomaticBackups: false } });
  expect((await sdk.backups.list({ clusterName: "queue" })).map((x) => x.name)).toEqual(["queue-keep"]);
  const copy = await iset.up(instanceSetArgs({ name: "queue-copy", replicaSubnetIds: [], restoreFrom: { backupName: "queue-keep" } }), "copy");
  expect((await contents(client(copy.outputs.primaryEndpoint, false))).checksum).toBe(expectedChecksum(100));

  const files = filesOf("queue-keep");
  expect(await sdk.backups.delete(id)).toEqual({ id });
  expect(await sdk.backups.find(id)).toBeUndefined();
  expect(files.some((f) => existsQuietly(f))).toBe(false);
  expect(isNotFound(await rejection(sdk.backups.delete(id)))).toBe(true);
});

test("the restore rules answer 422 naming the rule: 60% of the new flavor's memory (the size the cloud reports), a backup not Available", async () => {
  const source = await cluster.up(oneShard({ name: "bigdata" }));
  const { id } = await sdk.backups.create({ clusterId: source.id, name: "bigdata-now" });
  await available(id);
  // 1.3 GiB reported: 65% of redis.small's 2 GiB, 33% of redis.medium's 4 GiB.
  await tc.controlApi("PATCH", `/resources/cache/backup/${id}`, { size: Math.round(1.3 * 1024 ** 3) });
  expect((await sdk.backups.get(id)).sizeBytes).toBe(Math.round(1.3 * 1024 ** 3));
  const tooSmall = await rejection(cluster.up(oneShard({ name: "small-copy", restoreFromBackup: "bigdata-now" }), "small"));
  expect(tooSmall.message).toMatch(/422 .*flavorId: backup "bigdata-now" holds 1395864371 bytes, 65% of the flavor's 2 GiB: a restore needs it below 60%/);
  const fits = await cluster.up(oneShard({ name: "medium-copy", flavorId: "redis.medium", restoreFromBackup: "bigdata-now" }), "medium");
  expect(fits.outputs.status).toBe("Running");

  // A backup whose status is held (or forced) Creating cannot be restored yet.
  await tc.controlApi("PATCH", `/resources/cache/backup/${id}`, { status: "Creating" });
  expect((await sdk.backups.get(id)).status).toBe("Creating");
  const early = await rejection(cluster.up(oneShard({ name: "early-copy", flavorId: "redis.medium", restoreFromBackup: "bigdata-now" }), "early"));
  expect(early.message).toMatch(/422 .*restoreSource: backup "bigdata-now" is Creating, not Available/);
});

test("bad requests: a name taken (409), a cluster that does not exist (404), a name against the rule (400), a cluster still being created (400)", async () => {
  const source = await cluster.up(oneShard({ name: "named" }));
  await sdk.backups.create({ clusterId: source.id, name: "taken" });
  expect(isConflict(await rejection(sdk.backups.create({ clusterId: source.id, name: "taken" })))).toBe(true);
  expect(isNotFound(await rejection(sdk.backups.create({ clusterId: "cluster-nothing", name: "b2" })))).toBe(true);
  expect((await rejection(sdk.backups.create({ clusterId: source.id, name: "1-starts-with-a-digit" }))).message).toMatch(/400 .*name: 1 to 64 letters/);

  await tc.controlApi("PUT", "/transitions", { service: "cache", kind: "cluster", mode: "duration", ms: 3_600_000 });
  const { id: creating } = await sdk.clusters.create(smallClusterInput("fresh", "sg-1"));
  expect((await rejection(sdk.backups.create({ clusterId: creating, name: "too-early" }))).message).toMatch(/400 .*still being created/);
});

function existsQuietly(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}
