/**
 * Data query (spec 03 B): data sources over database instances made through the control API, and
 * queries that really run (engine.ts). A query moves QUEUED -> RUNNING -> FINISHED/FAILED by
 * managed-state transitions (kind `query`: tests make it immediate, slow or stuck); it runs when it
 * first reads RUNNING, and its result is written as `.csv` and `.metadata` into the named bucket of
 * the local object storage under `path/YYYY/MM/DD`.
 */
import { randomUUID } from "node:crypto";
import { BadRequest } from "../core/errors";
import { BucketNotFound, DataSourceNotFound, DuplicateName, QueryNotFound } from "./errors";
import type { ManagedState } from "../core/managed-state";
import type { ObjectStoreBridge } from "../core/server";
import type { QueryOutcome, SqlEngine } from "./engine";
import { QueryLifecycle } from "./lifecycle";
import type { DataSource, Instance, Query } from "./model";
import { runOnServer, seedServer } from "./real-server";
import type { CreateSourceInput, RunQueryInput } from "./validate";

export class DataQueryBackend {
  instances = new Map<string, Instance>();
  sources = new Map<string, DataSource>();
  /** Data sources being created (their database is being seeded), by project and name. */
  private readonly creating = new Set<string>();
  queries = new Map<string, Query>();
  /** Queries the control API made fail, with the message. */
  failures = new Map<string, string>();
  /** Statements running on a real server, by query id. */
  private readonly cancels = new Map<string, () => Promise<void>>();
  private readonly lifecycle: QueryLifecycle;

  constructor(
    private readonly now: () => number,
    state: ManagedState,
    private readonly engine: SqlEngine,
    private readonly objects: () => ObjectStoreBridge | undefined,
  ) {
    this.lifecycle = new QueryLifecycle(state);
  }

  reset(): void {
    void this.engine.close();
    this.instances.clear();
    this.sources.clear();
    this.queries.clear();
    this.failures.clear();
  }

  // ---- instances (control API) -------------------------------------------------------------------

  /**
   * An instance (the control API parsed `input`), once its seed SQL ran: in a throw-away embedded
   * database (data sources copy it when they are created), or on its real server (`url`).
   */
  async putInstance(id: string, input: Omit<Instance, "id">): Promise<Instance> {
    const inst: Instance = { id, ...input };
    if (inst.url === undefined) {
      await this.engine.tryOut(inst.databases).catch((e: unknown) => {
        throw new BadRequest(`databases: the SQL that creates them fails: ${(e as Error).message}`);
      });
    } else {
      await seedServer(inst.engine, inst.url, inst.databases).catch((e: unknown) => {
        throw new BadRequest(`url: creating the databases on the ${inst.engine} server failed: ${(e as Error).message}`);
      });
    }
    this.instances.set(id, inst);
    return inst;
  }

  // ---- data sources -------------------------------------------------------------------------------

  listSources(projectId: string): DataSource[] {
    return [...this.sources.values()].filter((s) => s.projectId === projectId);
  }

  async createSource(projectId: string, creator: string, b: CreateSourceInput): Promise<void> {
    const type = b.type;
    const inst = this.instances.get(b.instanceId);
    if (!inst || inst.projectId !== projectId) throw new BadRequest(`instanceId: no database instance "${b.instanceId}" in this project.`);
    if (inst.engine !== (type === "MYSQL" ? "mysql" : "postgresql")) throw new BadRequest(`instanceId: "${inst.id}" is a ${inst.engine} instance.`);
    const k = key(projectId, b.name);
    if (this.sources.has(k) || this.creating.has(k)) throw new DuplicateName(`A data source named "${b.name}" exists.`);
    // Held while its database is being seeded, so a concurrent create of the name is refused.
    this.creating.add(k);
    try {
      if (inst.url === undefined) await this.attach(projectId, b.name, inst);
    } finally {
      this.creating.delete(k);
    }
    this.sources.set(k, {
      name: b.name,
      projectId,
      type,
      scope: b.scope,
      description: b.description,
      instanceId: inst.id,
      username: b.username,
      databaseName: type === "POSTGRESQL" ? b.databaseName : undefined,
      creatorName: creator,
    });
  }

  async deleteSource(projectId: string, name: string): Promise<void> {
    const s = this.sources.get(key(projectId, name));
    if (!s) throw new DataSourceNotFound(`No data source "${name}".`);
    await this.removeSource(s);
  }

  /** The data source leaves the list at once; its database goes with it. */
  removeSource(s: DataSource): Promise<void> {
    this.sources.delete(key(s.projectId, s.name));
    return this.engine.detach(s.projectId, s.name);
  }

  /** The data source's database in the project's engine, seeded from its instance; a seed the engine refuses is the caller's error. */
  private async attach(projectId: string, name: string, inst: Instance): Promise<void> {
    try {
      await this.engine.attach(projectId, name, inst.databases);
    } catch (e) {
      await this.engine.detach(projectId, name).catch(() => undefined);
      throw new BadRequest(`instanceId: the databases of instance "${inst.id}" cannot be copied into data source "${name}": ${(e as Error).message}`);
    }
  }

  // ---- queries ----------------------------------------------------------------------------------------

  run(projectId: string, b: RunQueryInput & { dataSource?: string; database?: string }): Query {
    const objects = this.objects();
    if (!objects?.bucketExists(projectId, b.bucketName)) throw new BucketNotFound(`No bucket "${b.bucketName}" for the result.`);
    if (b.dataSource && !this.sources.has(key(projectId, b.dataSource))) throw new BadRequest(`X-Data-Source: no data source "${b.dataSource}".`);
    const now = this.now();
    const q: Query = {
      id: randomUUID(),
      projectId,
      sql: b.sql,
      dataSource: b.dataSource,
      database: b.database,
      bucketName: b.bucketName,
      path: b.path,
      reuse: b.reuse !== undefined,
      createdAt: now,
      aborted: false,
    };
    if (b.reuse !== undefined) {
      const previous = [...this.queries.values()]
        .filter(
          (p) =>
            p.projectId === projectId &&
            p.sql === b.sql &&
            p.dataSource === b.dataSource &&
            p.database === b.database &&
            p.outcome &&
            p.completedAt &&
            now - p.completedAt <= b.reuse! * 60_000,
        )
        .sort((x, y) => y.completedAt! - x.completedAt!)[0];
      if (previous) {
        q.reusedFrom = previous.id;
        q.reuseExpireAt = previous.completedAt! + b.reuse * 60_000;
      }
    }
    this.queries.set(q.id, q);
    this.lifecycle.queued(q);
    return q;
  }

  /** Control API: the query leaves the list (as an expired one would). */
  removeQuery(q: Query): void {
    this.queries.delete(q.id);
    this.failures.delete(q.id);
    this.lifecycle.forget(q);
  }

  query(projectId: string, id: string): Query {
    const q = this.queries.get(id);
    if (!q || q.projectId !== projectId) throw new QueryNotFound(`No query "${id}".`);
    return q;
  }

  /** The state as served; a query that just reached RUNNING runs now, and one that ran settles by its transition. */
  stateOf(q: Query): Promise<string> {
    return this.lifecycle.read(q, () => this.execute(q));
  }

  private async execute(q: Query): Promise<void> {
    const forced = this.failures.get(q.id);
    if (forced !== undefined) {
      q.error = forced;
      return;
    }
    try {
      const reused = q.reusedFrom ? this.queries.get(q.reusedFrom) : undefined;
      q.outcome = reused?.outcome ?? (await this.runSql(q));
      q.completedAt = this.now();
      this.store(q);
    } catch (e) {
      q.error = (e as Error).message;
      q.completedAt = this.now();
    }
  }

  /**
   * On the embedded engine, or on the real server of the instance the query's data sources name
   * (by the X-Data-Source default or as the first part of three-part names); a query cannot join
   * a real server's data with another instance's.
   */
  private async runSql(q: Query): Promise<QueryOutcome> {
    const sources = this.listSources(q.projectId);
    const named = sources.filter((s) => s.name === q.dataSource || new RegExp(`(^|[^A-Za-z0-9_.])${s.name}\\.[A-Za-z_"\`]`, "i").test(q.sql));
    const real = [...new Set(named.map((s) => this.instances.get(s.instanceId)).filter((i) => i?.url !== undefined))];
    if (real.length === 0) return this.engine.run(q.projectId, q.sql, q.dataSource, q.database);
    const inst = real[0]!;
    if (real.length > 1 || named.some((s) => s.instanceId !== inst.id))
      throw new Error("the local cloud runs a query on one real database server: its data sources must all be on that instance");
    const running = await runOnServer(
      inst.engine,
      inst.url!,
      q.sql,
      named.map((s) => s.name),
      q.database,
    );
    this.cancels.set(q.id, running.cancel);
    try {
      return await running.result;
    } finally {
      this.cancels.delete(q.id);
    }
  }

  /** `path/YYYY/MM/DD/<queryId>.csv` and `.metadata` in the result bucket. */
  private store(q: Query): void {
    const d = new Date(q.createdAt);
    const day = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${String(d.getUTCDate()).padStart(2, "0")}`;
    const folder = [q.path.replace(/^\/+|\/+$/g, ""), day].filter(Boolean).join("/");
    q.storageUrl = `${q.bucketName}/${folder}`;
    if (!q.outcome || q.outcome.columns.length === 0) return;
    const csv = [q.outcome.columns.map((c) => csvCell(c.name)).join(","), ...q.outcome.rows.map((r) => r.map(csvCell).join(","))].join("\n") + "\n";
    const objects = this.objects();
    objects?.putObject(q.projectId, q.bucketName, `${folder}/${q.id}.csv`, Buffer.from(csv), "text/csv");
    objects?.putObject(
      q.projectId,
      q.bucketName,
      `${folder}/${q.id}.metadata`,
      Buffer.from(JSON.stringify({ queryId: q.id, columns: q.outcome.columns, rows: q.outcome.rows.length })),
      "application/json",
    );
  }

  abort(q: Query, state: string): void {
    this.lifecycle.abort(q, state);
    // A statement running on a real server is cancelled there.
    void this.cancels
      .get(q.id)?.()
      .catch(() => undefined);
  }

  snapshot(): unknown {
    return { instances: [...this.instances.values()], sources: [...this.sources.values()] };
  }

  async restore(data: unknown): Promise<void> {
    const d = data as { instances?: Instance[]; sources?: DataSource[] } | undefined;
    for (const i of d?.instances ?? []) this.instances.set(i.id, i);
    for (const s of d?.sources ?? []) {
      this.sources.set(key(s.projectId, s.name), s);
      const inst = this.instances.get(s.instanceId);
      // A seed that no longer runs leaves the data source without tables: its queries fail saying so.
      if (inst && inst.url === undefined) await this.engine.attach(s.projectId, s.name, inst.databases).catch(() => undefined);
    }
  }
}

const key = (projectId: string, name: string): string => `${projectId}/${name}`;

function csvCell(v: string): string {
  return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}
