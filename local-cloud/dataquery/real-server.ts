/**
 * Real-server instances of the data query local cloud: a database instance made through the control
 * API with a `url` is a real PostgreSQL or MariaDB server (scripts/sql-peers.sh starts both on
 * loopback), and queries over its data sources run there instead of on the embedded DuckDB.
 *
 * How the spec's names map onto a server:
 * - MariaDB: each database of the instance is a database of the server.
 * - PostgreSQL: each database of the instance is a schema in the URL's database (PostgreSQL cannot
 *   query across databases, and the spec's `database.table` is then `schema.table`).
 * - `datasource.database.table`: the data source part names the instance, so it is dropped before
 *   the SQL reaches the server (outside string literals and quoted identifiers).
 * - The `X-Database` default is `USE db` (MariaDB) or `SET search_path TO db` (PostgreSQL).
 * Putting an instance drops and recreates its databases on the server from the seed SQL: a server's
 * databases belong to the instance that names them.
 *
 * The clients (`pg`, `mysql2`) are loaded on first use only.
 */
import type { QueryOutcome } from "./engine";

export type ServerEngine = "mysql" | "postgresql";

/** A query running on a server, which `cancel` stops (best effort). */
export interface Running {
  result: Promise<QueryOutcome>;
  cancel: () => Promise<void>;
}

/** `url`'s scheme must match the instance's engine: postgresql:// or postgres://, mysql:// or mariadb://. */
export function checkServerUrl(engine: ServerEngine, url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return "url: not a URL.";
  }
  const ok = engine === "postgresql" ? ["postgresql:", "postgres:"] : ["mysql:", "mariadb:"];
  if (!ok.includes(u.protocol)) return `url: a ${engine} instance needs ${ok.map((p) => `${p}//`).join(" or ")}.`;
  if (u.hostname !== "127.0.0.1" && u.hostname !== "localhost" && u.hostname !== "::1") return "url: only a server on this machine (loopback).";
  return undefined;
}

/** Drops and recreates each database on the server, then runs its seed SQL there. */
export async function seedServer(engine: ServerEngine, url: string, databases: Record<string, string>): Promise<void> {
  if (engine === "postgresql") {
    const c = await pgClient(url);
    try {
      for (const [db, sql] of Object.entries(databases)) {
        await c.query(`DROP SCHEMA IF EXISTS ${pgIdent(db)} CASCADE; CREATE SCHEMA ${pgIdent(db)}; SET search_path TO ${pgIdent(db)}`);
        if (sql.trim()) await c.query(sql);
      }
    } finally {
      await c.end();
    }
    return;
  }
  const c = await mysqlConnection(url, true);
  try {
    for (const [db, sql] of Object.entries(databases)) {
      await c.query(`DROP DATABASE IF EXISTS ${myIdent(db)}; CREATE DATABASE ${myIdent(db)}; USE ${myIdent(db)}`);
      if (sql.trim()) await c.query(sql);
    }
  } finally {
    await c.end();
  }
}

/** Runs `sql` on the server, with the data source names in `dropPrefixes` removed from three-part names. */
export async function runOnServer(engine: ServerEngine, url: string, sql: string, dropPrefixes: readonly string[], database?: string): Promise<Running> {
  const text = withoutPrefixes(sql, dropPrefixes);
  if (engine === "postgresql") {
    const c = await pgClient(url);
    const pid = (await c.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;
    const result = (async () => {
      try {
        if (database) await c.query(`SET search_path TO ${pgIdent(database)}`);
        const r = await c.query({ text, rowMode: "array" });
        const types = await pgTypeNames();
        return {
          columns: r.fields.map((f) => ({ name: f.name, type: types.get(f.dataTypeID) ?? String(f.dataTypeID) })),
          rows: (r.rows as unknown[][]).map((row) => row.map(cell)),
        };
      } finally {
        await c.end();
      }
    })();
    return {
      result,
      cancel: async () => {
        if (pid === undefined) return;
        const k = await pgClient(url);
        try {
          await k.query("SELECT pg_cancel_backend($1)", [pid]);
        } finally {
          await k.end();
        }
      },
    };
  }
  const c = await mysqlConnection(url, false);
  const threadId = c.threadId;
  const result = (async () => {
    try {
      if (database) await c.query(`USE ${myIdent(database)}`);
      const [rows, fields] = await c.query({ sql: text, rowsAsArray: true });
      const types = await mysqlTypeNames();
      const list = Array.isArray(fields) ? fields : [];
      return {
        columns: list.map((f) => ({ name: f.name, type: types.get(f.columnType ?? -1) ?? String(f.columnType) })),
        rows: Array.isArray(rows) ? (rows as unknown[][]).map((row) => row.map(cell)) : [],
      };
    } finally {
      await c.end();
    }
  })();
  return {
    result,
    cancel: async () => {
      const k = await mysqlConnection(url, false);
      try {
        await k.query(`KILL QUERY ${Number(threadId)}`);
      } finally {
        await k.end();
      }
    },
  };
}

/**
 * `sql` with `<prefix>.` removed before identifiers, outside '...' literals, "..." and `...`
 * quoted identifiers, for each data source name in `prefixes`.
 */
export function withoutPrefixes(sql: string, prefixes: readonly string[]): string {
  if (prefixes.length === 0) return sql;
  const names = prefixes.map((p) => p.replace(/[^A-Za-z0-9_]/g, "")).filter(Boolean);
  const pattern = new RegExp(`(^|[^A-Za-z0-9_."\`])(?:${names.join("|")})\\.(?=[A-Za-z_"\`])`, "gi");
  // Split into quoted and unquoted runs; rewrite the unquoted ones only.
  return sql
    .split(/('(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(pattern, "$1")))
    .join("");
}

/** A cell as the result CSV shows it: NULL is empty, dates ISO 8601, everything else its text. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString("utf8");
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  return JSON.stringify(v) ?? "";
}

const pgIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
const myIdent = (name: string): string => `\`${name.replace(/`/g, "``")}\``;

async function pgClient(url: string): Promise<import("pg").Client> {
  const { Client } = await import("pg");
  const c = new Client({ connectionString: url });
  await c.connect();
  return c;
}

async function mysqlConnection(url: string, multipleStatements: boolean): Promise<import("mysql2/promise").Connection> {
  const mysql = await import("mysql2/promise");
  return mysql.createConnection({ uri: url.replace(/^mariadb:/, "mysql:"), multipleStatements });
}

/** PostgreSQL type OIDs to names (int4, text, ...). */
async function pgTypeNames(): Promise<Map<number, string>> {
  const { types } = await import("pg");
  return new Map(Object.entries(types.builtins).map(([name, oid]) => [oid, name.toLowerCase()]));
}

/** MySQL column type codes to names (LONG, VAR_STRING, ...). */
async function mysqlTypeNames(): Promise<Map<number, string>> {
  const { Types } = await import("mysql2");
  return new Map(Object.entries(Types as unknown as Record<string, number>).map(([name, code]) => [code, name]));
}
