/**
 * The test fixture of Shard (`krcloud:cache:Shard`, provider/cache/shard.ts): every fact the tests
 * that walk the types need (tests/resources/fixture.ts says what each is; index.ts derives the
 * tables from them).
 */
import { TIMEOUTS, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import { CacheClient } from "../../../client/cache";
import type { Entry } from "../../support/faults/sim-stack";
import type { CloudKind, DriftFact, FaultRow, OutsideFact, SecretsFact, ZeroDiffSpec } from "../fixture";
import { clusterArgs, settledCluster } from "./cluster";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { clusterId: "cluster-1", primarySubnetId: "subnet-a", replicaSubnetIds: ["subnet-b"] };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return { values: TIMEOUTS, rules: [] };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  deps: () => [{ logical: "cluster", token: "krcloud:cache:Cluster", args: clusterArgs(1) }],
  args: (_p, s) => ({ clusterId: s.id("cluster"), primarySubnetId: "sn-b", replicaSubnetIds: [] }),
  // A replica more: AddReplica, which is not idempotent.
  updated: (_p, s) => ({ clusterId: s.id("cluster"), primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] }),
  ops: { create: "AddShard", update: "AddReplica", read: "GetShard", delete: "DeleteShard" },
  noName: "no name: a shard is added to a cluster of its own stack, and found only as the one that was not there before its request",
  stuck: { create: "node", update: "node" },
  failed: { create: "node", update: "node" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ r, ref }) => [r("shard", "krcloud:cache:Shard", { clusterId: ref("cluster", "id"), primarySubnetId: "sn-a" })],
  varied: ({ r, ref, timeouts }) => [
    r("shard", "krcloud:cache:Shard", { clusterId: ref("cluster", "id"), primarySubnetId: "sn-c", replicaSubnetIds: ["sn-a"], timeouts }),
  ],
};

/** What the cloud holds for it: the shard (`<cluster>/<shard>`), as the fault matrix reads a cluster's shards. */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "cache/shard", id: e.id }];

/** A replica added to it through the public API (the client). */
export const drift: DriftFact = {
  noRecipe: "the control API keeps no shard record to change or snapshot: a shard's nodes change through the public API",
  async change({ settings }, r) {
    const [clusterId, shardId] = r.id!.split("/") as [string, string];
    await settledCluster(settings, clusterId);
    await new CacheClient({ settings }).nodes.addReplica(clusterId, shardId, { subnet: { id: String(r.outputs?.primarySubnetId) } });
    await settledCluster(settings, clusterId);
    return ["replicaSubnetIds"];
  },
};

/** A shard added through the client to a cluster of the stack (a Cluster resource leaves shards it did not add alone). */
export const outside: OutsideFact = {
  async make({ set, settings, stack, name }) {
    if (set !== "plain") return [];
    await settledCluster(settings, stack.clusterId);
    const shard = await new CacheClient({ settings }).shards.add(stack.clusterId, {
      nodeCount: 1,
      subnetAssignment: { primary: { id: "sn-a" }, replicas: [] },
    });
    await settledCluster(settings, stack.clusterId, `cache cluster ${stack.clusterId} adding shard ${shard.id}`);
    return [
      {
        name: name("shard"),
        type: "krcloud:cache:Shard",
        importId: `${stack.clusterId}/${shard.id}`,
        properties: { clusterId: stack.clusterId, primarySubnetId: "sn-a" },
        adopt: { adoptShardId: shard.id },
      },
    ];
  },
};

export const secrets: SecretsFact = { none: "no secret input" };
