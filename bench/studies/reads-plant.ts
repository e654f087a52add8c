/**
 * What the reads study (studies/reads.ts) reads: N resources of every resource type, made in one
 * project of the local cloud through the clients (a create through the provider would be a write
 * of the provider, and slower), each given the id the type's read takes (a shard's
 * `<clusterId>/<shardId>`, a folder's `<bucket>/<prefix>/`, an object's `<bucket>/<key>`, a bucket
 * document's bucket name, a query's id, ...). Types a study does not know fail the run: a type added
 * to the registry must be planted here, or its figures would silently go missing.
 */
import { CacheClient } from "../../client/cache";
import type { Settings } from "../../client/core";
import { forEachLimit } from "../../client/core/concurrency";
import { DataQueryClient } from "../../client/dataquery";
import { HadoopClient } from "../../client/hadoop";
import { KmsClient } from "../../client/kms";
import { ObjectStorageClient } from "../../client/objectstorage";
import type { LocalCloud } from "../../local-cloud";
import { stableId } from "../../provider/kms/made-once";
import { smallHadoopClusterInput } from "../../tests/harness/hadoop-data";

/** How many creates are in flight at a time. */
const PARALLEL = 16;

export interface Planted {
  token: string;
  /** The service's name in the local cloud's request log (`cache`, `object-storage`, ...). */
  service: string;
  ids: string[];
}

/** The bucket that holds the planted objects, folders and the queries' results. */
const HOLDER = "reads-0";

const range = (n: number): number[] => [...Array(n).keys()];

async function each<T>(n: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(n);
  await forEachLimit(range(n), PARALLEL, async (i) => {
    out[i] = await make(i);
  });
  return out;
}

/** N of each resource type; `tokens` is every type the registry has (a type planted nowhere is an error). */
export async function plantAll(cloud: LocalCloud, settings: Settings, n: number, tokens: readonly string[]): Promise<Planted[]> {
  const planted = [...(await plantCache(cloud, settings, n)), ...(await plantObjectStorage(settings, n))];
  planted.push(...(await plantDataQuery(cloud, settings, n)), ...(await plantHadoop(settings, n)), ...(await plantKms(cloud, settings, n)));
  const missing = tokens.filter((t) => !planted.some((p) => p.token === t));
  if (missing.length > 0) throw new Error(`reads: no planting for ${missing.join(", ")} (bench/studies/reads-plant.ts)`);
  return planted.filter((p) => tokens.includes(p.token));
}

async function plantCache(cloud: LocalCloud, settings: Settings, n: number): Promise<Planted[]> {
  const cache = new CacheClient({ settings });
  const common = {
    port: 6379,
    flavorId: "redis.small",
    subnets: [{ id: "sn-a" }],
    subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [] }],
    securityGroups: [{ id: "sg" }],
    version: "7.0.15",
  };
  const clusters = await each(n, async (i) => {
    const made = await cache.clusters.create({
      ...common,
      name: `clus-${i}`,
      shardCount: 1,
      nodeCountPerShard: 1,
      parameterGroupId: "default.redis7.0.cluster",
    });
    return made.id;
  });
  const sets = await each(n, async (i) => {
    const made = await cache.instanceSets.create({
      ...common,
      instanceSetName: `iset-${i}`,
      replicas: 1,
      recoveryEnabled: false,
      parameterGroupId: "default.redis7.0.standalone",
    });
    return made.id;
  });
  const groups = await each(n, async (i) => (await cache.parameterGroups.create({ parameterGroupId: "default.redis7.0.cluster", name: `pg-${i}` })).id);
  // Settled, so that a backup may be taken and the shards are there.
  cloud.control.advanceClock({ ms: 3_600_000 });
  const backups = await each(n, async (i) => (await cache.backups.create({ clusterId: clusters[i]!, name: `back-${i}` })).id);
  // One shard per cluster (shardCount 1): its id is what Shard's read takes.
  const shards = await each(n, async (i) => {
    const [shard] = await cache.shards.list(clusters[i]!);
    if (!shard) throw new Error(`reads: cache cluster ${clusters[i]} has no shard`);
    return `${clusters[i]}/${shard.id}`;
  });
  return [
    { token: "krcloud:cache:Cluster", service: "cache", ids: clusters },
    { token: "krcloud:cache:Shard", service: "cache", ids: shards },
    { token: "krcloud:cache:InstanceSet", service: "cache", ids: sets },
    { token: "krcloud:cache:ParameterGroup", service: "cache", ids: groups },
    { token: "krcloud:cache:Backup", service: "cache", ids: backups },
  ];
}

async function plantObjectStorage(settings: Settings, n: number): Promise<Planted[]> {
  const os = new ObjectStorageClient({ settings });
  const buckets = range(n).map((i) => `reads-${i}`);
  await forEachLimit(buckets, PARALLEL, async (name) => {
    await os.createBucket({ name });
  });
  // The bucket's documents: a CORS policy and a lifecycle configuration on each bucket (their id is its name).
  await forEachLimit(buckets, PARALLEL, async (name) => {
    await os.putCors(name, [{ allowedOrigins: ["https://example.com"], allowedMethods: ["GET"] }]);
    await os.putLifecycle(name, [{ id: "expire", prefix: "tmp/", status: "Enabled", days: 30 }]);
  });
  // N objects and N folders of one file each, in one bucket (a stack's objects usually share one).
  const objects = range(n).map((i) => `obj/${i}.txt`);
  await forEachLimit(objects, PARALLEL, async (key) => {
    await os.putObject(HOLDER, key, `object ${key}`, { contentType: "text/plain" });
  });
  const folders = range(n).map((i) => `site-${i}/`);
  await forEachLimit(folders, PARALLEL, async (prefix) => {
    await os.putObject(HOLDER, `${prefix}index.html`, `<p>${prefix}</p>`, { contentType: "text/html" });
  });
  return [
    { token: "krcloud:objectstorage:Bucket", service: "object-storage", ids: buckets },
    { token: "krcloud:objectstorage:BucketCors", service: "object-storage", ids: buckets },
    { token: "krcloud:objectstorage:BucketLifecycle", service: "object-storage", ids: buckets },
    { token: "krcloud:objectstorage:BucketObject", service: "object-storage", ids: objects.map((k) => `${HOLDER}/${k}`) },
    { token: "krcloud:objectstorage:BucketFolder", service: "object-storage", ids: folders.map((p) => `${HOLDER}/${p}`) },
  ];
}

async function plantDataQuery(cloud: LocalCloud, settings: Settings, n: number): Promise<Planted[]> {
  const dq = new DataQueryClient({ settings });
  // The instance is made once its seed SQL ran: the control API's answer is a promise then.
  await Promise.resolve(cloud.control.patchResource("data-query", "instance", "mysql-1", { projectId: settings.projectId, engine: "mysql", databases: {} }));
  const sources = range(n).map((i) => `src_${i}`);
  await forEachLimit(sources, PARALLEL, (name) =>
    dq.createDataSource({ name, type: "MYSQL", scope: "PRIVATE", instanceId: "mysql-1", username: "reader", password: "s3cret-Pw" }),
  );
  // Results go to the holder bucket (made by plantObjectStorage, which runs first).
  const queries = await each(n, async (i) => (await dq.runQuery({ query: `select ${i} as n`, bucketName: HOLDER, path: "results" })).queryId);
  return [
    { token: "krcloud:dataquery:DataSource", service: "data-query", ids: sources },
    { token: "krcloud:dataquery:Query", service: "data-query", ids: queries },
  ];
}

async function plantHadoop(settings: Settings, n: number): Promise<Planted[]> {
  const hadoop = new HadoopClient({ settings });
  const ids = await each(
    n,
    async (i) => (await hadoop.createCluster(smallHadoopClusterInput(`hdp-${i}`, { keypairName: "kp", vpcId: "vpc-1", subnetId: "sn-1" }))).id,
  );
  return [{ token: "krcloud:hadoop:Cluster", service: "hadoop", ids }];
}

/** Made once: the cloud keeps nothing of them, so their ids are the ones create gives (a digest of the ciphertext). */
async function plantKms(cloud: LocalCloud, settings: Settings, n: number): Promise<Planted[]> {
  const kms = new KmsClient({ settings });
  cloud.control.patchResource("kms", "key", "reads-key", { projectId: settings.projectId, type: "symmetric" });
  const ciphertexts = await each(n, async (i) => stableId((await kms.encrypt("reads-key", { input: `secret ${i}` })).ciphertext));
  const dataKeys = await each(n, async () => stableId((await kms.generateDataKey("reads-key")).ciphertext));
  return [
    { token: "krcloud:kms:Ciphertext", service: "kms", ids: ciphertexts },
    { token: "krcloud:kms:DataKey", service: "kms", ids: dataKeys },
  ];
}
