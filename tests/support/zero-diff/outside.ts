/**
 * Resources of the zero-diff suite made outside Pulumi, through the client (re-exported by
 * index.ts), for a stack to take over: adopted by the dynamic-class program, imported by the
 * native plugin's.
 */
import { CacheClient } from "../../../client/cache";
import { resolveSettings, systemClock, waitFor as sdkWaitFor, type Settings } from "../../../client/core";
import { DataQueryClient } from "../../../client/dataquery";
import { HadoopClient } from "../../../client/hadoop";
import { ObjectStorageClient } from "../../../client/objectstorage";
import { waitBackupAvailable } from "../../../provider/cache/backups";
import { waitClusterSettled, waitInstanceSetSettled } from "../../../provider/cache/waiters";
import { canonicalConfig } from "../../../provider/hadoop/cluster";
import type { CloudProject } from "../../harness/engine";
import { CLUSTER_GROUP, FLAVOR, STANDALONE_GROUP, VERSION, type CloudFixture, type SecretValues, type SpecResource } from "./spec";

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
 * Makes resources outside Pulumi, through the client, as a console user or a script would (not through
 * the provider), each waited for until settled. Two sets:
 *
 * - `plain`: every input the cloud answers back. A bucket with an ACL and metadata, its CORS policy
 *   and lifecycle configuration; a parameter group; a cluster and an instance set without a user, and
 *   a backup of the cluster;
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
      // A create never overwrites an object this stack did not upload: adopt says to.
      adopt: { adopt: true },
    });
  }

  const user = (name: string, password: string) => (secret ? { user: { name, password } } : {});
  // The cluster's and the instance set's subnets, one primary with one replica, and security group.
  const network = {
    subnets: [{ id: "sn-a" }, { id: "sn-b" }],
    subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] }],
    securityGroups: [{ id: "sg-1" }],
  };
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
    ...network,
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
    ...network,
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
    // A backup of that cluster, on demand, as takeBackup or a console would take it.
    const backupName = `${tag}-bk`;
    const { id: backupId } = await cache.backups.create({ clusterId: cl.id, name: backupName });
    await waitBackupAvailable(ctx, cache, backupId, `backup ${backupName}`, settled.timeoutMs);
    out.push({
      name: n("backup"),
      type: "krcloud:cache:Backup",
      importId: backupId,
      properties: { clusterId: cl.id, name: backupName },
      adopt: { adopt: true },
    });
  }

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

/** Until `state` reads `target`, through the client's own waiter (jittered backoff between polls). */
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
