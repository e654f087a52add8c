/**
 * One resource of every krcloud type, in one stack, so that krcloud-drift's drift cases run through
 * the engine together: a bucket with its CORS policy, lifecycle rules and two objects (one to be
 * deleted behind Pulumi's back), a cache parameter group, a one-shard cluster with a Shard resource
 * added to it and a backup of it, an instance set, a MySQL data source and a query on it, a Hadoop cluster, and a KMS
 * ciphertext and data key, and a folder of two files under the bucket's files/ prefix. Secrets (config `password`): a second bucket's metadata, the data
 * source's password, the Hadoop admin password and the ciphertext's plaintext.
 *
 * Needs in the local cloud (tests create them through the control API): the KMS key `drift-key`
 * and the data query instance `drift-db` with database `shop` (table `orders`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud";

const config = new pulumi.Config();
/** Inputs shared with the resources' test fixtures, written beside the program by the test harness. */
const fixtures: { hadoopCluster: Omit<krcloud.hadoop.ClusterArgs, "adminPassword">; instanceSet: krcloud.cache.InstanceSetArgs } = JSON.parse(
  fs.readFileSync(path.join(__dirname, "fixtures.json"), "utf8"),
);
const password = config.requireSecret("password");
const subnets = ["sn-a", "sn-b", "sn-c"];

const bucket = new krcloud.objectstorage.Bucket("site", { acl: { public: "read-only" }, metadata: { purpose: "drift" }, forceDestroy: true });
// A bucket whose metadata is a secret as a whole.
new krcloud.objectstorage.Bucket("vault", { metadata: password.apply((owner) => ({ owner })) });
new krcloud.objectstorage.BucketCors("site-cors", {
  bucket: bucket.name,
  rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"], maxAgeSeconds: 600 }],
});
new krcloud.objectstorage.BucketLifecycle("site-lifecycle", {
  bucket: bucket.name,
  rules: [{ id: "expire-logs", prefix: "logs/", status: "Enabled", expirationDays: 30 }],
});
new krcloud.objectstorage.BucketObject("index", { bucket: bucket.name, key: "index.html", content: "<h1>drift</h1>\n", contentType: "text/html" });
new krcloud.objectstorage.BucketObject("about", { bucket: bucket.name, key: "about.html", content: "<h1>about</h1>\n", contentType: "text/html" });
// A folder of two files, written by the program itself so that the stack needs nothing beside it.
const folder = path.join(__dirname, "site-files");
fs.mkdirSync(folder, { recursive: true });
fs.writeFileSync(path.join(folder, "a.txt"), "a\n");
fs.writeFileSync(path.join(folder, "b.txt"), "b\n");
new krcloud.objectstorage.BucketFolder("site-files", { bucket: bucket.name, path: folder, prefix: "files/" });

const params = new krcloud.cache.ParameterGroup("params", {
  baseParameterGroupId: "default.redis7.0.cluster",
  description: "drift test parameters",
  parameters: { timeout: "300" },
});
const cluster = new krcloud.cache.Cluster("sessions", {
  description: "drift test cluster",
  version: "7.0.15",
  flavorId: "redis.small",
  parameterGroupId: params.id,
  subnetIds: subnets,
  securityGroupIds: ["sg-1"],
  shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: [] }],
});
new krcloud.cache.Shard("extra-shard", { clusterId: cluster.id, primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] });
new krcloud.cache.Backup("sessions-backup", { clusterId: cluster.id });
new krcloud.cache.InstanceSet("queue", {
  description: "drift test instance set",
  ...fixtures.instanceSet,
});

const shop = new krcloud.dataquery.DataSource("shop", { type: "MYSQL", instanceId: "drift-db", username: "reporter", password, description: "orders" });
new krcloud.dataquery.Query(
  "revenue",
  { query: "select count(*) as n from orders", dataSource: shop.name, database: "shop", bucketName: bucket.name, path: "reports" },
  { dependsOn: [shop] },
);

new krcloud.hadoop.Cluster("etl", {
  ...fixtures.hadoopCluster,
  adminPassword: password,
});

new krcloud.kms.Ciphertext("sealed", { keyId: "drift-key", plaintext: password, aad: "drift" });
new krcloud.kms.DataKey("data-key", { keyId: "drift-key" });

export const bucketName = bucket.name;
export const clusterId = cluster.id;
