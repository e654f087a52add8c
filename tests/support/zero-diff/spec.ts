/**
 * The zero-diff suite's specs and their rendering (re-exported by index.ts): every krcloud
 * resource type with its inputs, minimal (`baseSpec`) or with every optional property set once
 * (`variedSpec`), what they need in the local cloud (`prepareCloud`), the distinctive secret values
 * they carry (`secretValues`), written as `spec.json` for the dynamic-class program or as a Pulumi
 * YAML program for the native plugin.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CloudProject } from "../engine";

export interface SpecResource {
  /** Logical name. */
  name: string;
  /** The krcloud token. */
  type: string;
  /** Inputs; `${name.prop}` strings are references, `{"fn::fileAsset": p}` / `{"fn::stringAsset": t}` assets. */
  properties: Record<string, unknown>;
  options?: { dependsOn?: string[] };
}

export interface Spec {
  resources: SpecResource[];
}

/** Every resource type the suite covers: the 13 of the package. */
export const ALL_TYPES = [
  "krcloud:objectstorage:Bucket",
  "krcloud:objectstorage:BucketCors",
  "krcloud:objectstorage:BucketLifecycle",
  "krcloud:objectstorage:BucketObject",
  "krcloud:cache:ParameterGroup",
  "krcloud:cache:Cluster",
  "krcloud:cache:Shard",
  "krcloud:cache:InstanceSet",
  "krcloud:dataquery:DataSource",
  "krcloud:dataquery:Query",
  "krcloud:hadoop:Cluster",
  "krcloud:kms:Ciphertext",
  "krcloud:kms:DataKey",
] as const;

/** The distinctive value of every secret-bearing input (and where it goes). */
export interface SecretValues {
  cacheClusterPassword: string;
  instanceSetPassword: string;
  dataSourcePassword: string;
  hadoopAdminPassword: string;
  metastorePassword: string;
  kmsPlaintext: string;
}

/**
 * Values no other text of a run contains by chance, each with characters that URL-encoding and
 * Base64 change (`/`, `+`, a space, a non-ASCII letter), so the three forms of each differ.
 */
export function secretValues(label: string): SecretValues {
  const v = (what: string) => `zdS/${label}-${what}+${randomBytes(9).toString("hex")} é`;
  return {
    cacheClusterPassword: v("cluster-pw"),
    instanceSetPassword: v("iset-pw"),
    dataSourcePassword: v("ds-pw"),
    hadoopAdminPassword: v("hadoop-admin"),
    metastorePassword: v("metastore-pw"),
    kmsPlaintext: v("kms-plain"),
  };
}

/** What a spec needs in the local cloud (made through the control API, as a real project has them). */
export interface CloudFixture {
  keyId: string;
  /** A MySQL database instance (data source base variant). */
  mysqlInstance: string;
  /** A PostgreSQL database instance with database `analytics` holding `orders` (varied variant). */
  pgInstance: string;
}

export async function prepareCloud(p: CloudProject): Promise<CloudFixture> {
  const fx: CloudFixture = {
    keyId: `zd-key-${p.projectId.slice(-6)}`,
    mysqlInstance: `zd-mysql-${p.projectId.slice(-6)}`,
    pgInstance: `zd-pg-${p.projectId.slice(-6)}`,
  };
  await p.control.patchResource("kms", "key", fx.keyId, { projectId: p.projectId, type: "symmetric" });
  const orders = "CREATE TABLE orders(id INTEGER, region VARCHAR, amount INTEGER); INSERT INTO orders VALUES (1, 'kr-central', 120), (2, 'jp-east', 60);";
  await p.control.patchResource("data-query", "instance", fx.mysqlInstance, { projectId: p.projectId, engine: "mysql", databases: { shop: orders } });
  await p.control.patchResource("data-query", "instance", fx.pgInstance, { projectId: p.projectId, engine: "postgresql", databases: { analytics: orders } });
  return fx;
}

/** The cache engine version, flavor and parameter groups of the specs and of the resources made outside Pulumi. */
export const VERSION = "7.0.15";
export const FLAVOR = "redis.small";
export const CLUSTER_GROUP = "default.redis7.0.cluster";
export const STANDALONE_GROUP = "default.redis7.0.standalone";

/**
 * Every type with minimal inputs: auto-named where a name may be omitted, defaults everywhere.
 * `p` prefixes the logical names (one stack may hold more than one spec).
 */
export function baseSpec(fx: CloudFixture, s: SecretValues, p = "zd"): Spec {
  const ref = (name: string, prop: string) => `\${${p}-${name}.${prop}}`;
  const r = (name: string, type: string, properties: Record<string, unknown>, options?: SpecResource["options"]): SpecResource => ({
    name: `${p}-${name}`,
    type,
    properties,
    ...(options ? { options } : {}),
  });
  return {
    resources: [
      r("bucket", "krcloud:objectstorage:Bucket", {}),
      // Query results land here: it is not empty when destroyed.
      r("results", "krcloud:objectstorage:Bucket", { forceDestroy: true }),
      r("cors", "krcloud:objectstorage:BucketCors", {
        bucket: ref("bucket", "name"),
        rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"] }],
      }),
      r("lifecycle", "krcloud:objectstorage:BucketLifecycle", {
        bucket: ref("bucket", "name"),
        rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 30 }],
      }),
      r("object", "krcloud:objectstorage:BucketObject", { bucket: ref("bucket", "name"), key: "hello.txt", content: "hello\n" }),
      r("params", "krcloud:cache:ParameterGroup", { baseParameterGroupId: CLUSTER_GROUP }),
      r("cluster", "krcloud:cache:Cluster", {
        version: VERSION,
        flavorId: FLAVOR,
        parameterGroupId: ref("params", "id"),
        subnetIds: ["sn-a"],
        securityGroupIds: ["sg-1"],
        shards: [{ primarySubnetId: "sn-a" }],
        user: { name: "app", password: s.cacheClusterPassword },
      }),
      r("shard", "krcloud:cache:Shard", { clusterId: ref("cluster", "id"), primarySubnetId: "sn-a" }),
      r("iset", "krcloud:cache:InstanceSet", {
        version: VERSION,
        flavorId: FLAVOR,
        parameterGroupId: STANDALONE_GROUP,
        subnetIds: ["sn-a"],
        securityGroupIds: ["sg-1"],
        primarySubnetId: "sn-a",
        user: { name: "queue", password: s.instanceSetPassword },
      }),
      r("ds", "krcloud:dataquery:DataSource", { type: "MYSQL", instanceId: fx.mysqlInstance, username: "reader", password: s.dataSourcePassword }),
      r("query", "krcloud:dataquery:Query", { query: "select 1 as one", bucketName: ref("results", "name") }),
      r("hadoop", "krcloud:hadoop:Cluster", {
        clusterVersion: "HDE-2.0.1",
        clusterType: "hadoop",
        keypairName: "kp-zero-diff",
        masterFlavorName: "m2a.xlarge",
        workerFlavorName: "m2a.xlarge",
        workerCnt: 3,
        vpcId: "vpc-zero-diff",
        subnetId: "sn-zero-diff",
        adminPassword: s.hadoopAdminPassword,
        metastore: { mysql: { objectId: fx.mysqlInstance, dbName: "hive", userId: "hive", password: s.metastorePassword } },
      }),
      r("cipher", "krcloud:kms:Ciphertext", { keyId: fx.keyId, plaintext: s.kmsPlaintext }),
      r("datakey", "krcloud:kms:DataKey", { keyId: fx.keyId }),
    ],
  };
}

/**
 * Every type with every optional property set once where the local cloud can honour it: unicode in
 * descriptions, object keys and contents, lifecycle ids and prefixes; empty lists and maps (a
 * folder's metadata, an empty header list, empty triggers and parameters); lists and map keys in
 * an order the service may not keep (subnets, security groups, CORS methods, parameters,
 * configuration properties, triggers); a lower-case-answered version spelled in mixed case; a
 * user script with CRLF line endings. Not set, with the reason: `restoreFromBackup` and
 * `restoreFrom` (they need a backup made first: tests/local covers restores), `primaryInstanceId`
 * (it names an instance that exists only after the create, and needs high availability off),
 * `metastore.dataCatalogId` (exclusive with `metastore.mysql`, which is set).
 *
 * `tag` makes the explicit names unique (bucket names are global): a letter then at most 5 more
 * characters. Empty descriptions are not tried: the local cloud refuses them (`a non-empty string is
 * required`), although the seed does not say so and check accepts them.
 */
export function variedSpec(fx: CloudFixture, s: SecretValues, tag: string, assetFile: string, p = "zv"): Spec {
  const ref = (name: string, prop: string) => `\${${p}-${name}.${prop}}`;
  const r = (name: string, type: string, properties: Record<string, unknown>, options?: SpecResource["options"]): SpecResource => ({
    name: `${p}-${name}`,
    type,
    properties,
    ...(options ? { options } : {}),
  });
  const timeouts = { create: "20m", update: "15m", delete: "10m" };
  return {
    resources: [
      r("bucket", "krcloud:objectstorage:Bucket", {
        name: `${tag}-varied-bucket`,
        type: "STANDARD",
        encryption: { type: "managed" },
        acl: { public: "read-only", publicReadAllowIpList: ["192.168.10.0/24", "10.0.0.1", "2001:db8::/32"] },
        metadata: { zeta: "last", alpha: "first", "mixed-case-value": "Value With Spaces", empty: "" },
        forceDestroy: true,
        adopt: false,
      }),
      r("cors", "krcloud:objectstorage:BucketCors", {
        bucket: ref("bucket", "name"),
        rules: [
          {
            allowedOrigins: ["https://b.example.com", "http://localhost:8080", "https://*.example.org"],
            allowedMethods: ["PUT", "GET", "DELETE", "POST"],
            allowedHeaders: ["X-Custom-Header", "content-type"],
            exposeHeaders: [],
            maxAgeSeconds: 0,
          },
          {
            allowedOrigins: ["https://second.example.com"],
            allowedMethods: ["GET"],
            allowedHeaders: [],
            exposeHeaders: ["ETag", "X-Object-Meta-Owner"],
            maxAgeSeconds: 86400,
          },
        ],
        adopt: false,
      }),
      r("lifecycle", "krcloud:objectstorage:BucketLifecycle", {
        bucket: ref("bucket", "name"),
        rules: [
          { prefix: "", status: "Disabled", expirationDate: "2031-01-01T00:00:00.000Z" },
          { id: "임시-ünï", prefix: "tmp/ünï/", status: "Enabled", expirationDays: 1 },
          { id: "logs", prefix: "logs/", expirationDays: 365 },
        ],
        adopt: false,
      }),
      r("text", "krcloud:objectstorage:BucketObject", {
        bucket: ref("bucket", "name"),
        key: "문서/노트 ✓ (1).txt",
        content: "héllo wörld — ✓ 한국어\nsecond line\n",
        contentType: "text/plain; charset=utf-8",
        cacheControl: "max-age=60, must-revalidate",
        contentDisposition: 'attachment; filename="note.txt"',
        contentEncoding: "identity",
        metadata: { owner: "data team", empty: "" },
        multipartThreshold: 5 * 1024 * 1024,
        partSize: 6 * 1024 * 1024,
      }),
      r("binary", "krcloud:objectstorage:BucketObject", { bucket: ref("bucket", "name"), key: "bin/data.bin", contentBase64: "AAECA/+A", metadata: {} }),
      r("folder", "krcloud:objectstorage:BucketObject", {
        bucket: ref("bucket", "name"),
        key: "folder/sub",
        folder: true,
        contentType: "text/plain",
        metadata: { kind: "folder" },
      }),
      r("file", "krcloud:objectstorage:BucketObject", { bucket: ref("bucket", "name"), key: "assets/file.txt", source: { "fn::fileAsset": assetFile } }),
      r("path", "krcloud:objectstorage:BucketObject", { bucket: ref("bucket", "name"), key: "assets/path.txt", source: assetFile }),
      r("string", "krcloud:objectstorage:BucketObject", {
        bucket: ref("bucket", "name"),
        key: "assets/string.txt",
        source: { "fn::stringAsset": "a string asset ✓\n" },
        contentType: "text/plain",
      }),
      r("params", "krcloud:cache:ParameterGroup", {
        name: `${tag}-params`,
        baseParameterGroupId: CLUSTER_GROUP,
        description: "세션 파라미터 — ünïcode",
        parameters: { timeout: "300", "maxmemory-policy": "allkeys-lru", "maxmemory-samples": "7" },
        applyMode: "parallel",
        timeouts,
        adopt: false,
      }),
      r("params-empty", "krcloud:cache:ParameterGroup", { baseParameterGroupId: STANDALONE_GROUP, parameters: {} }),
      r("cluster", "krcloud:cache:Cluster", {
        name: `${tag}-cl`,
        description: "캐시 클러스터 ünï",
        version: VERSION,
        port: 6380,
        flavorId: FLAVOR,
        parameterGroupId: ref("params", "id"),
        subnetIds: ["sn-c", "sn-a", "sn-b"],
        securityGroupIds: ["sg-2", "sg-1"],
        shards: [
          { primarySubnetId: "sn-b", replicaSubnetIds: ["sn-c"] },
          { primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] },
        ],
        tlsEnabled: true,
        user: { name: "app", password: s.cacheClusterPassword },
        backupSchedule: { cron: "30 4 * * *", retentionDays: 3 },
        keepAutomaticBackups: false,
        timeouts,
        adopt: false,
      }),
      r("shard", "krcloud:cache:Shard", { clusterId: ref("cluster", "id"), primarySubnetId: "sn-c", replicaSubnetIds: ["sn-a"], timeouts }),
      r("iset", "krcloud:cache:InstanceSet", {
        name: `${tag}-is`,
        description: "인스턴스 셋 ünï",
        version: VERSION,
        port: 6390,
        flavorId: FLAVOR,
        parameterGroupId: ref("params-empty", "id"),
        subnetIds: ["sn-b", "sn-a", "sn-c"],
        securityGroupIds: ["sg-1"],
        primarySubnetId: "sn-a",
        replicaSubnetIds: ["sn-c", "sn-b"],
        highAvailability: true,
        tlsEnabled: true,
        user: { name: "queue", password: s.instanceSetPassword },
        backupSchedule: { hour: 3, retentionDays: 7 },
        keepAutomaticBackups: false,
        timeouts,
        adopt: false,
      }),
      r("ds", "krcloud:dataquery:DataSource", {
        name: `${tag}_pg_source`,
        type: "POSTGRESQL",
        scope: "PUBLIC",
        description: "포스트그레스 ünï",
        instanceId: fx.pgInstance,
        username: "analyst",
        password: s.dataSourcePassword,
        databaseName: "analytics",
        adopt: false,
      }),
      r("query", "krcloud:dataquery:Query", {
        query: "select region, sum(amount) as total from orders group by region order by region",
        dataSource: ref("ds", "name"),
        database: "analytics",
        bucketName: ref("bucket", "name"),
        path: "reports/ünï",
        reuse: { maxReuseAge: 5 },
        triggers: { zeta: "2", alpha: "1" },
        captureRows: 5,
        timeouts,
      }),
      r("hadoop", "krcloud:hadoop:Cluster", {
        name: `${tag}-hadoop`,
        clusterVersion: "Hde-2.0.1",
        clusterType: "custom",
        installComponents: ["spark", "hive", "tez"],
        isHa: true,
        keypairName: "kp-zero-diff",
        masterFlavorName: "m2a.xlarge",
        workerFlavorName: "m2a.2xlarge",
        masterVolumeSize: 200,
        workerVolumeSize: 300,
        workerCnt: 2,
        monitoring: true,
        securityGroupIds: ["sg-h2", "sg-h1"],
        vpcId: "vpc-zero-diff",
        subnetId: "sn-zero-diff",
        adminUserId: "admin",
        adminPassword: s.hadoopAdminPassword,
        hdfsReplication: 2,
        hdfsBlockSize: 256,
        configurations: [
          { classification: "core-site", properties: { "z.key": "1", "a.key": "ünï" } },
          { classification: "user-env:ubuntu", properties: {} },
        ],
        configFileUrl: "https://objectstorage.example/zero-diff/config.json",
        userScript: "#!/bin/bash\r\necho 'zero diff'\r\n",
        userTask: {
          type: "hive",
          terminationPolicy: "never",
          hiveQuery: "select 1",
          execOpts: "--hiveconf hive.exec.parallel=true",
          logBucketName: ref("bucket", "name"),
        },
        metastore: { mysql: { objectId: fx.mysqlInstance, dbName: "hive", userId: "hive", password: s.metastorePassword } },
        redis: { instanceSetId: ref("iset", "id"), dbIdSupersetCelery: 2, dbIdSupersetResults: 3 },
        rerun: { trigger: "first", instanceSpecs: [{ type: "WORKER", nodeCnt: 2 }], config: { hdfsReplication: 2 } },
        timeouts,
        adopt: false,
      }),
      r("cipher", "krcloud:kms:Ciphertext", { keyId: fx.keyId, plaintext: s.kmsPlaintext, aad: "context=ünï", triggers: { zeta: "2", alpha: "1" } }),
      r("datakey", "krcloud:kms:DataKey", { keyId: fx.keyId, triggers: {} }),
    ],
  };
}

export function typesOf(spec: Spec): Set<string> {
  return new Set(spec.resources.map((r) => r.type));
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** The dynamic program (tests/programs/zero-diff) reads `spec.json` beside its index.js. */
export function writeDynamicSpec(programDir: string, spec: Spec): void {
  fs.writeFileSync(path.join(programDir, "spec.json"), JSON.stringify(spec, null, 2));
}

/**
 * A Pulumi YAML program declaring the spec (Pulumi.yaml in JSON syntax, which is YAML). Secret
 * inputs stay plain values, as YAML programs write them: the plugin makes them secret.
 */
export function writeYamlProgram(dir: string, project: string, spec: Spec): void {
  fs.mkdirSync(dir, { recursive: true });
  const resources: Record<string, unknown> = {};
  for (const r of spec.resources) {
    resources[r.name] = {
      type: r.type,
      properties: r.properties,
      ...(r.options?.dependsOn ? { options: { dependsOn: r.options.dependsOn.map((n) => `\${${n}}`) } } : {}),
    };
  }
  const outputs = Object.fromEntries(spec.resources.map((r) => [r.name, `\${${r.name}.id}`]));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), JSON.stringify({ name: project, runtime: "yaml", resources, outputs }, null, 2));
}
