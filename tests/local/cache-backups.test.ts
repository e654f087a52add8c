/**
 * Cache backups and restores through the provider, against the local cloud: a backup schedule
 * takes automatic backups on the local cloud's clock and keeps each for its retention days; a
 * Cluster or InstanceSet restored from a backup name is created and Running; the spec's restore
 * rules (shard count, cluster mode) answer 422 with the rule; `keepAutomaticBackups: false` deletes
 * the automatic backups with the cluster, the default keeps them.
 */
import { clusterArgs, instanceSetArgs } from "../support/cache";
import { cacheBedForFile } from "../support/local-cloud/per-file";
import { rejection, type EngineResource, type TestCloud } from "../support/local-cloud";

let tc: TestCloud;
let cluster: EngineResource;
let iset: EngineResource;

cacheBedForFile({ reset: true }, (bed) => ({ tc, cluster, iset } = bed));

const isetArgs = instanceSetArgs;

/** The names of this test's project's backups, from the control API's inventory (which lists their ids). */
async function backups(): Promise<string[]> {
  const { body } = await tc.controlApi("GET", "/inventory");
  const ids = (body.resources as { kind: string; id: string; projectId: string }[])
    .filter((r) => r.kind === "backup" && r.projectId === tc.projectId)
    .map((r) => r.id);
  const names = await Promise.all(ids.map(async (id) => (await tc.controlApi("GET", `/resources/cache/backup/${id}`)).body.name as string));
  return names.sort();
}
const backupNow = async (id: string): Promise<string> =>
  (await tc.controlApi("PATCH", `/resources/cache/cluster/${id}`, { backupNow: true })).body.backup as string;

test("a backup schedule takes a backup each day at its hour (KST) on the local cloud's clock, kept for its retention days", async () => {
  const state = await cluster.up(clusterArgs({ backupSchedule: { cron: "0 3 * * *", retentionDays: 2 } }));
  expect(await backups()).toEqual([]);
  tc.cloud.control.advanceClock({ days: 1 });
  const first = await backups();
  expect(first).toHaveLength(1);
  expect(first[0]).toMatch(/^sessions-\d{8}0300$/);
  const record = (await tc.controlApi("GET", `/resources/cache/backup/${first[0]}`)).body;
  expect(record).toMatchObject({ sourceId: state.id, clusterMode: true, shardCount: 2, version: "7.0.15" });
  // Five days later: only the backups of the last two days remain.
  tc.cloud.control.advanceClock({ days: 5 });
  expect(await backups()).toHaveLength(2);
  expect(await backups()).not.toContain(first[0]);
});

test("a Cluster restored from a backup name is created and Running; the spec's rules answer 422 naming the rule", async () => {
  const source = await cluster.up(clusterArgs());
  const name = await backupNow(source.id);
  const restored = await cluster.up(clusterArgs({ name: "restored", restoreFromBackup: name }), "restored");
  expect(restored.id).not.toBe(source.id);
  expect(restored.outputs).toMatchObject({ status: "Running", restoreFromBackup: name });
  expect(tc.requestsSince(0).filter((e) => e.operation === "CreateCluster")).toHaveLength(2);

  const threeShards = { shards: [...clusterArgs().shards, { primarySubnetId: "sn-c", replicaSubnetIds: ["sn-a"] }] };
  const wrongCount = await rejection(cluster.up(clusterArgs({ name: "wrong-count", restoreFromBackup: name, ...threeShards }), "wrong"));
  expect(wrongCount.message).toMatch(/422 .*shardCount: a restore of ".+" needs its shard count, 2/);

  const setState = await iset.up(isetArgs());
  const setBackup = await backupNow(setState.id);
  const wrongMode = await rejection(cluster.up(clusterArgs({ name: "wrong-mode", restoreFromBackup: setBackup }), "mode"));
  expect(wrongMode.message).toMatch(/422 .*is a backup of an instance set/);
  const missing = await rejection(cluster.up(clusterArgs({ name: "no-backup", restoreFromBackup: "no-such-backup" }), "missing"));
  expect(missing.message).toMatch(/422 .*no backup named "no-such-backup"/);
});

test("an InstanceSet restored from a backup name is created and Running", async () => {
  const source = await iset.up(isetArgs());
  const name = await backupNow(source.id);
  const restored = await iset.up(isetArgs({ name: "queue-copy", restoreFrom: { backupName: name } }), "copy");
  expect(restored.outputs).toMatchObject({ status: "Running", restoreFrom: { backupName: name } });
});

test("keepAutomaticBackups: false deletes the backups with the cluster; the default keeps them", async () => {
  const kept = await cluster.up(clusterArgs({ backupSchedule: { cron: "0 3 * * *", retentionDays: 7 } }));
  const dropped = await cluster.up(
    clusterArgs({ name: "dropped", backupSchedule: { cron: "0 3 * * *", retentionDays: 7 }, keepAutomaticBackups: false }),
    "dropped",
  );
  tc.cloud.control.advanceClock({ days: 1 });
  expect(await backups()).toHaveLength(2);
  await cluster.destroy(kept);
  await cluster.destroy(dropped);
  const left = await backups();
  expect(left).toHaveLength(1);
  expect(left[0]).toMatch(/^sessions-/);
});
