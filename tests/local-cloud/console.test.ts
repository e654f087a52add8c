/**
 * The console's server side over HTTP (local-cloud/console): its page and files with their
 * Content-Security-Policy, the host check, its views of projects (unknown and malformed ids answer
 * clearly), long lists 100 at a time, contents and result rows page by page, looks that move no
 * `reads` transition on, the request log's durations, and the files shipped in the package. What
 * the page shows in a browser is tested in tests/browser.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import { REPO_ROOT } from "../harness/engine/paths";
import { call, control, JSON_HEADERS } from "../support/local-cloud/http";

let cloud: LocalCloud;
let token: string;
let key: { credentialId: string; credentialSecret: string };
const PROJECT = "consoleproj";
const api = (path: string) => call("GET", `${cloud.url}/_console/api${path}`);
const os = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
  call(method, `${cloud.endpoints["object-storage"]}${path}`, { headers: { "X-Auth-Token": token, ...headers }, ...(body === undefined ? {} : { body }) });
/** An object with these bytes (fetch sends them as they are). */
const putBytes = async (path: string, body: Buffer, contentType: string) =>
  (await fetch(`${cloud.endpoints["object-storage"]}${path}`, { method: "PUT", headers: { "X-Auth-Token": token, "content-type": contentType }, body })).status;

beforeAll(async () => {
  cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
  token = (cloud.control.issueCredentials({ projectId: PROJECT }) as { token: string }).token;
  key = (await control(cloud, "POST", "/credentials", { projectId: PROJECT, kind: "access-key" })).json();
});
afterAll(() => cloud.close());

test("the page, its style and scripts: only its own files, under a policy that forbids anything else", async () => {
  expect(cloud.consoleUrl).toBe(`${cloud.url}/_console/`);
  const redirect = await call("GET", `${cloud.url}/_console`);
  expect({ status: redirect.status, location: redirect.headers.location }).toEqual({ status: 308, location: "/_console/" });
  const page = await call("GET", cloud.consoleUrl);
  expect(page.status).toBe(200);
  expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(page.headers["content-security-policy"]).toContain("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'");
  const linked = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  expect(linked).toEqual(["data:,", "/_console/console.css", "/_console/ui/app.js"]);
  for (const file of linked.slice(1)) expect((await call("GET", `${cloud.url}${file}`)).status).toBe(200);
  const app = await call("GET", `${cloud.url}/_console/ui/app.js`);
  expect(app.headers["content-type"]).toBe("text/javascript; charset=utf-8");
  for (const imported of app.text.matchAll(/from "\.\/([a-z-]+\.js)"/g))
    expect((await call("GET", `${cloud.url}/_console/ui/${imported[1]}`)).status).toBe(200);
  for (const bad of ["/_console/ui/../../index.js", "/_console/ui/App.js", "/_console/secret", "/_console/ui/%2e%2e%2fassets.js"]) {
    const r = await call("GET", `${cloud.url}${bad}`);
    expect(`${bad} ${r.status}`).toBe(`${bad} 404`);
  }
  expect((await call("POST", cloud.consoleUrl)).status).toBe(405);
});

test("the console and the control API refuse what a browser sends for another site; programs and the console's own page are served", async () => {
  const port = new URL(cloud.url).port;
  for (const url of [`${cloud.url}/_console/api/overview`, `${cloud.controlUrl}/faults`]) {
    for (const host of ["127.0.0.1", "localhost", "[::1]"]) expect((await call("GET", url, { headers: { Host: `${host}:${port}` } })).status).toBe(200);
    const ownPage = { Origin: cloud.url, "Sec-Fetch-Site": "same-origin" };
    expect((await call("GET", url, { headers: ownPage })).status).toBe(200);
    for (const [headers, code] of [
      [{ Host: "attacker.example" }, "ForeignHost"],
      [{ "Sec-Fetch-Site": "cross-site" }, "CrossSiteRequest"],
      [{ "Sec-Fetch-Site": "same-site" }, "CrossSiteRequest"],
      [{ Origin: "http://attacker.example" }, "CrossSiteRequest"],
    ] as const) {
      const r = await call("GET", url, { headers });
      expect(`${url} ${JSON.stringify(headers)}: ${r.status} ${r.json().code}`).toBe(`${url} ${JSON.stringify(headers)}: 403 ${code}`);
    }
  }
  // A reset a page of another site would send (a "simple" request: no preflight) changes nothing.
  const before = (await control(cloud, "GET", "/inventory")).json();
  const reset = await call("POST", `${cloud.controlUrl}/reset`, {
    headers: { "Content-Type": "text/plain", Origin: "http://attacker.example", "Sec-Fetch-Site": "cross-site" },
    body: "{}",
  });
  expect(reset.status).toBe(403);
  expect((await control(cloud, "GET", "/inventory")).json()).toEqual(before);
  expect(cloud.control.tokens({ projectId: PROJECT }).tokens).toHaveLength(1);
});

test("projects: unknown and malformed ids answer clearly; a project with credentials and nothing else is empty", async () => {
  const overview = (await api("/overview")).json();
  expect(overview.projects).toEqual([{ id: PROJECT, resources: 0, credentials: 2 }]);
  expect(overview.services.map((s: { name: string }) => s.name)).toEqual(["object-storage", "cache", "kms", "data-query", "hadoop", "identity"]);
  expect(overview.services.find((s: { name: string }) => s.name === "object-storage").operations).toContain("CreateBucket");

  const unknown = await api("/projects/nobody");
  expect({ status: unknown.status, code: unknown.json().code }).toEqual({ status: 404, code: "NoSuchProject" });
  expect(unknown.json().message).toBe(`The local cloud has no project "nobody" (no credential, no resource); its projects: ${PROJECT}.`);
  const malformed = await api(`/projects/${encodeURIComponent("<script>")}`);
  expect({ status: malformed.status, code: malformed.json().code }).toEqual({ status: 400, code: "BadRequest" });

  const empty = await api(`/projects/${PROJECT}`);
  expect(empty.status).toBe(200);
  expect(empty.json().services.flatMap((s: { nodes: { children: unknown[] }[] }) => s.nodes.flatMap((n) => n.children))).toEqual([]);
});

test("a bucket of 250 objects lists 100 at a time; an object's content comes 64 KiB a page, as text or hex", async () => {
  expect((await os("PUT", "/v1_ext/bucket", JSON.stringify({ name: "many", type: "STANDARD" }), JSON_HEADERS)).status).toBe(200);
  for (let i = 0; i < 250; i++) expect((await os("PUT", `/v1/${PROJECT}/many/k${String(i).padStart(3, "0")}`, "x")).status).toBe(201);
  expect(await putBytes(`/v1/${PROJECT}/many/zz-big.txt`, Buffer.alloc(200_000, "a"), "text/plain")).toBe(201);
  expect(await putBytes(`/v1/${PROJECT}/many/zz-bin`, Buffer.from([0, 1, 2, 255]), "application/octet-stream")).toBe(201);

  const tree = (await api(`/projects/${PROJECT}`)).json();
  const bucket = tree.services.find((s: { name: string }) => s.name === "object-storage").nodes[0].children[0];
  const objects = bucket.children.find((c: { id: string }) => c.id === "objects");
  expect({ shown: objects.children.length, total: objects.total }).toEqual({ shown: 100, total: 252 });
  expect(objects.children[0]).toMatchObject({ kind: "object", id: "many/k000", label: "k000", facts: { size: 1 }, record: { name: "k000", bytes: 1 } });

  const page = async (offset: number) =>
    (await api(`/projects/${PROJECT}/children?service=object-storage&step=group:buckets&step=bucket:many&step=group:objects&offset=${offset}`)).json();
  expect((await page(100)).nodes.map((n: { label: string }) => n.label).slice(0, 2)).toEqual(["k100", "k101"]);
  expect(await page(200)).toMatchObject({ offset: 200, total: 252 });
  expect((await page(200)).nodes).toHaveLength(52);
  const gone = await api(`/projects/${PROJECT}/children?service=object-storage&step=group:buckets&step=bucket:gone&offset=0`);
  expect({ status: gone.status, code: gone.json().code }).toEqual({ status: 404, code: "NoSuchNode" });

  const preview = async (id: string, offset: number) =>
    (await api(`/projects/${PROJECT}/preview?service=object-storage&kind=object&id=${encodeURIComponent(id)}&offset=${offset}`)).json();
  const first = await preview("many/zz-big.txt", 0);
  expect({ ...first, text: first.text.length }).toEqual({ kind: "bytes", total: 200_000, offset: 0, contentType: "text/plain", text: 65_536 });
  expect((await preview("many/zz-big.txt", 196_608)).text).toHaveLength(200_000 - 196_608);
  expect(await preview("many/zz-bin", 0)).toEqual({ kind: "bytes", total: 4, offset: 0, contentType: "application/octet-stream", hex: "000102ff" });
  const otherProject = await call("GET", `${cloud.url}/_console/api/projects/${PROJECT}/preview?service=object-storage&kind=object&id=nope%2Fx&offset=0`);
  expect(otherProject.status).toBe(404);
  const badOffset = await api(`/projects/${PROJECT}/preview?service=object-storage&kind=object&id=many%2Fk000&offset=-1`);
  expect(badOffset.status).toBe(400);
});

test("a query's 500 result rows come 200 a page; records are cut to what a page shows", async () => {
  const sql = "CREATE TABLE t(n INTEGER, s VARCHAR); INSERT INTO t SELECT range, repeat('y', 3000) FROM range(500);";
  expect(
    (await control(cloud, "PATCH", "/resources/data-query/instance/big-db", { projectId: PROJECT, engine: "mysql", databases: { big: sql } })).status,
  ).toBe(200);
  const dq = (method: string, path: string, body?: unknown) =>
    call(method, `${cloud.endpoints["data-query"]}/v1/data-query${path}`, {
      headers: { "Credential-ID": key.credentialId, "Credential-Secret": key.credentialSecret, ...JSON_HEADERS },
      ...(body === undefined ? {} : { body }),
    });
  const source = { name: "big", type: "MYSQL", scope: "PRIVATE", instanceId: "big-db", username: "u", password: Buffer.from("pw").toString("base64") };
  expect((await dq("POST", "/data-source", source)).status).toBeLessThan(300);
  const started = await dq("POST", "/query", { query: "select n, s from big.big.t order by n", resultConfig: { bucketName: "many", path: "out" } });
  const id = started.json().queryInfo.queryId as string;
  for (let i = 0; i < 5 && (await dq("GET", `/query/${id}`)).json().queryInfo.state !== "FINISHED"; i++);

  const rows = async (offset: number) => (await api(`/projects/${PROJECT}/preview?service=data-query&kind=query&id=${id}&offset=${offset}`)).json();
  const first = await rows(0);
  expect({ total: first.total, columns: first.columns, shown: first.rows.length, firstRow: first.rows[0][0] }).toEqual({
    total: 500,
    columns: ["n", "s"],
    shown: 200,
    firstRow: "0",
  });
  expect((await rows(400)).rows.map((r: string[]) => r[0])).toEqual(Array.from({ length: 100 }, (_, i) => String(400 + i)));

  const tree = (await api(`/projects/${PROJECT}`)).json();
  const query = tree.services.find((s: { name: string }) => s.name === "data-query").nodes.find((n: { id: string }) => n.id === "queries").children[0];
  expect(query).toMatchObject({ kind: "query", id, status: "FINISHED", preview: "rows", facts: { rows: 500 } });
  const shown = query.record.outcome.rows as unknown[];
  expect(shown).toHaveLength(101);
  expect(shown[100]).toBe("… (400 more items)");
  expect((shown[0] as string[])[1]).toBe(`${"y".repeat(2000)}… (1000 more characters)`);
});

test("watching a cache cluster in the console (or the control API) moves no `reads` transition on; the API's reads do", async () => {
  expect((await control(cloud, "PUT", "/transitions", { service: "cache", kind: "cluster", mode: "reads", reads: 2 })).status).toBe(200);
  const base = cloud.endpoints.cache!;
  const body = {
    version: "7.0.15",
    port: 6379,
    flavorId: "redis.small",
    subnets: [{ id: "sn-a" }, { id: "sn-b" }],
    securityGroups: [{ id: "sg-1" }],
    name: "watched",
    parameterGroupId: "default.redis7.0.cluster",
    shardCount: 1,
    nodeCountPerShard: 2,
    subnetAssignments: [{ primary: { id: "sn-a" }, replicas: [{ id: "sn-b" }] }],
  };
  const created = await call("POST", `${base}/v1/clusters`, { headers: { "X-Auth-Token": token, ...JSON_HEADERS }, body });
  expect(created.status).toBeLessThan(300);
  const id = created.json().objectId as string;
  const clusterInConsole = async () =>
    (await api(`/projects/${PROJECT}`))
      .json()
      .services.find((s: { name: string }) => s.name === "cache")
      .nodes.find((n: { id: string }) => n.id === "clusters").children[0];
  for (let i = 0; i < 5; i++) expect((await clusterInConsole()).status).toBe("Creating");
  for (let i = 0; i < 5; i++) expect((await control(cloud, "GET", `/resources/cache/cluster/${id}`)).json().status).toBe("Creating");
  const read = async () => (await call("GET", `${base}/v1/clusters/${id}`, { headers: { "X-Auth-Token": token } })).json().status;
  expect([await read(), await read(), await read()]).toEqual(["Creating", "Creating", "Running"]);
  const cluster = await clusterInConsole();
  expect(cluster).toMatchObject({ kind: "cluster", label: "watched", status: "Running" });
  expect(cluster.children[0].children.map((n: { facts: { role: string } }) => n.facts.role).sort()).toEqual(["primary", "replica"]);
  await control(cloud, "PUT", "/transitions", { service: "cache", kind: "cluster", mode: "immediate" });
});

test("the request log says how long each request took", async () => {
  const { requests } = (await control(cloud, "GET", "/requests")).json();
  expect(requests.length).toBeGreaterThan(0);
  for (const r of requests) expect(typeof r.durationMs === "number" && r.durationMs >= 0).toBe(true);
});

test("the package carries the console's scripts and the drift report's (no build step for a user)", async () => {
  const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 });
  const files = (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
  for (const f of ["app", "api", "dom", "faults", "requests", "resources"]) expect(files).toContain(`dist/local-cloud/console/ui/${f}.js`);
  expect(files).toContain("dist/local-cloud/console/assets.js");
  expect(files).toContain("dist/drift/formats/html-ui/report.js");
});
