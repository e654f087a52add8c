/**
 * Public types of the cache client (spec 02-cache.md). Wire names are already camelCase, so
 * records keep them; every record also keeps `raw`, the object as received, for fields the spec
 * does not list. Statuses are kept as received (`status`) and normalised (`state`, see
 * topology.ts `normalizeStatus`), because the spec spells them `Running`, `PROVISIONING`, `Failed`.
 */

import type { ClientOptions } from "../core";

export type CacheClientOptions = ClientOptions;

// ---------------------------------------------------------------------------------------------
// Shared shapes (spec 2.1, 4.2, 4.3)

export interface Ref {
  id: string;
}

/** Placement of one shard (cluster) or of the instance set: the primary's subnet and each replica's. */
export interface SubnetAssignment {
  primary: Ref;
  replicas: Ref[];
}

export interface BackupSchedule {
  /** 5-field cron expression, KST. Instance sets: only the hour is settable, e.g. `* 3 * * *`. */
  cron: string;
  /** Days to keep automatic backups (instance sets: 1 to 35). */
  retentionLimit?: number;
}

export interface DatabaseUser {
  name: string;
  /** Must already be encrypted or a hash (spec 4.2); never logged, redacted from errors. */
  password: string;
}

/** `sequential` or `parallel` application of parameter changes to the clusters using the group. */
export type ApplyMode = "sequential" | "parallel";

export interface ObjectIdResult {
  /** The `objectId` of the answer: the cluster, instance set, shard, node or parameter group. */
  id: string;
}

// ---------------------------------------------------------------------------------------------
// Records (spec 2.1, 2.2, 2.3)

export interface CacheClusterRecord {
  /** `objectId`: the cluster or instance set ID. */
  id: string;
  projectId?: string;
  name?: string;
  description?: string;
  version?: string;
  port?: number;
  /** true for a cluster, false for an instance set. */
  clusterEnabled?: boolean;
  /** High availability mode; always true in cluster mode. */
  recoveryEnabled?: boolean;
  /** 0 for an instance set. */
  shardCount?: number;
  totalNodeCount?: number;
  flavorId?: string;
  vcpu?: number;
  /** GiB. */
  memory?: number;
  endpoints: { primaryEndpoint?: string; readEndpoint?: string };
  /** undefined when authentication is disabled (the API sends `-`). */
  userName?: string;
  authEnabled: boolean;
  subnets: Ref[];
  subnetAssignments: SubnetAssignment[];
  securityGroups: Ref[];
  /** null when automatic backups are off (absent, null, or an empty cron). */
  backupSchedule: BackupSchedule | null;
  tlsEnabled?: boolean;
  creator?: string;
  license?: string;
  status?: string;
  /** `status` normalised: lower case, words joined by `-` (`creating`, `running`, `modifying`). */
  state?: string;
  parameterGroupId?: string;
  parameterGroupName?: string;
  parameterGroupSyncStatus?: string;
  /** `in-sync`, `error-sync`, `suspended`, ... */
  parameterGroupSyncState?: string;
  createdAt?: string;
  raw: Record<string, unknown>;
}

export type NodeRole = "primary" | "replica";

export interface CacheNode {
  id: string;
  name?: string;
  subnetId?: string;
  /** Private IP. */
  endpoint?: string;
  /** Normalised: `primary` / `replica` (also read from `master` / `slave`); other values kept as received. */
  /** Usually a NodeRole; other spellings the service may use are kept as given. */
  role?: string;
  status?: string;
  state?: string;
  createdAt?: string;
  raw: Record<string, unknown>;
}

export interface SlotRange {
  start: number;
  end: number;
}

export interface CacheShard {
  id: string;
  name?: string;
  /** As received (a string such as `0-5460`). */
  slotsText?: string;
  slots: SlotRange[];
  nodes: CacheNode[];
  status?: string;
  state?: string;
  createdAt?: string;
  raw: Record<string, unknown>;
}

export interface CacheInstance {
  /** `objectId`: the instance ID. */
  id: string;
  instanceName?: string;
  description?: string;
  projectId?: string;
  /** Usually a NodeRole; other spellings the service may use are kept as given. */
  role?: string;
  flavorId?: string;
  version?: string;
  port?: number;
  subnetId?: string;
  creator?: string;
  endpoint?: string;
  license?: string;
  createdAt?: string;
  status?: string;
  state?: string;
  raw: Record<string, unknown>;
}

export interface InstanceList {
  /** The answer's `size`, or the number of instances when absent. */
  size: number;
  instances: CacheInstance[];
}

export interface Flavor {
  id: string;
  name?: string;
  /** `vcpus` (also read from `vcpu`, the cluster record's spelling). */
  vcpus?: number;
  /** GiB. */
  memory?: number;
  raw: Record<string, unknown>;
}

export interface ParameterGroupSummary {
  id: string;
  engineVersion?: string;
  name?: string;
  description?: string;
  isDefault?: boolean;
  /** The default group this custom group refers to; undefined for a default group (the API sends ""). */
  defaultParameterGroupId?: string;
  rollbackAvailable?: boolean;
  clusterModeEnabled?: boolean;
  /** Some cluster using the group failed to sync. */
  existErrorSync?: boolean;
  /** Number of clusters using the group. */
  clusterSize?: number;
  createdAt?: string;
  raw: Record<string, unknown>;
}

/** How a parameter's value is checked: `NUMBER` and `INTEGER` are the same kind (spec 2.3). */
export type ParameterValueKind = "number" | "string" | "enum" | "unknown";

export interface ParameterDefinition {
  parameterKey: string;
  /** `STATIC`, `DYNAMIC`, others possible; upper-cased. */
  parameterType?: string;
  parameterValue?: string;
  defaultParameterValue?: string;
  /** As received, upper-cased (`ENUM`, `STRING`, `INTEGER`, `NUMBER`). */
  dataType?: string;
  valueKind: ParameterValueKind;
  editable?: boolean;
  validationValueFormat?: string;
}

export interface ParameterGroup extends ParameterGroupSummary {
  parameters: ParameterDefinition[];
}

export interface ParameterGroupEvent {
  eventName?: string;
  message?: string;
  createdAt?: string;
}

// ---------------------------------------------------------------------------------------------
// Inputs (spec 4.2, 4.3, 4.4)

export interface CreateClusterInput {
  name: string;
  description?: string;
  version: string;
  /** 2000 to 50000. */
  port: number;
  /** 1 to 12; for a restore, the source backup's shard count. */
  shardCount: number;
  /** Nodes per shard, counting the primary (so each assignment lists `nodeCountPerShard - 1` replicas). */
  nodeCountPerShard: number;
  flavorId: string;
  parameterGroupId: string;
  subnets: Ref[];
  /** One entry per shard. */
  subnetAssignments: SubnetAssignment[];
  securityGroups: Ref[];
  tlsEnabled?: boolean;
  /** Omitted: automatic backups are off. */
  backupSchedule?: BackupSchedule;
  user?: DatabaseUser;
  /** Restore from a backup instead of creating an empty cluster. */
  restoreSource?: { backupName: string };
}

export interface UpdateClusterInput {
  description?: string;
  /** Never empty. */
  parameterGroupId?: string;
  securityGroups?: Ref[];
  /** null turns automatic backups off (sent as `{cron: ""}`). */
  backupSchedule?: BackupSchedule | null;
}

export interface DeleteOptions {
  /**
   * Required by the API when automatic backups exist: true keeps them until they expire, false
   * deletes them with the cluster or instance set. Omitted from the query when undefined.
   */
  keepAutomaticBackups?: boolean;
}

export interface AddShardInput {
  /** Nodes of the new shard, counting its primary. */
  nodeCount: number;
  subnetAssignment: SubnetAssignment;
}

/** The three variants of spec 4.3: new, from a backup name, from backup files in object storage. */
export type InstanceSetRestoreSource = { backupName: string } | { files: string[] };

export interface CreateInstanceSetInput {
  /** 4 to 20: lower-case letters, digits, `-`; starts with a letter; ends with a letter or digit; no `--`. */
  instanceSetName: string;
  description?: string;
  /** Node count including the primary. */
  replicas: number;
  flavorId: string;
  /** High availability mode. */
  recoveryEnabled: boolean;
  subnets: Ref[];
  subnetAssignments: SubnetAssignment[];
  securityGroups: Ref[];
  backupSchedule?: BackupSchedule;
  user?: DatabaseUser;
  tlsEnabled?: boolean;
  parameterGroupId: string;
  port: number;
  /** Defaults to the client's project (settings.projectId). */
  projectId?: string;
  version: string;
  restoreSource?: InstanceSetRestoreSource;
}

export type UpdateInstanceSetInput = UpdateClusterInput;

export interface CreateParameterGroupInput {
  /** The default group the new group is based on. */
  parameterGroupId: string;
  name: string;
  description?: string;
}

export interface ListParameterGroupsOptions {
  engineVersion?: string;
  parameterGroupType?: "default" | "custom";
  /** Omitted (or empty) selects both. */
  clusterMode?: "enabled" | "disabled";
}

export interface ParameterSetting {
  parameterKey: string;
  parameterValue: string;
}

export interface ModifyParameterGroupInput {
  description?: string;
  /** A list or a map of key -> value. */
  parameters?: ParameterSetting[] | Record<string, string>;
  /** Required when `parameters` is given. */
  applyMode?: ApplyMode;
}

// ---------------------------------------------------------------------------------------------
// Backups: the cloud's public API documentation, not the spec (docs/api-assumptions.md)

/** Who took a backup: a backup schedule (`automatic`) or a request (`manual`); other values kept as sent. */
export type BackupKind = "automatic" | "manual" | (string & {});

/** A backup record (`GET /v1/backups?clusterName=…`); every field but the id is a reading of the documentation or a guess. */
export interface CacheBackup {
  /** `objectId` (also `id`, `backupId`). */
  id: string;
  name?: string;
  /** The cluster or instance set it was taken of. */
  clusterId?: string;
  clusterName?: string;
  /** true: a cluster's (cluster mode); false: an instance set's. */
  clusterEnabled?: boolean;
  version?: string;
  shardCount?: number;
  kind?: BackupKind;
  status?: string;
  /** `status` normalised (topology.ts `normalizeStatus`). */
  state?: string;
  /** The data's size in bytes (`size`, also `sizeBytes`, `backupSize`; `sizeMb`/`sizeMB` read as MiB). */
  sizeBytes?: number;
  createdAt?: string;
  expiresAt?: string;
  raw: unknown;
}

export interface CreateBackupInput {
  /** The cluster or instance set to back up. */
  clusterId: string;
  name: string;
}

export interface ListBackupsOptions {
  /** Only the backups of the cluster or instance set of this name. */
  clusterName?: string;
}
