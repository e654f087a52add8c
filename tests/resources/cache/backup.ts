/**
 * The test fixture of Backup (`krcloud:cache:Backup`, provider/cache/backup.ts): its valid inputs,
 * the cross-field rules of its inputs, its row of the fault matrix and its resources in the
 * zero-diff specs (tests/resources/fixture.ts says what each is; index.ts derives the tables from
 * them).
 */
import { TIMEOUTS, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import type { FaultRow, ZeroDiffSpec } from "../fixture";
import { clusterArgs } from "./cluster";

/** Inputs check accepts, with every secret-bearing input set (it has none). */
export const valid: Input = { clusterId: "cluster-1", name: "before-upgrade" };

/** The rules of its inputs that tie several properties together: none. */
export function crossFieldRules(): TypeRules {
  return { values: TIMEOUTS, rules: [] };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  service: "cache",
  deps: () => [{ logical: "cluster", token: "krcloud:cache:Cluster", args: clusterArgs(1) }],
  args: (_p, s) => ({ clusterId: s.id("cluster") }),
  ops: { create: "CreateBackup", read: "GetBackup", delete: "DeleteBackup" },
  na: { update: "a backup has nothing to change in place: every change of its inputs replaces it" },
  stuck: { service: "cache", kind: { create: "backup" } },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ r, ref }) => [r("backup", "krcloud:cache:Backup", { clusterId: ref("cluster", "id") })],
  varied: ({ r, ref, tag, timeouts }) => [
    r("backup", "krcloud:cache:Backup", { clusterId: ref("cluster", "id"), name: `${tag}-backup`, timeouts, adopt: false }),
  ],
};
