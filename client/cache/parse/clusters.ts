/** The cluster and instance set record (spec 02 §2.1), one and a list. */

import { z } from "zod";
import { once } from "../../core";
import { normalizeStatus } from "../topology";
import type { BackupSchedule, CacheClusterRecord, SubnetAssignment } from "../types";
import { compact, idFields, listReader, optBool, optNum, optStr, recordReader, refList, refSchema, statusFields, tolerantList } from "./readers";

function subnetAssignmentList() {
  return tolerantList((item): SubnetAssignment | undefined => {
    const r = z.looseObject({ primary: refSchema(), replicas: refList() }).safeParse(item);
    return r.success ? { primary: { id: r.data.primary.id }, replicas: r.data.replicas } : undefined;
  });
}

const backupScheduleSchema = once(() => {
  return z
    .looseObject({ cron: optStr(), retentionLimit: optNum() })
    .nullish()
    .catch(undefined)
    .transform((b): BackupSchedule | null => {
      if (!b || b.cron == null || b.cron.trim() === "") return null;
      return b.retentionLimit == null ? { cron: b.cron } : { cron: b.cron, retentionLimit: b.retentionLimit };
    });
});

export const clusterRecordSchema = once(() => {
  return z.looseObject({
    ...idFields(),
    projectId: optStr(),
    name: optStr(),
    description: optStr(),
    version: optStr(),
    port: optNum(),
    clusterEnabled: optBool(),
    recoveryEnabled: optBool(),
    shardCount: optNum(),
    totalNodeCount: optNum(),
    flavorId: optStr(),
    vcpu: optNum(),
    memory: optNum(),
    endpoints: z.looseObject({ primaryEndpoint: optStr(), readEndpoint: optStr() }).nullish().catch(undefined),
    userName: optStr(),
    subnets: refList(),
    subnetAssignments: subnetAssignmentList(),
    securityGroups: refList(),
    backupSchedule: backupScheduleSchema(),
    tlsEnabled: optBool(),
    creator: optStr(),
    license: optStr(),
    status: optStr(),
    parameterGroupId: optStr(),
    parameterGroupName: optStr(),
    parameterGroupSyncStatus: optStr(),
    createdAt: optStr(),
  });
});

export const flattenClusterRecord: (body: unknown, action: string) => CacheClusterRecord = recordReader(
  "cluster record",
  clusterRecordSchema,
  ["objectId", "id"],
  (d) => {
    const userName = d.userName != null && d.userName.trim() !== "-" && d.userName.trim() !== "" ? d.userName : undefined;
    return {
      projectId: d.projectId,
      name: d.name,
      description: d.description,
      version: d.version,
      port: d.port,
      clusterEnabled: d.clusterEnabled,
      recoveryEnabled: d.recoveryEnabled,
      shardCount: d.shardCount,
      totalNodeCount: d.totalNodeCount,
      flavorId: d.flavorId,
      vcpu: d.vcpu,
      memory: d.memory,
      endpoints: compact<CacheClusterRecord["endpoints"]>({
        primaryEndpoint: d.endpoints?.primaryEndpoint ?? undefined,
        readEndpoint: d.endpoints?.readEndpoint ?? undefined,
      }),
      userName,
      authEnabled: userName !== undefined,
      subnets: d.subnets,
      subnetAssignments: d.subnetAssignments,
      securityGroups: d.securityGroups,
      backupSchedule: d.backupSchedule,
      tlsEnabled: d.tlsEnabled,
      creator: d.creator,
      license: d.license,
      ...statusFields(d.status),
      parameterGroupId: d.parameterGroupId,
      parameterGroupName: d.parameterGroupName,
      parameterGroupSyncStatus: d.parameterGroupSyncStatus,
      parameterGroupSyncState: normalizeStatus(d.parameterGroupSyncStatus),
      createdAt: d.createdAt,
    };
  },
  { wrapper: "cluster", keepNull: ["backupSchedule"] },
);

export const flattenClusterList = listReader(flattenClusterRecord, "clusters", "cluster list", ["data"]);
