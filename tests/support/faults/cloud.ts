/**
 * The fault matrix's view of the cloud (re-exported by matrix.ts): a project's resources in
 * the local cloud compared with the recorded state (orphans, duplicates, ghosts), and the
 * environment of the cells, one local cloud with a project of its own per cell.
 */
import { resolveSettings } from "../../../client/core";
import type { MatrixProject, ProjectView } from "./columns";
import { EngineResource, startTestCloud, type TestCloud } from "../local-cloud";
import { fixtureOf } from "../../resources";
import { projectClients } from "./project";
import type { Entry } from "./sim-stack";

// ---------------------------------------------------------------------------------------------
// The cloud as it is, per project

export interface CloudEntry {
  kind: string;
  id: string;
  /** The create key a query run carries in its SQL comment. */
  marker?: string;
}

/** An entry of the control API's inventory. */
export interface InventoryItem {
  service: string;
  kind: string;
  id: string;
  projectId: string;
}

export interface Counts {
  orphans: string[];
  duplicates: string[];
  ghosts: string[];
}

const MARKER = /^\/\* krcloud:([0-9a-f]+) \*\//;

/** What each state entry should have in the cloud (kind/id), as `cloudView` names it: its fixture's `cloudKinds`. */
function expectedOf(e: Entry): CloudEntry[] {
  return fixtureOf(e.token)
    .cloudKinds(e)
    .map(({ kind, id }) => ({ kind, id }));
}

const key = (c: CloudEntry) => `${c.kind}:${c.id}`;

/**
 * The project's resources in the local cloud: the control API's inventory, plus what it does not
 * list: each cache cluster's shards, the project's query runs (with the create key each carries),
 * and what the state's entries expect that only a probe finds (`present` of their fixture's
 * `cloudKinds`: a KMS ciphertext exists while it decrypts).
 */
export async function cloudView(inventory: readonly InventoryItem[], p: ProjectView, state: readonly Entry[]): Promise<CloudEntry[]> {
  const inv = inventory.filter((e) => e.projectId === p.id);
  const out: CloudEntry[] = [];
  for (const e of inv) {
    // Setup, not the stack's: the KMS key, the query result bucket and what queries write there.
    if (e.service === "kms" && e.kind === "key") continue;
    if (e.service === "object-storage" && (e.id === p.resultBucket || e.id.startsWith(`${p.resultBucket}/`))) continue;
    // Automatic backups are a schedule's, no resource of anyone's; on-demand ones are a stack's.
    if (e.service === "cache" && e.kind === "backup" && (await p.cache.backups.find(e.id))?.kind === "automatic") continue;
    out.push({ kind: `${e.service}/${e.kind}`, id: e.id });
    if (e.service === "cache" && e.kind === "cluster") {
      for (const s of await p.cache.shards.list(e.id)) out.push({ kind: "cache/shard", id: `${e.id}/${s.id}` });
    }
  }
  if (state.some((e) => e.token.startsWith("krcloud:dataquery:"))) {
    for (const q of await p.dq.listQueries({ size: 100 })) {
      const m = MARKER.exec(q.queryInfo.queryTextPreview ?? "");
      out.push({ kind: "data-query/query", id: q.queryInfo.queryId, ...(m ? { marker: m[1] } : {}) });
    }
  }
  for (const e of state) {
    for (const k of fixtureOf(e.token).cloudKinds(e)) if (k.present !== undefined && (await k.present(p))) out.push({ kind: k.kind, id: k.id });
  }
  return out;
}

/** Orphans, duplicates and ghosts of `state` against `cloud` (see the file comment). */
export function compareState(state: readonly Entry[], cloud: readonly CloudEntry[], createKeys: ReadonlySet<string>): Counts {
  const expected = state.flatMap(expectedOf);
  const want = new Set(expected.map(key));
  const have = new Set(cloud.map(key));
  const counts: Counts = { orphans: [], duplicates: [], ghosts: [] };
  for (const c of cloud) {
    if (want.has(key(c))) continue;
    // A query run is history, not a resource: it is an orphan only when no run of this stack made it.
    if (c.kind === "data-query/query" && (c.marker === undefined || createKeys.has(c.marker))) continue;
    counts.orphans.push(key(c));
  }
  for (const x of expected) if (!have.has(key(x))) counts.ghosts.push(key(x));
  const kinds = new Set(cloud.map((c) => c.kind));
  for (const kind of kinds) {
    if (kind === "data-query/query") continue;
    const wanted = expected.filter((x) => x.kind === kind).length;
    const present = cloud.filter((c) => c.kind === kind).length;
    if (wanted > 0 && present > wanted) counts.duplicates.push(`${present - wanted} extra ${kind}`);
  }
  const runs = new Map<string, number>();
  for (const c of cloud) if (c.kind === "data-query/query" && c.marker !== undefined) runs.set(c.marker, (runs.get(c.marker) ?? 0) + 1);
  for (const [marker, n] of runs) if (n > 1) counts.duplicates.push(`query run ${n} times (${marker.slice(0, 8)})`);
  return counts;
}

export const total = (c: Counts) => c.orphans.length + c.duplicates.length + c.ghosts.length;

// ---------------------------------------------------------------------------------------------
// The environment: one local cloud, a project per cell

export class MatrixEnv {
  private readonly resources = new Map<string, EngineResource>();
  private projects = 0;

  private constructor(readonly tc: TestCloud) {}

  /** On simulated cache nodes unless a test needs real ones (the data of a replacement that keeps it). */
  static async start(o: { cacheEngine?: "redis" | "simulated" } = {}): Promise<MatrixEnv> {
    return new MatrixEnv(await startTestCloud({ cacheEngine: o.cacheEngine ?? "simulated" }));
  }

  resource(token: string): EngineResource {
    let r = this.resources.get(token);
    if (!r) {
      r = new EngineResource(token);
      this.resources.set(token, r);
    }
    return r;
  }

  /** The control API over HTTP; a non-2xx answer throws. */
  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await this.tc.controlApi(method, path, body);
    if (r.status >= 300) throw new Error(`${method} /_control${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  }

  async inventory(): Promise<InventoryItem[]> {
    return (await this.control<{ resources: InventoryItem[] }>("GET", "/inventory")).resources;
  }

  /** A new project with its own credentials, configured as the stack config of the next provider calls, with its setup. */
  async project(label: string): Promise<MatrixProject> {
    const n = ++this.projects;
    const id = `fm${n}${label.replace(/[^a-z0-9]/gi, "").toLowerCase()}`.slice(0, 24) + Math.random().toString(16).slice(2, 8);
    const token = await this.control<{ token: string }>("POST", "/credentials", { projectId: id, kind: "token" });
    const key = await this.control<{ credentialId: string; credentialSecret: string }>("POST", "/credentials", { projectId: id, kind: "access-key" });
    const config: Record<string, string> = {
      "krcloud:localCloudUrl": this.tc.cloud.url,
      "krcloud:authToken": token.token,
      "krcloud:projectId": id,
      "krcloud:credentialId": key.credentialId,
      "krcloud:credentialSecret": key.credentialSecret,
    };
    await this.resource("krcloud:objectstorage:Bucket").configure(config);
    const settings = resolveSettings({
      localCloudUrl: this.tc.cloud.url,
      authToken: token.token,
      projectId: id,
      credentialId: key.credentialId,
      credentialSecret: key.credentialSecret,
    });
    const clients = await projectClients(settings, id, (service, kind, rid, body) => this.control("PATCH", `/resources/${service}/${kind}/${rid}`, body));
    return { id, config, ...clients };
  }

  /** Holds a kind's status transitions (an hour on the local cloud's clock). */
  async hold(service: string, kind: string): Promise<void> {
    await this.control("PUT", "/transitions", { service, kind, mode: "duration", ms: 3_600_000 });
  }

  /** Lets held transitions end (the clock moves past them) and new ones happen at once again. */
  async release(service: string, kind: string): Promise<void> {
    await this.control("PUT", "/transitions", { service, kind, mode: "immediate" });
    await this.control("POST", "/clock/advance", { ms: 7_200_000 });
  }

  progress(): string[] {
    return this.tc.progress();
  }

  async close(): Promise<void> {
    await this.tc.close();
  }
}
