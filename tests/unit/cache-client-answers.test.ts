/**
 * CacheClient against a scripted loopback server: how the spec's answers are read, where its text
 * and tables contradict each other (docs/api-assumptions.md, Cache) and in its error bodies, whose
 * format it does not show; what is retried. No sleeps: the fake clock makes transport retries
 * instant.
 */
import { isConflict, isNotFound } from "../../client/core";
import { isResponseFormatError, PARAMETER_GROUP_CREATE } from "../../client/cache";
import { rejection } from "../support/assertions";
import { cacheClient, clusterInput, ok, setInput, TOKEN, wire } from "../support/cache/wire";
import * as fx from "../support/cache/answers";
import { jsonReply as json, useScriptedServer } from "../support/servers/scripted";

const srv = useScriptedServer();
const client = () => cacheClient(srv);

// ---------------------------------------------------------------------------------------------
// Readings of the spec's contradictions (docs/api-assumptions.md, Cache)

test("§4.2 restore: backupName (sample) and backupNames (field table) both carry the backup", async () => {
  srv.route = () => ok("c-101", 201);
  await client().clusters.restore(clusterInput, "bk-1");
  expect(wire(srv.seen[0]!).body.restoreSource).toEqual({ backupName: "bk-1", backupNames: "bk-1" });
});

test.each([200, 201])("§4 creates accept %i (201 in the text, 200 in the status tables)", async (status) => {
  srv.route = () => ok("x-1", status);
  const c = client();
  expect(await c.clusters.create(clusterInput)).toEqual({ id: "x-1" });
  expect(await c.instanceSets.create(setInput)).toEqual({ id: "x-1" });
  expect(await c.parameterGroups.create({ parameterGroupId: "pg-1", name: "n" })).toEqual({ id: "x-1" });
  expect(await c.shards.add("c", { nodeCount: 1, subnetAssignment: { primary: { id: "a" }, replicas: [] } })).toEqual({ id: "x-1" });
  expect(await c.nodes.addReplica("c", "s", { subnet: { id: "a" } })).toEqual({ id: "x-1" });
});

test("§4.4 parameter group create: the chosen method and path live in one constant", () => {
  expect(PARAMETER_GROUP_CREATE).toEqual({ method: "POST", path: "/v1/parameter-groups" });
});

test("a create whose answer has no objectId is a format error (nothing to track); other answers fall back to the addressed id", async () => {
  srv.route = () => json(201, { something: "else" });
  expect(isResponseFormatError(await rejection(client().clusters.create(clusterInput)))).toBe(true);
  srv.route = () => ({ status: 200 });
  expect(await client().clusters.delete("c-7")).toEqual({ id: "c-7" });
  srv.route = () => json(200, { id: 42 });
  expect(await client().clusters.update("c-7", { description: "x" })).toEqual({ id: "42" });
});

test("a non-JSON success body is a format error naming the action", async () => {
  srv.route = () => ({ status: 200, body: "<html>gateway</html>" });
  const err = await rejection(client().clusters.get("c-1"));
  expect(isResponseFormatError(err)).toBe(true);
  expect(err.message).toMatch(/^reading cache cluster "c-1": the answer is not JSON/);
});

// ---------------------------------------------------------------------------------------------
// Errors (§7: body format not shown)

test("a {code, message, requestId} error body maps to apiCode, apiMessage, requestId and isNotFound", async () => {
  srv.route = () => json(404, { code: "ClusterNotFound", message: "cluster c-9 does not exist", requestId: "req-1" });
  const err = await rejection(client().clusters.get("c-9"));
  expect(isNotFound(err)).toBe(true);
  expect(err).toMatchObject({
    status: 404,
    apiCode: "ClusterNotFound",
    apiMessage: "cluster c-9 does not exist",
    requestId: "req-1",
    service: "cache",
    operation: "GetCluster",
  });
  expect(err.message).toMatch(/^reading cache cluster "c-9": 404 ClusterNotFound: cluster c-9 does not exist/);
});

test.each([
  ["OpenStack envelope", { conflictingRequest: { code: 409, message: "name web already exists" } }, "conflictingRequest", "name web already exists"],
  [
    "errorCode/errorMessage",
    { errorCode: "DUPLICATE_NAME", errorMessage: "name web already exists", request_id: "r-2" },
    "DUPLICATE_NAME",
    "name web already exists",
  ],
  ["RFC 7807", { title: "Conflict", detail: "name web already exists", status: 409 }, "Conflict", "name web already exists"],
])("a %s error body is read into apiCode and apiMessage, keeping isConflict", async (_n, body, code, message) => {
  srv.route = () => json(409, body);
  const err = await rejection(client().clusters.create(clusterInput));
  expect(isConflict(err)).toBe(true);
  expect(err.apiCode).toBe(code);
  expect(err.apiMessage).toBe(message);
  expect(err.message).toMatch(/^creating cache cluster "web": 409/);
  expect(err.earlierAttemptMayHaveApplied).toBe(false);
});

test("the request id from the body's request_id is kept when no header carries one", async () => {
  srv.route = () => json(400, { errorCode: "BAD", errorMessage: "bad", request_id: "r-9" });
  expect((await rejection(client().clusters.get("c"))).requestId).toBe("r-9");
});

test("a plain text error body becomes the apiMessage", async () => {
  srv.route = () => ({ status: 403, body: "forbidden for this project" });
  const err = await rejection(client().parameterGroups.list());
  expect(err).toMatchObject({ status: 403, apiMessage: "forbidden for this project" });
});

test("neither the token nor the database password appears in error messages or fields", async () => {
  srv.route = (r) => json(422, { errorCode: "INVALID_PASSWORD", errorMessage: `token ${TOKEN} body ${r.body}` });
  const err = await rejection(client().clusters.create({ ...clusterInput, user: { name: "app", password: "hash-PASSWORD-123" } }));
  expect(err.status).toBe(422);
  for (const text of [err.message, err.apiMessage, err.stack]) {
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("hash-PASSWORD-123");
  }
  expect(JSON.parse(srv.seen[0]!.body).user).toEqual({ name: "app", password: "hash-PASSWORD-123" });
});

test("GETs are retried after a 503; creates are not (they are declared not idempotent)", async () => {
  let n = 0;
  srv.route = () => (++n === 1 ? json(503, { message: "busy" }) : json(200, fx.clusterRecord));
  expect((await client().clusters.get("c-100")).id).toBe("c-100");
  expect(srv.seen).toHaveLength(2);
  srv.seen.length = 0;
  srv.route = () => json(503, { message: "busy" });
  expect((await rejection(client().clusters.create(clusterInput))).status).toBe(503);
  expect(srv.seen).toHaveLength(1);
});
