/**
 * `GET /_control/counters` reports how many service requests could change state (any method but
 * GET, HEAD and OPTIONS), in total and per project, so a test can prove that something (a drift
 * check, a refresh, a preview) sent none.
 */
import { request } from "undici";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";

let cloud: LocalCloud;

async function call(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<number> {
  const res = await request(url, { method: method as "GET", headers, body: body ?? null });
  await res.body.dump();
  return res.statusCode;
}

const counters = async (): Promise<{ total: number; mutating: { total: number; byProject: Record<string, number> } }> => {
  const res = await request(`${cloud.controlUrl}/counters`);
  return (await res.body.json()) as { total: number; mutating: { total: number; byProject: Record<string, number> } };
};

function tokenOf(projectId: string): Record<string, string> {
  const issued = cloud.control.issueCredentials({ projectId });
  return { "X-Auth-Token": issued.kind === "token" ? issued.token : "" };
}

beforeAll(async () => {
  cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
});
afterAll(async () => {
  await cloud.close();
});

test("reads and control calls count as no mutation; every other method counts, per project, whatever the answer; reset clears them", async () => {
  cloud.control.reset({ credentials: true });
  const a = tokenOf("count-a");
  const b = tokenOf("count-b");
  const os = cloud.endpoints["object-storage"]!;
  const json = { "Content-Type": "application/json" };

  expect(await call("PUT", `${os}/v1_ext/bucket`, { ...a, ...json }, JSON.stringify({ name: "count-a-1", type: "STANDARD" }))).toBe(200);
  expect(await call("PUT", `${os}/v1/count-b/count-b-1`, b)).toBe(201);
  expect(await call("POST", `${os}/v1/count-b/count-b-1`, { ...b, "X-Container-Meta-Team": "ops" })).toBe(204);
  // Refused, but it could have changed state: it counts.
  expect(await call("DELETE", `${os}/v1_ext/bucket/no-such-bucket`, a)).toBe(404);
  // No valid credential: in the total only.
  expect(await call("PUT", `${os}/v1_ext/bucket`, { ...json, "X-Auth-Token": "nope" }, "{}")).toBe(401);
  const afterWrites = await counters();
  expect(afterWrites.mutating).toEqual({ total: 5, byProject: { "count-a": 2, "count-b": 2 } });

  // Reads of every kind, and control calls, change nothing.
  expect(await call("GET", `${os}/v1_ext/bucket`, a)).toBe(200);
  expect(await call("HEAD", `${os}/v1/count-b/count-b-1`, b)).toBe(200);
  expect(await call("OPTIONS", `${os}/v1/count-b/count-b-1`, { Origin: "https://x.example", "Access-Control-Request-Method": "GET" })).toBe(403);
  expect(await call("GET", `${cloud.endpoints.cache!}/v1/clusters`, a)).toBe(200);
  expect(await call("PATCH", `${cloud.controlUrl}/resources/object-storage/bucket/count-a-1`, json, JSON.stringify({ metadata: { team: "drift" } }))).toBe(200);
  const afterReads = await counters();
  expect(afterReads.mutating).toEqual(afterWrites.mutating);
  expect(afterReads.total).toBe(afterWrites.total + 4);

  cloud.control.reset();
  expect((await counters()).mutating).toEqual({ total: 0, byProject: {} });
});
