import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalCloud, type IssuedCredential, type LocalCloud } from "../../local-cloud";
import { call, JSON_HEADERS, type Reply } from "../support/local-cloud/http";
import { hadoopCreateBody } from "../support/local-cloud/bodies";

const START = Date.UTC(2025, 0, 10, 12, 0, 0);
const PROJECT = "hadoopproj01";
const CLUSTERS = "/v2/hadoop-service/clusters";
const b64 = (s: string): string => Buffer.from(s, "utf8").toString("base64");

const body = hadoopCreateBody;
function accessAuth(issued: IssuedCredential): Record<string, string> {
  if (issued.kind !== "access-key") throw new Error("expected an access key");
  return { "Credential-ID": issued.credentialId, "Credential-Secret": issued.credentialSecret };
}

const job = (terminationPolicy: string, extra: Record<string, unknown> = {}) => ({
  userTask: { type: "hive", terminationPolicy, hiveQuery: "select 1", ...extra },
});

describe("local cloud: Hadoop cluster service (spec 03 C)", () => {
  let cloud: LocalCloud;
  let base: string;
  let auth: Record<string, string>;
  let token: string;

  const api = (method: string, path: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Reply> =>
    call(method, `${base}${CLUSTERS}${path}`, {
      headers: { ...auth, ...(payload === undefined ? {} : JSON_HEADERS), ...headers },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    });
  const create = async (over: Record<string, unknown> = {}): Promise<string> => {
    const r = await api("POST", "", body(over));
    expect(r.status).toBe(200);
    return r.json().id as string;
  };
  const get = async (id: string): Promise<any> => (await api("GET", `/${id}`)).json();
  const transition = (kind: string, mode: "immediate" | "reads" | "duration", n = 0): void =>
    cloud.control.setTransition({ service: "hadoop", kind, mode, ...(mode === "reads" ? { reads: n } : mode === "duration" ? { ms: n } : {}) });
  const control = (kind: string, id: string, patch: unknown): any => cloud.control.patchResource("hadoop", kind, id, patch);

  beforeAll(async () => {
    cloud = await startLocalCloud({ port: 0, clock: () => START });
    base = cloud.endpoints.hadoop!;
  });
  afterAll(async () => {
    await cloud.close();
  });
  beforeEach(() => {
    cloud.control.reset({ credentials: true });
    auth = accessAuth(cloud.control.issueCredentials({ projectId: PROJECT, kind: "access-key" }));
    const t = cloud.control.issueCredentials({ projectId: PROJECT });
    token = t.kind === "token" ? t.token : "";
  });

  describe("authentication", () => {
    test("no, wrong or token credentials are 401 with a JSON error body; a missing permission is 403; another project sees 404", async () => {
      const none = await call("GET", `${base}${CLUSTERS}`);
      expect(none.status).toBe(401);
      expect(none.json()).toEqual({ code: "CredentialAuthenticationFailed", message: expect.any(String), requestId: none.headers["x-trans-id"] });
      expect((await call("GET", `${base}${CLUSTERS}`, { headers: { "Credential-ID": auth["Credential-ID"]!, "Credential-Secret": "nope" } })).status).toBe(401);
      expect((await call("GET", `${base}${CLUSTERS}`, { headers: { "X-Auth-Token": token } })).status).toBe(401);
      const id = await create();
      const reader = cloud.control.issueCredentials({ projectId: PROJECT, kind: "access-key", permissions: ["hadoop.clusters.get"] });
      const readerAuth = accessAuth(reader);
      expect((await call("GET", `${base}${CLUSTERS}/${id}`, { headers: readerAuth })).status).toBe(200);
      const denied = await call("DELETE", `${base}${CLUSTERS}/${id}`, { headers: readerAuth });
      expect(denied.status).toBe(403);
      expect(denied.json().code).toBe("Forbidden");
      const other = cloud.control.issueCredentials({ projectId: "otherproj", kind: "access-key" });
      const otherAuth = accessAuth(other);
      expect((await call("GET", `${base}${CLUSTERS}/${id}`, { headers: otherAuth })).status).toBe(404);
    });
  });

  describe("create", () => {
    test("answers {id, name, status}; the detail shows the spec fields, lower-case version, bundle components, defaults and no secret", async () => {
      transition("cluster", "reads", 0);
      const created = await api(
        "POST",
        "",
        body({
          isHa: true,
          securityGroupIds: ["sg-extra"],
          adminInfo: { userId: "admin", userPw: b64("Secr3t!") },
          config: {
            hdfsReplication: 2,
            BlockSize: 256,
            configText: b64(JSON.stringify({ configurations: [{ classification: "core-site", properties: { a: "1" } }] })),
            configFileUrl: "https://os/conf.json",
            userScript: b64("echo hi"),
          },
          hiveMetastoreInfo: { mySqlInfo: { objectId: "mysql-1", dbName: "meta", userId: "hive", userPw: b64("pw") } },
          redisInfo: { objectId: "redis-1" },
        }),
      );
      expect(created.status).toBe(200);
      expect(created.json()).toEqual({ id: expect.any(String), name: "etl", status: "Initializing" });
      const d = await get(created.json().id);
      expect(d).toMatchObject({
        name: "etl",
        status: "Running",
        clusterType: "hadoop",
        clusterVersion: "hde-2.0.1",
        isHa: true,
        isScalable: true,
        apiKeyStatus: "impossible",
        masterCnt: 3,
        workerCnt: 2,
        nodeCnt: 5,
        owner: auth["Credential-ID"],
        adminInfo: { userId: "admin" },
        monitoring: false,
        keypairName: "kp",
        masterInfo: [{ flavorName: "m2a.xlarge", volumeSize: 100 }],
        workerInfo: [{ flavorName: "m2a.2xlarge", volumeSize: 200 }],
        config: { hdfsBlockSize: 256, hdfsReplication: 2, configFileUrl: "https://os/conf.json" },
        hiveMetastoreInfo: { mySqlInfo: { objectId: "mysql-1", dbName: "meta", userId: "hive", port: 3306 } },
        redisInfo: { objectId: "redis-1", dbIdSupersetCelery: 0, dbIdSupersetResults: 1 },
        createdAt: START,
        runningAt: START,
        userTask: null,
      });
      expect(d.installComponents).toEqual(expect.arrayContaining(["hadoop", "hive", "zookeeper"]));
      expect(d.securityGroupIds).toEqual(["sg-extra", expect.stringMatching(/^sg-hadoop-/)]);
      expect(d.componentUrl.nameNodeUrl).toMatch(/^http:\/\/198\.18\.\d+\.\d+:9870$/);
      expect(d.componentUrl.trinoUrl).toBeNull();
      expect(JSON.stringify(d)).not.toMatch(/U2VjcjN0IQ|Secr3t|"userPw"/);
    });

    test("custom clusters install the listed components plus hadoop and zookeeper; the other spellings are accepted", async () => {
      const id = await create({
        clusterType: "custom",
        clusterVersion: "hde-1.1.2",
        installComponents: ["spark", "Hive"],
        hiveMetastoreInfo: { dataCatalog: { catalogId: "cat-1" } },
        config: { hdfsReplication: 1, hdfsBlockSize: 64, fileUrl: "u" },
      });
      const d = await get(id);
      expect(d.installComponents).toEqual(["hadoop", "hive", "spark", "zookeeper"]);
      expect(d.hiveMetastoreInfo.dataCatalogInfo).toMatchObject({ catalogId: "cat-1", vpcId: "vpc-1", metastoreUri: expect.stringMatching(/^thrift:/) });
      expect(d.config.configFileUrl).toBe("u");
    });

    test.each([
      ["name", { name: undefined }],
      ["name", { name: "" }],
      ["clusterVersion", { clusterVersion: "HDE-2.0" }],
      ["clusterVersion", { clusterVersion: "HADOOP-2.0.1" }],
      ["clusterType", { clusterType: "spark" }],
      ["installComponents", { installComponents: ["hive"] }],
      ["installComponents", { clusterType: "custom" }],
      ["isHa", { isHa: "yes" }],
      ["masterVolumeSize", { masterVolumeSize: 50 }],
      ["workerVolumeSize", { workerVolumeSize: 16385 }],
      ["workerCnt", { workerCnt: 1 }],
      ["workerCnt", { workerCnt: 2.5 }],
      ["config", { config: undefined }],
      ["config.hdfsBlockSize", { config: { hdfsReplication: 1 } }],
      ["config.hdfsBlockSize", { config: { hdfsReplication: 1, hdfsBlockSize: 2048 } }],
      ["config.hdfsBlockSize/config.BlockSize", { config: { hdfsReplication: 1, hdfsBlockSize: 64, BlockSize: 128 } }],
      ["config.hdfsReplication", { config: { hdfsReplication: 0, hdfsBlockSize: 64 } }],
      ["config.configText", { config: { hdfsReplication: 1, hdfsBlockSize: 64, configText: '{"configurations":[]}' } }],
      ["config.configText", { config: { hdfsReplication: 1, hdfsBlockSize: 64, configText: b64("not json") } }],
      ["config.configText", { config: { hdfsReplication: 1, hdfsBlockSize: 64, configText: b64('{"configurations":[{"properties":{}}]}') } }],
      ["config.userScript", { config: { hdfsReplication: 1, hdfsBlockSize: 64, userScript: "echo hi" } }],
      ["adminInfo.userPw", { adminInfo: { userPw: "plain text!" } }],
      ["hiveMetastoreInfo.mySqlInfo.userPw", { hiveMetastoreInfo: { mySqlInfo: { objectId: "m", dbName: "d", userId: "u", userPw: "***" } } }],
      [
        "hiveMetastoreInfo",
        { hiveMetastoreInfo: { mySqlInfo: { objectId: "m", dbName: "d", userId: "u", userPw: b64("p") }, dataCatalogInfo: { catalogId: "c" } } },
      ],
      ["redisInfo.dbIdSupersetCelery", { redisInfo: { objectId: "r", dbIdSupersetCelery: 16 } }],
      ["redisInfo.objectId", { redisInfo: {} }],
      ["userTask.type", { userTask: { type: "pig", terminationPolicy: "never" } }],
      ["userTask.terminationPolicy", { userTask: { type: "hive", terminationPolicy: "sometimes", hiveQuery: "q" } }],
      ["userTask.fileUrl", { userTask: { type: "spark", terminationPolicy: "never" } }],
      ["userTask.deployMode", { userTask: { type: "hive", terminationPolicy: "never", hiveQuery: "q", deployMode: "cluster" } }],
    ])("400 naming %s", async (field, over) => {
      const r = await api("POST", "", body(over));
      expect(r.status).toBe(400);
      expect(r.json()).toMatchObject({ code: "InvalidParameter" });
      expect(r.json().message.startsWith(field) || r.json().message.includes(`${field}:`)).toBe(true);
    });

    test("a malformed or non-object body is 400, a missing JSON Content-Type 415; a live name is 409 until it terminates", async () => {
      expect((await call("POST", `${base}${CLUSTERS}`, { headers: { ...auth, ...JSON_HEADERS }, body: "{" })).json().code).toBe("MalformedJSON");
      expect((await api("POST", "", [1, 2])).status).toBe(400);
      expect((await call("POST", `${base}${CLUSTERS}`, { headers: auth, body: JSON.stringify(body()) })).status).toBe(415);
      const id = await create();
      const dup = await api("POST", "", body());
      expect(dup.status).toBe(409);
      expect(dup.json().code).toBe("ClusterNameExists");
      await api("DELETE", `/${id}`);
      expect((await api("POST", "", body())).status).toBe(200);
    });
  });

  describe("get and list", () => {
    test("get: 404 for an unknown id, 400 for a non-boolean retainMetadata", async () => {
      const id = await create();
      expect((await api("GET", `/${id}?retainMetadata=true`)).status).toBe(200);
      expect((await api("GET", `/${id}?retainMetadata=maybe`)).json().message).toMatch(/^retainMetadata/);
      const missing = await api("GET", "/no-such-cluster");
      expect(missing.status).toBe(404);
      expect(missing.json().code).toBe("ClusterNotFound");
    });

    test("list: page envelope, paging, sort in priority order, name/includeTerminated/apiKeyStatus filters, 400s", async () => {
      const ids = [await create({ name: "alpha", workerCnt: 3 }), await create({ name: "beta" }), await create({ name: "gamma-job", ...job("always") })];
      const first = (await api("GET", "?size=2&page=0&sort=name,desc")).json();
      expect(first).toMatchObject({
        totalElements: 3,
        totalPages: 2,
        size: 2,
        number: 0,
        numberOfElements: 2,
        first: true,
        last: false,
        empty: false,
        sort: { sorted: true, unsorted: false, empty: false },
      });
      expect(first.pageable).toEqual({
        pageNumber: 0,
        pageSize: 2,
        sort: { sorted: true, unsorted: false, empty: false },
        offset: 0,
        paged: true,
        unpaged: false,
      });
      expect(first.content.map((c: any) => c.name)).toEqual(["gamma-job", "beta"]);
      expect(Object.keys(first.content[0]).sort()).toEqual(
        [
          "apiKeyStatus",
          "clusterType",
          "clusterVersion",
          "createdAt",
          "elapsedTime",
          "id",
          "isScalable",
          "masterCnt",
          "name",
          "nodeCnt",
          "owner",
          "runningAt",
          "status",
          "workerCnt",
        ].sort(),
      );
      const second = (await api("GET", "?size=2&page=1&sort=name,desc")).json();
      expect(second).toMatchObject({ numberOfElements: 1, first: false, last: true });
      expect((await api("GET", "?sort=workerCnt,desc&sort=name,asc")).json().content.map((c: any) => c.name)).toEqual(["alpha", "beta", "gamma-job"]);
      expect((await api("GET", "?name=ALP")).json().content.map((c: any) => c.id)).toEqual([ids[0]]);
      expect((await api("GET", "?includeTerminated=false")).json().totalElements).toBe(2);
      expect((await api("GET", "?apiKeyStatus=possible")).json().content.map((c: any) => c.name)).toEqual(["gamma-job"]);
      expect((await api("GET", "")).json()).toMatchObject({ size: 20, totalElements: 3 });
      for (const [q, field] of [
        ["?sort=flavor,asc", "sort"],
        ["?sort=name,up", "sort"],
        ["?size=0", "size"],
        ["?page=-1", "page"],
        ["?includeTerminated=1", "includeTerminated"],
        ["?apiKeyStatus=maybe", "apiKeyStatus"],
      ] as const) {
        const r = await api("GET", q);
        expect(r.status).toBe(400);
        expect(r.json().message).toMatch(new RegExp(`^${field}`));
      }
    });

    test("VMs: masters and workers with names, indexes, ids and IPs; paging, sort, like filters; none once terminated", async () => {
      const id = await create({ isHa: true, workerCnt: 4 });
      const all = (await api("GET", `/${id}/vms`)).json();
      expect(all.totalElements).toBe(7);
      const vms = all.content;
      expect(vms.filter((v: any) => v.isMaster).map((v: any) => [v.name, v.index])).toEqual([
        ["HadoopMST-etl-1", 0],
        ["HadoopMST-etl-2", 1],
        ["HadoopMST-etl-3", 2],
      ]);
      expect(vms.filter((v: any) => !v.isMaster).map((v: any) => v.index)).toEqual([0, 1, 2, 3]);
      expect(new Set(vms.map((v: any) => v.instanceId)).size).toBe(7);
      expect(new Set(vms.map((v: any) => v.ip)).size).toBe(7);
      for (const v of vms) {
        expect(v).toMatchObject({ status: "Running", createdAt: START, ip: expect.stringMatching(/^10\.\d+\.\d+\.\d+$/) });
        expect(v.floatingIp === null).toBe(!v.isMaster);
        expect(v.flavorName).toBe(v.isMaster ? "m2a.xlarge" : "m2a.2xlarge");
      }
      const page = (await api("GET", `/${id}/vms?size=3&page=2&sort=isMaster,desc&sort=name,desc`)).json();
      expect(page).toMatchObject({ totalPages: 3, numberOfElements: 1, last: true });
      expect(page.content[0].name).toBe("HadoopWRK-etl-1");
      expect((await api("GET", `/${id}/vms?name=wrk-etl-2`)).json().content.map((v: any) => v.name)).toEqual(["HadoopWRK-etl-2"]);
      expect((await api("GET", `/${id}/vms?ip=${vms[4].ip}`)).json().content[0].instanceId).toBe(vms[4].instanceId);
      expect((await api("GET", `/${id}/vms?instanceId=${vms[1].instanceId.slice(0, 8)}`)).json().totalElements).toBeGreaterThanOrEqual(1);
      expect((await api("GET", `/${id}/vms?sort=status,asc`)).status).toBe(400);
      expect((await api("GET", "/nope/vms")).status).toBe(404);
      await api("DELETE", `/${id}`);
      expect((await api("GET", `/${id}/vms`)).json()).toMatchObject({ totalElements: 0, totalPages: 0, empty: true, content: [] });
    });
  });

  describe("lifecycle", () => {
    test("long-running: Initializing on the virtual clock, Running after the transition (runningAt dated), stuck while reads say so", async () => {
      transition("cluster", "duration", 600_000);
      const id = await create();
      expect((await get(id)).status).toBe("Initializing");
      expect((await api("GET", `/${id}/vms`)).json().content[0].status).toBe("Initializing");
      cloud.control.advanceClock({ ms: 600_000 });
      expect(await get(id)).toMatchObject({ status: "Running", runningAt: START + 600_000, elapsedTime: 600_000 });
      transition("cluster", "reads", 1_000_000);
      const stuck = await create({ name: "stuck" });
      for (let i = 0; i < 3; i++) expect((await get(stuck)).status).toBe("Initializing");
    });

    test.each([
      ["never", false, "Running"],
      ["never", true, "Running"],
      ["onSuccess", false, "Terminated"],
      ["onSuccess", true, "Running"],
      ["always", false, "Terminated"],
      ["always", true, "Terminated"],
    ])("job cluster, policy %s, job fails: %s -> %s", async (policy, fails, end) => {
      transition("job", "duration", 3_600_000);
      const id = await create({ name: `job-${policy}`, ...job(policy) });
      if (fails) control("cluster", id, { failJob: "exit code 2" });
      expect(await get(id)).toMatchObject({
        status: "Running",
        isScalable: false,
        apiKeyStatus: "possible",
        userTask: { type: "hive", terminationPolicy: policy, logUrl: null },
      });
      cloud.control.advanceClock({ ms: 3_600_000 });
      const d = await get(id);
      expect(d.status).toBe(end);
      const record = cloud.control.getResource("hadoop", "cluster", id) as any;
      expect(record.job).toMatchObject({ phase: "done", outcome: fails ? "failed" : "succeeded", endedAt: START + 3_600_000 });
      if (end === "Terminated") {
        expect(d.statusReason).toMatch(fails ? /job failed: exit code 2/ : /job succeeded/);
        expect((await api("GET", `/${id}/vms`)).json().totalElements).toBe(0);
      }
    });

    test("a create made to fail ends Terminated with a reason, by name or while a cluster is Initializing", async () => {
      control("create-failure", "doomed", { reason: "no capacity for m2a.xlarge" });
      const id = await create({ name: "doomed" });
      expect(await get(id)).toMatchObject({ status: "Terminated", statusReason: "no capacity for m2a.xlarge", runningAt: null });
      cloud.control.deleteResource("hadoop", "create-failure", "doomed");
      transition("cluster", "reads", 1_000);
      const slow = await create({ name: "slow" });
      expect((await get(slow)).status).toBe("Initializing");
      transition("cluster", "immediate");
      control("cluster", slow, { failCreate: "quota exceeded" });
      expect(await get(slow)).toMatchObject({ status: "Terminated", statusReason: "quota exceeded" });
    });
  });

  describe("scale and delete", () => {
    test("scale (PATCH, and PUT /scale): Updating then Running with the new VMs; 409 unless Running and scalable; 400 on bad counts", async () => {
      transition("scale", "reads", 1);
      const id = await create({ workerCnt: 3 });
      const scaled = await api("PATCH", `/${id}`, { workerCnt: 5 });
      expect(scaled.status).toBe(200);
      expect(scaled.json()).toEqual({ id, name: "etl", status: "Updating" });
      expect(
        (await api("GET", `/${id}/vms?sort=name,asc`))
          .json()
          .content.filter((v: any) => v.status === "Initializing")
          .map((v: any) => v.name),
      ).toEqual(["HadoopWRK-etl-4", "HadoopWRK-etl-5"]);
      expect((await api("PATCH", `/${id}`, { workerCnt: 4 })).status).toBe(409);
      expect(await get(id)).toMatchObject({ status: "Running", workerCnt: 5, nodeCnt: 6 });
      expect((await api("PUT", `/${id}/scale`, { workerCnt: 2 })).json().status).toBe("Updating");
      await get(id);
      const vms = (await api("GET", `/${id}/vms`)).json().content;
      expect(vms.filter((v: any) => !v.isMaster).map((v: any) => v.name)).toEqual(["HadoopWRK-etl-1", "HadoopWRK-etl-2"]);
      expect((await api("PATCH", `/${id}`, { workerCnt: 1 })).json().message).toMatch(/^workerCnt/);
      expect((await api("PATCH", `/${id}`, { workerCnt: "many" })).status).toBe(400);
      expect((await api("PATCH", "/nope", { workerCnt: 3 })).status).toBe(404);
      const jobId = await create({ name: "jobby", ...job("never") });
      const notScalable = await api("PATCH", `/${jobId}`, { workerCnt: 3 });
      expect([notScalable.status, notScalable.json().code]).toEqual([409, "ClusterNotScalable"]);
      transition("cluster", "reads", 100);
      const init = await create({ name: "init" });
      expect((await api("PUT", `/${init}/scale`, { workerCnt: 3 })).json().code).toBe("ClusterNotRunning");
    });

    test("delete: Terminating then Terminated(User), still gettable and listed; deleting again is 200; unknown is 404", async () => {
      transition("terminate", "reads", 0);
      const id = await create();
      const deleted = await api("DELETE", `/${id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.json()).toEqual({ id, name: "etl", status: "Terminating" });
      expect((await api("DELETE", `/${id}`)).json().status).toBe("Terminating");
      expect(await get(id)).toMatchObject({ status: "Terminated(User)", statusReason: "Terminated by the user." });
      const again = await api("DELETE", `/${id}`);
      expect([again.status, again.json().status]).toEqual([200, "Terminated(User)"]);
      expect((await api("GET", "")).json().content.map((c: any) => c.status)).toEqual(["Terminated(User)"]);
      expect(cloud.control.inventory().filter((e) => e.service === "hadoop")).toEqual([]);
      expect((await api("DELETE", "/nope")).status).toBe(404);
    });
  });

  describe("API keys and re-runs", () => {
    test("re-run: 401 without the key, 403 with another, 400 unless Terminated; 202 and a request that goes Processing -> Success while the job runs again", async () => {
      const id = await create({ name: "nightly", ...job("always") });
      expect(await get(id)).toMatchObject({ status: "Terminated", apiKeyStatus: "possible" });
      const noKey = await api("POST", `/${id}`, {});
      expect([noKey.status, noKey.json().code]).toEqual([401, "ApiKeyRequired"]);
      expect((await api("POST", `/${id}`, {}, { "Hadoop-Service-Api-Key": "guess" })).status).toBe(403);
      const issued = control("api-key", id, {});
      expect(issued).toMatchObject({ clusterId: id, apiKey: expect.stringMatching(/^hsk-/), apiKeyStatus: "applied" });
      const key = { "Hadoop-Service-Api-Key": issued.apiKey as string };
      expect((await get(id)).apiKeyStatus).toBe("applied");
      expect((await api("POST", `/${id}`, {}, { "Hadoop-Service-Api-Key": "guess" })).json().code).toBe("InvalidApiKey");
      expect((await api("POST", `/${id}`, { instanceSpecs: [{ type: "WORKER", nodeCnt: 0 }] }, key)).json().message).toMatch(/^instanceSpecs\.0\.nodeCnt/);
      expect((await api("POST", `/${id}`, { config: { hdfsReplication: 3 } }, key)).json().message).toMatch(/WORKER\.nodeCnt/);

      transition("rerun", "reads", 1);
      transition("job", "duration", 60_000);
      const rerun = await api(
        "POST",
        `/${id}`,
        {
          instanceSpecs: [
            { type: "WORKER", nodeCnt: 4, volumeSize: 300 },
            { type: "TASK", nodeCnt: 2 },
          ],
          userTaskInfo: { execOpts: "--hiveconf x=1" },
        },
        key,
      );
      expect(rerun.status).toBe(202);
      const { requestId } = rerun.json();
      expect(rerun.json()).toEqual({ clusterId: id, clusterName: "nightly", requestId: expect.any(String) });
      expect(await get(id)).toMatchObject({
        status: "Running",
        workerCnt: 4,
        nodeCnt: 7,
        workerInfo: [{ volumeSize: 300 }],
        userTask: { execOpts: "--hiveconf x=1" },
      });
      expect((await api("POST", `/${id}`, {}, key)).json().code).toBe("ClusterNotTerminated");
      const pending = (await api("GET", `/${id}/requests/${requestId}`, undefined, key)).json();
      expect(pending).toEqual({ clusterId: id, clusterName: "nightly", requestId, requestStatus: "Processing", requestResult: "" });
      const done = (await api("GET", `/${id}/requests/${requestId}?verbose=true`, undefined, key)).json();
      expect(done).toMatchObject({
        requestStatus: "Success",
        requestResult: "The cluster was re-run.",
        clusterType: "hadoop",
        clusterVersion: "hde-2.0.1",
        isHa: false,
        keypairName: "kp",
      });
      expect(done.taskInfo).toEqual([expect.objectContaining({ nodeCnt: 2, flavorName: "m2a.2xlarge", instanceGroupId: expect.any(String) })]);
      expect(done.workerInfo[0]).toMatchObject({ nodeCnt: 4, volumeSize: 300 });
      expect(done.config).toEqual({ hdfsBlockSize: 128, hdfsReplication: 2, configText: null, userScript: null });
      cloud.control.advanceClock({ ms: 60_000 });
      expect((await get(id)).status).toBe("Terminated");
      expect((await api("GET", `/${id}/requests/${requestId}`)).status).toBe(401);
      expect((await api("GET", `/${id}/requests/nope`, undefined, key)).status).toBe(404);
      expect((await api("GET", `/${id}/requests/${requestId}?verbose=yes`, undefined, key)).status).toBe(400);
      const deleted = await create({ name: "deleted", ...job("never") });
      const deletedKey = { "Hadoop-Service-Api-Key": control("api-key", deleted, {}).apiKey as string };
      await api("DELETE", `/${deleted}`);
      expect((await api("POST", `/${deleted}`, undefined, deletedKey)).json()).toMatchObject({
        code: "ClusterNotTerminated",
        message: expect.stringMatching(/Terminated\(User\)/),
      });
    });

    test("a re-run made to fail: request Failure with the reason, cluster Terminated; long-running clusters cannot get a key", async () => {
      const id = await create({ name: "nightly", ...job("onSuccess") });
      const { apiKey } = control("cluster", id, { apiKey: "my-key", failCreate: "image missing" });
      expect(apiKey).toBe("my-key");
      await get(id);
      const rerun = await api("POST", `/${id}`, undefined, { "Hadoop-Service-Api-Key": "my-key" });
      expect(rerun.status).toBe(202);
      const r = (await api("GET", `/${id}/requests/${rerun.json().requestId}`, undefined, { "Hadoop-Service-Api-Key": "my-key" })).json();
      expect(r).toMatchObject({ requestStatus: "Failure", requestResult: "The re-run failed: image missing" });
      expect(await get(id)).toMatchObject({ status: "Terminated", statusReason: "image missing" });
      const plain = await create({ name: "plain" });
      expect(() => control("api-key", plain, {})).toThrow(expect.objectContaining({ status: 409, code: "ApiKeyImpossible" }));
    });
  });

  describe("job logs in object storage", () => {
    test("the log is written under hadoop-service/<cluster>/ in logBucketName and readable through the object storage API; no bucket, no log", async () => {
      const os = cloud.endpoints["object-storage"];
      const tokenAuth = { "X-Auth-Token": token };
      expect(
        (
          await call("PUT", `${os}/v1_ext/bucket`, {
            headers: { ...tokenAuth, ...JSON_HEADERS },
            body: JSON.stringify({ name: "pipeline-logs", type: "STANDARD" }),
          })
        ).status,
      ).toBe(200);
      const id = await create({ name: "nightly", ...job("onSuccess", { logBucketName: "pipeline-logs" }) });
      const d = await get(id);
      expect(d.status).toBe("Terminated");
      expect(d.userTask.logUrl).toBe("pipeline-logs/hadoop-service/nightly/2025-01-10T12-00-00-000Z.log");
      const log = await call("GET", `${os}/v1/${PROJECT}/${d.userTask.logUrl}`, { headers: tokenAuth });
      expect(log.status).toBe(200);
      expect(log.headers["content-type"]).toMatch(/^text\/plain/);
      expect(log.text).toMatch(/cluster: nightly/);
      expect(log.text).toMatch(/hiveQuery: select 1/);
      expect(log.text).toMatch(/result: job succeeded/);
      const orphan = await create({ name: "orphan", ...job("always", { logBucketName: "missing-bucket" }) });
      expect(await get(orphan)).toMatchObject({ status: "Terminated", userTask: { logUrl: null } });
    });
  });

  describe("control API", () => {
    test("drift of workerCnt and status, the record, deletion behind the API, unknown kinds, snapshot and restore", async () => {
      const id = await create();
      const drifted = control("cluster", id, { workerCnt: 4, isScalable: false });
      expect(drifted).toMatchObject({ workerCnt: 4, isScalable: false, projectId: PROJECT, phase: "running" });
      expect((await api("GET", `/${id}/vms`)).json().totalElements).toBe(5);
      expect((await api("PATCH", `/${id}`, { workerCnt: 5 })).status).toBe(409);
      const res = await call("PATCH", `${cloud.controlUrl}/resources/hadoop/cluster/${id}`, { body: JSON.stringify({ status: "Terminated(User)" }) });
      expect(res.json().status).toBe("Terminated(User)");
      expect((await call("PATCH", `${cloud.controlUrl}/resources/hadoop/cluster/${id}`, { body: JSON.stringify({ colour: "red" }) })).status).toBe(400);
      expect((await call("GET", `${cloud.controlUrl}/resources/hadoop/widget/${id}`)).json().code).toBe("NoSuchKind");
      const other = await create({ name: "kept" });
      cloud.control.deleteResource("hadoop", "cluster", id);
      expect((await api("GET", `/${id}`)).status).toBe(404);
      expect(cloud.control.inventory().filter((e) => e.service === "hadoop")).toEqual([{ service: "hadoop", kind: "cluster", id: other, projectId: PROJECT }]);
    });

    test("snapshot and restore: clusters, VMs, keys and pending transitions survive a restart", async () => {
      const dir = mkdtempSync(join(tmpdir(), "hadoop-emu-"));
      const persistPath = join(dir, "state.json");
      const first = await startLocalCloud({ port: 0, clock: () => START, persistPath });
      const cred = first.control.issueCredentials({ projectId: PROJECT, kind: "access-key" });
      const headers = { ...accessAuth(cred), ...JSON_HEADERS };
      first.control.setTransition({ service: "hadoop", kind: "job", mode: "duration", ms: 1000 });
      const id = (await call("POST", `${first.endpoints.hadoop}${CLUSTERS}`, { headers, body: JSON.stringify(body(job("always"))) })).json().id as string;
      first.control.patchResource("hadoop", "api-key", id, { apiKey: "k1" });
      const before = (await call("GET", `${first.endpoints.hadoop}${CLUSTERS}/${id}/vms`, { headers })).json();
      await first.close();
      const second = await startLocalCloud({ port: 0, clock: () => START, persistPath });
      try {
        const url = `${second.endpoints.hadoop}${CLUSTERS}/${id}`;
        expect((await call("GET", url, { headers })).json()).toMatchObject({ status: "Running", apiKeyStatus: "applied" });
        expect((await call("GET", `${url}/vms`, { headers })).json().content).toEqual(before.content);
        second.control.advanceClock({ ms: 1000 });
        expect((await call("GET", url, { headers })).json().status).toBe("Terminated");
      } finally {
        await second.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
