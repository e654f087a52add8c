/**
 * The data query client against a scripted loopback server: what goes on the wire (headers, bodies,
 * repeated `states`, every page), how answers are read in each reading the spec allows, checks made
 * before any request, and a password that never appears in an error, Base64 or not.
 */
import { inspect } from "node:util";
import { resolveSettings, type Clock } from "../../client/core";
import { DataQueryClient } from "../../client/dataquery";
import { rejection } from "../support/assertions";
import { jsonReply, useScriptedServer } from "../support/servers/scripted";

const srv = useScriptedServer();
const clock: Clock = { now: () => 0, random: () => 0, sleep: async () => undefined };
const SECRET = "ak-SECRET-9876";
const client = () =>
  new DataQueryClient({
    settings: resolveSettings(
      { credentialId: "ak-id", credentialSecret: SECRET, endpoints: { dataquery: `${srv.origin}/dq` }, retry: { maxAttempts: 2 } },
      () => undefined,
      {},
    ),
    clock,
  });

test("run query: access-key headers, default data source and database headers, result and reuse config; 202 read", async () => {
  srv.route = () => jsonReply(202, { queryInfo: { queryId: "q-1", state: "QUEUED" } });
  const q = await client().runQuery({
    query: "select 1",
    dataSource: "sales",
    database: "shop",
    bucketName: "results",
    path: "daily",
    reuse: { maxReuseAge: 60 },
  });
  expect(q).toMatchObject({ queryId: "q-1", state: "QUEUED" });
  const r = srv.seen[0]!;
  expect([r.method, r.url]).toEqual(["POST", "/dq/v1/data-query/query"]);
  expect(r.headers).toMatchObject({
    "credential-id": "ak-id",
    "credential-secret": SECRET,
    "x-data-source": "sales",
    "x-database": "shop",
    "content-type": "application/json",
  });
  expect(JSON.parse(r.body)).toEqual({
    query: "select 1",
    resultConfig: { bucketName: "results", path: "daily" },
    reuseConfig: { reuse: true, maxReuseAge: 60 },
  });
});

test("run query is never repeated: a 500 fails after one request (a repeat would run it twice)", async () => {
  srv.route = () => jsonReply(500, { code: "Internal", message: "boom" });
  await rejection(client().runQuery({ query: "select 1", bucketName: "b", path: "" }));
  expect(srv.seen).toHaveLength(1);
});

test("checks before any request: empty SQL, reuse age, page range, data source name, PostgreSQL database, list filters", async () => {
  const c = client();
  const cases: [Promise<unknown>, RegExp][] = [
    [c.runQuery({ query: "  ", bucketName: "b", path: "" }), /the query text is empty/],
    [
      c.runQuery({ query: "select 1", bucketName: "b", path: "", reuse: { maxReuseAge: 1441 } }),
      /maxReuseAge must be a whole number of minutes from 1 to 1440/,
    ],
    [c.getQueryResult("q", 10), /page must be from 0 to 9/],
    [c.createDataSource({ type: "MYSQL", name: "Bad-Name", scope: "PRIVATE", instanceId: "i", username: "u", password: "p" }), /3 to 72 lower-case letters/],
    [c.createDataSource({ type: "POSTGRESQL", name: "pg_ok", scope: "PRIVATE", instanceId: "i", username: "u", password: "p" }), /databaseName is required/],
    [c.listQueries({ states: ["DONE" as never] }), /unknown state "DONE"/],
    [c.listQueries({ sort: "createdAt" }), /sort must be "field,asc" or "field,desc"/],
  ];
  for (const [p, re] of cases) expect((await rejection(p)).message).toMatch(re);
  expect(srv.seen).toHaveLength(0);
});

test("result page: info, stats, configs, columns and rows read; numbers sent as strings accepted", async () => {
  srv.route = () =>
    jsonReply(200, {
      queryInfo: {
        queryId: "q-1",
        state: "FINISHED",
        queryStats: { progressPercentage: "100", outputRows: 2, elapsedTime: "12ms" },
        queryTextPreview: "select",
        isScanned: true,
      },
      resultConfig: { bucketName: "results", path: "daily", storageUrl: "results/daily/2026/11/22", storeType: "BASIC", isStored: true },
      reuseConfig: { reuse: false },
      columnData: [
        { name: "id", index: 1, type: "integer" },
        { name: "name", index: 2, type: "varchar" },
      ],
      queryData: [
        ["1", "a"],
        ["2", null],
      ],
      totalPages: 1,
      totalElements: 2,
      number: 0,
      size: 100,
      numberOfElements: 2,
    });
  const p = await client().getQueryResult("q-1", 0);
  expect(srv.seen[0]!.url).toBe("/dq/v1/data-query/query/q-1?page=0");
  expect(p.queryInfo).toMatchObject({ queryId: "q-1", state: "FINISHED", queryStats: { progressPercentage: 100, outputRows: 2, elapsedTime: "12ms" } });
  expect(p.resultConfig.storageUrl).toBe("results/daily/2026/11/22");
  expect(p.columns.map((c) => c.name)).toEqual(["id", "name"]);
  expect(p.rows).toEqual([
    ["1", "a"],
    ["2", ""],
  ]);
});

test("getRows reads pages until the rows asked for, at most 1000", async () => {
  srv.route = (r) => {
    const page = Number(new URL(r.url, "http://x").searchParams.get("page"));
    return jsonReply(200, {
      queryInfo: { queryId: "q", state: "FINISHED" },
      columnData: [{ name: "n", index: 1, type: "int" }],
      queryData: Array.from({ length: 100 }, (_, i) => [String(page * 100 + i)]),
      totalPages: 12,
    });
  };
  const r = await client().getRows("q", 250);
  expect(r.rows).toHaveLength(250);
  expect(r.rows[249]).toEqual(["249"]);
  expect(srv.seen.map((s) => s.url)).toEqual(["/dq/v1/data-query/query/q?page=0", "/dq/v1/data-query/query/q?page=1", "/dq/v1/data-query/query/q?page=2"]);
});

test("list queries: every filter on the wire (states repeated) and every page", async () => {
  srv.route = (r) => {
    const page = Number(new URL(r.url, "http://x").searchParams.get("page"));
    return jsonReply(200, { content: [{ queryInfo: { queryId: `q-${page}`, state: "FINISHED" }, creatorName: "me" }], totalPages: 3, number: page });
  };
  const all = await client().listQueries({ creatorName: "me", states: ["FINISHED", "FAILED"], sort: "createdAt,desc", size: 1 });
  expect(all.map((q) => q.queryInfo.queryId)).toEqual(["q-0", "q-1", "q-2"]);
  expect(srv.seen[0]!.url).toBe("/dq/v1/data-query/query?creatorName=me&states=FINISHED&states=FAILED&sort=createdAt%2Cdesc&size=1&page=0");
});

test("data sources: a bare array listed; create sends the password Base64; a password never appears in an error", async () => {
  srv.route = () =>
    jsonReply(200, [
      { name: "sales", type: "mysql", scope: "PRIVATE" },
      { name: "catalog", type: "DATA_CATALOG" },
    ]);
  expect((await client().listDataSources()).map((d) => [d.name, d.type])).toEqual([
    ["sales", "MYSQL"],
    ["catalog", "DATA_CATALOG"],
  ]);

  const password = "pg-Passw0rd!";
  const b64 = Buffer.from(password).toString("base64");
  srv.route = () => jsonReply(409, { code: "Conflict", message: `data source exists (password ${password} / ${b64})` });
  const err = await rejection(
    client().createDataSource({ type: "POSTGRESQL", name: "pg_sales", scope: "PUBLIC", instanceId: "i-1", username: "reader", password, databaseName: "shop" }),
  );
  expect(JSON.parse(srv.seen[1]!.body)).toEqual({
    type: "POSTGRESQL",
    name: "pg_sales",
    scope: "PUBLIC",
    instanceId: "i-1",
    username: "reader",
    password: b64,
    databaseName: "shop",
  });
  const everything = `${JSON.stringify(err)} ${inspect(err, { depth: 10, showHidden: true })} ${err.stack}`;
  expect(everything).toContain("pg_sales");
  expect(everything).not.toContain(password);
  expect(everything).not.toContain(b64);
  expect(everything).not.toContain(SECRET);
});

test("abort: PUT …/abort", async () => {
  srv.route = () => ({ status: 200 });
  await client().abortQuery("q-9");
  expect([srv.seen[0]!.method, srv.seen[0]!.url]).toEqual(["PUT", "/dq/v1/data-query/query/q-9/abort"]);
});
