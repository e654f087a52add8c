/**
 * What the cloud holds that no given stack manages: every bucket (with its CORS policy and
 * lifecycle rules, and its objects counted), cache cluster, instance set, custom parameter group,
 * data source and Hadoop cluster of the project, listed with the SDK clients and the settings the
 * provider would resolve for the stack (its decrypted config, then the environment).
 */
import { CacheClient } from "../../sdk/cache";
import { assertCredentials, endpointOf, type Settings } from "../../sdk/core";
import { DataQueryClient } from "../../sdk/dataquery";
import { HadoopClient } from "../../sdk/hadoop";
import { ObjectStorageClient } from "../../sdk/objectstorage";
import { entryName } from "../../sdk/objectstorage/parse";

export type Service = "objectstorage" | "cache" | "dataquery" | "hadoop";

export interface CloudResource {
  /** The krcloud type token it would be managed as. */
  token: string;
  /** The id `pulumi import` and the state use (the bucket name, the cluster id, ...). */
  id: string;
  /** Its name in the cloud, for messages and logical names. */
  name: string;
  service: Service;
  /** `bucket`, `cluster`, `instance set`, ... (coverage lines). */
  kind: string;
  managed: boolean;
  /** A bucket's objects: how many there are and how many a stack manages. */
  objects?: { total: number; managed: number };
}

/** `krcloud:<module>:<Type>|<id>` of each resource the stacks hold. */
export type Tracked = ReadonlySet<string>;

export const trackedKey = (token: string, id: string): string => `${token}|${id}`;

const HADOOP_TERMINATED = /^Terminat/;

export interface Discovery {
  resources: CloudResource[];
  /** Services that could not be listed (a failure: refused, unreachable), with why. */
  errors: { service: Service; error: string }[];
  /**
   * Services the settings give no endpoint or no credentials for (a stack that uses only object
   * storage has no data query access key): not listed, which is no failure; with what to set.
   */
  skipped: { service: Service; reason: string }[];
}

/**
 * Why the settings cannot reach `service` at all (no endpoint, no credentials, no project for
 * object storage), in the words the provider would fail with; undefined when they can.
 */
export function unconfigured(settings: Settings, service: Service): string | undefined {
  if (settings.endpoints[service] === undefined) return reasonOf(() => endpointOf(settings, service));
  if (service === "objectstorage" && !settings.projectId) return "no project ID: set krcloud:projectId or KRCLOUD_PROJECT_ID";
  return reasonOf(() => assertCredentials(service, settings));
}

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Everything of the project the settings reach; `managed` says whether a stack tracks it. */
export async function discover(settings: Settings, tracked: Tracked): Promise<Discovery> {
  const resources: CloudResource[] = [];
  const errors: Discovery["errors"] = [];
  const skipped: Discovery["skipped"] = [];
  const add = (r: Omit<CloudResource, "managed">) => resources.push({ ...r, managed: tracked.has(trackedKey(r.token, r.id)) });
  const listing = async (service: Service, fn: () => Promise<void>) => {
    const reason = unconfigured(settings, service);
    if (reason !== undefined) {
      skipped.push({ service, reason });
      return;
    }
    try {
      await fn();
    } catch (e) {
      errors.push({ service, error: (e as Error)?.message ?? String(e) });
    }
  };

  await listing("objectstorage", async () => {
    const os = new ObjectStorageClient({ settings });
    for (const summary of await os.listAllBuckets()) {
      const name = summary.name;
      if (name === undefined) continue;
      const objects = (await os.listAllObjects(name)).filter((o) => o.kind === "object");
      const managed = objects.filter((o) => tracked.has(trackedKey("krcloud:objectstorage:BucketObject", `${name}/${entryName(o)}`))).length;
      add({ token: "krcloud:objectstorage:Bucket", id: name, name, service: "objectstorage", kind: "bucket", objects: { total: objects.length, managed } });
      if ((await os.getCors(name)).length > 0)
        add({ token: "krcloud:objectstorage:BucketCors", id: name, name, service: "objectstorage", kind: "CORS policy" });
      if ((await os.getLifecycle(name)) !== undefined) {
        add({ token: "krcloud:objectstorage:BucketLifecycle", id: name, name, service: "objectstorage", kind: "lifecycle configuration" });
      }
    }
  });

  await listing("cache", async () => {
    const cache = new CacheClient({ settings });
    for (const c of await cache.clusters.list()) {
      const cluster = c.clusterEnabled ?? true;
      add({
        token: cluster ? "krcloud:cache:Cluster" : "krcloud:cache:InstanceSet",
        id: c.id,
        name: c.name ?? c.id,
        service: "cache",
        kind: cluster ? "cluster" : "instance set",
      });
    }
    for (const g of await cache.parameterGroups.list({ parameterGroupType: "custom" })) {
      if (g.isDefault === true) continue;
      add({ token: "krcloud:cache:ParameterGroup", id: g.id, name: g.name ?? g.id, service: "cache", kind: "custom parameter group" });
    }
  });

  await listing("dataquery", async () => {
    const dq = new DataQueryClient({ settings });
    for (const d of await dq.listDataSources())
      add({ token: "krcloud:dataquery:DataSource", id: d.name, name: d.name, service: "dataquery", kind: "data source" });
  });

  await listing("hadoop", async () => {
    const hadoop = new HadoopClient({ settings });
    for (const c of await hadoop.listClusters()) {
      if (HADOOP_TERMINATED.test(c.status ?? "")) continue;
      add({ token: "krcloud:hadoop:Cluster", id: c.id, name: c.name ?? c.id, service: "hadoop", kind: "cluster" });
    }
  });
  return { resources, errors, skipped };
}

export interface Coverage {
  service: Service;
  kind: string;
  managed: number;
  total: number;
}

const PLURAL: Readonly<Record<string, string>> = {
  bucket: "buckets",
  "CORS policy": "CORS policies",
  "lifecycle configuration": "lifecycle configurations",
  cluster: "clusters",
  "instance set": "instance sets",
  "custom parameter group": "custom parameter groups",
  "data source": "data sources",
  object: "objects",
};

export function plural(kind: string, n: number): string {
  return n === 1 ? kind : (PLURAL[kind] ?? `${kind}s`);
}

/** Per service and kind: how many the stacks manage of how many there are (objects included). */
export function coverageOf(resources: readonly CloudResource[]): Coverage[] {
  const rows = new Map<string, Coverage>();
  const bump = (service: Service, kind: string, total: number, managed: number) => {
    const key = `${service}|${kind}`;
    const row = rows.get(key) ?? { service, kind, managed: 0, total: 0 };
    row.total += total;
    row.managed += managed;
    rows.set(key, row);
  };
  for (const r of resources) {
    bump(r.service, r.kind, 1, r.managed ? 1 : 0);
    if (r.objects) bump(r.service, "object", r.objects.total, r.objects.managed);
  }
  return [...rows.values()];
}
