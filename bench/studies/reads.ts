/**
 * Fewer reads (issue 36 item 4): requests per resource of a refresh-like read of N resources of a
 * type (N = 1,000; 20 at the smoke size), with reads answered from list pages off (before:
 * `KRCLOUD_READS_FROM_LIST=off`, one read per resource) and on (after: provider/core/list-reads.ts),
 * in one run. Each read is the provider's own `read` (what `pulumi refresh` and krcloud-drift call),
 * 16 at a time as an engine with `--parallel 16` sends them; requests are the local cloud's request
 * log's count for the type's service. The types that declare `no` are measured too (Bucket): their
 * reads do not change; the others that declare `no` are listed with their reason.
 */
import { CacheClient } from "../../client/cache";
import { closeAllPools, resolveSettings, type Settings } from "../../client/core";
import { forEachLimit } from "../../client/core/concurrency";
import { DataQueryClient } from "../../client/dataquery";
import { ObjectStorageClient } from "../../client/objectstorage";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import { READS_FROM_LIST_ENV } from "../../provider/core/list-reads";
import { allDefinitions } from "../../provider/registry";
import { provider } from "../../provider/runtime";
import { sized, type Row, type Study } from "../study";

const PARALLEL = 16;

interface Planted {
  token: string;
  /** The service's name in the request log. */
  service: string;
  ids: string[];
}

export const readsStudy: Study = {
  name: "reads",
  async run(ctx) {
    const n = sized(ctx, 1_000, 20);
    const cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
    try {
      const { settings, config } = credentials(cloud);
      const planted = await plant(cloud, settings, n);
      const rows: Row[] = [];
      const measured = new Set<string>();
      for (const p of planted) {
        const before = await refresh(cloud, config, p, "off");
        const after = await refresh(cloud, config, p, "on");
        ctx.log(`reads: ${p.token}: ${before.toFixed(3)} -> ${after.toFixed(3)} requests per resource (${p.ids.length})`);
        measured.add(p.token);
        rows.push({
          figure: `refresh of ${p.ids.length} ${p.token.split(":").slice(1).join(":")}: requests per resource`,
          ours: after.toFixed(3),
          baseline: before.toFixed(3),
          ratio: after === before ? "unchanged" : after > 0 ? `${(before / after).toFixed(1)}x fewer` : "none left",
          goal: readsFromListOf(p.token) ? "fewer than 1 per resource (one walk)" : "unchanged (declares no)",
        });
      }
      const notes = allDefinitions()
        .filter((d) => !measured.has(d.token))
        .map((d) => {
          const r = d.readsFromList;
          return `${d.token}: not measured; reads from its list: ${r && "no" in r ? `no, ${r.no}` : "yes"}`;
        });
      return { rows, notes };
    } finally {
      delete process.env[READS_FROM_LIST_ENV];
      await closeAllPools();
      await cloud.close();
    }
  },
};

function readsFromListOf(token: string): boolean {
  const r = allDefinitions().find((d) => d.token === token)?.readsFromList;
  return r !== undefined && !("no" in r);
}

function credentials(cloud: LocalCloud): { settings: Settings; config: Record<string, string> } {
  const token = cloud.control.issueCredentials({});
  if (token.kind !== "token") throw new Error("expected a token");
  const key = cloud.control.issueCredentials({ projectId: token.projectId, kind: "access-key" });
  if (key.kind !== "access-key") throw new Error("expected an access key");
  const settings = resolveSettings(
    { localCloudUrl: cloud.url, authToken: token.token, projectId: token.projectId, credentialId: key.credentialId, credentialSecret: key.credentialSecret },
    () => undefined,
    {},
  );
  const config = {
    "krcloud:localCloudUrl": cloud.url,
    "krcloud:authToken": token.token,
    "krcloud:projectId": token.projectId,
    "krcloud:credentialId": key.credentialId,
    "krcloud:credentialSecret": key.credentialSecret,
  };
  return { settings, config };
}

/** N of each measured type, made through the clients (not the provider: a create is a write). */
async function plant(cloud: LocalCloud, settings: Settings, n: number): Promise<Planted[]> {
  const cache = new CacheClient({ settings });
  const common = {
    port: 6379,
    flavorId: "redis.small",
    subnets: [{ id: "sn-a" }],
    subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [] }],
    securityGroups: [{ id: "sg" }],
    version: "7.0.15",
  };
  // `n` of a kind, `PARALLEL` at a time; their ids in order.
  const made = async (make: (i: number) => Promise<{ id: string }>): Promise<string[]> => {
    const ids = new Array<string>(n);
    await forEachLimit([...Array(n).keys()], PARALLEL, async (i) => {
      ids[i] = (await make(i)).id;
    });
    return ids;
  };
  const clusters = await made((i) =>
    cache.clusters.create({ ...common, name: `clus-${i}`, shardCount: 1, nodeCountPerShard: 1, parameterGroupId: "default.redis7.0.cluster" }),
  );
  const sets = await made((i) =>
    cache.instanceSets.create({
      ...common,
      instanceSetName: `iset-${i}`,
      replicas: 1,
      recoveryEnabled: false,
      parameterGroupId: "default.redis7.0.standalone",
    }),
  );
  // Settled, so that a backup may be taken.
  cloud.control.advanceClock({ ms: 3_600_000 });
  const backups = await made((i) => cache.backups.create({ clusterId: clusters[i % clusters.length]!, name: `back-${i}` }));
  const dq = new DataQueryClient({ settings });
  const instance = await fetch(`${cloud.controlUrl}/resources/data-query/instance/mysql-1`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ projectId: settings.projectId, engine: "mysql", databases: {} }),
  });
  if (instance.status !== 200) throw new Error(`reads: the local cloud refused the database instance (${instance.status})`);
  const sources = [...Array(n).keys()].map((i) => `src_${i}`);
  await forEachLimit(sources, PARALLEL, (name) =>
    dq.createDataSource({ name, type: "MYSQL", scope: "PRIVATE", instanceId: "mysql-1", username: "reader", password: "s3cret-Pw" }),
  );
  const os = new ObjectStorageClient({ settings });
  const buckets = [...Array(n).keys()].map((i) => `reads-${i}`);
  await forEachLimit(buckets, PARALLEL, async (name) => {
    await os.createBucket({ name });
  });
  return [
    { token: "krcloud:cache:Cluster", service: "cache", ids: clusters },
    { token: "krcloud:cache:InstanceSet", service: "cache", ids: sets },
    { token: "krcloud:cache:Backup", service: "cache", ids: backups },
    { token: "krcloud:dataquery:DataSource", service: "data-query", ids: sources },
    { token: "krcloud:objectstorage:Bucket", service: "object-storage", ids: buckets },
  ];
}

/** The requests per resource of reading every one of `p`, PARALLEL at a time, through the provider's read. */
async function refresh(cloud: LocalCloud, config: Record<string, string>, p: Planted, mode: "off" | "on"): Promise<number> {
  if (mode === "off") process.env[READS_FROM_LIST_ENV] = "off";
  else delete process.env[READS_FROM_LIST_ENV];
  const prov = provider(p.token);
  await prov.configure({ config: { get: (k: string) => config[k] } } as never);
  const before = servedBy(cloud, p.service);
  let gone = 0;
  await forEachLimit(p.ids, PARALLEL, async (id) => {
    if ((await prov.read(id, {}, { progress: () => undefined })).id === "") gone++;
  });
  if (gone > 0) throw new Error(`reads: ${gone} of ${p.ids.length} ${p.token} read as gone`);
  return (servedBy(cloud, p.service) - before) / p.ids.length;
}

function servedBy(cloud: LocalCloud, service: string): number {
  let total = 0;
  for (const [k, v] of Object.entries(cloud.control.counters().byOperation)) if (k.startsWith(`${service}.`)) total += v;
  return total;
}
