/**
 * Any mix of the 13 resource types, picked by config, so one program serves every reliability
 * engine test (tests/engine/reliability-*.test.ts):
 *
 * - `res`: comma-separated kinds to declare: bucket, cors, lifecycle, object, pg, cluster, shard,
 *   iset, ds, query, hadoop, cipher, datakey (cors, lifecycle and object need a bucket; shard a
 *   cluster; query a ds);
 * - `copies`: how many of each (default 1), for load;
 * - `keyId`, `instanceId`, `resultBucket`: what the local cloud's setup made for the project;
 * - `createTimeout`: the `timeouts.create` of the resources that wait;
 * - `sql`: the query's SQL; `desc`: the data source's description (a change replaces it);
 * - `shards`: the cache cluster's shard count (default 1), placed in sn-a, sn-b, sn-c in turn.
 *
 * Names are generated (deterministic per stack and logical name), as most programs leave them.
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
const kinds = new Set((config.get("res") ?? "bucket").split(",").map((s) => s.trim()));
const copies = config.getNumber("copies") ?? 1;
const createTimeout = config.get("createTimeout");
const timeouts = createTimeout ? { create: createTimeout } : undefined;
const subnets = ["sn-a", "sn-b", "sn-c"];

export const ids: Record<string, pulumi.Output<string>> = {};

for (let i = 1; i <= copies; i++) {
  const n = copies === 1 ? "" : `-${i}`;
  const bucket = kinds.has("bucket") ? new krcloud.objectstorage.Bucket(`site${n}`, { forceDestroy: true }) : undefined;
  if (bucket) ids[`site${n}`] = bucket.id;
  if (bucket && kinds.has("cors")) {
    ids[`cors${n}`] = new krcloud.objectstorage.BucketCors(`cors${n}`, {
      bucket: bucket.name,
      rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"] }],
    }).id;
  }
  if (bucket && kinds.has("lifecycle")) {
    ids[`lifecycle${n}`] = new krcloud.objectstorage.BucketLifecycle(`lifecycle${n}`, {
      bucket: bucket.name,
      rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 30 }],
    }).id;
  }
  if (bucket && kinds.has("object")) {
    ids[`object${n}`] = new krcloud.objectstorage.BucketObject(`object${n}`, { bucket: bucket.name, key: "index.html", content: "<h1>hello</h1>\n" }).id;
  }
  if (kinds.has("pg")) {
    ids[`pg${n}`] = new krcloud.cache.ParameterGroup(`pg${n}`, {
      baseParameterGroupId: "default.redis7.0.cluster",
      parameters: { "maxmemory-policy": "allkeys-lru" },
    }).id;
  }
  const cluster = kinds.has("cluster")
    ? new krcloud.cache.Cluster(`cluster${n}`, {
        version: "7.0.15",
        flavorId: "redis.small",
        parameterGroupId: "default.redis7.0.cluster",
        subnetIds: subnets,
        securityGroupIds: ["sg-1"],
        shards: Array.from({ length: config.getNumber("shards") ?? 1 }, (_, j) => ({
          primarySubnetId: subnets[j % 3]!,
          replicaSubnetIds: [subnets[(j + 1) % 3]!],
        })),
        timeouts,
      })
    : undefined;
  if (cluster) ids[`cluster${n}`] = cluster.id;
  if (cluster && kinds.has("shard")) {
    ids[`shard${n}`] = new krcloud.cache.Shard(`shard${n}`, { clusterId: cluster.id, primarySubnetId: "sn-b", replicaSubnetIds: [], timeouts }).id;
  }
  if (kinds.has("iset")) {
    ids[`iset${n}`] = new krcloud.cache.InstanceSet(`iset${n}`, {
      ...fixtures.instanceSet,
      timeouts,
    }).id;
  }
  const ds = kinds.has("ds")
    ? new krcloud.dataquery.DataSource(`ds${n}`, {
        type: "MYSQL",
        instanceId: config.require("instanceId"),
        username: "reader",
        password: "Pw-faults-1",
        description: config.get("desc"),
      })
    : undefined;
  if (ds) ids[`ds${n}`] = ds.id;
  if (ds && kinds.has("query")) {
    ids[`query${n}`] = new krcloud.dataquery.Query(`query${n}`, {
      query: config.get("sql") ?? "select region, sum(amount) as total from orders group by region order by region",
      dataSource: ds.name,
      database: "shop",
      bucketName: config.require("resultBucket"),
      path: "reports",
      timeouts,
    }).id;
  }
  if (kinds.has("hadoop")) {
    ids[`hadoop${n}`] = new krcloud.hadoop.Cluster(`hadoop${n}`, {
      ...fixtures.hadoopCluster,
      adminPassword: "Adm1n-Pw!",
      timeouts,
    }).id;
  }
  if (kinds.has("cipher")) ids[`cipher${n}`] = new krcloud.kms.Ciphertext(`cipher${n}`, { keyId: config.require("keyId"), plaintext: "faults-plaintext" }).id;
  if (kinds.has("datakey")) ids[`datakey${n}`] = new krcloud.kms.DataKey(`datakey${n}`, { keyId: config.require("keyId") }).id;
}
