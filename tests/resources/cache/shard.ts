/**
 * The test fixture of Shard (`krcloud:cache:Shard`, provider/cache/shard.ts): its valid inputs, the
 * cross-field rules of its inputs, its row of the fault matrix and its resources in the zero-diff
 * specs (tests/resources/fixture.ts says what each is; index.ts derives the tables from them).
 */
import { TIMEOUTS, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import type { FaultRow, ZeroDiffSpec } from "../fixture";
import { clusterArgs } from "./cluster";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { clusterId: "cluster-1", primarySubnetId: "subnet-a", replicaSubnetIds: ["subnet-b"] };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return { values: TIMEOUTS, rules: [] };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  service: "cache",
  deps: () => [{ logical: "cluster", token: "krcloud:cache:Cluster", args: clusterArgs(1) }],
  args: (_p, s) => ({ clusterId: s.id("cluster"), primarySubnetId: "sn-b", replicaSubnetIds: [] }),
  // A replica more: AddReplica, which is not idempotent.
  updated: (_p, s) => ({ clusterId: s.id("cluster"), primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] }),
  ops: { create: "AddShard", update: "AddReplica", read: "GetShard", delete: "DeleteShard" },
  noName: "no name: a shard is added to a cluster of its own stack, and found only as the one that was not there before its request",
  stuck: { service: "cache", kind: { create: "node", update: "node" } },
  failed: { create: "node", update: "node" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ r, ref }) => [r("shard", "krcloud:cache:Shard", { clusterId: ref("cluster", "id"), primarySubnetId: "sn-a" })],
  varied: ({ r, ref, timeouts }) => [
    r("shard", "krcloud:cache:Shard", { clusterId: ref("cluster", "id"), primarySubnetId: "sn-c", replicaSubnetIds: ["sn-a"], timeouts }),
  ],
};
