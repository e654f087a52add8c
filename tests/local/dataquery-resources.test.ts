/**
 * Data query against the local cloud, where queries really run (DuckDB): DataSource and Query as the
 * engine drives them, results written into the object storage bucket, and the lookups.
 */
import { getDataSources, getQueryResult } from "../../provider/dataquery/functions";
import { DataQueryClient } from "../../client/dataquery";
import { ObjectStorageClient } from "../../client/objectstorage";
import { rejection, type EngineResource, type TestCloud } from "../support/local-cloud";
import { testCloudForFile } from "../support/local-cloud/per-file";
import { putRecords } from "../support/local-cloud/records";

let tc: TestCloud;
let source: EngineResource;
let query: EngineResource;
let dq: DataQueryClient;
let os: ObjectStorageClient;

const SEED = {
  shop: `CREATE TABLE orders(id INTEGER, region VARCHAR, amount INTEGER);
         INSERT INTO orders VALUES (1, 'kr', 10), (2, 'us', 20), (3, 'kr', 5);`,
};

const seed = (c: TestCloud) =>
  putRecords(c, "data-query/instance", { "mysql-1": { engine: "mysql", databases: SEED }, "pg-1": { engine: "postgresql", databases: SEED } });
testCloudForFile({ service: "data-query", seed, bucket: "results" }, async (c) => {
  tc = c;
  source = await tc.resource("krcloud:dataquery:DataSource");
  query = await tc.resource("krcloud:dataquery:Query");
  dq = new DataQueryClient({ settings: tc.settings });
  os = new ObjectStorageClient({ settings: tc.settings });
});

const mysqlSource = { name: "sales", type: "MYSQL", instanceId: "mysql-1", username: "reader", password: "s3cret-Pw" };
const pgSource = { name: "sales_pg", type: "POSTGRESQL", instanceId: "pg-1", username: "reader", password: "s3cret-Pw", databaseName: "shop" };

test("DataSource: basic (listed, password never in outputs but as the secret input), disappears, every change replaces", async () => {
  const state = await source.up(mysqlSource);
  expect(state.id).toBe("sales");
  expect(state.outputs).toMatchObject({ name: "sales", type: "MYSQL", scope: "PRIVATE", creatorName: expect.any(String) });
  expect((await getDataSources()).dataSources.map((d) => d.name)).toEqual(["sales"]);
  const refreshed = (await source.refresh(state))!;
  expect((await source.plan(refreshed, mysqlSource)).diff.changes).toBe(false);
  expect((await source.plan(refreshed, { ...mysqlSource, scope: "PUBLIC" })).diff).toMatchObject({ replaces: ["scope"], deleteBeforeReplace: true });

  expect((await tc.controlApi("DELETE", "/resources/data-query/data-source/sales")).status).toBe(204);
  expect(await source.refresh(state)).toBeUndefined();
});

test("DataSource: a refresh's concurrent reads share one list call; a read alone after a change makes its own read and sees it", async () => {
  const names = ["src_a", "src_b", "src_c", "src_d", "src_e"];
  const states = [];
  for (const name of names) states.push(await source.up({ ...mysqlSource, name }));
  let before = tc.counts();
  const refreshed = await Promise.all(states.map((s) => source.refresh(s)));
  expect(refreshed.map((r) => r?.outputs.name)).toEqual(names);
  expect(tc.countsSince(before)).toEqual({ ListDataSources: 1 });

  // Changed after that answer: the next read lists again and sees it.
  expect((await tc.controlApi("DELETE", "/resources/data-query/data-source/src_b")).status).toBe(204);
  before = tc.counts();
  expect(await source.refresh(states[1]!)).toBeUndefined();
  // A read alone makes its own read (the service's list: data sources have no single GET).
  expect(tc.countsSince(before)).toEqual({ ListDataSources: 1 });
  await dq.createDataSource({ ...mysqlSource, name: "src_b", type: "MYSQL", scope: "PRIVATE" });
  expect((await source.refresh(states[1]!))?.outputs.name).toBe("src_b");
});

test("DataSource: a duplicate fails unless adopt; adopt takes it over", async () => {
  await dq.createDataSource({ ...mysqlSource, type: "MYSQL", scope: "PRIVATE" });
  const err = await rejection(source.up(mysqlSource));
  expect(err.message).toMatch(/already exists with this name .*set `adopt: true` on this resource/);
  const adopted = await source.up({ ...mysqlSource, adopt: true });
  expect(adopted.outputs).toMatchObject({ name: "sales", adopt: true });
  expect(tc.progress()).toContain('adopting existing data source "sales"');
});

test("Query: runs once over a MySQL and a PostgreSQL data source; rows are right; the CSV lies in the bucket; refresh never re-runs it", async () => {
  await source.up(mysqlSource);
  await source.up(pgSource);
  const args = {
    query: "select region, sum(amount) as total from orders group by region order by region",
    dataSource: "sales",
    database: "shop",
    bucketName: "results",
    path: "reports",
    captureRows: 10,
  };
  const runs = () => tc.counts().RunQuery ?? 0;

  const state = await query.up(args);
  expect(state.outputs).toMatchObject({
    state: "FINISHED",
    rows: [
      ["kr", "15"],
      ["us", "20"],
    ],
    columns: [{ name: "region" }, { name: "total" }],
  });
  expect(state.outputs.storageUrl).toMatch(/^results\/reports\/\d{4}\/\d{2}\/\d{2}$/);
  const prefix = (state.outputs.storageUrl as string).slice("results/".length);
  const csv = await os.getObject("results", `${prefix}/${state.id}.csv`);
  expect(csv.body.toString()).toBe("region,total\nkr,15\nus,20\n");
  expect((await os.listAllObjects("results", { prefix })).map((e) => (e.kind === "object" ? e.name.split(".").pop() : ""))).toEqual(["csv", "metadata"]);

  const three = await query.up({ query: "select count(*) as n from sales_pg.shop.orders where region = 'kr'", bucketName: "results", captureRows: 1 });
  expect(three.outputs.rows).toEqual([["2"]]);

  const before = runs();
  const refreshed = (await query.refresh(state))!;
  expect((await query.plan(refreshed, args)).diff.changes).toBe(false);
  expect(refreshed.outputs.query).toBe(args.query);
  expect(runs()).toBe(before);
  expect((await query.plan(refreshed, { ...args, query: `${args.query} limit 1` })).diff.replaces).toEqual(["query"]);
  expect((await getQueryResult({ queryId: state.id })).rows).toEqual([
    ["kr", "15"],
    ["us", "20"],
  ]);
});

test("Query: FAILED fails with the service's message and keeps the query in state; bad SQL fails the same way", async () => {
  const err = await rejection(query.up({ query: "select * from no_such_table", bucketName: "results" }));
  expect(err.message).toMatch(/ended FAILED: .*no_such_table/);
  expect(err.id).toBeDefined();
  expect(err.properties.state).toBe("FAILED");
});

test("Query: waiter timeout with a stuck query keeps it in state; delete aborts a query still running", async () => {
  await tc.controlApi("PUT", "/transitions", { service: "data-query", kind: "query", mode: "duration", ms: 3_600_000 });
  const err = await rejection(query.up({ query: "select 1", bucketName: "results", timeouts: { create: "1s" } }));
  expect(err.message).toMatch(/timed out .* waiting for data query ".+" to become FINISHED \(last state: QUEUED/);
  const recorded = { id: err.id as string, inputs: {}, outputs: err.properties as Record<string, unknown> };
  await query.destroy(recorded);
  expect((await dq.getQueryResult(recorded.id)).queryInfo.state).toBe("ABORTED");
  await tc.controlApi("PUT", "/transitions", { service: "data-query", kind: "query", mode: "immediate" });
});

test("bad input: rejected in check with the property path, no request sent", async () => {
  const before = tc.totalRequests();
  const q = await query.check({}, { query: "select 1", bucketName: "results", reuse: { maxReuseAge: 2000 } });
  expect(q.failures).toEqual([{ property: "reuse", reason: "reuse.maxReuseAge: must be from 1 to 1440 minutes" }]);
  const s = await source.check({}, { ...pgSource, databaseName: undefined });
  expect(s.failures).toEqual([{ property: "databaseName", reason: "databaseName: is required for a PostgreSQL data source" }]);
  expect(tc.totalRequests()).toBe(before);
});

test("a missing result bucket is the service's 404", async () => {
  expect((await rejection(query.up({ query: "select 1", bucketName: "no-such-bucket" }))).message).toMatch(/404 BucketNotFound/);
});
