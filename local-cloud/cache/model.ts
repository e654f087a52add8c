/** The cache service's state: parameter groups, clusters (with shards and nodes) and instance sets. */

export interface StoredParameterGroup {
  id: string;
  projectId: string;
  name: string;
  description: string;
  engineVersion: string;
  clusterMode: boolean;
  isDefault: boolean;
  defaultParameterGroupId: string;
  values: Record<string, string>;
  /** Values before the last change, for rollback. */
  previous?: Record<string, string>;
  events: { eventName: string; message: string; createdAt: string }[];
  createdAt: string;
}

export interface StoredNode {
  id: string;
  name: string;
  subnetId: string;
  endpoint: string;
  role: "primary" | "replica";
  createdAt: string;
  /** Real nodes (engine `redis`): the redis-server's ports and cluster id, kept so a restart finds them again. */
  port?: number;
  busPort?: number;
  redisId?: string;
}

export interface StoredShard {
  id: string;
  name: string;
  /** Inclusive slot ranges. */
  slots: [number, number][];
  nodes: StoredNode[];
  createdAt: string;
}

export interface StoredCluster {
  id: string;
  projectId: string;
  name: string;
  description: string;
  version: string;
  port: number;
  clusterEnabled: boolean;
  recoveryEnabled: boolean;
  flavorId: string;
  subnets: string[];
  subnetAssignments: { primary: { id: string }; replicas: { id: string }[] }[];
  securityGroups: string[];
  backupSchedule: { cron: string; retentionLimit?: number } | null;
  tlsEnabled: boolean;
  userName: string;
  /** The user's password as its nodes hold it: `#<sha256 hex>` (redis/security.ts), `nopass` for an empty one; absent without a user. */
  userPasswordHash?: string;
  /** The local cloud's own password on the nodes of a cluster with a user or TLS (redis/security.ts); absent on clusters stored before it. */
  adminPassword?: string;
  parameterGroupId: string;
  createdAt: string;
  /** Clusters: shards. Instance sets: one shard-like group holding the instances. */
  shards: StoredShard[];
  /** `redis` when real redis-server processes serve it (engine.ts); absent: simulated. */
  engine?: "redis";
  /** Real clusters: the ports of the stable endpoints (a restart binds them again). */
  endpointPorts?: { primary?: number; read?: number };
}

/**
 * A backup: the record the backend keeps (its data is the engine's, redis/data.ts). Automatic ones
 * come from a backup schedule and expire; on-demand ones (`POST /v1/backups`) are kept until deleted.
 */
export interface StoredBackup {
  /** `backup-<hex>`; backups stored before ids existed get one when loaded. */
  id: string;
  name: string;
  projectId: string;
  sourceId: string;
  /** The source's name when the backup was taken (`GET /v1/backups?clusterName=`). */
  clusterName: string;
  clusterMode: boolean;
  version: string;
  shardCount: number;
  kind: "automatic" | "manual";
  /** ms since the epoch. */
  createdAt: number;
  /** Automatic backups only: when they are dropped. */
  expiresAt?: number;
  /** Bytes of the data files once they are written (what the API reports as `size`); absent while they are written. */
  size?: number;
  /** Why writing the data failed. */
  failure?: string;
}

/** What the create routes hand the backend, parsed and checked. */
export interface CommonBody {
  name: string;
  description?: string;
  version: string;
  port: number;
  flavorId: string;
  parameterGroupId: string;
  subnets: { id: string }[];
  subnetAssignments: { primary: { id: string }; replicas: { id: string }[] }[];
  securityGroups: { id: string }[];
  tlsEnabled?: boolean;
  backupSchedule?: { cron: string; retentionLimit?: number };
  user?: { name: string; password: string };
  /** The spec spells it backupName and backupNames (either is read into backupName); files for instance sets. */
  restoreSource?: { backupName?: string; files?: string[] };
}
export type CreateClusterBody = CommonBody & { shardCount: number; nodeCountPerShard: number };
export type CreateInstanceSetBody = Omit<CommonBody, "name"> & { instanceSetName: string; replicas: number; recoveryEnabled: boolean };

/** What UpdateCluster and UpdateInstanceSet may change (an empty cron turns automatic backups off). */
export interface UpdateBody {
  description?: string;
  parameterGroupId?: string;
  securityGroups?: { id: string }[];
  backupSchedule?: { cron: string; retentionLimit?: number };
}
