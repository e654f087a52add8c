/**
 * The test fixture of Cluster (`krcloud:cache:Cluster`, provider/cache/cluster.ts): every fact
 * the tests that walk the types need (tests/resources/fixture.ts says what each is; index.ts
 * derives the tables from them).
 */
import fc from "fast-check";
import { arr, cacheUserRules, obj, rule, TIMEOUTS, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import { CacheClient } from "../../../client/cache";
import { systemClock, type Settings } from "../../../client/core";
import { waitClusterSettled } from "../../../provider/cache/waiters";
import type { Entry } from "../../support/faults/sim-stack";
import {
  SECRET_MARK,
  type CloudKind,
  type DriftFact,
  type DriftRecipe,
  type FaultRow,
  type OutsideFact,
  type SecretsFact,
  type ZeroDiffSpec,
} from "../fixture";

/** The cache engine version, flavor and parameter group the fixtures use (and the zero-diff suite's resources made outside Pulumi). */
export const VERSION = "7.0.15";
export const FLAVOR = "redis.small";
export const CLUSTER_GROUP = "default.redis7.0.cluster";

export const SUBNETS = ["sn-a", "sn-b", "sn-c"];

/** A cluster of `shards` shards (one or two), one replica each. */
export const clusterArgs = (shards: number) => ({
  version: VERSION,
  flavorId: FLAVOR,
  parameterGroupId: CLUSTER_GROUP,
  subnetIds: SUBNETS,
  securityGroupIds: ["sg-1"],
  shards: [
    { primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] },
    { primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] },
  ].slice(0, shards),
});

/** A 5-field cron every field of which is valid (spec 02 §4.2). */
const cron = fc
  .tuple(
    fc.constantFrom("*", "0", "30", "59", "*/15", "0-30", "5,10"),
    fc.constantFrom("*", "0", "3", "23", "*/6", "1-5"),
    fc.constantFrom("*", "1", "31", "1-15"),
    fc.constantFrom("*", "1", "12", "JAN", "jan-mar"),
    fc.constantFrom("*", "0", "7", "MON", "mon-fri"),
  )
  .map((f) => f.join(" "));

/** Crons the service refuses, with the text the failure names. */
const BAD_CRONS: readonly [string, string][] = [
  ["", "must not be empty"],
  ["* * *", "must have 5 fields"],
  ["* * * * * *", "must have 5 fields"],
  ["60 * * * *", 'invalid minute field "60"'],
  ["* 24 * * *", 'invalid hour field "24"'],
  ["* * 0 * *", 'invalid day of month field "0"'],
  ["* * * 13 *", 'invalid month field "13"'],
  ["* * * * 8", 'invalid day of week field "8"'],
  ["*/0 * * * *", 'invalid minute field "*/0"'],
  ["5-1 * * * *", 'invalid minute field "5-1"'],
];

/** Cache cluster and instance set names (spec 02 §4.3), checked by a refinement. */
export const CACHE_NAME = fc.stringMatching(/^[a-z][a-z0-9-]{2,18}[a-z0-9]$/);

/** Replaces every subnet of `ids` that is not in `allowed` by one that is. */
export const within = (ids: unknown[], allowed: string[]) => ids.map((id, i) => (allowed.includes(id as string) ? id : allowed[i % allowed.length]));

export const OUTSIDE = fc.stringMatching(/^subnet-outside-[a-z0-9]{1,6}$/);

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = {
  name: "valid-cluster",
  version: "7.0.15",
  flavorId: "redis.m.large",
  parameterGroupId: "pg-1",
  subnetIds: ["subnet-a", "subnet-b"],
  securityGroupIds: ["sg-1"],
  shards: [{ primarySubnetId: "subnet-a", replicaSubnetIds: ["subnet-b"] }],
  user: { name: "app", password: SECRET_MARK },
};

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return {
    values: { ...TIMEOUTS, name: CACHE_NAME, "backupSchedule.cron": cron },
    keep(i) {
      cacheUserRules().keep(i);
      const allowed = arr(i.subnetIds) as string[];
      const shards = arr(i.shards).map(obj);
      const replicas = arr(shards[0]?.replicaSubnetIds).length;
      for (const s of shards) {
        [s.primarySubnetId] = within([s.primarySubnetId], allowed);
        const r = within(arr(s.replicaSubnetIds), allowed).slice(0, replicas);
        while (r.length < replicas) r.push(allowed[0]);
        s.replicaSubnetIds = r;
      }
    },
    rules: [
      ...cacheUserRules().rules,
      rule(
        "every shard has the same number of replicas",
        "",
        fc.tuple(fc.integer({ min: 2, max: 4 }), fc.nat(), fc.integer({ min: 1, max: 4 })).map(([n, k, more]) => (valid) => {
          const subnets = arr(valid.subnetIds) as string[];
          const shards = Array.from({ length: n }, () => ({ primarySubnetId: subnets[0], replicaSubnetIds: [subnets[0]] }));
          const odd = 1 + (k % (n - 1));
          shards[odd]!.replicaSubnetIds = Array.from({ length: (1 + more) % 6 }, () => subnets[0]);
          return {
            input: { ...valid, shards },
            path: `shards[${odd}].replicaSubnetIds`,
            texts: ["every shard must have the same number of replicas"],
          };
        }),
      ),
      rule(
        "a shard's subnets are among subnetIds",
        "",
        fc.tuple(OUTSIDE, fc.nat(), fc.boolean()).map(([outside, k, primary]) => (valid) => {
          const shards = arr(valid.shards).map(obj);
          const i = k % shards.length;
          const s = shards[i]!;
          if (primary) s.primarySubnetId = outside;
          else {
            const r = arr(s.replicaSubnetIds);
            if (r.length === 0)
              return {
                input: { ...valid, shards: [{ ...s, primarySubnetId: outside }] },
                path: "shards[0].primarySubnetId",
                texts: [`subnet "${outside}" is not in subnetIds`],
              };
            r[k % r.length] = outside;
          }
          return {
            input: valid,
            path: `shards[${i}].${primary ? "primarySubnetId" : "replicaSubnetIds"}`,
            texts: [`subnet "${outside}" is not in subnetIds`],
          };
        }),
      ),
      rule(
        "the backup schedule is a valid 5-field cron",
        "",
        fc.constantFrom(...BAD_CRONS).map(([c, text]) => (valid) => ({
          input: { ...valid, backupSchedule: { ...obj(valid.backupSchedule), cron: c } },
          path: "backupSchedule.cron",
          texts: [text],
        })),
      ),
    ],
  };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  args: () => clusterArgs(1),
  // A shard more: AddShard, which is not idempotent.
  updated: () => clusterArgs(2),
  // A read alone is its own GetCluster (reads that arrive together share one walk of ListClusters: list-reads.ts).
  ops: { create: "CreateCluster", update: "AddShard", read: "GetCluster", delete: "DeleteCluster" },
  stuck: { create: "node", update: "node" },
  failed: { create: "node", update: "node" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ s, r, ref }) => [
    r("cluster", "krcloud:cache:Cluster", {
      version: VERSION,
      flavorId: FLAVOR,
      parameterGroupId: ref("params", "id"),
      subnetIds: ["sn-a"],
      securityGroupIds: ["sg-1"],
      shards: [{ primarySubnetId: "sn-a" }],
      user: { name: "app", password: s.cacheClusterPassword },
    }),
  ],
  varied: ({ s, r, ref, tag, timeouts }) => [
    r("cluster", "krcloud:cache:Cluster", {
      name: `${tag}-cl`,
      description: "캐시 클러스터 ünï",
      version: VERSION,
      port: 6380,
      flavorId: FLAVOR,
      parameterGroupId: ref("params", "id"),
      subnetIds: ["sn-c", "sn-a", "sn-b"],
      securityGroupIds: ["sg-2", "sg-1"],
      shards: [
        { primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] },
        { primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] },
      ],
      tlsEnabled: true,
      user: { name: "app", password: s.cacheClusterPassword },
      backupSchedule: { cron: "30 4 * * *", retentionDays: 3 },
      keepAutomaticBackups: false,
      timeouts,
      adopt: false,
    }),
  ],
};

/** What the cloud holds for it: the cluster, and each shard it added (`<cluster>/<shard>`; the inventory lists no shard, the fault matrix reads them). */
export const cloudKinds = (e: Entry): CloudKind[] => [
  { kind: "cache/cluster", id: e.id },
  ...((e.outputs.managedShardIds as string[] | undefined) ?? []).map((s) => ({ kind: "cache/shard", id: `${e.id}/${s}` })),
  ...replacementBackup(e),
];

/** The backup a data-keeping replacement took (dataOnReplace: keep), which the cache's outputs name and which is deleted with it. */
export function replacementBackup(e: Entry): CloudKind[] {
  const b = e.outputs.replacementBackup as { id?: unknown } | undefined;
  return typeof b?.id === "string" ? [{ kind: "cache/backup", id: b.id }] : [];
}

export const DRIFTED_DESCRIPTION = "drifted behind Pulumi's back";

/**
 * A cache's description changed through the control API (a cluster's, an instance set's), its
 * record a root; `snapshot` is the part of that record the program manages.
 */
export const describedDrift = (kind: string, snapshot: DriftRecipe["snapshot"]): DriftFact => ({
  recipe: {
    service: "cache",
    kind,
    root: true,
    snapshot,
    async drift(control, r) {
      await control.patchResource("cache", kind, r.id!, { description: DRIFTED_DESCRIPTION });
      return ["description"];
    },
    recorded: (outs) => outs.description === DRIFTED_DESCRIPTION,
  },
});

/** Its description changed through the control API. */
export const drift = describedDrift("cluster", (rec) => ({
  description: rec.description,
  shardCount: rec.shardCount,
  totalNodeCount: rec.totalNodeCount,
  version: rec.version,
}));

/** The subnets and security group of a cache made outside Pulumi: one primary with one replica. */
export const OUTSIDE_NETWORK = {
  subnets: [{ id: "sn-a" }, { id: "sn-b" }],
  subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] }],
  securityGroups: [{ id: "sg-1" }],
};

/** Settled as the provider means it (every shard and node Running: an import reads the topology), through its own waiter. */
export async function settledCluster(settings: Settings, clusterId: string, what = `cache cluster ${clusterId}`): Promise<void> {
  await waitClusterSettled({ settings, progress: () => undefined, clock: systemClock }, new CacheClient({ settings }), clusterId, what, { timeoutMs: 120_000 });
}

/**
 * A cluster made through the client: without a user (plain), or with one and its password (secret:
 * the cloud never answers the password back). Waited for until settled.
 */
export const outside: OutsideFact = {
  async make({ set, settings, s, tag, name }) {
    const secret = set === "secret";
    const user = secret ? { user: { name: "outsider", password: s.cacheClusterPassword } } : {};
    const clusterName = `${tag}-cl`;
    const cl = await new CacheClient({ settings }).clusters.create({
      name: clusterName,
      description: "made outside",
      version: VERSION,
      port: 6379,
      shardCount: 1,
      nodeCountPerShard: 2,
      flavorId: FLAVOR,
      parameterGroupId: CLUSTER_GROUP,
      ...OUTSIDE_NETWORK,
      ...user,
    });
    await settledCluster(settings, cl.id);
    return [
      {
        name: name("cluster"),
        type: "krcloud:cache:Cluster",
        importId: cl.id,
        properties: {
          name: clusterName,
          description: "made outside",
          version: VERSION,
          flavorId: FLAVOR,
          parameterGroupId: CLUSTER_GROUP,
          subnetIds: ["sn-a", "sn-b"],
          securityGroupIds: ["sg-1"],
          shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] }],
          ...user,
        },
        adopt: { adopt: true },
      },
    ];
  },
};

/** Its user's password: given as a KMS ciphertext, and sent by a create that then fails (the first listing of its shards refused). */
export const secrets: SecretsFact = {
  holder: {
    asCiphertexts: (p, kms) => ({ ...p, parameterGroupId: CLUSTER_GROUP, user: { name: "app", passwordCiphertext: kms("cacheClusterPassword") } }),
    failing: {
      name: (tag) => `${tag}-fail-cluster`,
      properties: { parameterGroupId: CLUSTER_GROUP },
      request: ["cache", "CreateCluster"],
      async plant(control) {
        await control.addFault({ service: "cache", operation: "ListShards", action: "error", status: 400, times: 1 });
        return async () => undefined;
      },
    },
  },
};
