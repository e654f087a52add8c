/**
 * Data query SQL is per project and sandboxed (reliability review D4): over real loopback HTTP,
 * through the public API, with two projects' own access keys. Project B cannot read project A's
 * data sources or see their catalog, its SQL reaches no file (nothing written, nothing read), a
 * data source of the same name in B is a database of its own, and a refused statement fails the
 * query with a clear message (never a 5xx).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";

interface Project {
  id: string;
  token: string;
  key: { "Credential-ID": string; "Credential-Secret": string };
}

interface QueryResult {
  state: string;
  errorMessage?: string;
  rows: string[][];
}

const SECRET = "pwned-marker-3f9c1e";

let cloud: LocalCloud;
let a: Project;
let b: Project;
let dir: string;

async function call(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await request(url, {
    method: method as "GET",
    headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: text ? JSON.parse(text) : undefined };
}

const dq = (path: string): string => `${cloud.endpoints["data-query"]!}/v1/data-query${path}`;

function project(id: string): Project {
  const token = cloud.control.issueCredentials({ projectId: id });
  const key = cloud.control.issueCredentials({ projectId: id, kind: "access-key" });
  if (token.kind !== "token" || key.kind !== "access-key") throw new Error("unexpected credential kinds");
  return { id, token: token.token, key: { "Credential-ID": key.credentialId, "Credential-Secret": key.credentialSecret } };
}

async function setUp(p: Project, instance: string, seed: Record<string, string>): Promise<void> {
  const made = await call(
    "PUT",
    `${cloud.endpoints["object-storage"]!}/v1_ext/bucket`,
    { "X-Auth-Token": p.token },
    { name: `${p.id}-results`, type: "STANDARD" },
  );
  expect(made.status).toBe(200);
  const put = await call("PATCH", `${cloud.controlUrl}/resources/data-query/instance/${instance}`, {}, { projectId: p.id, engine: "mysql", databases: seed });
  expect(put.status).toBe(200);
}

const createSource = (p: Project, name: string, instanceId: string) =>
  call("POST", dq("/data-source"), p.key, { name, type: "MYSQL", scope: "PRIVATE", instanceId, username: "reader", password: "cHc=" });

/** Runs `sql` as the project through the public API and reads its outcome (queries settle at once here). */
async function run(p: Project, sql: string, defaults: Record<string, string> = {}): Promise<QueryResult> {
  const started = await call("POST", dq("/query"), { ...p.key, ...defaults }, { query: sql, resultConfig: { bucketName: `${p.id}-results` } });
  expect(started.status).toBe(202);
  const id = started.json.queryInfo.queryId as string;
  for (let read = 0; read < 5; read++) {
    const got = await call("GET", dq(`/query/${id}`), p.key);
    expect(got.status).toBe(200);
    const state = got.json.queryInfo.state as string;
    if (state === "FINISHED" || state === "FAILED") return { state, errorMessage: got.json.queryInfo.errorMessage, rows: got.json.queryData };
  }
  throw new Error(`query "${sql}" did not end`);
}

beforeAll(async () => {
  cloud = await startLocalCloud({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), "krcloud-dq-sandbox-"));
});
afterAll(async () => {
  await cloud.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  cloud.control.reset({ credentials: true });
  a = project("dqa");
  b = project("dqb");
  await setUp(a, "shop-db-a", {
    shop: "CREATE TABLE orders(id INTEGER, region VARCHAR, amount INTEGER); INSERT INTO orders VALUES (1, 'kr', 10), (2, 'jp', 5);",
  });
  await setUp(b, "shop-db-b", {
    shop: "CREATE TABLE orders(id INTEGER, note VARCHAR); INSERT INTO orders VALUES (7, 'b-only'); CREATE TABLE customers_b(id INTEGER);",
  });
  expect((await createSource(a, "finance_a", "shop-db-a")).status).toBe(200);
});

test("a) another project's data source cannot be read, and its catalog is not listed", async () => {
  const own = await run(a, "select id, region, amount from finance_a.shop.orders order by id");
  expect(own).toMatchObject({
    state: "FINISHED",
    rows: [
      ["1", "kr", "10"],
      ["2", "jp", "5"],
    ],
  });

  const foreign = await run(b, "select * from finance_a.shop.orders");
  expect(foreign.state).toBe("FAILED");
  expect(foreign.errorMessage).toMatch(/finance_a/);
  expect(foreign.rows).toEqual([]);

  const catalogs = await run(b, "select database_name from duckdb_databases() order by 1");
  expect(catalogs.state).toBe("FINISHED");
  expect(catalogs.rows.flat()).not.toContain("finance_a");
  const ownCatalogs = await run(a, "select database_name from duckdb_databases() order by 1");
  expect(ownCatalogs.rows.flat()).toContain("finance_a");
});

test("b) SQL reaches no file: COPY TO writes nothing, read_text/read_csv/glob read nothing, ATTACH/INSTALL/LOAD/SET/PRAGMA are refused", async () => {
  const stateFile = join(dir, "cloud.json");
  writeFileSync(stateFile, JSON.stringify({ credentialSecret: SECRET }));
  const written = join(dir, "dq-pwned.csv");
  expect((await createSource(b, "ledger_b", "shop-db-b")).status).toBe(200);
  const refused = (own: string): string[] => [
    `COPY (select 'pwned' as x) TO '${written}'`,
    `COPY ${own}.shop.orders TO '${written}' (FORMAT csv)`,
    `EXPORT DATABASE '${join(dir, "export")}'`,
    `select content from read_text('${stateFile}')`,
    `select * from read_csv('${stateFile}')`,
    `select * from '${stateFile}'`,
    `select * from glob('${dir}/*')`,
    `ATTACH '${join(dir, "other.db")}' AS other`,
    "ATTACH ':memory:' AS other",
    `USE memory; DETACH ${own}`,
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET enable_external_access = true",
    "RESET lock_configuration",
    "PRAGMA database_list",
    "select 1; pragma threads=4",
  ];
  for (const [p, own] of [
    [a, "finance_a"],
    [b, "ledger_b"],
  ] as const) {
    for (const sql of refused(own)) {
      const r = await run(p, sql);
      expect({ sql, state: r.state }).toEqual({ sql, state: "FAILED" });
      expect(r.errorMessage).toMatch(/refused|disabled|locked/i);
      expect(JSON.stringify(r)).not.toContain(SECRET);
    }
  }
  // Still sandboxed after every attempt to undo it, and nothing was written.
  expect((await run(b, `select content from read_text('${stateFile}')`)).state).toBe("FAILED");
  expect(existsSync(written)).toBe(false);
  expect(readdirSync(dir)).toEqual(["cloud.json"]);
  // Ordinary SQL still runs, the X-Data-Source / X-Database defaults and USE included.
  expect(await run(a, "select count(*) from orders", { "X-Data-Source": "finance_a", "X-Database": "shop" })).toMatchObject({
    state: "FINISHED",
    rows: [["2"]],
  });
  expect(await run(a, "USE finance_a.shop; select max(id) from orders")).toMatchObject({ state: "FINISHED", rows: [["2"]] });
});

test("c) a data source of the same name in another project is a database of its own: creating and deleting it leaves the first alone", async () => {
  const made = await createSource(b, "finance_a", "shop-db-b");
  expect(made.status).toBe(200);
  expect(await run(b, "select id, note from finance_a.shop.orders")).toMatchObject({ state: "FINISHED", rows: [["7", "b-only"]] });
  const tablesOfA = await run(a, "select table_name from information_schema.tables where table_catalog = 'finance_a' order by 1");
  expect(tablesOfA).toMatchObject({ state: "FINISHED", rows: [["orders"]] });

  expect((await call("DELETE", dq("/data-source/finance_a"), b.key)).status).toBe(200);
  expect(await run(a, "select count(*) from finance_a.shop.orders")).toMatchObject({ state: "FINISHED", rows: [["2"]] });
  expect((await call("GET", dq("/data-source"), a.key)).json).toEqual([expect.objectContaining({ name: "finance_a" })]);
  expect((await call("GET", dq("/data-source"), b.key)).json).toEqual([]);
});

test("control API: a data source name two projects use is named {projectId}/{name}; a bare name is then 409", async () => {
  expect((await createSource(b, "finance_a", "shop-db-b")).status).toBe(200);
  const ambiguous = await call("GET", `${cloud.controlUrl}/resources/data-query/data-source/finance_a`, {});
  expect(ambiguous.status).toBe(409);
  const ofB = await call("DELETE", `${cloud.controlUrl}/resources/data-query/data-source/dqb/finance_a`, {});
  expect(ofB.status).toBe(204);
  expect((await call("GET", `${cloud.controlUrl}/resources/data-query/data-source/finance_a`, {})).json).toMatchObject({ projectId: "dqa" });
  expect(await run(a, "select count(*) from finance_a.shop.orders")).toMatchObject({ state: "FINISHED", rows: [["2"]] });
});

test("an instance whose seed SQL fails is refused when it is put (400), not when a data source copies it", async () => {
  const bad = await call(
    "PATCH",
    `${cloud.controlUrl}/resources/data-query/instance/broken`,
    {},
    { projectId: "dqa", engine: "mysql", databases: { shop: "CREATE TABL x" } },
  );
  expect(bad.status).toBe(400);
  expect(bad.json.message).toMatch(/the SQL that creates them fails/);
  const reading = await call(
    "PATCH",
    `${cloud.controlUrl}/resources/data-query/instance/reads-files`,
    {},
    { projectId: "dqa", engine: "mysql", databases: { shop: `CREATE TABLE t AS SELECT * FROM read_text('${join(dir, "x")}')` } },
  );
  expect(reading.status).toBe(400);
  expect((await createSource(a, "broken_ds", "broken")).status).toBe(400);
});
