/**
 * Cache backups and restores through the provider, against the local cloud: a backup schedule
 * takes automatic backups on the local cloud's clock and keeps each for its retention days; a
 * Cluster or InstanceSet restored from a backup name is created and Running; the spec's restore
 * rules (shard count, cluster mode) answer 422 with the rule; `keepAutomaticBackups: false` deletes
 * the automatic backups with the cluster, the default keeps them. And `krcloud:cache:Backup`, an
 * on-demand backup as a resource: basic, update in place, replace, disappears, adopt, bad input,
 * a name taken, waiter timeout (a partial failure the next up finishes).
 */
import type { CacheClient } from "../../client/cache";
import { clusterArgs, instanceSetArgs } from "../support/cache";
import { cacheBedForFile, expectCheckNames, expectGoneWhenDeleted } from "../support/local-cloud/per-file";
import { rejection, type EngineResource, type TestCloud } from "../support/local-cloud";

let tc: TestCloud;
let cluster: EngineResource;
let iset: EngineResource;
let sdk: CacheClient;
let backup: EngineResource;

cacheBedForFile({ reset: true }, (bed) => ({ tc, cluster, iset, sdk } = bed));
beforeAll(async () => {
  backup = await tc.resource("krcloud:cache:Backup");
});

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

describe("krcloud:cache:Backup", () => {
  test("basic: a backup of a cluster, Available, with the record's figures; refresh and a second plan change nothing; destroy deletes it", async () => {
    const source = await cluster.up(clusterArgs());
    const state = await backup.up({ clusterId: source.id }, "nightly");
    expect(state.id).toMatch(/^backup-/);
    expect(state.outputs).toMatchObject({
      clusterId: source.id,
      name: expect.stringMatching(/^nightly-[0-9a-f]{7}$/),
      clusterName: "sessions",
      clusterEnabled: true,
      shardCount: 2,
      version: "7.0.15",
      kind: "manual",
      status: "Available",
      sizeBytes: expect.any(Number),
    });
    expect((await sdk.backups.get(state.id)).name).toBe(state.outputs.name);
    expect((await backup.refresh(state))?.outputs).toEqual(state.outputs);
    expect((await backup.plan(state, { clusterId: source.id, name: state.outputs.name })).diff.changes).toBe(false);
    await backup.destroy(state);
    expect(await sdk.backups.find(state.id)).toBeUndefined();
  });

  test("update in place (timeouts only) makes no change; a new cluster or name replaces it (the old one deleted first)", async () => {
    const a = await cluster.up(clusterArgs());
    const b = await cluster.up(clusterArgs({ name: "other" }), "other");
    const state = await backup.up({ clusterId: a.id, name: "kept" });
    const cursor = tc.logCursor();
    const updated = await backup.apply(state, { clusterId: a.id, name: "kept", timeouts: { create: "5m" } });
    expect(updated.id).toBe(state.id);
    expect(tc.requestsSince(cursor).filter((e) => e.method !== "GET")).toEqual([]);
    const moved = await backup.plan(state, { clusterId: b.id, name: "kept" });
    expect(moved.diff.replaces).toEqual(["clusterId"]);
    expect(moved.diff.deleteBeforeReplace).toBe(true);
    expect(moved.diff.warnings![0]).toMatch(
      /cache backup "kept" \(backup-[0-9a-f]+\) will be REPLACED: clusterId changes, and a backup holds the data of the cache it was taken of/,
    );
  });

  test("disappears: deleted behind Pulumi's back, its refresh drops it and its delete succeeds", async () => {
    const source = await cluster.up(clusterArgs());
    const state = await backup.up({ clusterId: source.id });
    await expectGoneWhenDeleted(tc, backup, state, `/resources/cache/backup/${state.id}`, "refresh");
  });

  test("adopt: an existing backup of that name is taken over (same id, nothing taken); without adopt a name taken is refused, naming adopt", async () => {
    const source = await cluster.up(clusterArgs());
    const { id } = await sdk.backups.create({ clusterId: source.id, name: "made-outside" });
    const refused = await rejection(backup.up({ clusterId: source.id, name: "made-outside" }));
    expect(refused.message).toMatch(/409 .*A backup named "made-outside" exists.*adopt: true/);
    const cursor = tc.logCursor();
    const adopted = await backup.up({ clusterId: source.id, name: "made-outside", adopt: true });
    expect(adopted.id).toBe(id);
    expect(tc.requestsSince(cursor).filter((e) => e.operation === "CreateBackup")).toEqual([]);
  });

  test("bad input is refused in check, naming the input, with no request", async () => {
    await expectCheckNames(tc, backup, "bad", { clusterId: "cluster-1", name: "9-starts-with-a-digit" }, "name", /must be 1 to 64 letters/);
    await expectCheckNames(tc, backup, "bad", { clusterId: "" }, "clusterId", /must not be empty/);
    await expectCheckNames(tc, backup, "bad", { clusterId: "cluster-1", timeouts: { create: "soon" } }, "timeouts.create", /must be a duration/);
  });

  test("waiter timeout: a backup held Creating fails the create after timeouts.create, recorded (its id), and the next up waits for it", async () => {
    const source = await cluster.up(clusterArgs());
    await tc.controlApi("PUT", "/transitions", { service: "cache", kind: "backup", mode: "duration", ms: 3_600_000 });
    const err = await rejection(backup.up({ clusterId: source.id, name: "slow", timeouts: { create: "1s" } }));
    expect(err.message).toMatch(
      /timed out after 1s waiting for cache backup "slow" of "sessions" \(backup-[0-9a-f]+\) to become Available \(last state: Creating/,
    );
    expect(err.id).toMatch(/^backup-/);
    tc.cloud.control.advanceClock({ ms: 2 * 3_600_000 });
    const resumed = await backup.update(String(err.id), err.properties as Record<string, unknown>, { clusterId: source.id, name: "slow" });
    expect(resumed).toMatchObject({ status: "Available", name: "slow" });
    expect(tc.requestsSince(0).filter((e) => e.operation === "CreateBackup")).toHaveLength(1);
  });
});
