/**
 * The Hadoop client against a scripted loopback server, read from the spec (C.4) rather than from the
 * local cloud: what goes on the wire (both spellings where the spec has two, Base64 fields, the API
 * key header), every page, the delete and scale readings with the scale fallback, and passwords that
 * never appear in an error.
 */
import { inspect } from "node:util";
import { resolveSettings, type Clock } from "../../client/core";
import { HadoopClient } from "../../client/hadoop";
import { rejection } from "../support/assertions";
import { jsonReply, useScriptedServer } from "../support/servers/scripted";

const srv = useScriptedServer();
const clock: Clock = { now: () => 0, random: () => 0, sleep: async () => undefined };
const client = (apiKey?: string) =>
  new HadoopClient({
    settings: resolveSettings(
      { credentialId: "ak", credentialSecret: "ak-SECRET", hadoopApiKey: apiKey, endpoints: { hadoop: `${srv.origin}/hd` }, retry: { maxAttempts: 2 } },
      () => undefined,
      {},
    ),
    clock,
  });
const b64 = (s: string) => Buffer.from(s).toString("base64");

const create = {
  name: "etl",
  clusterVersion: "HDE-2.0.1",
  clusterType: "hadoop" as const,
  isHa: false,
  keypairName: "kp",
  masterFlavorName: "m",
  workerFlavorName: "w",
  masterVolumeSize: 100,
  workerVolumeSize: 100,
  workerCnt: 3,
  monitoring: false,
  vpcId: "vpc",
  subnetId: "sn",
  adminInfo: { userPw: "Adm1n!" },
  config: { hdfsReplication: 3, hdfsBlockSize: 128, configText: '{"configurations":[]}', fileUrl: "os://b/conf.json", userScript: "echo hi\n" },
  hiveMetastoreInfo: { dataCatalogInfo: { catalogId: "cat-1" } },
};

test("create: POST with access-key headers; Base64 fields; both spellings of block size, file URL and data catalog", async () => {
  srv.route = () => jsonReply(200, { id: "c-1", name: "etl", status: "Initializing" });
  expect(await client().createCluster(create)).toEqual({ id: "c-1", name: "etl", status: "Initializing" });
  const r = srv.seen[0]!;
  expect([r.method, r.url]).toEqual(["POST", "/hd/v2/hadoop-service/clusters"]);
  expect(r.headers).toMatchObject({ "credential-id": "ak", "credential-secret": "ak-SECRET", "content-type": "application/json" });
  const body = JSON.parse(r.body);
  expect(body.config).toEqual({
    hdfsReplication: 3,
    hdfsBlockSize: 128,
    BlockSize: 128,
    configText: b64('{"configurations":[]}'),
    fileUrl: "os://b/conf.json",
    configFileUrl: "os://b/conf.json",
    userScript: b64("echo hi\n"),
  });
  expect(body.adminInfo).toEqual({ userPw: b64("Adm1n!") });
  expect(body.hiveMetastoreInfo).toEqual({ dataCatalogInfo: { catalogId: "cat-1" }, dataCatalog: { catalogId: "cat-1" } });
});

test("create is not repeated (a 500 fails after one request) and never shows a password, plain or Base64", async () => {
  srv.route = () => jsonReply(500, { code: "Internal", message: `failed for userPw ${b64("Adm1n!")} (Adm1n!)` });
  const err = await rejection(client().createCluster(create));
  expect(srv.seen).toHaveLength(1);
  const all = `${JSON.stringify(err)} ${inspect(err, { depth: 10, showHidden: true })}`;
  expect(all).toContain("creating Hadoop cluster");
  for (const secret of ["Adm1n!", b64("Adm1n!"), "ak-SECRET"]) expect(all).not.toContain(secret);
});

test("get reads either spelling and lower-case versions; list and VMs read every page with repeated sorts", async () => {
  srv.route = (r) => {
    if (r.url.startsWith("/hd/v2/hadoop-service/clusters/c-1?"))
      return jsonReply(200, {
        id: "c-1",
        clusterVersion: "hde-2.0.1",
        status: "Running",
        config: { BlockSize: 64, configFileUrl: "u" },
        componentUrl: { hueUrl: "h" },
      });
    const page = Number(new URL(r.url, "http://x").searchParams.get("page"));
    return jsonReply(200, { content: [{ id: `x-${page}`, name: `n-${page}` }], totalPages: 2, number: page, last: page === 1 });
  };
  const c = await client().getCluster("c-1", true);
  expect(c).toMatchObject({ clusterVersion: "hde-2.0.1", config: { hdfsBlockSize: 64, configFileUrl: "u" }, componentUrl: { hueUrl: "h" } });
  expect(srv.seen[0]!.url).toBe("/hd/v2/hadoop-service/clusters/c-1?retainMetadata=true");
  expect((await client().listClusters({ name: "e", includeTerminated: false, sort: ["name,asc", "createdAt,desc"], size: 1 })).map((x) => x.id)).toEqual([
    "x-0",
    "x-1",
  ]);
  expect(srv.seen[1]!.url).toBe("/hd/v2/hadoop-service/clusters?name=e&includeTerminated=false&sort=name%2Casc&sort=createdAt%2Cdesc&size=1&page=0");
  expect((await client().listVms("c-1", { size: 1 })).map((v) => v.name)).toEqual(["n-0", "n-1"]);
  expect((await rejection(client().listVms("c-1", { sort: ["ip"] }))).message).toMatch(/sort must be "field,asc" or "field,desc"/);
});

test("delete and scale: the chosen readings; scale falls back to PUT …/scale on 405", async () => {
  srv.route = (r) =>
    r.method === "PATCH" ? jsonReply(405, { message: "no" }) : r.method === "GET" ? jsonReply(200, { id: "c-1" }) : jsonReply(200, { id: "c-1" });
  await client().deleteCluster("c-1");
  await client().scaleCluster("c-1", 5);
  expect(srv.seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual([
    "DELETE /hd/v2/hadoop-service/clusters/c-1 ",
    'PATCH /hd/v2/hadoop-service/clusters/c-1 {"workerCnt":5}',
    "GET /hd/v2/hadoop-service/clusters/c-1 ",
    'PUT /hd/v2/hadoop-service/clusters/c-1/scale {"workerCnt":5}',
  ]);
});

test("re-run and its request carry the cluster's API key; without one no request is sent; ranges checked first", async () => {
  expect((await rejection(client().rerunCluster("c-1"))).message).toMatch(/krcloud:hadoopApiKey/);
  expect((await rejection(client("key-1").rerunCluster("c-1", { instanceSpecs: [{ type: "WORKER", nodeCnt: 1001 }] }))).message).toMatch(
    /nodeCnt must be a whole number from 1 to 1000/,
  );
  expect(srv.seen).toHaveLength(0);
  srv.route = (r) =>
    r.method === "POST"
      ? jsonReply(202, { clusterId: "c-1", clusterName: "etl", requestId: "rq-1" })
      : jsonReply(200, { clusterId: "c-1", requestId: "rq-1", requestStatus: "Success", requestResult: "ok" });
  expect(await client("key-1").rerunCluster("c-1", { userTaskInfo: { deployMode: "cluster" } })).toMatchObject({ requestId: "rq-1" });
  expect(await client("key-1").getRerunRequest("c-1", "rq-1", true)).toMatchObject({ requestStatus: "Success", requestResult: "ok" });
  expect(srv.seen.map((s) => [s.method, s.url, s.headers["hadoop-service-api-key"]])).toEqual([
    ["POST", "/hd/v2/hadoop-service/clusters/c-1", "key-1"],
    ["GET", "/hd/v2/hadoop-service/clusters/c-1/requests/rq-1?verbose=true", "key-1"],
  ]);
});
