/**
 * Fault rows for every step of a replacement that keeps the data (`dataOnReplace: keep`,
 * docs/changing-stateful-resources.md), on the local cloud's real redis-server nodes, driven as the
 * engine drives a replacement (sim-stack.ts): the backup request (an answer lost, a dropped
 * connection, one 500, 500 until fixed), the listing and the wait for the backup (503s, 500 until
 * fixed past `timeouts.create`), the same-name delete of the old cache (an answer lost, 500 until
 * fixed), the restore request (an answer lost, 500 until fixed, with and without the old one
 * deleted), and the new nodes held past `timeouts.create` (a partial failure). After the user's next
 * `up` where the first failed: every key is there with the same checksum, 0 orphans, 0 duplicates,
 * 0 ghosts, and a preview shows no change. (A killed CLI at each step: tests/engine/cache-keep-data-kill.test.ts.)
 */
import type { FaultSpec } from "../../local-cloud/core/faults";
import { cacheClient, contents, expectedChecksum, writeKeys } from "../harness/cache-data";
import { clusterArgs } from "../resources/cache/cluster";
import { instanceSetArgs } from "../resources/cache/instance-set";
import { compareState, cloudView, MatrixEnv } from "../support/faults/matrix";
import { SimStack, type Declared, type Props } from "../support/faults/sim-stack";

jest.setTimeout(180_000);

let env: MatrixEnv;
beforeAll(async () => {
  env = await MatrixEnv.start({ cacheEngine: "redis" });
});
afterAll(async () => {
  await env?.close();
});
// Whatever a cell left (a failed cell's faults, held transitions) ends before the next.
afterEach(async () => {
  await env.control("DELETE", "/faults");
  for (const kind of ["node", "backup"]) await env.control("PUT", "/transitions", { service: "cache", kind, mode: "immediate" });
});

const KEYS = 300;
const CLUSTER = "krcloud:cache:Cluster";
const ISET = "krcloud:cache:InstanceSet";

interface Row {
  name: string;
  token: string;
  /** The same explicit name (the create deletes the old one) or a generated one (created before the old one goes). */
  sameName: boolean;
  /** The faults of the replacing `up`. */
  faults: Omit<FaultSpec, "service">[];
  /** Held transitions of the replacing `up` (released before the next). */
  hold?: string;
  /** The replacing up fails; the user's next `up` (faults cleared) finishes it. */
  fails?: RegExp;
}

const lost = (operation: string): Omit<FaultSpec, "service"> => ({ operation, action: "lose-response", times: 1 });
const ROWS: Row[] = [
  { name: "backup request: answer lost", token: CLUSTER, sameName: false, faults: [lost("CreateBackup")] },
  { name: "backup request: connection dropped", token: CLUSTER, sameName: false, faults: [{ operation: "CreateBackup", action: "drop", times: 1 }] },
  { name: "backup request: one 500", token: CLUSTER, sameName: true, faults: [{ operation: "CreateBackup", action: "error", status: 500, times: 1 }] },
  {
    name: "backup request: 500 until fixed",
    token: CLUSTER,
    sameName: true,
    faults: [{ operation: "CreateBackup", action: "error", status: 500 }],
    fails: /taking backup ".+-keep-[0-9a-f]{8}" of cache cluster .*the next `pulumi up` looks for it first/,
  },
  { name: "backup listing: two 503s", token: CLUSTER, sameName: false, faults: [{ operation: "ListBackups", action: "error", status: 503, times: 2 }] },
  {
    name: "backup wait: 500 until fixed, past timeouts.create",
    token: CLUSTER,
    sameName: false,
    faults: [{ operation: "GetBackup", action: "error", status: 500 }],
    fails: /timed out after 3s waiting for backup ".+-keep-[0-9a-f]{8}"/,
  },
  { name: "old cache's delete (same name): answer lost", token: CLUSTER, sameName: true, faults: [lost("DeleteCluster")] },
  {
    name: "old cache's delete (same name): 500 until fixed",
    token: CLUSTER,
    sameName: true,
    faults: [{ operation: "DeleteCluster", action: "error", status: 500 }],
    fails: /deleting cache cluster "sessions" \(cluster-[0-9a-f]+\) to restore it under its name .*nothing is lost/,
  },
  { name: "restore request: answer lost", token: CLUSTER, sameName: true, faults: [lost("CreateCluster")] },
  {
    name: "restore request (same name, the old one deleted): 500 until fixed",
    token: CLUSTER,
    sameName: true,
    faults: [{ operation: "CreateCluster", action: "error", status: 500 }],
    fails: /The data of the cluster is in backup "sessions-keep-[0-9a-f]{8}" \(backup-[0-9a-f]+\), which stays: `pulumi up` restores from it again/,
  },
  {
    name: "restore request (new name, the old one serving): 500 until fixed",
    token: CLUSTER,
    sameName: false,
    faults: [{ operation: "CreateCluster", action: "error", status: 500 }],
    fails: /500/,
  },
  {
    name: "the new nodes held past timeouts.create (a partial failure)",
    token: CLUSTER,
    sameName: false,
    faults: [],
    hold: "node",
    fails: /timed out after 3s/,
  },
  { name: "instance set: backup request answer lost", token: ISET, sameName: false, faults: [lost("CreateBackup")] },
  {
    name: "instance set: restore request (same name) 500 until fixed",
    token: ISET,
    sameName: true,
    faults: [{ operation: "CreateInstanceSet", action: "error", status: 500 }],
    fails: /The data of the instance set is in backup "queue-keep-[0-9a-f]{8}"/,
  },
];

/** The cache of a row: a cluster of one shard, or an instance set without replicas; a new flavor replaces it. */
function args(row: Row, flavorId: string, timeouts?: Props): Props {
  const name = row.sameName ? { name: row.token === CLUSTER ? "sessions" : "queue" } : {};
  const base = row.token === CLUSTER ? { ...clusterArgs(1), shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: [] }] } : { ...instanceSetArgs([]) };
  return { ...base, ...name, flavorId, dataOnReplace: "keep", ...(timeouts ? { timeouts } : {}) };
}

test.each(ROWS.map((r) => [r.name, r] as const))("%s: every key kept, 0 orphans, 0 duplicates, 0 ghosts, no change after", async (_name, row) => {
  const p = await env.project("keep");
  const stack = new SimStack(p.id, (token) => env.resource(token));
  const program = (flavorId: string, timeouts?: Props): Declared[] => [{ logical: "cache", token: row.token, args: args(row, flavorId, timeouts) }];
  await stack.up(program("redis.small"));
  const c = cacheClient(String(stack.output("cache", "primaryEndpoint")), row.token === CLUSTER);
  await writeKeys(c, KEYS);
  c.disconnect();

  const faults: string[] = [];
  for (const f of row.faults) faults.push((await env.control<{ id: string }>("POST", "/faults", { service: "cache", ...f })).id);
  if (row.hold) await env.hold("cache", row.hold);
  const timeouts = row.fails?.source.includes("timed out") ? { create: "3s" } : undefined;
  const first = stack.up(program("redis.medium", timeouts));
  if (row.fails) {
    const err = await first.then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(row.fails);
    for (const id of faults) await env.control("DELETE", `/faults/${id}`);
    if (row.hold) await env.release("cache", row.hold);
    await stack.up(program("redis.medium"));
  } else {
    expect((await first).cache).toBe("replace");
  }

  expect(stack.output("cache", "flavorId")).toBe("redis.medium");
  const after = cacheClient(String(stack.output("cache", "primaryEndpoint")), row.token === CLUSTER);
  try {
    expect(await contents(after)).toMatchObject({ keys: KEYS, checksum: expectedChecksum(KEYS) });
  } finally {
    after.disconnect();
  }
  expect(stack.pendingDeletes).toEqual([]);
  const state = [...stack.entries.values()];
  expect(compareState(state, await cloudView(await env.inventory(), p, state), stack.createKeys)).toEqual({
    orphans: [],
    duplicates: [],
    ghosts: [],
  });
  expect(await stack.plan(program("redis.medium"))).toEqual({ cache: "same" });
});
