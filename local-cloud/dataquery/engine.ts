/**
 * The SQL engine behind the data query local cloud: in-process DuckDB (docs/architecture.md says
 * why: 13 ms to start, ~20 MB, asynchronous, offline, and `ATTACH` gives native three-part names).
 *
 * One DuckDB instance per project, so a project's SQL sees its own data sources only: another
 * project's catalog is not there to name, and two projects' data sources of the same name are two
 * databases. Each data source is an in-memory database attached under its name, each database of
 * its instance a schema, so `datasource.database.table` resolves as the spec says and
 * `USE datasource.database` gives the `X-Data-Source` / `X-Database` defaults.
 *
 * Every instance is sandboxed from its creation: no file system or network access
 * (`enable_external_access = false`: no `COPY ... TO`, `read_text`, `read_csv`, `glob`, `ATTACH` of a
 * file, `INSTALL`/`LOAD`), no spilling to a temporary directory, and the configuration is locked, so
 * no `SET` or `PRAGMA` can undo it. On top of that, statements that reach outside the project's
 * catalog (`ATTACH`, `DETACH`, `COPY`, `EXPORT`/`IMPORT`, extensions, `PRAGMA`) are refused before
 * they run. Loaded lazily: a local cloud that runs no query never loads the native binding.
 */
import type { DuckDBConnection, DuckDBInstance, DuckDBResultReader } from "@duckdb/node-api";

export interface QueryOutcome {
  columns: { name: string; type: string }[];
  rows: string[][];
}

/**
 * Options applied in this order when an instance is created: `temp_directory` cannot change once
 * external access is off, and nothing can once the configuration is locked.
 */
const SANDBOX: ReadonlyArray<[string, string]> = [
  ["temp_directory", ""],
  ["threads", "1"],
  ["memory_limit", "256MB"],
  ["autoload_known_extensions", "false"],
  ["autoinstall_known_extensions", "false"],
  ["enable_external_access", "false"],
  ["lock_configuration", "true"],
];

/**
 * Statement types (DuckDB's `StatementType`) a query may not run, with what they are called in the
 * error. `PRAGMA` is recognised by its text: DuckDB turns it into the statement it stands for.
 */
const REFUSED_TYPES: ReadonlyMap<number, string> = new Map([
  [11, "COPY"],
  [16, "EXPORT DATABASE"],
  [21, "LOAD / INSTALL"],
  [23, "extension statements"],
  [25, "ATTACH"],
  [26, "DETACH"],
  [28, "COPY FROM DATABASE"],
  [29, "UPDATE EXTENSIONS"],
]);

const WHY = "a query sees only its project's data sources and no file (the local cloud's sandbox)";

export class SqlEngine {
  /** Per project: its DuckDB instance and its attached data sources. */
  private readonly projects = new Map<string, { instance: Promise<DuckDBInstance>; attached: Set<string> }>();

  private project(projectId: string): { instance: Promise<DuckDBInstance>; attached: Set<string> } {
    let p = this.projects.get(projectId);
    if (!p) {
      p = { instance: sandboxed(), attached: new Set() };
      this.projects.set(projectId, p);
    }
    return p;
  }

  private async connect(projectId: string): Promise<DuckDBConnection> {
    return (await this.project(projectId).instance).connect();
  }

  /** An empty database for a data source of the project, then its instance's seed SQL per database (schema). */
  async attach(projectId: string, dataSource: string, seed: Record<string, string>): Promise<void> {
    const p = this.project(projectId);
    const c = await this.connect(projectId);
    try {
      if (!p.attached.has(dataSource)) {
        await c.run(`ATTACH ':memory:' AS ${ident(dataSource)}`);
        p.attached.add(dataSource);
      }
      await seedInto(c, dataSource, seed);
    } finally {
      c.closeSync();
    }
  }

  /** Runs an instance's seed SQL in a throw-away sandboxed instance: rejects with the engine's error. */
  async tryOut(seed: Record<string, string>): Promise<void> {
    const instance = await sandboxed();
    const c = await instance.connect();
    try {
      await c.run(`ATTACH ':memory:' AS trial`);
      await seedInto(c, "trial", seed);
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  }

  async detach(projectId: string, dataSource: string): Promise<void> {
    const p = this.projects.get(projectId);
    if (!p?.attached.delete(dataSource)) return;
    const c = await this.connect(projectId);
    try {
      await c.run(`DETACH ${ident(dataSource)}`);
    } finally {
      c.closeSync();
    }
  }

  /**
   * Runs `sql` in the project's instance with optional defaults, one statement after the other
   * (each is checked before it runs); the answer is the last statement's. An error's message is
   * the engine's, or says what the sandbox refused.
   */
  async run(projectId: string, sql: string, dataSource?: string, database?: string): Promise<QueryOutcome> {
    const c = await this.connect(projectId);
    try {
      if (dataSource) await c.run(database ? `USE ${ident(dataSource)}.${ident(database)}` : `USE ${ident(dataSource)}`);
      if (statementStarts(sql).some((s) => /^pragma\b/i.test(s))) throw new Error(`PRAGMA is refused: ${WHY}.`);
      const statements = await c.extractStatements(sql);
      let r: DuckDBResultReader | undefined;
      for (let i = 0; i < statements.count; i++) {
        const prepared = await statements.prepare(i);
        const refused = REFUSED_TYPES.get(prepared.statementType);
        if (refused !== undefined) throw new Error(`${refused} is refused: ${WHY}.`);
        r = await prepared.runAndReadAll();
      }
      if (!r) throw new Error("the query holds no SQL statement");
      const names = r.columnNames();
      const types = r.columnTypes().map((t) => String(t));
      const rows = r.getRowsJson().map((row) => row.map((v) => (v === null ? "" : typeof v === "string" ? v : JSON.stringify(v))));
      return { columns: names.map((name, i) => ({ name, type: types[i] ?? "" })), rows };
    } finally {
      c.closeSync();
    }
  }

  /** Every project's instance goes, with its data. */
  async close(): Promise<void> {
    const all = [...this.projects.values()];
    this.projects.clear();
    for (const p of all) (await p.instance.catch(() => undefined))?.closeSync();
  }
}

/**
 * The text at the start of each statement of `sql` (after `;`), outside string literals, quoted
 * identifiers, dollar-quoted strings and comments, with leading comments skipped.
 */
function statementStarts(sql: string): string[] {
  const starts: string[] = [];
  let start = 0;
  let i = 0;
  const skipTo = (end: string, from: number): number => {
    const at = sql.indexOf(end, from);
    return at < 0 ? sql.length : at + end.length;
  };
  const push = (from: number, to: number): void => {
    starts.push(
      sql
        .slice(from, to)
        .replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, "")
        .slice(0, 40),
    );
  };
  while (i < sql.length) {
    const ch = sql[i]!;
    if (ch === "'" || ch === '"') {
      i = i + 1;
      // A doubled quote is an escaped one: the scan just continues after it.
      while (i < sql.length && sql[i] !== ch) i++;
      i++;
    } else if (ch === "-" && sql[i + 1] === "-") i = skipTo("\n", i);
    else if (ch === "/" && sql[i + 1] === "*") i = skipTo("*/", i + 2);
    else if (ch === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      i = tag ? skipTo(tag, i + tag.length) : i + 1;
    } else if (ch === ";") {
      push(start, i);
      start = ++i;
    } else i++;
  }
  push(start, sql.length);
  return starts;
}

function sandboxed(): Promise<DuckDBInstance> {
  return import("@duckdb/node-api").then((m) => m.DuckDBInstance.create(":memory:", Object.fromEntries(SANDBOX)));
}

/** Each database of an instance as a schema of the data source's database, made by its seed SQL. */
async function seedInto(c: DuckDBConnection, dataSource: string, seed: Record<string, string>): Promise<void> {
  for (const [db, sql] of Object.entries(seed)) {
    await c.run(`CREATE SCHEMA IF NOT EXISTS ${ident(dataSource)}.${ident(db)}`);
    await c.run(`USE ${ident(dataSource)}.${ident(db)}`);
    if (sql.trim()) await c.run(sql);
  }
}

/** A quoted identifier (names were validated: letters, digits, `_`). */
function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
