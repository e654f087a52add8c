/**
 * The cross-field rules of the cache types (ParameterGroup, Shard, Cluster, InstanceSet), with the
 * values their refinements need: see cross-field-rules.ts.
 */
import fc from "fast-check";
import type { TypeRules } from "./cross-field-rules";
import { arr, cacheUserRules, obj, rule, TIMEOUTS } from "./cross-field-shared";
import { isPlainObject, type Input } from "./inputs/rules";

/** A 5-field cron every field of which is valid (seed 02 §4.2). */
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

/** Cache cluster and instance set names (seed 02 §4.3), checked by a refinement. */
const CACHE_NAME = fc.stringMatching(/^[a-z][a-z0-9-]{2,18}[a-z0-9]$/);

/** Replaces every subnet of `ids` that is not in `allowed` by one that is. */
const within = (ids: unknown[], allowed: string[]) => ids.map((id, i) => (allowed.includes(id as string) ? id : allowed[i % allowed.length]));

const OUTSIDE = fc.stringMatching(/^subnet-outside-[a-z0-9]{1,6}$/);

export function cacheRules(): Record<string, TypeRules> {
  return {
    "krcloud:cache:ParameterGroup": { values: TIMEOUTS, rules: [] },
    "krcloud:cache:Shard": { values: TIMEOUTS, rules: [] },

    "krcloud:cache:Cluster": {
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
    },

    "krcloud:cache:InstanceSet": {
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
    },
  };
}
