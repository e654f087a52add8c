/**
 * Answers of the cache API as spec 02-cache.md describes them. The spec has no literal sample
 * bodies; these are built field by field from its tables (§2.1 record, §2.2 shard/node/instance,
 * §2.3 parameter group, §4 answers) with the values the spec names (`Creating`, `PROVISIONING`,
 * `In-Sync`, a `-` user name, `NUMBER` as a data type, `5|10|11~100`).
 */

/** A cluster's network and backups, alike in its record and in the create input (wire.ts). */
export const clusterNetwork = {
  subnets: [{ id: "sn-a" }, { id: "sn-b" }],
  subnetAssignments: [
    { primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] },
    { primary: { id: "sn-b" }, replicas: [{ id: "sn-a" }] },
  ],
  securityGroups: [{ id: "sg-1" }],
  backupSchedule: { cron: "* 3 * * *", retentionLimit: 7 },
};

export const clusterRecord = {
  projectId: "p-1",
  objectId: "c-100",
  name: "web",
  description: "session cache",
  version: "7.0.15",
  port: 6379,
  clusterEnabled: true,
  recoveryEnabled: true,
  shardCount: 2,
  totalNodeCount: 4,
  flavorId: "fl-m2",
  vcpu: 2,
  memory: 4,
  endpoints: { primaryEndpoint: "10.0.0.10:6379" },
  userName: "-",
  ...clusterNetwork,
  tlsEnabled: false,
  creator: "alice",
  license: "BSD-3",
  status: "Creating",
  parameterGroupId: "pg-1",
  parameterGroupName: "default.redis7-cluster",
  parameterGroupSyncStatus: "In-Sync",
  createdAt: "2026-08-01T00:00:00Z",
};

export const instanceSetRecord = {
  ...clusterRecord,
  objectId: "is-200",
  name: "sessions",
  clusterEnabled: false,
  recoveryEnabled: false,
  shardCount: 0,
  totalNodeCount: 2,
  endpoints: { primaryEndpoint: "10.0.1.10", readEndpoint: "10.0.1.11" },
  userName: "app",
  subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] }],
  backupSchedule: null,
  status: "Modifying",
  parameterGroupSyncStatus: "Error-Sync",
};

export const node = (id: string, role: string, status = "Running") => ({
  id,
  name: `node-${id}`,
  subnet: { id: "sn-a" },
  endpoint: `10.0.0.${id.length}`,
  role,
  status,
  createdAt: "2026-08-01T00:00:00Z",
});

export const shards = {
  shards: [
    {
      id: "s-0002",
      name: "shard-2",
      slots: "8192-16383",
      nodes: [node("n-21", "replica", "Modifying"), node("n-20", "primary")],
      status: "Modifying",
      createdAt: "2026-08-01T00:00:00Z",
    },
    {
      id: "s-0001",
      name: "shard-1",
      slots: "0-8191",
      nodes: [node("n-10", "primary"), node("n-11", "replica")],
      status: "Running",
      createdAt: "2026-08-01T00:00:00Z",
    },
  ],
};

export const instance = (id: string, role: string, status: string) => ({
  instanceName: `sessions-${id}`,
  description: "",
  projectId: "p-1",
  role,
  flavorId: "fl-m2",
  version: "7.0.15",
  port: 6379,
  subnet: { id: "sn-a" },
  creator: "alice",
  objectId: id,
  endpoint: "10.0.1.10",
  license: "BSD-3",
  createdAt: "2026-08-01T00:00:00Z",
  status,
});

export const instances = {
  size: 3,
  data: [instance("i-1", "primary", "Running"), instance("i-2", "replica", "PROVISIONING"), instance("i-3", "replica", "FAILED")],
};

export const flavors = { flavors: [{ id: "fl-m2", name: "m2a.large", vcpus: 2, memory: 4 }] };

export const versions = ["6.2.14", "7.0.15"];

export const parameterGroupSummary = {
  id: "pg-9",
  engineVersion: "7.0",
  name: "web-params",
  description: "tuned",
  isDefault: false,
  defaultParameterGroupId: "pg-1",
  rollbackAvailable: true,
  clusterModeEnabled: true,
  existErrorSync: false,
  clusterSize: 1,
  createdAt: "2026-08-01T00:00:00Z",
};

export const parameterGroupDetail = {
  ...parameterGroupSummary,
  parameters: [
    {
      parameterType: "DYNAMIC",
      parameterKey: "maxmemory-policy",
      parameterValue: "volatile-lru",
      defaultParameterValue: "volatile-lru",
      dataType: "ENUM",
      editable: true,
      validationValueFormat: "volatile-lru|allkeys-lru|noeviction",
    },
    {
      parameterType: "DYNAMIC",
      parameterKey: "timeout",
      parameterValue: "0",
      defaultParameterValue: "0",
      dataType: "INTEGER",
      editable: true,
      validationValueFormat: "0~2147483647",
    },
    {
      parameterType: "DYNAMIC",
      parameterKey: "hz",
      parameterValue: "10",
      defaultParameterValue: "10",
      dataType: "NUMBER",
      editable: true,
      validationValueFormat: "5|10|11~100",
    },
    {
      parameterType: "DYNAMIC",
      parameterKey: "notify-keyspace-events",
      parameterValue: "",
      defaultParameterValue: "",
      dataType: "STRING",
      editable: true,
      validationValueFormat: "[KEg$lshzxentdmA]*",
    },
    {
      parameterType: "STATIC",
      parameterKey: "databases",
      parameterValue: "16",
      defaultParameterValue: "16",
      dataType: "INTEGER",
      editable: false,
      validationValueFormat: "1~1200000",
    },
  ],
};

export const events = {
  events: [
    { eventName: "Apply Parameter", message: "applied to c-100", createdAt: "2026-08-02T00:00:00Z" },
    { eventName: "Update Parameter", message: "timeout 0 -> 300", createdAt: "2026-08-02T00:01:00Z" },
  ],
};
