/**
 * The rows of the fault matrix: each of the 13 resource types of schema.json with a program that
 * makes it (and what it depends on), an update that reaches the cloud, the request each column's
 * fault targets, and how it meets the stuck and FAILED cells. The target operations are the local
 * cloud's operation names (its request log shows them); a cell whose fault never fires fails, so a
 * wrong name here cannot pass unnoticed.
 */
import type { TypeSpec } from "./faults/matrix";

const SUBNETS = ["sn-a", "sn-b", "sn-c"];
const VERSION = "7.0.15";
const BUCKET = "krcloud:objectstorage:Bucket";
const site = { logical: "site", token: BUCKET, args: { forceDestroy: true } };
const RECORDED_ONLY = "recorded only: no request";
const NOTHING_FOUND = "no name: nothing of another stack is ever found or taken over (recorded only)";

const clusterArgs = (shards: number) => ({
  version: VERSION,
  flavorId: "redis.small",
  parameterGroupId: "default.redis7.0.cluster",
  subnetIds: SUBNETS,
  securityGroupIds: ["sg-1"],
  shards: [
    { primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] },
    { primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] },
  ].slice(0, shards),
});

const instanceSetArgs = (replicas: string[]) => ({
  version: VERSION,
  flavorId: "redis.small",
  parameterGroupId: "default.redis7.0.standalone",
  subnetIds: SUBNETS,
  securityGroupIds: ["sg-1"],
  primarySubnetId: "sn-a",
  replicaSubnetIds: replicas,
});

const hadoopArgs = (workers: number) => ({
  clusterVersion: "HDE-2.0.1",
  clusterType: "hadoop",
  keypairName: "kp",
  masterFlavorName: "m2a.xlarge",
  workerFlavorName: "m2a.xlarge",
  workerCnt: workers,
  vpcId: "vpc-1",
  subnetId: "sn-1",
  adminPassword: "Adm1n-Pw!",
});

export const SQL = "select region, sum(amount) as total from orders group by region order by region";

export const OBJECT_STORAGE_TYPES: TypeSpec[] = [
  {
    token: BUCKET,
    service: "object-storage",
    args: () => ({ forceDestroy: true }),
    updated: () => ({ forceDestroy: true, acl: { public: "read-only" } }),
    ops: { create: "CreateBucket", update: "UpdateBucketAcl", read: "GetBucketMeta", delete: "DeleteBucket" },
  },
  {
    token: "krcloud:objectstorage:BucketCors",
    service: "object-storage",
    deps: () => [site],
    args: (_p, s) => ({ bucket: s.id("site"), rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"] }] }),
    // The same policy on the other stack's bucket: identical, so only the claim tells them apart.
    collides: (_p, theirs) => ({ bucket: theirs.id("site"), rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"] }] }),
    updated: (_p, s) => ({
      bucket: s.id("site"),
      rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET", "PUT"], maxAgeSeconds: 600 }],
    }),
    // The seed has no delete: an empty list is the removal.
    ops: { create: "PutBucketCors", update: "PutBucketCors", read: "GetBucketCors", delete: "PutBucketCors" },
  },
  {
    token: "krcloud:objectstorage:BucketLifecycle",
    service: "object-storage",
    deps: () => [site],
    args: (_p, s) => ({ bucket: s.id("site"), rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 30 }] }),
    collides: (_p, theirs) => ({ bucket: theirs.id("site"), rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 30 }] }),
    updated: (_p, s) => ({ bucket: s.id("site"), rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 7 }] }),
    ops: {
      create: "PutBucketLifecycleConfiguration",
      update: "PutBucketLifecycleConfiguration",
      read: "GetBucketLifecycleConfiguration",
      delete: "DeleteBucketLifecycleConfiguration",
    },
  },
  {
    token: "krcloud:objectstorage:BucketObject",
    service: "object-storage",
    deps: () => [site],
    args: (_p, s) => ({ bucket: s.id("site"), key: "notes/a.txt", content: "hello", contentType: "text/plain" }),
    // The same key in the other stack's bucket (which this stack names explicitly).
    collides: (_p, theirs) => ({ bucket: theirs.id("site"), key: "notes/a.txt", content: "hello", contentType: "text/plain" }),
    updated: (_p, s) => ({ bucket: s.id("site"), key: "notes/a.txt", content: "hello again", contentType: "text/plain" }),
    ops: { create: "PutObject", update: "PutObject", read: "HeadObject", delete: "DeleteObject" },
  },
];

export const KMS_TYPES: TypeSpec[] = [
  {
    token: "krcloud:kms:Ciphertext",
    service: "kms",
    args: (p) => ({ keyId: p.keyId, plaintext: "matrix-plaintext-1" }),
    ops: { create: "Encrypt" },
    na: { update: "every change replaces", read: RECORDED_ONLY, delete: RECORDED_ONLY },
    noName: NOTHING_FOUND,
  },
  {
    token: "krcloud:kms:DataKey",
    service: "kms",
    args: (p) => ({ keyId: p.keyId }),
    ops: { create: "GenerateDataKey" },
    na: { update: "every change replaces", read: RECORDED_ONLY, delete: RECORDED_ONLY },
    noName: NOTHING_FOUND,
  },
];

export const CACHE_TYPES: TypeSpec[] = [
  {
    token: "krcloud:cache:ParameterGroup",
    service: "cache",
    args: () => ({ baseParameterGroupId: "default.redis7.0.cluster", parameters: { "maxmemory-policy": "allkeys-lru" } }),
    updated: () => ({ baseParameterGroupId: "default.redis7.0.cluster", parameters: { "maxmemory-policy": "volatile-lru" } }),
    ops: { create: "CreateParameterGroup", update: "ModifyParameterGroup", read: "GetParameterGroup", delete: "DeleteParameterGroup" },
  },
  {
    token: "krcloud:cache:Cluster",
    service: "cache",
    args: () => clusterArgs(1),
    // A shard more: AddShard, which is not idempotent.
    updated: () => clusterArgs(2),
    // A read lists the clusters (reads that arrive together share one ListClusters call).
    ops: { create: "CreateCluster", update: "AddShard", read: "ListClusters", delete: "DeleteCluster" },
    stuck: { service: "cache", kind: { create: "node", update: "node" } },
    failed: { create: "node", update: "node" },
  },
  {
    token: "krcloud:cache:Shard",
    service: "cache",
    deps: () => [{ logical: "cluster", token: "krcloud:cache:Cluster", args: clusterArgs(1) }],
    args: (_p, s) => ({ clusterId: s.id("cluster"), primarySubnetId: "sn-b", replicaSubnetIds: [] }),
    // A replica more: AddReplica, which is not idempotent.
    updated: (_p, s) => ({ clusterId: s.id("cluster"), primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] }),
    ops: { create: "AddShard", update: "AddReplica", read: "GetShard", delete: "DeleteShard" },
    noName: "no name: a shard is added to a cluster of its own stack, and found only as the one that was not there before its request",
    stuck: { service: "cache", kind: { create: "node", update: "node" } },
    failed: { create: "node", update: "node" },
  },
  {
    token: "krcloud:cache:InstanceSet",
    service: "cache",
    args: () => instanceSetArgs([]),
    updated: () => instanceSetArgs(["sn-b"]),
    ops: { create: "CreateInstanceSet", update: "AddReplicaInstance", read: "GetCluster", delete: "DeleteInstanceSet" },
    stuck: { service: "cache", kind: { create: "instance", update: "instance" } },
    failed: { create: "instance", update: "instance" },
  },
];

export const DATA_TYPES: TypeSpec[] = [
  {
    token: "krcloud:dataquery:DataSource",
    service: "data-query",
    args: (p) => ({ type: "MYSQL", instanceId: p.instanceId, username: "reader", password: "Pw-matrix-1" }),
    ops: { create: "CreateDataSource", read: "ListDataSources", delete: "DeleteDataSource" },
    na: { update: "every change replaces (no update API)" },
  },
  {
    token: "krcloud:dataquery:Query",
    service: "data-query",
    deps: (p) => [
      {
        logical: "sales",
        token: "krcloud:dataquery:DataSource",
        args: { type: "MYSQL", instanceId: p.instanceId, username: "reader", password: "Pw-matrix-1" },
      },
    ],
    args: (p, s) => ({ query: SQL, dataSource: s.id("sales"), database: "shop", bucketName: p.resultBucket, path: "reports" }),
    // More captured rows: read again, never run again.
    updated: (p, s) => ({ query: SQL, dataSource: s.id("sales"), database: "shop", bucketName: p.resultBucket, path: "reports", captureRows: 2 }),
    ops: { create: "RunQuery", update: "GetQueryResult", read: "GetQueryResult" },
    noName: "no name: a run is found only by the create key in its SQL comment",
    na: { delete: "a finished query: nothing to remove" },
    stuck: { service: "data-query", kind: { create: "query" } },
    failed: { create: "bad-sql" },
    noun: /data query/,
  },
  {
    token: "krcloud:hadoop:Cluster",
    service: "hadoop",
    args: () => hadoopArgs(3),
    updated: () => hadoopArgs(4),
    ops: { create: "CreateCluster", update: "ScaleCluster", read: "GetCluster", delete: "DeleteCluster" },
    stuck: { service: "hadoop", kind: { create: "cluster", update: "scale" } },
    failed: { create: "hadoop-create-failure" },
  },
];

export const ALL_TYPES: TypeSpec[] = [...OBJECT_STORAGE_TYPES, ...CACHE_TYPES, ...DATA_TYPES, ...KMS_TYPES];
