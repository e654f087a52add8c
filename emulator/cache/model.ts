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
  parameterGroupId: string;
  createdAt: string;
  /** Clusters: shards. Instance sets: one shard-like group holding the instances. */
  shards: StoredShard[];
}
