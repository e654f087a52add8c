/**
 * CacheClient against a scripted loopback server: its helpers (find, the topologies), the ids and
 * project it refuses before sending, and what the client exports of it.
 */
import { resolveSettings } from "../../client/core";
import { CacheClient, isInvalidArgument } from "../../client/cache";
import * as sdk from "../../client";
import { rejection } from "../support/assertions";
import { cacheBase, cacheClient, clock, setInput, TOKEN } from "../support/cache/wire";
import * as fx from "../support/cache/answers";
import { jsonReply as json, useScriptedServer } from "../support/servers/scripted";

const srv = useScriptedServer();
const client = () => cacheClient(srv);

// ---------------------------------------------------------------------------------------------
// Helpers

test("findClusterById returns undefined on 404 and the record otherwise; other errors propagate", async () => {
  const c = client();
  srv.route = () => json(404, { message: "no such cluster" });
  expect(await c.findClusterById("gone")).toBeUndefined();
  expect(await sdk.cache.findClusterById(c, "gone")).toBeUndefined();
  srv.route = () => json(200, fx.clusterRecord);
  expect((await c.findClusterById("c-100"))?.name).toBe("web");
  srv.route = () => json(401, { message: "expired" });
  expect((await rejection(c.findClusterById("c-100"))).status).toBe(401);
});

test("empty ids are refused before sending (they would address the collection)", async () => {
  const c = client();
  expect(isInvalidArgument(await rejection(c.clusters.get("")))).toBe(true);
  expect(isInvalidArgument(await rejection(c.shards.delete("c-1", " ")))).toBe(true);
  expect(isInvalidArgument(await rejection(c.clusters.update("c-1", { parameterGroupId: "" })))).toBe(true);
  expect(isInvalidArgument(await rejection(c.parameterGroups.modify("pg", { parameters: { timeout: "1" } })))).toBe(true);
  expect(srv.seen).toHaveLength(0);
});

test("ids are percent-encoded as one path segment", async () => {
  srv.route = () => json(200, fx.parameterGroupDetail);
  await client().parameterGroups.get("my group/1");
  expect(srv.seen[0]!.url).toBe("/cache/v1/parameter-groups/my%20group%2F1");
});

test("an instance set without a project ID in input or settings is refused before sending", async () => {
  const c = new CacheClient({ settings: resolveSettings({ authToken: TOKEN, endpoints: { cache: cacheBase(srv) } }, () => undefined, {}), clock });
  expect(isInvalidArgument(await rejection(c.instanceSets.create(setInput)))).toBe(true);
  expect(srv.seen).toHaveLength(0);
});

test("clusterTopology lists shards (numeric id order) and fetches nodes only for shards listed without them", async () => {
  srv.route = (r) => {
    if (r.url.endsWith("/shards")) return json(200, { shards: [{ id: "s-1", slots: "0-16383", status: "Running" }, fx.shards.shards[0]] });
    return json(200, { nodes: [fx.node("n-1", "primary"), fx.node("n-2", "replica")] });
  };
  const t = await client().clusterTopology("c-100");
  expect(srv.seen.map((s) => new URL(s.url, "http://x").pathname)).toEqual(["/cache/v1/clusters/c-100/shards", "/cache/v1/clusters/c-100/shards/s-1/nodes"]);
  expect(t.shards.map((s) => [s.id, s.primary?.id, s.replicas.map((n) => n.id)])).toEqual([
    ["s-1", "n-1", ["n-2"]],
    ["s-0002", "n-20", ["n-21"]],
  ]);
  expect(t.settled).toBe(false);
});

test("instanceSetTopology reads {size, data}", async () => {
  srv.route = () => json(200, fx.instances);
  const t = await client().instanceSetTopology("is-200");
  expect(t.primary?.id).toBe("i-1");
  expect(t.failed.map((i) => i.id)).toEqual(["i-3"]);
});

test("the client exports the cache namespace and CacheClient", () => {
  expect(sdk.CacheClient).toBe(CacheClient);
  expect(typeof sdk.cache.validateParameterValues).toBe("function");
});
