/**
 * Reads answered from list pages (provider/core/list-reads.ts), counted in the local cloud's request
 * log: reads of a type that declares `readsFromList` arriving together make one walk of its list
 * instead of one GET each, on the dynamic door and through the native plugin's Read; a read alone
 * stays one GET; one missing from the listing is confirmed by its own GET before it is called gone;
 * a write of the type drops what is kept; a type that declares `no` stays one read per resource.
 *
 * The keep is measured on a fake clock and the batch window is wide, so that the counts do not
 * depend on how fast the reads reach the loader: a read that comes after the walk's answer is
 * served by the kept walk, as one in its batch is (each test's creates have signed in already).
 */
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { READS_FROM_LIST_ENV, setListReadTiming, type ListReadTiming } from "../../provider/core/list-reads";
import { listen } from "../../provider/plugin/server";
import { findDefinition } from "../../provider/registry";
import { BASE, clusterArgs } from "../support/cache";
import { cacheBedForFile } from "../support/local-cloud/per-file";
import type { EngineResource, ResourceState, TestCloud } from "../support/local-cloud";

let tc: TestCloud;
let cluster: EngineResource;
let pg: EngineResource;
let backup: EngineResource;
let now = 0;
let saved: ListReadTiming;

cacheBedForFile({ cacheEngine: "simulated", reset: true }, (bed) => ({ tc, cluster, pg } = bed));
beforeAll(async () => {
  backup = await tc.resource("krcloud:cache:Backup");
});
beforeEach(() => {
  now = 0;
  saved = setListReadTiming({ windowMs: 100, keepMs: 60_000, now: () => now });
});
afterEach(() => {
  setListReadTiming(saved);
  delete process.env[READS_FROM_LIST_ENV];
});

/** A cluster and `n` on-demand backups of it, made through the provider (each a write of the type). */
async function backups(n: number): Promise<ResourceState[]> {
  const source = await cluster.up(clusterArgs());
  const made: ResourceState[] = [];
  for (let i = 0; i < n; i++) made.push(await backup.up({ clusterId: source.id, name: `nightly-${i}` }, `b${i}`));
  return made;
}

const refreshAll = (r: EngineResource, states: ResourceState[]) => Promise.all(states.map((s) => r.refresh(s)));

test("reads of a type that arrive together make one walk of its list, not one GET each, with the same outputs", async () => {
  const states = await backups(6);
  process.env[READS_FROM_LIST_ENV] = "off";
  let before = tc.counts();
  const each = await refreshAll(backup, states);
  expect(tc.countsSince(before)).toEqual({ GetBackup: 6 });
  delete process.env[READS_FROM_LIST_ENV];

  before = tc.counts();
  const listed = await refreshAll(backup, states);
  expect(tc.countsSince(before)).toEqual({ ListBackups: 1 });
  expect(listed).toEqual(each);
});

test("a read alone stays one GET", async () => {
  const [state] = await backups(1);
  const before = tc.counts();
  expect((await backup.refresh(state!))?.outputs.name).toBe("nightly-0");
  expect(tc.countsSince(before)).toEqual({ GetBackup: 1 });
});

test("one missing from the listing is read by its own GET before it is called gone; the others come from the walk", async () => {
  const states = await backups(4);
  expect((await tc.controlApi("DELETE", `/resources/cache/backup/${states[2]!.id}`)).status).toBe(204);
  const before = tc.counts();
  const read = await refreshAll(backup, states);
  expect(read.map((r) => r?.outputs.name)).toEqual(["nightly-0", "nightly-1", undefined, "nightly-3"]);
  expect(tc.countsSince(before)).toEqual({ ListBackups: 1, GetBackup: 1 });
});

test("a walk is kept for later reads until a write of the type or the keep's end; then reads walk again", async () => {
  const states = await backups(3);
  let before = tc.counts();
  await refreshAll(backup, states);
  await refreshAll(backup, states);
  expect(tc.countsSince(before)).toEqual({ ListBackups: 1 });

  // A write of the type in this process (a create) drops the kept walk: the next reads list again and see it.
  const made = await backup.up({ clusterId: states[0]!.outputs.clusterId, name: "extra" }, "extra");
  before = tc.counts();
  const after = await refreshAll(backup, [...states, made]);
  expect(after.map((r) => r?.outputs.name)).toEqual(["nightly-0", "nightly-1", "nightly-2", "extra"]);
  expect(tc.countsSince(before)).toEqual({ ListBackups: 1 });

  // The keep's end (on the fake clock): the next reads walk again.
  now += 60_000;
  before = tc.counts();
  await refreshAll(backup, states);
  expect(tc.countsSince(before)).toEqual({ ListBackups: 1 });
});

test("a type that declares no (a parameter group: its parameters need their own GET) stays one read per resource", async () => {
  expect(findDefinition("krcloud:cache:ParameterGroup")?.readsFromList).toMatchObject({ no: expect.stringMatching(/parameters/) });
  const states = [];
  for (const name of ["pg-a", "pg-b", "pg-c"]) states.push(await pg.up({ name, baseParameterGroupId: BASE.cluster }, name));
  const before = tc.counts();
  await refreshAll(pg, states);
  expect(tc.countsSince(before).GetParameterGroup).toBe(3);
});

test("through the native plugin's Read: reads that arrive together make one walk", async () => {
  const states = await backups(5);
  const { server, port } = await listen();
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const rpc = <Req, Res>(method: string, req: Req) =>
    new Promise<Res>((resolve, reject) =>
      (client as unknown as Record<string, (r: Req, cb: (e: grpc.ServiceError | null, r: Res) => void) => void>)[method]!(req, (e, r) =>
        e ? reject(e) : resolve(r),
      ),
    );
  const struct = (p: Record<string, unknown>) => structproto.Struct.fromJavaScript(p as Record<string, structproto.JavaScriptValue>);
  try {
    const configure = new provproto.ConfigureRequest();
    configure.setArgs(
      struct({
        localCloudUrl: tc.config["krcloud:localCloudUrl"],
        projectId: tc.projectId,
        authToken: tc.config["krcloud:authToken"],
        version: "0.1.0",
      }),
    );
    await rpc("configure", configure);
    const read = (s: ResourceState, i: number) => {
      const req = new provproto.ReadRequest();
      req.setUrn(`urn:pulumi:test::native::krcloud:cache:Backup::b${i}`);
      req.setType("krcloud:cache:Backup");
      req.setName(`b${i}`);
      req.setId(s.id);
      req.setProperties(struct(JSON.parse(JSON.stringify({ ...s.outputs, __provider: undefined })) as Record<string, unknown>));
      return rpc<provproto.ReadRequest, provproto.ReadResponse>("read", req);
    };
    const before = tc.counts();
    const answers = await Promise.all(states.map(read));
    expect(answers.map((a) => a.getProperties()?.toJavaScript().name)).toEqual(states.map((s) => s.outputs.name));
    expect(tc.countsSince(before)).toEqual({ ListBackups: 1 });
  } finally {
    client.close();
    server.forceShutdown();
  }
});
