/**
 * One valid set of inputs per resource type, with every secret-bearing input set: what tests that
 * walk every resource (secrets parity, generated bad inputs, zero-diff) start from. They pass each
 * resource's `check`; whether the cloud has what they name (a flavor, a key) is for the tests that
 * send them to say.
 */
export const SECRET_MARK = "Sekr1t-Distinctive-42";

export const VALID_INPUTS: Readonly<Record<string, Record<string, unknown>>> = {
  "krcloud:objectstorage:Bucket": { name: "valid-bucket", acl: { public: "read-only" }, metadata: { owner: "tests" } },
  "krcloud:objectstorage:BucketCors": {
    bucket: "valid-bucket",
    rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"], maxAgeSeconds: 3600 }],
  },
  "krcloud:objectstorage:BucketLifecycle": { bucket: "valid-bucket", rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 30 }] },
  "krcloud:objectstorage:BucketObject": { bucket: "valid-bucket", key: "notes/a.txt", content: `hello ${SECRET_MARK}`, contentType: "text/plain" },
  "krcloud:cache:ParameterGroup": { name: "valid-params", baseParameterGroupId: "default.redis7.0.cluster", parameters: { "maxmemory-policy": "allkeys-lru" } },
  "krcloud:cache:Cluster": {
    name: "valid-cluster",
    version: "7.0.15",
    flavorId: "redis.m.large",
    parameterGroupId: "pg-1",
    subnetIds: ["subnet-a", "subnet-b"],
    securityGroupIds: ["sg-1"],
    shards: [{ primarySubnetId: "subnet-a", replicaSubnetIds: ["subnet-b"] }],
    user: { name: "app", password: SECRET_MARK },
  },
  "krcloud:cache:Shard": { clusterId: "cluster-1", primarySubnetId: "subnet-a", replicaSubnetIds: ["subnet-b"] },
  "krcloud:cache:InstanceSet": {
    name: "valid-iset",
    version: "7.0.15",
    flavorId: "redis.m.large",
    parameterGroupId: "pg-1",
    subnetIds: ["subnet-a", "subnet-b"],
    primarySubnetId: "subnet-a",
    replicaSubnetIds: ["subnet-b"],
    securityGroupIds: ["sg-1"],
    user: { name: "app", password: SECRET_MARK },
  },
  "krcloud:dataquery:DataSource": { name: "valid_ds", type: "MYSQL", instanceId: "db-1", username: "reader", password: SECRET_MARK },
  "krcloud:dataquery:Query": { query: "select 1", bucketName: "valid-bucket", path: "reports" },
  "krcloud:hadoop:Cluster": {
    name: "valid-hadoop",
    clusterVersion: "HDE-2.0.0",
    clusterType: "hadoop",
    keypairName: "kp",
    masterFlavorName: "m2a.xlarge",
    workerFlavorName: "m2a.xlarge",
    workerCnt: 3,
    vpcId: "vpc-1",
    subnetId: "subnet-a",
    adminPassword: SECRET_MARK,
    metastore: { mysql: { objectId: "db-1", dbName: "hive", userId: "hive", password: SECRET_MARK } },
  },
  "krcloud:kms:Ciphertext": { keyId: "key-1", plaintext: SECRET_MARK },
  "krcloud:kms:DataKey": { keyId: "key-1" },
};
