/**
 * What the cloud holds that no given stack manages: every resource of the project that a type's
 * definition can list (`list`, beside the type's CRUD: buckets with their CORS policies, lifecycle
 * configurations and objects counted, cache clusters, instance sets, custom parameter groups, data
 * sources, Hadoop clusters), with the settings the provider would resolve for the stack (its
 * decrypted config, then the environment). Nothing here names a type.
 */
import { listAll, type AnyDefinition, type Context } from "../../provider/core/resource";
import { allDefinitions } from "../../provider/registry";
import { assertCredentials, endpointOf, SERVICES, systemClock, type ServiceName, type Settings } from "../../client/core";

/** A service of the project, named as its module (`objectstorage`, `cache`, ...). */
export type Service = ServiceName;

export interface CloudResource {
  /** The krcloud type token it would be managed as. */
  token: string;
  /** The id `pulumi import` and the state use (the bucket name, the cluster id, ...). */
  id: string;
  /** Its name in the cloud, for messages and logical names. */
  name: string;
  service: Service;
  /** `bucket`, `cluster`, `instance set`, ... (coverage lines): the type's `list.kind`. */
  kind: string;
  managed: boolean;
  /** A bucket's objects (what lists within it): how many there are and how many a stack manages. */
  objects?: { total: number; managed: number };
}

/** `krcloud:<module>:<Type>|<id>` of each resource the stacks hold. */
export type Tracked = ReadonlySet<string>;

export const trackedKey = (token: string, id: string): string => `${token}|${id}`;

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

const serviceOf = (token: string): string => token.split(":")[1] ?? "";

/**
 * The types --unmanaged lists, per service in the client's order of services: those with a list of
 * their own (in their service index's order), each with the types that list within it (a bucket's
 * objects), which are counted on its line.
 */
export function listedTypes(
  defs: readonly AnyDefinition[] = allDefinitions(),
): { service: Service; types: { def: AnyDefinition; within: AnyDefinition[] }[] }[] {
  const listed = defs.filter((d) => d.list !== undefined && d.list.notUnmanaged === undefined);
  return SERVICES.map((service) => ({
    service,
    types: listed
      .filter((d) => serviceOf(d.token) === service && d.list!.parent === undefined)
      .map((def) => ({ def, within: listed.filter((d) => d.list!.parent?.token === def.token) })),
  })).filter((s) => s.types.length > 0);
}

/** Everything of the project the settings reach; `managed` says whether a stack tracks it. */
export async function discover(settings: Settings, tracked: Tracked): Promise<Discovery> {
  const resources: CloudResource[] = [];
  const errors: Discovery["errors"] = [];
  const skipped: Discovery["skipped"] = [];
  const ctx: Context = { settings, progress: () => undefined, clock: systemClock };
  for (const { service, types } of listedTypes()) {
    const reason = unconfigured(settings, service);
    if (reason !== undefined) {
      skipped.push({ service, reason });
      continue;
    }
    const found: CloudResource[] = [];
    try {
      for (const { def, within } of types) {
        // By name: the cloud's own list order (creation, say) would reorder the report from run to run.
        const listed = (await listAll(def, ctx)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        for (const r of listed) {
          const row: CloudResource = {
            token: def.token,
            id: r.id,
            name: r.name,
            service,
            kind: def.list!.kind[0],
            managed: tracked.has(trackedKey(def.token, r.id)),
          };
          for (const child of within) {
            const ids = (await listAll(child, ctx, { [child.list!.parent!.input]: r.id })).map((c) => c.id);
            const objects = row.objects ?? { total: 0, managed: 0 };
            objects.total += ids.length;
            objects.managed += ids.filter((id) => tracked.has(trackedKey(child.token, id))).length;
            row.objects = objects;
          }
          found.push(row);
        }
      }
    } catch (e) {
      errors.push({ service, error: (e as Error)?.message ?? String(e) });
    }
    resources.push(...besideTheirNamesakes(found));
  }
  return { resources, errors, skipped };
}

/** A bucket's CORS policy and lifecycle configuration have its name as their id: each is listed right after it. */
function besideTheirNamesakes(found: readonly CloudResource[]): CloudResource[] {
  const first = new Map<string, number>();
  found.forEach((r, i) => first.set(r.id, first.get(r.id) ?? i));
  return found
    .map((r, i) => ({ r, i }))
    .sort((a, b) => first.get(a.r.id)! - first.get(b.r.id)! || a.i - b.i)
    .map(({ r }) => r);
}

export interface Coverage {
  service: Service;
  kind: string;
  managed: number;
  total: number;
}

/** `kind` (a type's `list.kind`, singular) for `n` of them. */
export function plural(kind: string, n: number): string {
  if (n === 1) return kind;
  return allDefinitions().find((d) => d.list?.kind[0] === kind)?.list?.kind[1] ?? `${kind}s`;
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
