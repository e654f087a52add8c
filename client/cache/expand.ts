/**
 * Expanders: inputs (types.ts) to request bodies (spec 02 §4). Optional fields are omitted when
 * undefined, never sent as null; ids are always `{id}` objects.
 */

import type {
  AddShardInput,
  BackupSchedule,
  CreateClusterInput,
  CreateInstanceSetInput,
  ModifyParameterGroupInput,
  Ref,
  SubnetAssignment,
  UpdateClusterInput,
} from "./types";
import { parameterEntries } from "./validate";

type Body = Record<string, unknown>;

function refs(list: readonly Ref[]): Ref[] {
  return list.map((r) => ({ id: r.id }));
}

function assignment(a: SubnetAssignment): SubnetAssignment {
  return { primary: { id: a.primary.id }, replicas: refs(a.replicas) };
}

function schedule(s: BackupSchedule): Body {
  return s.retentionLimit === undefined ? { cron: s.cron } : { cron: s.cron, retentionLimit: s.retentionLimit };
}

function put(body: Body, key: string, value: unknown): void {
  if (value !== undefined) body[key] = value;
}

/**
 * Cluster create / restore body (§4.2). The restore field is spelled `backupNames` in the field
 * table and `backupName` in the sample; both are sent with the same string, so a server reading
 * either sees the same backup (docs/api-assumptions.md, Cache §4.2).
 */
export function expandCreateCluster(input: CreateClusterInput): Body {
  const body: Body = {
    name: input.name,
    version: input.version,
    port: input.port,
    shardCount: input.shardCount,
    nodeCountPerShard: input.nodeCountPerShard,
    flavorId: input.flavorId,
    parameterGroupId: input.parameterGroupId,
    subnets: refs(input.subnets),
    subnetAssignments: input.subnetAssignments.map(assignment),
    securityGroups: refs(input.securityGroups),
  };
  put(body, "description", input.description);
  put(body, "tlsEnabled", input.tlsEnabled);
  if (input.backupSchedule) body.backupSchedule = schedule(input.backupSchedule);
  if (input.user) body.user = { name: input.user.name, password: input.user.password };
  if (input.restoreSource) body.restoreSource = { backupName: input.restoreSource.backupName, backupNames: input.restoreSource.backupName };
  return body;
}

/** Instance set create body (§4.3), all three variants; `projectId` already resolved. */
export function expandCreateInstanceSet(input: CreateInstanceSetInput & { projectId: string }): Body {
  const body: Body = {
    instanceSetName: input.instanceSetName,
    replicas: input.replicas,
    flavorId: input.flavorId,
    recoveryEnabled: input.recoveryEnabled,
    subnets: refs(input.subnets),
    subnetAssignments: input.subnetAssignments.map(assignment),
    securityGroups: refs(input.securityGroups),
    parameterGroupId: input.parameterGroupId,
    port: input.port,
    projectId: input.projectId,
    version: input.version,
  };
  put(body, "description", input.description);
  put(body, "tlsEnabled", input.tlsEnabled);
  if (input.backupSchedule) body.backupSchedule = schedule(input.backupSchedule);
  if (input.user) body.user = { name: input.user.name, password: input.user.password };
  const rs = input.restoreSource;
  if (rs && "backupName" in rs) body.restoreSource = { backupName: rs.backupName };
  else if (rs && "files" in rs) body.restoreSource = { files: [...rs.files] };
  return body;
}

/** Cluster / instance set update body (§4.2, §4.3); a null schedule is `{cron: ""}` (backups off). */
export function expandUpdate(input: UpdateClusterInput): Body {
  const body: Body = {};
  put(body, "description", input.description);
  put(body, "parameterGroupId", input.parameterGroupId);
  if (input.securityGroups) body.securityGroups = refs(input.securityGroups);
  if (input.backupSchedule === null) body.backupSchedule = { cron: "" };
  else if (input.backupSchedule) body.backupSchedule = schedule(input.backupSchedule);
  return body;
}

export function expandAddShard(input: AddShardInput): Body {
  return { nodeCount: input.nodeCount, subnetAssignment: assignment(input.subnetAssignment) };
}

export function expandModifyParameterGroup(input: ModifyParameterGroupInput): Body {
  const body: Body = {};
  put(body, "description", input.description);
  const entries = parameterEntries(input.parameters);
  if (input.parameters !== undefined) body.parameters = entries.map(([parameterKey, parameterValue]) => ({ parameterKey, parameterValue }));
  put(body, "applyMode", input.applyMode);
  return body;
}
