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
import { CacheClient } from "../../../client/cache";
import { systemClock } from "../../../client/core";
import { waitBackupAvailable } from "../../../provider/cache/backups";
import { clusterArgs, settledCluster } from "./cluster";

/** Inputs check accepts, with every secret-bearing input set (it has none). */
export const valid: Input = { clusterId: "cluster-1", name: "before-upgrade" };

/** The rules of its inputs that tie several properties together: none. */
export function crossFieldRules(): TypeRules {
  return { values: TIMEOUTS, rules: [] };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  deps: () => [{ logical: "cluster", token: "krcloud:cache:Cluster", args: clusterArgs(1) }],
  args: (_p, s) => ({ clusterId: s.id("cluster") }),
  ops: { create: "CreateBackup", read: "GetBackup", delete: "DeleteBackup" },
  na: { update: "a backup has nothing to change in place: every change of its inputs replaces it" },
  stuck: { create: "backup" },
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

/**
 * No drift to plant: its inputs are the cache it was taken of, which the cloud cannot change, and
 * its name, whose change replaces it and which, auto-named, a refresh takes as it finds it. The
 * check sees it deleted (a refresh reads it by id; tests/engine/drift-resources.test.ts reports it
 * clean when untouched).
 */
export const drift: DriftFact = {
  none: "every input replaces it: the cache it was taken of cannot change, and an auto-named backup renamed is taken as found",
};

/**
 * With the plain set, a backup of the stack's cluster taken through the client, as takeBackup or a
 * console would take it (a backup needs a settled cache; the shard's fact adds a shard to the same
 * cluster meanwhile, which a backup allows).
 */
export const outside: OutsideFact = {
  async make({ set, settings, tag, stack, name }) {
    if (set !== "plain") return [];
    await settledCluster(settings, stack.clusterId);
    const cache = new CacheClient({ settings });
    const backupName = `${tag}-bk`;
    const { id } = await cache.backups.create({ clusterId: stack.clusterId, name: backupName });
    await waitBackupAvailable({ settings, progress: () => undefined, clock: systemClock }, cache, id, `backup ${backupName}`, 120_000);
    return [
      {
        name: name("backup"),
        type: "krcloud:cache:Backup",
        importId: id,
        properties: { clusterId: stack.clusterId, name: backupName },
        adopt: { adopt: true },
      },
    ];
  },
};

export const secrets: SecretsFact = { none: "no secret input" };
