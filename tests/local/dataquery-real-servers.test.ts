/**
 * Data query over real database servers: the local cloud's instances can be a real MariaDB and a
 * real PostgreSQL on loopback (scripts/sql-peers.sh, started by `make test`), and the provider's
 * DataSource and Query run there: the rows are the server's (a row written straight to the server
 * shows up), three-part names and the database default work, the CSV in the bucket equals the rows,
 * a second up does not run the query again, and a server error fails the query with its message.
 */
import { randomBytes } from "node:crypto";
import { ObjectStorageClient } from "../../client/objectstorage";
import { rejection, type EngineResource, type TestCloud } from "../support/local-cloud";
import { testCloudForFile } from "../support/local-cloud/per-file";

const PG_URL = process.env.KRCLOUD_PG_URL;
const MARIADB_URL = process.env.KRCLOUD_MARIADB_URL;

let tc: TestCloud;
let source: EngineResource;
let query: EngineResource;
let os: ObjectStorageClient;

beforeAll(() => {
  if (!PG_URL || !MARIADB_URL) {
    throw new Error("KRCLOUD_PG_URL and KRCLOUD_MARIADB_URL are not set: `make test` starts the servers (scripts/sql-peers.sh start prints them)");
  }
});
testCloudForFile({ service: "data-query", bucket: "results" }, async (c) => {
  tc = c;
  source = await tc.resource("krcloud:dataquery:DataSource");
  query = await tc.resource("krcloud:dataquery:Query");
  os = new ObjectStorageClient({ settings: tc.settings });
});

const SEED = `CREATE TABLE orders(id INTEGER, region VARCHAR(8), amount INTEGER);
INSERT INTO orders VALUES (1, 'kr', 10), (2, 'us', 20), (3, 'kr', 5);`;

/** Writes straight to the server, behind the local cloud's back. */
async function insertOnServer(engine: "mysql" | "postgresql", url: string, db: string, sql: string): Promise<void> {
  if (engine === "postgresql") {
    const { Client } = await import("pg");
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(`SET search_path TO ${db}; ${sql}`);
    } finally {
      await c.end();
    }
    return;
  }
  const mysql = await import("mysql2/promise");
  const c = await mysql.createConnection({ uri: url, multipleStatements: true });
  try {
    await c.query(`USE ${db}; ${sql}`);
  } finally {
    await c.end();
  }
}

describe.each([
  { label: "MariaDB", engine: "mysql" as const, type: "MYSQL", url: () => MARIADB_URL! },
  { label: "PostgreSQL", engine: "postgresql" as const, type: "POSTGRESQL", url: () => PG_URL! },
])("$label", ({ engine, type, url }) => {
  /** The data source `ds` on database `db` of the server's instance (`<ds>-server`), made by the provider. */
  const upSource = (ds: string, db: string) =>
    source.up({
      name: ds,
      type,
      instanceId: `${ds}-server`,
      username: "reader",
      password: "s3cret-Pw",
      ...(type === "POSTGRESQL" ? { databaseName: db } : {}),
    });

  test("a query over a data source on the real server returns the server's rows; the CSV equals them; a second up does not re-run it", async () => {
    const db = `shop_${randomBytes(3).toString("hex")}`;
    const ds = `sales_${engine === "mysql" ? "my" : "pg"}`;
    const put = await tc.controlApi("PATCH", `/resources/data-query/instance/${ds}-server`, {
      projectId: tc.projectId,
      engine,
      databases: { [db]: SEED },
      url: url(),
    });
    expect(put.status).toBe(200);
    // Only the server has this row: the result proves where the query ran.
    await insertOnServer(engine, url(), db, "INSERT INTO orders VALUES (4, 'jp', 7)");

    await upSource(ds, db);
    const args = {
      query: "select region, sum(amount) as total from orders group by region order by region",
      dataSource: ds,
      database: db,
      bucketName: "results",
      path: "real",
      captureRows: 10,
    };
    const state = await query.up(args);
    const expected = [
      ["jp", "7"],
      ["kr", "15"],
      ["us", "20"],
    ];
    expect(state.outputs).toMatchObject({ state: "FINISHED", rows: expected, columns: [{ name: "region" }, { name: "total" }] });
    const prefix = (state.outputs.storageUrl as string).slice("results/".length);
    const csv = (await os.getObject("results", `${prefix}/${state.id}.csv`)).body.toString();
    expect(csv).toBe(["region,total", ...expected.map((r) => r.join(","))].join("\n") + "\n");

    // Three-part names, no defaults.
    const three = await query.up({ query: `select count(*) as n from ${ds}.${db}.orders where region = 'kr'`, bucketName: "results", captureRows: 1 });
    expect(three.outputs.rows).toEqual([["2"]]);

    // The next up: refresh and plan, and nothing runs again.
    const runs = tc.counts().RunQuery ?? 0;
    const refreshed = (await query.refresh(state))!;
    expect((await query.plan(refreshed, args)).diff.changes).toBe(false);
    expect(tc.counts().RunQuery ?? 0).toBe(runs);
  });

  test("an error of the server fails the query with the server's message and keeps it in state", async () => {
    const db = `shop_${randomBytes(3).toString("hex")}`;
    const ds = `broken_${engine === "mysql" ? "my" : "pg"}`;
    await tc.controlApi("PATCH", `/resources/data-query/instance/${ds}-server`, { projectId: tc.projectId, engine, databases: { [db]: SEED }, url: url() });
    await upSource(ds, db);
    const err = await rejection(query.up({ query: "select * from no_such_table", dataSource: ds, database: db, bucketName: "results" }));
    expect(err.message).toMatch(/ended FAILED: .*no_such_table/);
    expect(err.properties.state).toBe("FAILED");
  });
});

test("an instance URL must be a loopback server of the instance's engine", async () => {
  const bad = await tc.controlApi("PATCH", "/resources/data-query/instance/x", {
    projectId: tc.projectId,
    engine: "postgresql",
    databases: {},
    url: MARIADB_URL,
  });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(bad.body)).toContain("a postgresql instance needs postgresql:// or postgres://");
  const remote = await tc.controlApi("PATCH", "/resources/data-query/instance/x", {
    projectId: tc.projectId,
    engine: "mysql",
    databases: {},
    url: "mysql://u:p@db.example.com:3306/x",
  });
  expect(remote.status).toBe(400);
});
