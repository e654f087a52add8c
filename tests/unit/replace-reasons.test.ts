/**
 * A replacement says why before it happens: every property that can replace a resource has a
 * reason on its definition, the diff's warning names each property that forces it with that reason
 * (never its value: it may be secret), and the resources whose replacement loses data or changes
 * an endpoint say so. The CLI's display of these lines, on both doors, is
 * tests/engine/preview-reasons.test.ts.
 */
import { dynamicHostEngine } from "../../provider/core/engine-log";
import { buildProvider } from "../../provider/core/provider";
import { replaceReasonOf } from "../../provider/core/replacement";
import { AUTONAMED_KEY } from "../../provider/core/resource";
import { UNKNOWN } from "../../provider/core/unknown";
import { allDefinitions } from "../../provider/registry";
import { cluster } from "../../provider/cache/cluster";
import { instanceSet } from "../../provider/cache/instance-set";
import { hadoopCluster } from "../../provider/hadoop/cluster";
import { bucket } from "../../provider/objectstorage/bucket";

const recorded = {
  name: "sessions-15e1812",
  version: "7.0.15",
  port: 6379,
  flavorId: "redis.small",
  parameterGroupId: "pg-1",
  subnetIds: ["sn-a", "sn-b"],
  securityGroupIds: ["sg-1"],
  shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] }],
  tlsEnabled: false,
  user: { name: "app", password: "Old-password-1" },
  keepAutomaticBackups: true,
  adopt: false,
  status: "Running",
  primaryEndpoint: "127.0.0.1:40001",
  shardDetails: [],
  managedShardIds: ["s-1"],
};
/** The checked inputs of the same program: the name generated (check replaces it when the cluster is replaced). */
const program = (over: Record<string, unknown>) => {
  const { status: _s, primaryEndpoint: _p, shardDetails: _d, managedShardIds: _m, ...inputs } = recorded;
  return { ...inputs, [AUTONAMED_KEY]: true, ...over };
};

test("every reason a property gives for replacing ends the preview's sentence: lower-case, no full stop", () => {
  const misfits: string[] = [];
  for (const def of allDefinitions()) {
    for (const key of [...Object.keys(def.replaceOn), ...Object.keys(def.replaceIf ?? {})]) {
      const reason = replaceReasonOf(def, key);
      if (reason === undefined || !/^[a-z]/.test(reason) || reason.endsWith(".")) misfits.push(`${def.token}.${key}: ${reason}`);
    }
  }
  expect(misfits).toEqual([]);
});

test("the resources whose replacement loses data or an endpoint say so", () => {
  for (const def of [cluster, instanceSet, hadoopCluster, bucket]) expect(def.replacementLoses).toMatch(/lost|deletes them/);
  expect(cluster.replacementLoses).toMatch(/new endpoints.*no data/);
});

test("a rotated password of the cache user: the warning names user, says the API cannot change it, and what the replacement loses, without the password", async () => {
  const d = await buildProvider(cluster).diff(
    "cluster-f5104f1ce687",
    recorded,
    program({ name: "sessions-9a0b1c2", user: { name: "app", password: "New-password-2" } }),
  );
  expect(d.replaces).toEqual(expect.arrayContaining(["user"]));
  expect(d.warnings).toHaveLength(1);
  const w = d.warnings![0]!;
  expect(w).toMatch(
    /^cache cluster "sessions-15e1812" \(cluster-f5104f1ce687\) will be REPLACED: user changes, and the cache API has no operation that changes a cluster's user or password/,
  );
  expect(w).toMatch(
    /new endpoints .* no data; what this one holds is lost when it is deleted, unless `dataOnReplace: keep` moves it through a backup \(or .*restoreFromBackup\)/,
  );
  // The new generated name is the replacement's consequence, not its cause.
  expect(w).not.toMatch(/\bname changes/);
  expect(w).not.toContain("password-");
});

test("the warning names the cache as the progress lines of its operations do: its name, then its id (issue 38)", async () => {
  const d = await buildProvider(cluster).diff("cluster-1a2b", recorded, program({ name: "sessions-9a0b1c2", flavorId: "redis.large" }));
  // What cluster.ts's update and delete print: `cache cluster "<name>" (<id>)`.
  const progress = `cache cluster "${recorded.name}" (cluster-1a2b)`;
  expect(d.warnings![0]!.startsWith(`${progress} will be REPLACED`)).toBe(true);
  // A resource whose name is its id (a bucket) is named once.
  const b = await buildProvider(bucket).diff("logs", { name: "logs", acl: "private" }, { name: "logs-2", acl: "private" });
  expect(b.warnings![0]).toMatch(/^bucket "logs" will be REPLACED/);
});

test("a flavorId change names flavorId and the reason; several causes are all named", async () => {
  const one = await buildProvider(cluster).diff("cluster-1", recorded, program({ name: "sessions-9a0b1c2", flavorId: "redis.large" }));
  expect(one.warnings![0]).toMatch(
    /flavorId changes, and the cache API's cluster update \(PATCH\) changes only the description, backup schedule, parameter group and security groups\./,
  );
  const two = await buildProvider(cluster).diff("cluster-1", recorded, program({ name: "sessions-9a0b1c2", flavorId: "redis.large", port: 6380 }));
  expect(two.warnings![0]).toMatch(/port changes, .*; flavorId changes, /);
});

test("a value not known yet names the property as one that may change; a name the program sets is a cause", async () => {
  const unknown = await buildProvider(cluster).diff("cluster-1", recorded, program({ version: UNKNOWN }));
  expect(unknown.warnings![0]).toMatch(/version may change \(known only at apply\), and the cache API has no engine upgrade of a cluster/);
  const renamed = await buildProvider(cluster).diff("cluster-1", recorded, { ...program({ name: "sessions-2" }), [AUTONAMED_KEY]: undefined });
  expect(renamed.warnings![0]).toMatch(/REPLACED: name changes, and the cache API has no rename of a cluster/);
});

test("a change that replaces only in some cases gives its reason too: an existing shard's primary moved", async () => {
  const d = await buildProvider(cluster).diff("cluster-1", recorded, program({ shards: [{ primarySubnetId: "sn-b", replicaSubnetIds: ["sn-b"] }] }));
  expect(d.replaces).toEqual(["shards"]);
  expect(d.warnings![0]).toMatch(/REPLACED: shards changes, and an existing shard's primary cannot move to another subnet/);
});

test("an in-place change has no warning", async () => {
  const d = await buildProvider(cluster).diff("cluster-1", recorded, program({ securityGroupIds: ["sg-2"] }));
  expect(d.changes).toBe(true);
  expect(d.replaces).toEqual([]);
  expect(d.warnings).toBeUndefined();
});

test("the dynamic door sends its warnings to the engine the dynamic provider host was started with, and only there", () => {
  const host = "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js";
  expect(dynamicHostEngine(["node", host, "127.0.0.1:41234"])).toBe("127.0.0.1:41234");
  expect(dynamicHostEngine(["node", host.replace("/index.js", ""), "localhost:5000", "--flag"])).toBe("localhost:5000");
  // A test runner, the native plugin, a host started without an address: stderr instead.
  expect(dynamicHostEngine(["node", "/p/node_modules/.bin/jest", "127.0.0.1:41234"])).toBeUndefined();
  expect(dynamicHostEngine(["node", "/p/dist/bin/pulumi-resource-krcloud.js", "127.0.0.1:41234"])).toBeUndefined();
  expect(dynamicHostEngine(["node", host])).toBeUndefined();
});
