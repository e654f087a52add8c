/**
 * The test fixture of InstanceSet (`krcloud:cache:InstanceSet`, provider/cache/instance-set.ts):
 * every fact the tests that walk the types need (tests/resources/fixture.ts says what each is;
 * index.ts derives the tables from them).
 */
import fc from "fast-check";
import { arr, cacheUserRules, rule, TIMEOUTS, type TypeRules } from "../../support/inputs/cross-field";
import { isPlainObject, type Input } from "../../support/inputs/rules";
import { CacheClient } from "../../../client/cache";
import { systemClock } from "../../../client/core";
import { waitInstanceSetSettled } from "../../../provider/cache/waiters";
import type { Entry } from "../../support/faults/sim-stack";
import { SECRET_MARK, type CloudKind, type FaultRow, type OutsideFact, type SecretsFact, type ZeroDiffSpec } from "../fixture";
import { CACHE_NAME, describedDrift, FLAVOR, OUTSIDE, OUTSIDE_NETWORK, replacementBackup, SUBNETS, VERSION, within } from "./cluster";

export const STANDALONE_GROUP = "default.redis7.0.standalone";

/** An instance set with a primary in sn-a and replicas in `replicas`. */
export const instanceSetArgs = (replicas: string[]) => ({
  version: VERSION,
  flavorId: FLAVOR,
  parameterGroupId: STANDALONE_GROUP,
  subnetIds: SUBNETS,
  securityGroupIds: ["sg-1"],
  primarySubnetId: "sn-a",
  replicaSubnetIds: replicas,
});

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = {
  name: "valid-iset",
  version: "7.0.15",
  flavorId: "redis.m.large",
  parameterGroupId: "pg-1",
  subnetIds: ["subnet-a", "subnet-b"],
  primarySubnetId: "subnet-a",
  replicaSubnetIds: ["subnet-b"],
  securityGroupIds: ["sg-1"],
  user: { name: "app", password: SECRET_MARK },
};

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return {
    values: { ...TIMEOUTS, name: CACHE_NAME, "restoreFrom.files[]": fc.stringMatching(/^[a-z0-9][a-z0-9-]{2,10}(\/[A-Za-z0-9._-]{1,10}){1,3}$/) },
    keep(i) {
      cacheUserRules().keep(i);
      const allowed = arr(i.subnetIds) as string[];
      [i.primarySubnetId] = within([i.primarySubnetId], allowed);
      i.replicaSubnetIds = within(arr(i.replicaSubnetIds), allowed);
      if (i.highAvailability === true && arr(i.replicaSubnetIds).length === 0) i.replicaSubnetIds = [allowed[0]];
      if (i.highAvailability === true) delete i.primaryInstanceId;
      if (isPlainObject(i.restoreFrom)) {
        const r = i.restoreFrom;
        if (r.backupName !== undefined && r.files !== undefined) delete r.files;
        if (r.backupName === undefined && r.files === undefined) r.backupName = "backup-1";
        if (r.files !== undefined && arr(r.files).length === 0) r.files = ["bucket/backup.rdb"];
      }
    },
    rules: [
      ...cacheUserRules().rules,
      rule(
        "the primary's subnet is among subnetIds",
        "",
        OUTSIDE.map((outside) => (valid) => ({
          input: { ...valid, primarySubnetId: outside },
          path: "primarySubnetId",
          texts: [`subnet "${outside}" is not in subnetIds`],
        })),
      ),
      rule(
        "the replicas' subnets are among subnetIds",
        "",
        fc.tuple(OUTSIDE, fc.nat()).map(([outside, k]) => (valid) => {
          const r = [...arr(valid.replicaSubnetIds)];
          if (r.length === 0) r.push(valid.primarySubnetId);
          const i = k % r.length;
          r[i] = outside;
          return { input: { ...valid, replicaSubnetIds: r }, path: `replicaSubnetIds[${i}]`, texts: [`subnet "${outside}" is not in subnetIds`] };
        }),
      ),
      rule(
        "high availability needs a replica",
        "",
        fc.boolean().map((explicit) => (valid) => {
          const input: Input = { ...valid, highAvailability: true };
          if (explicit) input.replicaSubnetIds = [];
          else delete input.replicaSubnetIds;
          delete input.primaryInstanceId;
          return { input, path: "highAvailability", texts: ["needs at least one replica (replicaSubnetIds)"] };
        }),
      ),
      rule(
        "a primary is chosen only with high availability off",
        "",
        fc.stringMatching(/^inst-[a-z0-9]{1,8}$/).map((id) => (valid) => ({
          input: { ...valid, highAvailability: true, replicaSubnetIds: [valid.primarySubnetId], primaryInstanceId: id },
          path: "primaryInstanceId",
          texts: ["can only be chosen with highAvailability off"],
        })),
      ),
      rule(
        "a restore names exactly one of backupName and files",
        "",
        fc.boolean().map((both) => (valid) => ({
          input: { ...valid, restoreFrom: both ? { backupName: "b-1", files: ["bucket/file.rdb"] } : {} },
          path: "restoreFrom",
          texts: ["set exactly one of backupName and files"],
        })),
      ),
      rule(
        "restore files are object storage paths bucket/folder/.../file",
        "",
        fc
          .constantFrom<[string[], string]>(
            [[], "must list at least one backup file"],
            [["bucket-only"], "must be an object storage path bucket/folder/.../file"],
            [["/lead/file.rdb"], "must be an object storage path bucket/folder/.../file"],
            [["bucket//file.rdb"], "must be an object storage path bucket/folder/.../file"],
            [["bucket/dir/"], "must be an object storage path bucket/folder/.../file"],
          )
          .map(([files, text]) => (valid) => ({ input: { ...valid, restoreFrom: { files } }, path: "restoreFrom.files", texts: [text] })),
      ),
    ],
  };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  args: () => instanceSetArgs([]),
  updated: () => instanceSetArgs(["sn-b"]),
  ops: { create: "CreateInstanceSet", update: "AddReplicaInstance", read: "GetCluster", delete: "DeleteInstanceSet" },
  stuck: { create: "instance", update: "instance" },
  failed: { create: "instance", update: "instance" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ s, r }) => [
    r("iset", "krcloud:cache:InstanceSet", {
      version: VERSION,
      flavorId: FLAVOR,
      parameterGroupId: STANDALONE_GROUP,
      subnetIds: ["sn-a"],
      securityGroupIds: ["sg-1"],
      primarySubnetId: "sn-a",
      user: { name: "queue", password: s.instanceSetPassword },
    }),
  ],
  varied: ({ s, r, ref, tag, timeouts }) => [
    r("iset", "krcloud:cache:InstanceSet", {
      name: `${tag}-is`,
      description: "인스턴스 셋 ünï",
      version: VERSION,
      port: 6390,
      flavorId: FLAVOR,
      parameterGroupId: ref("params-empty", "id"),
      subnetIds: ["sn-b", "sn-a", "sn-c"],
      securityGroupIds: ["sg-1"],
      primarySubnetId: "sn-a",
      replicaSubnetIds: ["sn-c", "sn-b"],
      highAvailability: true,
      tlsEnabled: true,
      user: { name: "queue", password: s.instanceSetPassword },
      backupSchedule: { hour: 3, retentionDays: 7 },
      keepAutomaticBackups: false,
      timeouts,
      adopt: false,
    }),
  ],
};

/** What the cloud holds for it: the instance set. */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "cache/instance-set", id: e.id }, ...replacementBackup(e)];

/** Its description changed through the control API. */
export const drift = describedDrift("instance-set", (rec) => ({
  description: rec.description,
  totalNodeCount: rec.totalNodeCount,
  recoveryEnabled: rec.recoveryEnabled,
  backupSchedule: rec.backupSchedule,
}));

/** An instance set made through the client, without a user (plain) or with one (secret). Waited for until settled. */
export const outside: OutsideFact = {
  async make({ set, settings, s, tag, name }) {
    const user = set === "secret" ? { user: { name: "outsider", password: s.instanceSetPassword } } : {};
    const setName = `${tag}-is`;
    const cache = new CacheClient({ settings });
    const is = await cache.instanceSets.create({
      instanceSetName: setName,
      description: "made outside",
      replicas: 2,
      flavorId: FLAVOR,
      recoveryEnabled: false,
      ...OUTSIDE_NETWORK,
      parameterGroupId: STANDALONE_GROUP,
      port: 6379,
      version: VERSION,
      ...user,
    });
    const ctx = { settings, progress: () => undefined, clock: systemClock };
    await waitInstanceSetSettled(ctx, cache, is.id, `cache instance set ${is.id}`, { timeoutMs: 120_000 });
    return [
      {
        name: name("iset"),
        type: "krcloud:cache:InstanceSet",
        importId: is.id,
        properties: {
          name: setName,
          description: "made outside",
          version: VERSION,
          flavorId: FLAVOR,
          parameterGroupId: STANDALONE_GROUP,
          subnetIds: ["sn-a", "sn-b"],
          securityGroupIds: ["sg-1"],
          primarySubnetId: "sn-a",
          replicaSubnetIds: ["sn-b"],
          ...user,
        },
        adopt: { adopt: true },
      },
    ];
  },
};

/** Its user's password: given as a KMS ciphertext, and sent by a create that then fails (the first listing of its instances refused). */
export const secrets: SecretsFact = {
  holder: {
    asCiphertexts: (p, kms) => ({ ...p, user: { name: "queue", passwordCiphertext: kms("instanceSetPassword") } }),
    failing: {
      name: (tag) => `${tag}-fail-iset`,
      request: ["cache", "CreateInstanceSet"],
      async plant(control) {
        await control.addFault({ service: "cache", operation: "ListInstances", action: "error", status: 400, times: 1 });
        return async () => undefined;
      },
    },
  },
};
