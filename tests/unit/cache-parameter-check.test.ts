/**
 * A ParameterGroup's values are checked against its base group's catalogue in `check`, so a bad
 * value fails the preview instead of the `up` after it. The catalogue is the cloud's: check reads
 * the base group (a GET, never a change), once per process and base group, and skips the check
 * while the base group or the parameters are unknown. A scripted loopback server stands in for the
 * service; the preview through the real CLI is tests/engine/preview-checks.test.ts.
 */
import { parameterGroup } from "../../provider/cache/parameter-group";
import { buildProvider } from "../../provider/core/provider";
import { UNKNOWN } from "../../provider/core/unknown";
import { useScriptedServer, type Seen } from "../support/servers/scripted";

const server = useScriptedServer();
const saved: Record<string, string | undefined> = {};
const ENV = ["KRCLOUD_LOCAL_CLOUD_URL", "KRCLOUD_AUTH_TOKEN", "KRCLOUD_PROJECT_ID"];
beforeAll(() => {
  for (const k of ENV) saved[k] = process.env[k];
  process.env.KRCLOUD_LOCAL_CLOUD_URL = server.origin;
  process.env.KRCLOUD_AUTH_TOKEN = "tok-unit";
  process.env.KRCLOUD_PROJECT_ID = "proj-unit";
});
afterAll(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

const CATALOGUE = [
  {
    parameterKey: "timeout",
    parameterType: "DYNAMIC",
    dataType: "INTEGER",
    editable: true,
    parameterValue: "0",
    defaultParameterValue: "0",
    validationValueFormat: "0~100000",
  },
  {
    parameterKey: "maxmemory-policy",
    parameterType: "DYNAMIC",
    dataType: "ENUM",
    editable: true,
    parameterValue: "noeviction",
    defaultParameterValue: "noeviction",
    validationValueFormat: "noeviction|allkeys-lru|volatile-lru",
  },
];

/** Answers GET of a base group: `known` ones with the catalogue, others 404. */
function serve(known: string[]): void {
  server.route = (r: Seen) => {
    const id = decodeURIComponent(/\/parameter-groups\/([^/?]+)$/.exec(r.url)?.[1] ?? "");
    if (r.method !== "GET" || !known.includes(id))
      return { status: 404, headers: { "Content-Type": "application/json" }, body: '{"code":"NotFound","message":"no such group"}' };
    return { status: 200, headers: { "Content-Type": "application/json" }, body: JSON.stringify({ id, name: id, isDefault: true, parameters: CATALOGUE }) };
  };
}

let n = 0;
/** A check as the engine makes it for a new group (each a resource of its own). */
const check = (inputs: Record<string, unknown>) =>
  buildProvider(parameterGroup).check({}, { __krcloudSeed: `urn:pulumi:dev::p::krcloud:cache:ParameterGroup::pg${++n}`, name: `params-${n}`, ...inputs });

test("a negative number, an unknown parameter and a value not in the enum fail check, all at once, each with its rule and saying the cloud was read", async () => {
  const base = `default.a${n}`;
  serve([base]);
  const r = await check({ baseParameterGroupId: base, parameters: { timeout: "-5", tiemout: "5", "maxmemory-policy": "most-recently-used" } });
  expect(r.failures?.map((f) => f.property)).toEqual(["parameters", "parameters", "parameters"]);
  const reasons = r.failures!.map((f) => f.reason).sort();
  expect(reasons[0]).toMatch(
    /^parameters\.maxmemory-policy: "most-recently-used" .*rule: one of noeviction\|allkeys-lru\|volatile-lru|^parameters\.maxmemory-policy: "most-recently-used" .*noeviction/,
  );
  expect(reasons[1]).toMatch(/^parameters\.tiemout: "5" is not a parameter of this group .*rule: unknown parameter/);
  expect(reasons[2]).toMatch(/^parameters\.timeout: "-5" .*0~100000/);
  for (const reason of reasons) expect(reason).toContain(`checked against the catalogue of base group "${base}", read from the cloud`);
  // Only reads.
  expect(server.seen.map((s) => s.method)).toEqual(["GET"]);
});

test("the base group is read once per process: more groups on the same base, and the second check the engine makes, send no other request", async () => {
  const base = `default.b${n}`;
  serve([base]);
  for (const timeout of ["10", "20", "-1"]) await check({ baseParameterGroupId: base, parameters: { timeout } });
  expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /cache/v1/parameter-groups/${base}`]);
  const other = `default.c${n}`;
  serve([base, other]);
  await check({ baseParameterGroupId: other, parameters: { timeout: "1" } });
  expect(server.seen).toHaveLength(2);
});

test("valid values pass; an unknown base group or unknown parameters skip the check without a request", async () => {
  const base = `default.d${n}`;
  serve([base]);
  expect((await check({ baseParameterGroupId: base, parameters: { timeout: "300", "maxmemory-policy": "allkeys-lru" } })).failures).toBeUndefined();
  server.reset();
  expect((await check({ baseParameterGroupId: UNKNOWN, parameters: { timeout: "-5" } })).failures).toBeUndefined();
  expect((await check({ baseParameterGroupId: `default.e${n}`, parameters: UNKNOWN })).failures).toBeUndefined();
  expect((await check({ baseParameterGroupId: `default.f${n}`, parameters: {} })).failures).toBeUndefined();
  expect(server.seen).toEqual([]);
});

test("a base group the cloud does not have fails on baseParameterGroupId; a cloud that cannot be read fails check saying the check reads it", async () => {
  serve([]);
  const missing = await check({ baseParameterGroupId: `default.g${n}`, parameters: { timeout: "1" } });
  expect(missing.failures).toEqual([
    {
      property: "baseParameterGroupId",
      reason: expect.stringMatching(
        /^baseParameterGroupId: there is no parameter group "default\.g\d+" \(read from the cloud to check the parameters; krcloud\.cache\.getParameterGroups lists them\)$/,
      ),
    },
  ]);
  server.route = () => ({ status: 403, headers: { "Content-Type": "application/json" }, body: '{"code":"Forbidden","message":"not permitted"}' });
  await expect(check({ baseParameterGroupId: `default.h${n}`, parameters: { timeout: "1" } })).rejects.toThrow(
    /checking the parameters of cache parameter group "params-\d+": this check reads the base group "default\.h\d+" from the cloud: .*403/,
  );
});
