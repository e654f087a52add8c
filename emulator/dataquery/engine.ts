/**
 * The SQL engine behind the data query local cloud: one in-process DuckDB (docs/architecture.md says
 * why: 13 ms to start, ~20 MB, asynchronous, offline, and `ATTACH` gives native three-part names).
 * Each data source is an attached database named after it, each database of its instance a schema,
 * so `datasource.database.table` resolves as the seed says and `USE datasource.database` gives the
 * `X-Data-Source` / `X-Database` defaults. Loaded lazily: a local cloud that runs no query never
 * loads the native binding.
 */
import type { DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";

export interface QueryOutcome {
  columns: { name: string; type: string }[];
  rows: string[][];
}

export class SqlEngine {
  private instance?: Promise<DuckDBInstance>;
  private readonly attached = new Set<string>();

  private async connect(): Promise<DuckDBConnection> {
    this.instance ??= import("@duckdb/node-api").then((m) => m.DuckDBInstance.create(":memory:"));
    return (await this.instance).connect();
  }

  /** An empty database for a data source, then its instance's seed SQL per database (schema). */
  async attach(dataSource: string, seed: Record<string, string>): Promise<void> {
    const c = await this.connect();
    try {
      if (!this.attached.has(dataSource)) {
        await c.run(`ATTACH ':memory:' AS ${ident(dataSource)}`);
        this.attached.add(dataSource);
      }
      for (const [db, sql] of Object.entries(seed)) {
        await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(dataSource)}.${ident(db)}`);
        await c.run(`USE ${ident(dataSource)}.${ident(db)}`);
        if (sql.trim()) await c.run(sql);
      }
    } finally {
      c.closeSync();
    }
  }

  async detach(dataSource: string): Promise<void> {
    if (!this.attached.delete(dataSource)) return;
    const c = await this.connect();
    try {
      await c.run(`DETACH ${ident(dataSource)}`);
    } finally {
      c.closeSync();
    }
  }

  /** Runs `sql` with optional defaults; an error's message is the engine's. */
  async run(sql: string, dataSource?: string, database?: string): Promise<QueryOutcome> {
    const c = await this.connect();
    try {
      if (dataSource) await c.run(database ? `USE ${ident(dataSource)}.${ident(database)}` : `USE ${ident(dataSource)}`);
      const r = await c.runAndReadAll(sql);
      const names = r.columnNames();
      const types = r.columnTypes().map((t) => String(t));
      const rows = r.getRowsJson().map((row) => row.map((v) => (v === null ? "" : typeof v === "string" ? v : JSON.stringify(v))));
      return { columns: names.map((name, i) => ({ name, type: types[i] ?? "" })), rows };
    } finally {
      c.closeSync();
    }
  }

  async close(): Promise<void> {
    if (this.instance) (await this.instance).closeSync();
    this.instance = undefined;
    this.attached.clear();
  }
}

/** A quoted identifier (names were validated: letters, digits, `_`). */
function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
