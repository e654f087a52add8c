/**
 * A small data pipeline:
 *   - a bucket for query results and job logs,
 *   - a MySQL data source (its password a secret, Base64 on the wire, encrypted in state),
 *   - a query that runs once (and again only when its SQL changes), its CSV in the bucket,
 *   - the database password encrypted with a KMS key, to hand to other systems,
 *   - a Hadoop job cluster that runs a Hive query, terminates when it succeeds (its normal end:
 *     the next `pulumi up` does not recreate it), and writes its log into the same bucket.
 *
 * Settings (stack config): krcloud:projectId, krcloud:authToken (secret), krcloud:credentialId and
 * krcloud:credentialSecret (secret), and for the local cloud krcloud:localCloudUrl. Program settings:
 * keyId (default pipeline-key), dbInstanceId (default shop-db), dbPassword (secret; a default for
 * the local cloud), keypairName (default pipeline-kp).
 */
import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud";

const config = new pulumi.Config();
const keyId = config.get("keyId") ?? "pipeline-key";
const dbInstanceId = config.get("dbInstanceId") ?? "shop-db";
const dbPassword = config.getSecret("dbPassword") ?? pulumi.secret("local-cloud-only");

const results = new krcloud.objectstorage.Bucket("pipeline", { forceDestroy: true });

const shop = new krcloud.dataquery.DataSource("shop", {
  type: "MYSQL",
  instanceId: dbInstanceId,
  username: "reporter",
  password: dbPassword,
  description: "the shop's orders",
});

const revenue = new krcloud.dataquery.Query(
  "revenue-by-region",
  {
    query: "select region, sum(amount) as revenue from orders group by region order by revenue desc",
    dataSource: shop.name,
    database: "shop",
    bucketName: results.name,
    path: "reports/revenue",
    captureRows: 10,
  },
  { dependsOn: [shop] },
);

const sealedPassword = new krcloud.kms.Ciphertext("db-password", { keyId, plaintext: dbPassword, aad: "datasource=shop" });

const nightly = new krcloud.hadoop.Cluster("nightly", {
  clusterVersion: "HDE-2.0.1",
  clusterType: "hadoop",
  keypairName: config.get("keypairName") ?? "pipeline-kp",
  masterFlavorName: "m2a.xlarge",
  workerFlavorName: "m2a.xlarge",
  workerCnt: 3,
  vpcId: "vpc-pipeline",
  subnetId: "sn-pipeline",
  configurations: [{ classification: "hive-site", properties: { "hive.exec.parallel": "true" } }],
  // Hue's admin password: a secret input, Base64 on the wire, never read back.
  adminPassword: dbPassword,
  userTask: results.name.apply((logBucketName) => ({
    type: "hive" as const,
    terminationPolicy: "onSuccess" as const,
    hiveQuery: "select count(*) from orders",
    logBucketName,
  })),
});

export const bucketName = results.name;
export const reportLocation = revenue.storageUrl;
export const revenueByRegion = revenue.rows;
export const sealedDbPassword = sealedPassword.ciphertext;
export const jobClusterStatus = nightly.status;
export const jobLog = nightly.logUrl;
