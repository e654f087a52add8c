/**
 * Replacements as the engine runs them: after a diff that replaces, the engine checks the resource
 * a second time without its old inputs and creates what that second check returns
 * (sim-stack.ts). With create keys derived from the URN alone, that second check gave a
 * replacement the key of the first create: an auto-named resource met the resource it replaces
 * under the same name, took it over, and the engine then deleted it (a ghost in state, nothing in
 * the cloud); a changed query took over the first run and never ran the new SQL. For each type with
 * a generated name or a create key, and for a shard (no name): a change of a replace-on property,
 * and where the type has one, of a secret one alone.
 */
import { compareState, cloudView, MatrixEnv, type MatrixProject } from "../support/faults/matrix";
import { SQL } from "../resources/dataquery/query";
import { ADMIN_PASSWORD, smallCluster } from "../resources/hadoop/cluster";
import { SimStack, type Declared, type Props } from "../support/faults/sim-stack";

jest.setTimeout(60_000);

let env: MatrixEnv;

beforeAll(async () => {
  env = await MatrixEnv.start();
});

afterAll(async () => {
  await env?.close();
});

const SUBNETS = ["sn-a", "sn-b", "sn-c"];
const cache = (over: Props) => ({
  version: "7.0.15",
  flavorId: "redis.small",
  subnetIds: SUBNETS,
  securityGroupIds: ["sg-1"],
  user: { name: "app", password: "Pw-one-1" },
  ...over,
});
const cluster = (over: Props = {}) =>
  cache({ parameterGroupId: "default.redis7.0.cluster", shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] }], ...over });
const instanceSet = (over: Props = {}) => cache({ parameterGroupId: "default.redis7.0.standalone", primarySubnetId: "sn-a", replicaSubnetIds: [], ...over });
const hadoop = (over: Props = {}) => ({ ...smallCluster, adminPassword: ADMIN_PASSWORD, ...over });
const dataSource = (p: MatrixProject, over: Props = {}) => ({ type: "MYSQL", instanceId: p.instanceId, username: "reader", password: "Pw-one-1", ...over });

interface Case {
  name: string;
  token: string;
  deps?: (p: MatrixProject) => Declared[];
  before: (p: MatrixProject, s: SimStack) => Props;
  after: (p: MatrixProject, s: SimStack) => Props;
  /** What the cloud must show of the replacement (its recorded outputs, read again). */
  shows: Props;
}

/** A case of `token` declared with `args()` first, then with `args(change)`. */
const changed = (name: string, token: string, args: (over: Props, p: MatrixProject) => Props, change: Props, shows: Props): Case => ({
  name,
  token,
  before: (p) => args({}, p),
  after: (p) => args(change, p),
  shows,
});

const CASES: Case[] = [
  {
    name: "ParameterGroup, new base group",
    token: "krcloud:cache:ParameterGroup",
    before: () => ({ baseParameterGroupId: "default.redis7.0.cluster", parameters: { "maxmemory-policy": "allkeys-lru" } }),
    after: () => ({ baseParameterGroupId: "default.redis7.2.cluster", parameters: { "maxmemory-policy": "allkeys-lru" } }),
    shows: { baseParameterGroupId: "default.redis7.2.cluster" },
  },
  changed("Cluster, new flavor", "krcloud:cache:Cluster", cluster, { flavorId: "redis.medium" }, { flavorId: "redis.medium" }),
  changed(
    "Cluster, new user password only (a secret: a new name too)",
    "krcloud:cache:Cluster",
    cluster,
    { user: { name: "app", password: "Pw-two-2" } },
    { flavorId: "redis.small" },
  ),
  changed("InstanceSet, new flavor", "krcloud:cache:InstanceSet", instanceSet, { flavorId: "redis.medium" }, { flavorId: "redis.medium" }),
  {
    name: "Shard, new primary subnet (no name)",
    token: "krcloud:cache:Shard",
    deps: () => [{ logical: "cluster", token: "krcloud:cache:Cluster", args: cluster() }],
    before: (_p, s) => ({ clusterId: s.id("cluster"), primarySubnetId: "sn-b" }),
    after: (_p, s) => ({ clusterId: s.id("cluster"), primarySubnetId: "sn-c" }),
    shows: { primarySubnetId: "sn-c" },
  },
  changed(
    "DataSource, new description",
    "krcloud:dataquery:DataSource",
    (over, p) => dataSource(p, { description: "one", ...over }),
    { description: "two" },
    { description: "two" },
  ),
  changed(
    "DataSource, new password only (a secret: a new name too)",
    "krcloud:dataquery:DataSource",
    (over, p) => dataSource(p, over),
    { password: "Pw-two-2" },
    { type: "MYSQL" },
  ),
  {
    name: "Query, new SQL",
    token: "krcloud:dataquery:Query",
    deps: (p) => [{ logical: "sales", token: "krcloud:dataquery:DataSource", args: dataSource(p) }],
    before: (p, s) => ({ query: SQL, dataSource: s.id("sales"), database: "shop", bucketName: p.resultBucket, captureRows: 5 }),
    after: (p, s) => ({ query: "select count(*) as n from orders", dataSource: s.id("sales"), database: "shop", bucketName: p.resultBucket, captureRows: 5 }),
    shows: { rows: [["3"]], state: "FINISHED" },
  },
  changed(
    "Hadoop Cluster, new worker flavor",
    "krcloud:hadoop:Cluster",
    hadoop,
    { workerFlavorName: "m2a.2xlarge" },
    { workerFlavorName: "m2a.2xlarge", status: "Running" },
  ),
  changed(
    "Hadoop Cluster, new admin password only (a secret: a new name too)",
    "krcloud:hadoop:Cluster",
    hadoop,
    { adminPassword: "Adm1n-Pw-2!" },
    { status: "Running" },
  ),
];

test.each(CASES.map((c) => [c.name, c] as const))("%s: the replacement exists, what it replaced is gone, state and cloud agree", async (_name, c) => {
  const p = await env.project(c.token.split(":")[2]!);
  const stack = new SimStack(p.id, (token) => env.resource(token));
  const program = (args: Case["before"]): Declared[] => [...(c.deps?.(p) ?? []), { logical: "target", token: c.token, args: (s) => args(p, s) }];
  await stack.up(program(c.before));
  const first = stack.entries.get("target")!;

  const steps = await stack.up(program(c.after));
  expect(steps.target).toBe("replace");
  const state = [...stack.entries.values()];
  expect(compareState(state, await cloudView(await env.inventory(), p, state), stack.createKeys)).toEqual({ orphans: [], duplicates: [], ghosts: [] });

  const replacement = stack.entries.get("target")!;
  expect(replacement.id).not.toBe(first.id);
  await stack.refresh();
  expect(stack.entries.get("target")!.outputs).toMatchObject(c.shows);
  expect(Object.values(await stack.plan(program(c.after)))).toEqual(expect.not.arrayContaining(["create", "update", "replace", "delete"]));
  if (c.token === "krcloud:dataquery:Query") {
    // Both SQL texts ran, once each; the state holds the new run.
    const runs = await p.dq.listQueries({ size: 10 });
    expect(runs.map((r) => r.queryInfo.queryTextPreview?.replace(/^\/\*k:[0-9a-z]{13}\*\/ /, "")).sort()).toEqual(
      [SQL, "select count(*) as n from orders"].sort(),
    );
    expect(runs.find((r) => r.queryInfo.queryTextPreview?.endsWith("from orders"))?.queryInfo.queryId).toBe(replacement.id);
  }
});

test("a query changed back to an earlier SQL runs again: each replacement has a key of its own, never an earlier run's", async () => {
  const p = await env.project("dataquery");
  const stack = new SimStack(p.id, (token) => env.resource(token));
  const query = (sql: string): Declared[] => [
    { logical: "sales", token: "krcloud:dataquery:DataSource", args: () => dataSource(p) },
    {
      logical: "target",
      token: "krcloud:dataquery:Query",
      args: (s) => ({ query: sql, dataSource: s.id("sales"), database: "shop", bucketName: p.resultBucket }),
    },
  ];
  await stack.up(query(SQL));
  const first = stack.entries.get("target")!.id;
  await stack.up(query("select count(*) as n from orders"));
  expect((await stack.up(query(SQL))).target).toBe("replace");
  const third = stack.entries.get("target")!.id;
  expect(third).not.toBe(first);
  const runs = await p.dq.listQueries({ size: 10 });
  expect(runs).toHaveLength(3);
  expect(runs.map((r) => r.queryInfo.queryId)).toContain(third);
});
