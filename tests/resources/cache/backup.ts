/**
 * The test fixture of Backup (`krcloud:cache:Backup`, provider/cache/backup.ts): its valid inputs,
 * the cross-field rules of its inputs, its row of the fault matrix and its resources in the
 * zero-diff specs (tests/resources/fixture.ts says what each is; index.ts derives the tables from
 * them).
 */
import { TIMEOUTS, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import type { Entry } from "../../support/faults/sim-stack";
import type { CloudKind, DriftFact, FaultRow, OutsideFact, SecretsFact, ZeroDiffSpec } from "../fixture";
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

/** What the cloud holds for it: the backup. */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "cache/backup", id: e.id }];

export const DRIFTED_BACKUP_NAME = "drifted-behind-pulumis-back";

/**
 * Renamed through the control API (the public API has no rename: a backup renamed by the cloud's
 * staff or a console), seen as its name; `up` puts it back by replacing it (every change does).
 */
export const drift: DriftFact = {
  recipe: {
    service: "cache",
    kind: "backup",
    snapshot: (rec) => ({ name: rec.name }),
    async drift(control, r) {
      await control.patchResource("cache", "backup", r.id!, { name: DRIFTED_BACKUP_NAME });
      return ["name"];
    },
    recorded: (outs) => outs.name === DRIFTED_BACKUP_NAME,
  },
};

/** Made outside Pulumi by the cluster's fact: a backup of the cluster made there (tests/resources/cache/cluster.ts), as the types are made at once and a backup needs its cache. */
export const outside: OutsideFact = {
  none: "a backup needs a cache settled first: the cluster's fact (cache/cluster.ts) takes one of the cluster it makes outside, and returns it with it",
};

export const secrets: SecretsFact = { none: "no secret input" };
