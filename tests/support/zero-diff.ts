/**
 * The zero-diff suite's programs, described once and served by both front doors: a spec (every
 * krcloud resource type with its inputs) is written as `spec.json` for the dynamic-class program
 * (tests/programs/zero-diff/index.js) and rendered as a Pulumi YAML program for the native plugin.
 * Two variants: `baseSpec` (minimal inputs, auto-names) and `variedSpec` (every optional property
 * set once where the local cloud can honour it, unicode in descriptions and contents, empty lists
 * and maps, lists and map keys out of order). `makeOutside` makes resources outside Pulumi
 * (through the SDK), to adopt (dynamic classes) or import (native plugin) them.
 *
 * Secret inputs carry distinctive values (`secretValues`), so the secrets scan can look for them.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { CacheClient } from "../../sdk/cache";
import { resolveSettings, systemClock, waitFor as sdkWaitFor, type Settings } from "../../sdk/core";
import { DataQueryClient } from "../../sdk/dataquery";
import { HadoopClient } from "../../sdk/hadoop";
import { ObjectStorageClient } from "../../sdk/objectstorage";
import { waitClusterSettled, waitInstanceSetSettled } from "../../provider/cache/waiters";
import { canonicalConfig } from "../../provider/hadoop/cluster";
import { eventCollector, logicalName, type CloudProject } from "./engine";

// ---------------------------------------------------------------------------------------------
// Specs

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

const VERSION = "7.0.15";
const FLAVOR = "redis.small";
const CLUSTER_GROUP = "default.redis7.0.cluster";
const STANDALONE_GROUP = "default.redis7.0.standalone";

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

// ---------------------------------------------------------------------------------------------
// Resources made outside Pulumi

export interface OutsideResource {
  /** Logical name the program declares it under. */
  name: string;
  type: string;
  /** The id `pulumi import` takes. */
  importId: string;
  /** What the program declares: the values it was made with. */
  properties: Record<string, unknown>;
  /**
   * How a dynamic-class program takes it over (`adopt: true`, a shard's `adoptShardId`; `{}` for an
   * object, whose create writes it whole); absent: it cannot be taken over (a query's create runs it).
   */
  adopt?: Record<string, unknown>;
}

export function sdkSettings(p: CloudProject): Settings {
  return resolveSettings(
    { localCloudUrl: p.cloud.url, projectId: p.projectId, authToken: p.token, credentialId: p.credentialId, credentialSecret: p.credentialSecret },
    () => undefined,
    {},
  );
}

/** Where the outside resources go in the stack that takes them over. */
export interface StackTargets {
  /** A cluster of the stack: a shard is added to it (a Cluster resource leaves shards it did not add alone). */
  clusterId: string;
  /** A bucket of the stack destroyed with what it holds (`forceDestroy`): query results and an object go there. */
  resultsBucket: string;
}

/**
 * Makes resources outside Pulumi, through the SDK, as a console user or a script would (not through
 * the provider), each waited for until settled. Two sets:
 *
 * - `plain`: every input the cloud answers back. A bucket with an ACL and metadata, its CORS policy
 *   and lifecycle configuration; a parameter group; a cluster and an instance set without a user;
 *   a shard added to the stack's cluster; a query run; a Hadoop cluster with configuration but no
 *   passwords.
 * - `secret`: with inputs the cloud never answers back (write-only): an object with inline content,
 *   a cluster and an instance set with a user (and its password), a data source (its instance,
 *   user, password), a Hadoop cluster with admin and metastore passwords.
 *
 * KMS ciphertexts and data keys leave no record in the cloud: there is nothing to adopt or import.
 */
export async function makeOutside(
  set: "plain" | "secret",
  p: CloudProject,
  fx: CloudFixture,
  s: SecretValues,
  tag: string,
  stack: StackTargets,
): Promise<OutsideResource[]> {
  const settings = sdkSettings(p);
  const os = new ObjectStorageClient({ settings });
  const cache = new CacheClient({ settings });
  const dq = new DataQueryClient({ settings });
  const hadoop = new HadoopClient({ settings });
  const out: OutsideResource[] = [];
  const n = (x: string) => `${set === "plain" ? "zo" : "zs"}-${x}`;
  const secret = set === "secret";
  // Settled as the provider means it: every shard and node Running (an import reads the topology).
  const ctx = { settings, progress: () => undefined, clock: systemClock };
  const settled = { timeoutMs: 120_000 };

  if (!secret) {
    const bucket = `${tag}-outside`;
    await os.createBucket({ name: bucket });
    await os.updateBucketAcl(bucket, { public: "read-only" });
    await os.updateContainerMetadata(bucket, { team: "ops" }, []);
    out.push({
      name: n("bucket"),
      type: "krcloud:objectstorage:Bucket",
      importId: bucket,
      properties: { name: bucket, acl: { public: "read-only" }, metadata: { team: "ops" } },
      adopt: { adopt: true },
    });
    const cors = [{ allowedOrigins: ["https://outside.example.com"], allowedMethods: ["GET" as const, "PUT" as const], maxAgeSeconds: 600 }];
    await os.putCors(bucket, cors);
    out.push({ name: n("cors"), type: "krcloud:objectstorage:BucketCors", importId: bucket, properties: { bucket, rules: cors }, adopt: { adopt: true } });
    await os.putLifecycle(bucket, [{ id: "outside", prefix: "old/", status: "Enabled", days: 7 }]);
    out.push({
      name: n("lifecycle"),
      type: "krcloud:objectstorage:BucketLifecycle",
      importId: bucket,
      properties: { bucket, rules: [{ id: "outside", prefix: "old/", status: "Enabled", expirationDays: 7 }] },
      adopt: { adopt: true },
    });

    const groupName = `${tag}-params`;
    const { id: groupId } = await cache.parameterGroups.create({ parameterGroupId: CLUSTER_GROUP, name: groupName, description: "made outside" });
    await cache.parameterGroups.modify(groupId, { parameters: { timeout: "120" }, applyMode: "sequential" });
    out.push({
      name: n("params"),
      type: "krcloud:cache:ParameterGroup",
      importId: groupId,
      properties: { name: groupName, baseParameterGroupId: CLUSTER_GROUP, description: "made outside", parameters: { timeout: "120" } },
      adopt: { adopt: true },
    });
  } else {
    await os.putObject(stack.resultsBucket, "outside.txt", "made outside Pulumi\n", { contentType: "text/plain" });
    out.push({
      name: n("object"),
      type: "krcloud:objectstorage:BucketObject",
      importId: `${stack.resultsBucket}/outside.txt`,
      properties: { bucket: stack.resultsBucket, key: "outside.txt", content: "made outside Pulumi\n", contentType: "text/plain" },
      // An object has no adopt: a create writes it whole, whatever was there.
      adopt: {},
    });
  }

  const user = (name: string, password: string) => (secret ? { user: { name, password } } : {});
  const clusterName = `${tag}-cl`;
  const cl = await cache.clusters.create({
    name: clusterName,
    description: "made outside",
    version: VERSION,
    port: 6379,
    shardCount: 1,
    nodeCountPerShard: 2,
    flavorId: FLAVOR,
    parameterGroupId: CLUSTER_GROUP,
    subnets: [{ id: "sn-a" }, { id: "sn-b" }],
    subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] }],
    securityGroups: [{ id: "sg-1" }],
    ...user("outsider", s.cacheClusterPassword),
  });
  out.push({
    name: n("cluster"),
    type: "krcloud:cache:Cluster",
    importId: cl.id,
    properties: {
      name: clusterName,
      description: "made outside",
      version: VERSION,
      flavorId: FLAVOR,
      parameterGroupId: CLUSTER_GROUP,
      subnetIds: ["sn-a", "sn-b"],
      securityGroupIds: ["sg-1"],
      shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] }],
      ...user("outsider", s.cacheClusterPassword),
    },
    adopt: { adopt: true },
  });

  const setName = `${tag}-is`;
  const is = await cache.instanceSets.create({
    instanceSetName: setName,
    description: "made outside",
    replicas: 2,
    flavorId: FLAVOR,
    recoveryEnabled: false,
    subnets: [{ id: "sn-a" }, { id: "sn-b" }],
    subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] }],
    securityGroups: [{ id: "sg-1" }],
    parameterGroupId: STANDALONE_GROUP,
    port: 6379,
    version: VERSION,
    ...user("outsider", s.instanceSetPassword),
  });
  out.push({
    name: n("iset"),
    type: "krcloud:cache:InstanceSet",
    importId: is.id,
    properties: {
      name: setName,
      description: "made outside",
      version: VERSION,
      flavorId: FLAVOR,
      parameterGroupId: STANDALONE_GROUP,
      subnetIds: ["sn-a", "sn-b"],
      securityGroupIds: ["sg-1"],
      primarySubnetId: "sn-a",
      replicaSubnetIds: ["sn-b"],
      ...user("outsider", s.instanceSetPassword),
    },
    adopt: { adopt: true },
  });
  await waitClusterSettled(ctx, cache, cl.id, `cache cluster ${cl.id}`, settled);
  await waitInstanceSetSettled(ctx, cache, is.id, `cache instance set ${is.id}`, settled);

  if (!secret) {
    await waitClusterSettled(ctx, cache, stack.clusterId, `cache cluster ${stack.clusterId}`, settled);
    const shard = await cache.shards.add(stack.clusterId, { nodeCount: 1, subnetAssignment: { primary: { id: "sn-a" }, replicas: [] } });
    await waitClusterSettled(ctx, cache, stack.clusterId, `cache cluster ${stack.clusterId} adding shard ${shard.id}`, settled);
    out.push({
      name: n("shard"),
      type: "krcloud:cache:Shard",
      importId: `${stack.clusterId}/${shard.id}`,
      properties: { clusterId: stack.clusterId, primarySubnetId: "sn-a" },
      adopt: { adoptShardId: shard.id },
    });

    const sql = "select 42 as answer";
    const q = await dq.runQuery({ query: sql, bucketName: stack.resultsBucket, path: "outside" });
    await waitFor(`data query ${q.queryId}`, async () => (await dq.findQuery(q.queryId))?.queryInfo.state, "FINISHED");
    // A query has no adopt: a create runs it again.
    out.push({
      name: n("query"),
      type: "krcloud:dataquery:Query",
      importId: q.queryId,
      properties: { query: sql, bucketName: stack.resultsBucket, path: "outside" },
    });
  } else {
    const dsName = `${tag}_source`;
    await dq.createDataSource({
      type: "MYSQL",
      name: dsName,
      scope: "PRIVATE",
      description: "made outside",
      instanceId: fx.mysqlInstance,
      username: "reader",
      password: s.dataSourcePassword,
    });
    out.push({
      name: n("ds"),
      type: "krcloud:dataquery:DataSource",
      importId: dsName,
      properties: {
        name: dsName,
        type: "MYSQL",
        description: "made outside",
        instanceId: fx.mysqlInstance,
        username: "reader",
        password: s.dataSourcePassword,
      },
      adopt: { adopt: true },
    });
  }

  const hadoopName = `${tag}-hadoop`;
  const configurations = [{ classification: "core-site", properties: { "io.file.buffer.size": "65536" } }];
  const h = await hadoop.createCluster({
    name: hadoopName,
    clusterVersion: "HDE-2.0.1",
    clusterType: "hadoop",
    isHa: false,
    keypairName: "kp-outside",
    masterFlavorName: "m2a.xlarge",
    workerFlavorName: "m2a.xlarge",
    masterVolumeSize: 100,
    workerVolumeSize: 100,
    workerCnt: 2,
    monitoring: false,
    vpcId: "vpc-outside",
    subnetId: "sn-outside",
    adminInfo: { userId: "hue-admin", ...(secret ? { userPw: s.hadoopAdminPassword } : {}) },
    config: { hdfsReplication: 2, hdfsBlockSize: 128, configText: canonicalConfig(configurations) },
    ...(secret ? { hiveMetastoreInfo: { mySqlInfo: { objectId: fx.mysqlInstance, dbName: "hive", userId: "hive", userPw: s.metastorePassword } } } : {}),
  });
  await waitFor(`Hadoop cluster ${h.id}`, async () => (await hadoop.getCluster(h.id)).status, "Running");
  out.push({
    name: n("hadoop"),
    type: "krcloud:hadoop:Cluster",
    importId: h.id,
    properties: {
      name: hadoopName,
      clusterVersion: "HDE-2.0.1",
      clusterType: "hadoop",
      keypairName: "kp-outside",
      masterFlavorName: "m2a.xlarge",
      workerFlavorName: "m2a.xlarge",
      workerCnt: 2,
      vpcId: "vpc-outside",
      subnetId: "sn-outside",
      adminUserId: "hue-admin",
      hdfsReplication: 2,
      configurations,
      ...(secret
        ? {
            adminPassword: s.hadoopAdminPassword,
            metastore: { mysql: { objectId: fx.mysqlInstance, dbName: "hive", userId: "hive", password: s.metastorePassword } },
          }
        : {}),
    },
    adopt: { adopt: true },
  });
  return out;
}

/** Until `state` reads `target`, through the SDK's own waiter (jittered backoff between polls). */
async function waitFor(what: string, state: () => Promise<string | undefined>, target: string, timeoutMs = 120_000): Promise<void> {
  await sdkWaitFor({ resource: what, status: state, stateOf: (s) => s, target: [target], timeoutMs, minDelayMs: 100, maxDelayMs: 1_000 });
}

/** The outside resources as a dynamic-class program declares them to adopt them (`adopt`), or as imported (not adoptable). */
export function adoptingSpec(outside: readonly OutsideResource[]): SpecResource[] {
  return outside.filter((o) => o.adopt !== undefined).map((o) => ({ name: o.name, type: o.type, properties: { ...o.properties, ...o.adopt } }));
}

/** `pulumi import --file` input for the outside resources. */
export function importFile(outside: readonly OutsideResource[]): { resources: { type: string; name: string; id: string }[] } {
  return { resources: outside.map((o) => ({ type: o.type, name: o.name, id: o.importId })) };
}

// ---------------------------------------------------------------------------------------------
// Checks

export interface StepSummary {
  name: string;
  type: string;
  op: string;
  /** Input keys whose recorded and new values differ, with both values. */
  changed: string[];
}

/** The steps of a run that are not `same` (nor a refresh's `refresh`), with the input keys that differ. */
export function changes(events: readonly EngineEvent[]): StepSummary[] {
  const out: StepSummary[] = [];
  for (const e of events) {
    const m = e.resourcePreEvent?.metadata;
    if (!m || m.op === "same" || m.op === "refresh" || m.type === "pulumi:pulumi:Stack" || m.type.startsWith("pulumi:providers:")) continue;
    // The providers diff the recorded outputs against the new inputs (a dynamic provider reports no
    // per-property diff): show the input keys where those differ, with both values.
    const olds = m.old?.outputs ?? m.old?.inputs ?? {};
    const news = m.new?.inputs ?? {};
    const keys = m.detailedDiff ? Object.keys(m.detailedDiff) : (m.diffs ?? []);
    const changed = (keys.length > 0 ? keys : Object.keys(news).filter((k) => !k.startsWith("__") && JSON.stringify(olds[k]) !== JSON.stringify(news[k]))).map(
      (k) => `${k}: ${JSON.stringify(olds[k])?.slice(0, 300)} => ${JSON.stringify(news[k])?.slice(0, 300)}`,
    );
    out.push({ name: logicalName(m.urn), type: m.type, op: m.op, changed });
  }
  return out;
}

/**
 * `pulumi preview --expect-no-changes`, through the Automation API: resolves to the number of
 * resources previewed (excluding the stack and providers) when no resource would change; otherwise
 * fails naming every step and the properties that differ.
 */
export async function previewNoChanges(stack: Stack, label: string): Promise<number> {
  const { events, onEvent } = eventCollector();
  let failure: unknown;
  try {
    await stack.preview({ color: "never", expectNoChanges: true, onEvent });
  } catch (e) {
    failure = e;
  }
  const steps = changes(events);
  const seen = new Set(
    events
      .map((e) => e.resourcePreEvent?.metadata)
      .filter((m) => m && m.type !== "pulumi:pulumi:Stack" && !m.type.startsWith("pulumi:providers:"))
      .map((m) => m!.urn),
  );
  if (steps.length > 0 || failure !== undefined) {
    const detail = steps.map((s) => `${s.name} (${s.type}): ${s.op} [${s.changed.join(", ")}]`).join("\n  ");
    throw new Error(
      `${label}: preview --expect-no-changes found changes:\n  ${detail || "(no step events)"}\n${failure ? String((failure as Error).message ?? failure).slice(0, 4000) : ""}`,
    );
  }
  return seen.size;
}
