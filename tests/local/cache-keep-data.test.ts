/**
 * `dataOnReplace: "keep"` (docs/changing-stateful-resources.md), driven as the Pulumi engine drives
 * a replacement (tests/support/faults/sim-stack.ts: check with the old inputs, diff, the second
 * check without them, create, then the old one's delete) against the local cloud's real
 * redis-server nodes:
 *
 * - a new name (generated): the replacement is restored from a backup of the old cache before the
 *   old one is deleted; every key is there with the same checksum; the backup is an output, deleted
 *   by the next replacement and by the destroy; nothing else is left;
 * - the same explicit name: the create backs up, deletes the old one and restores under the name;
 *   the engine's delete of the old one then finds it gone;
 * - the preview says how, and refuses (in check, with reads only) what the restore rules forbid;
 * - a broken rule met only at the create (the data grew): nothing changes, the backup goes.
 */
import type { CacheClient } from "../../client/cache";
import { REPLACING_KEY } from "../../provider/core/resource";
import { cacheClient, contents, expectedChecksum, writeKeys } from "../harness/cache-data";
import { instanceSetArgs as isetFixture } from "../resources/cache/instance-set";
import { clusterArgs as clusterFixture } from "../resources/cache/cluster";
import { SimStack, type Declared, type Props } from "../support/faults/sim-stack";
import { cacheBedForFile } from "../support/local-cloud/per-file";
import { CheckFailed, rejection, type TestCloud } from "../support/local-cloud";

jest.setTimeout(300_000);

let tc: TestCloud;
let sdk: CacheClient;
const quit: { disconnect(): void }[] = [];

cacheBedForFile({ cacheEngine: "redis", reset: true }, (bed) => ({ tc, sdk } = bed));
afterEach(() => {
  for (const c of quit.splice(0)) c.disconnect();
});

const CLUSTER = "krcloud:cache:Cluster";
const ISET = "krcloud:cache:InstanceSet";
const V72 = { version: "7.2.4", parameterGroupId: "default.redis7.2.cluster" };

/** Two shards without replicas (each node a redis-server: fewer is faster), keeping the data. */
const cluster = (over: Props = {}): Props => ({ ...clusterFixture(2), shards: shards(2), dataOnReplace: "keep", ...over });
const shards = (n: number) =>
  [
    { primarySubnetId: "sn-a", replicaSubnetIds: [] },
    { primarySubnetId: "sn-b", replicaSubnetIds: [] },
    { primarySubnetId: "sn-c", replicaSubnetIds: [] },
  ].slice(0, n);
const iset = (over: Props = {}): Props => ({ ...isetFixture([]), dataOnReplace: "keep", ...over });

const stackOf = (name: string) => new SimStack(name, (token) => engineResources.get(token)!);
const engineResources = new Map<string, Awaited<ReturnType<TestCloud["resource"]>>>();
beforeAll(async () => {
  for (const token of [CLUSTER, ISET]) engineResources.set(token, await tc.resource(token));
});
const program = (token: string, args: Props): Declared[] => [{ logical: "cache", token, args }];

/** The cache the stack holds, as its clients see it. */
async function data(s: SimStack, clusterMode: boolean) {
  const c = cacheClient(String(s.output("cache", "primaryEndpoint")), clusterMode);
  quit.push(c);
  return contents(c);
}

/** The project's clusters, instance sets and backups (ids), from the control API's inventory. */
async function inventory(): Promise<string[]> {
  const { body } = await tc.controlApi("GET", "/inventory");
  return (body.resources as { service: string; kind: string; id: string; projectId: string }[])
    .filter((r) => r.projectId === tc.projectId && r.service === "cache")
    .map((r) => `${r.kind}:${r.id}`)
    .sort();
}
/** What the state says the cloud holds: each cache and the backup its replacement took. */
function expected(s: SimStack): string[] {
  return [...s.entries.values()]
    .flatMap((e) => [
      `${e.token === CLUSTER ? "cluster" : "instance-set"}:${e.id}`,
      ...(e.outputs.replacementBackup ? [`backup:${(e.outputs.replacementBackup as { id: string }).id}`] : []),
    ])
    .sort();
}

test("Cluster, generated name: version then flavor replaced through backups; every key kept, the old one gone, one backup (the last) kept, nothing left after destroy", async () => {
  const s = stackOf("keep-cluster");
  await s.up(program(CLUSTER, cluster()));
  const first = s.entries.get("cache")!;
  const c = cacheClient(String(first.outputs.primaryEndpoint), true);
  quit.push(c);
  await writeKeys(c, 3_000);
  expect((await data(s, true)).perShard.every((n) => n > 0)).toBe(true);

  // The preview says how.
  const plan = await engineResources
    .get(CLUSTER)!
    .plan({ id: first.id, inputs: first.inputs, outputs: first.outputs }, { ...cluster(V72), [REPLACING_KEY]: undefined }, "cache");
  expect(plan.diff.deleteBeforeReplace).toBe(false);
  expect(plan.diff.warnings![0]).toMatch(
    new RegExp(
      `It replaces cache cluster "${String(first.outputs.name)}" through backup "${String(first.outputs.name)}-keep-[0-9a-f]{8}" \\(its size is known once the backup is taken\\); the endpoint changes\\. Writes made after the backup is taken are not in the new cluster \\(about 5 s for 100,000 keys on the local cloud \\(make bench\\), until it runs\\)\\.`,
    ),
  );

  expect((await s.up(program(CLUSTER, cluster(V72)))).cache).toBe("replace");
  const second = s.entries.get("cache")!;
  expect(second.id).not.toBe(first.id);
  expect(second.outputs).toMatchObject({
    version: "7.2.4",
    status: "Running",
    replacementBackup: { name: expect.stringMatching(/-keep-/), replaced: first.outputs.name },
  });
  expect(await data(s, true)).toMatchObject({ keys: 3_000, checksum: expectedChecksum(3_000) });
  expect(await inventory()).toEqual(expected(s));

  // The cluster has no backup of its own yet (the first replacement's is of the cluster before it): the
  // preview says when the size will be known.
  const again = await engineResources
    .get(CLUSTER)!
    .plan({ id: second.id, inputs: second.inputs, outputs: second.outputs }, cluster({ ...V72, flavorId: "redis.medium" }), "cache");
  expect(again.diff.warnings![0]).toMatch(/\(its size is known once the backup is taken\)/);
  await s.up(program(CLUSTER, cluster({ ...V72, flavorId: "redis.medium" })));
  const third = s.entries.get("cache")!;
  expect(third.outputs.flavorId).toBe("redis.medium");
  expect((third.outputs.replacementBackup as { id: string }).id).not.toBe((second.outputs.replacementBackup as { id: string }).id);
  expect(await data(s, true)).toMatchObject({ keys: 3_000, checksum: expectedChecksum(3_000) });
  // The old cluster's delete took the first replacement's backup with it.
  expect(await inventory()).toEqual(expected(s));

  // A refresh and a preview: nothing to do.
  await s.refresh();
  expect(await s.plan(program(CLUSTER, cluster({ ...V72, flavorId: "redis.medium" })))).toEqual({ cache: "same" });
  await s.destroy();
  expect(await inventory()).toEqual([]);
});

test("Cluster, the same explicit name, a new user: the create backs up, deletes the old one and restores under the name; the engine's delete finds it gone", async () => {
  const s = stackOf("keep-named");
  const named = (user: Props) => cluster({ name: "sessions", user });
  await s.up(program(CLUSTER, named({ name: "app", password: "Pw-one-1" })));
  const first = s.entries.get("cache")!;
  const c = cacheClient(String(first.outputs.primaryEndpoint), true, { username: "app", password: "Pw-one-1" });
  quit.push(c);
  await writeKeys(c, 1_000);

  const plan = await engineResources
    .get(CLUSTER)!
    .plan({ id: first.id, inputs: first.inputs, outputs: first.outputs }, named({ name: "app", password: "Pw-two-2" }), "cache");
  expect(plan.diff.deleteBeforeReplace).toBe(false);
  expect(plan.diff.warnings![0]).toMatch(
    /The name stays: "sessions" is deleted once the backup is available and restored under its name, so it is unavailable from that delete until the restore is Running \(about 5 s for 100,000 keys on the local cloud \(make bench\)\)\./,
  );

  const cursor = tc.logCursor();
  expect((await s.up(program(CLUSTER, named({ name: "app", password: "Pw-two-2" })))).cache).toBe("replace");
  const second = s.entries.get("cache")!;
  expect(second.outputs.name).toBe("sessions");
  // In order: the backup, the old cluster's delete, the restore; the engine's delete of the old one after (gone: success).
  const ops = tc.requestsSince(cursor).map((e) => e.operation);
  const at = (op: string) => ops.indexOf(op);
  expect(at("CreateBackup")).toBeGreaterThan(-1);
  expect(at("CreateBackup")).toBeLessThan(at("DeleteCluster"));
  expect(at("DeleteCluster")).toBeLessThan(at("RestoreCluster") === -1 ? at("CreateCluster") : at("RestoreCluster"));
  const login = { username: "app", password: "Pw-two-2" };
  const after = cacheClient(String(second.outputs.primaryEndpoint), true, login);
  quit.push(after);
  expect(await contents(after)).toMatchObject({ keys: 1_000, checksum: expectedChecksum(1_000) });
  expect(await inventory()).toEqual(expected(s));
});

test("InstanceSet: a new flavor through a backup (generated name), then a new version under the same name; every key kept", async () => {
  const s = stackOf("keep-iset");
  await s.up(program(ISET, iset()));
  const c = cacheClient(String(s.output("cache", "primaryEndpoint")), false);
  quit.push(c);
  await writeKeys(c, 2_000);
  await s.up(program(ISET, iset({ flavorId: "redis.medium" })));
  expect(await data(s, false)).toMatchObject({ keys: 2_000, checksum: expectedChecksum(2_000) });
  expect(await inventory()).toEqual(expected(s));

  const name = String(s.output("cache", "name"));
  const v72 = { version: "7.2.4", parameterGroupId: "default.redis7.2.standalone" };
  await s.up(program(ISET, iset({ flavorId: "redis.medium", name, ...v72 })));
  expect(s.output("cache", "name")).toBe(name);
  expect(s.output("cache", "version")).toBe("7.2.4");
  expect(await data(s, false)).toMatchObject({ keys: 2_000, checksum: expectedChecksum(2_000) });
  expect(await inventory()).toEqual(expected(s));
});

describe("refused in the preview, naming the rule, with reads only", () => {
  test("an older version, another shard count, a flavor too small for the data, another source of data", async () => {
    const s = stackOf("keep-refusals");
    await s.up(program(CLUSTER, cluster(V72)));
    const e = s.entries.get("cache")!;
    const state = { id: e.id, inputs: e.inputs, outputs: e.outputs };
    const r = engineResources.get(CLUSTER)!;
    // The data's size the cloud reports: a backup of 1.3 GiB (65% of redis.small's 2 GiB).
    const { id } = await sdk.backups.create({ clusterId: e.id, name: "sizeable" });
    await untilAvailable(id);
    await tc.controlApi("PATCH", `/resources/cache/backup/${id}`, { size: Math.round(1.3 * 1024 ** 3) });

    const cursor = tc.logCursor();
    const refused = async (args: Props) => {
      const err = await rejection(r.plan(state, args, "cache"));
      expect(err).toBeInstanceOf(CheckFailed);
      return err.message;
    };
    expect(await refused(cluster({ ...V72, user: { name: "app", password: "Pw-1-new" } }))).toMatch(
      /flavorId: redis\.small has 2 GiB of memory, and the data is 1\.4 GB \(65% of it; backup "sizeable"\): a restore needs it below 60%/,
    );
    expect(await refused(cluster({ ...V72, version: "7.0.15", parameterGroupId: "default.redis7.0.cluster" }))).toMatch(
      /version: 7\.0\.15 is older than 7\.2\.4, the version of the data: a restore needs the same engine version or a newer one/,
    );
    expect(await refused(cluster({ ...V72, flavorId: "redis.large", shards: shards(3) }))).toMatch(
      /shards: 3 shards, but the cluster it replaces has 2: a restore needs the backup's shard count/,
    );
    expect(await refused(cluster({ ...V72, flavorId: "redis.large", restoreFromBackup: "sizeable" }))).toMatch(
      /restoreFromBackup: changes with the replacement/,
    );
    // Reads only: not one request that changes anything.
    expect(tc.requestsSince(cursor).filter((x) => x.method !== "GET")).toEqual([]);

    // A flavor with room for the data passes, and says how much of it the data takes.
    const fits = await r.plan(state, cluster({ ...V72, flavorId: "redis.large" }), "cache");
    expect(fits.diff.warnings![0]).toMatch(/\(1\.4 GB, 8% of the new flavor's memory, from its newest backup "sizeable"\)/);
  });

  test("without keep, the same changes replace as before (the data is discarded), and say so", async () => {
    const s = stackOf("discard");
    await s.up(program(CLUSTER, cluster({ dataOnReplace: "discard" })));
    const e = s.entries.get("cache")!;
    const p = await engineResources
      .get(CLUSTER)!
      .plan({ id: e.id, inputs: e.inputs, outputs: e.outputs }, cluster({ dataOnReplace: "discard", ...V72 }), "cache");
    expect(p.inputs[REPLACING_KEY]).toBeUndefined();
    expect(p.diff.warnings![0]).toMatch(/no data; what this one holds is lost when it is deleted/);
    // Changing the option alone changes nothing.
    const option = await engineResources.get(CLUSTER)!.plan({ id: e.id, inputs: e.inputs, outputs: e.outputs }, cluster({ dataOnReplace: "keep" }), "cache");
    expect(option.diff.replaces).toEqual([]);
  });
});

test("a rule broken only at the create (the data grew after the preview): nothing changes, the backup goes, the old cluster serves", async () => {
  const s = stackOf("keep-grew");
  await s.up(program(CLUSTER, cluster()));
  const old = s.entries.get("cache")!;
  // The backup the replacement takes is held Creating; meanwhile it is reported 1.3 GiB, then released.
  await tc.controlApi("PUT", "/transitions", { service: "cache", kind: "backup", mode: "duration", ms: 3_600_000 });
  const up = s.up(program(CLUSTER, cluster({ user: { name: "app", password: "Pw-1-new" } }))).catch((e: unknown) => e as Error);
  let taken: string | undefined;
  while (taken === undefined) {
    taken = (await sdk.backups.list()).find((x) => x.name?.includes("-keep-"))?.id;
    if (taken === undefined) await new Promise((r) => setTimeout(r, 50));
  }
  await tc.controlApi("PATCH", `/resources/cache/backup/${taken}`, { size: Math.round(1.3 * 1024 ** 3) });
  tc.cloud.control.advanceClock({ ms: 2 * 3_600_000 });
  const err = await up;
  expect(err).toBeInstanceOf(Error);
  expect((err as Error).message).toMatch(
    /replacing cache cluster ".+" through backup ".+-keep-[0-9a-f]{8}" of cache cluster ".+": it holds 1\.4 GB, 65% of redis\.small's 2 GiB: a restore needs it below 60%; nothing was changed/,
  );
  expect(s.entries.get("cache")!.id).toBe(old.id);
  expect(await inventory()).toEqual([`cluster:${old.id}`]);
});

async function untilAvailable(id: string): Promise<void> {
  while ((await sdk.backups.get(id)).state !== "available") await new Promise((r) => setTimeout(r, 50));
}
