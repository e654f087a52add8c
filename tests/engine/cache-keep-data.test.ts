/**
 * `dataOnReplace: keep` through the real CLI, on both doors (the TypeScript classes, and the native
 * plugin from a YAML program), on the local cloud's real redis-server nodes: a cluster of two
 * shards and an instance set; then `version` (to a newer one), then `flavorId`, then the user's
 * password change, each replacing both. After each `up`: every key is on the new endpoints with
 * the checksum it had, the old ones are gone, the local cloud holds exactly what the state names
 * (each cache and the backup its replacement took: 0 orphans), and `preview --expect-no-changes`
 * passes. Then previews refused, naming the rule, with no request that changes anything: an older
 * version, a flavor the data (a backup the cloud reports at 2.7 GiB) would fill. Destroy leaves nothing.
 *
 * Each door's cluster holds 100,000 keys across its shards, each instance set 10,000, so the file
 * stays a few minutes in `make test` (CI's budget: the whole suite under 45 minutes on 2 cores;
 * 3 min 24 s for this file at a load average of 4).
 * The timings are `make bench`'s (bench/cache-replacement.ts).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { cacheClient, contents, expectedChecksum, writeKeys } from "../harness/cache-data";
import { ENGINE_TEST_TIMEOUT_MS, stateResources } from "../harness/engine";
import { engineFile, jsProgram, yamlProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "cache-keep-data", project: "keep", yaml: true, plugin: true });

/** Keys written to each cache, by door and cache. */
const KEYS: Record<string, { sessions: number; queue: number }> = {
  typescript: { sessions: 100_000, queue: 10_000 },
  yaml: { sessions: 100_000, queue: 10_000 },
};

const TS = jsProgram(
  "keep-ts",
  [
    "const config = new pulumi.Config();",
    'const version = config.require("version");',
    'const group = config.require("group");',
    'const flavorId = config.require("flavor");',
    'const user = { name: "app", password: config.requireSecret("password") };',
    'const common = { version, flavorId, subnetIds: ["sn-a", "sn-b"], securityGroupIds: ["sg-1"], user, dataOnReplace: "keep" };',
    'const sessions = new krcloud.cache.Cluster("sessions", { ...common, parameterGroupId: `default.redis${group}.cluster`,',
    '  shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: [] }, { primarySubnetId: "sn-b", replicaSubnetIds: [] }] });',
    'const queue = new krcloud.cache.InstanceSet("queue", { ...common, parameterGroupId: `default.redis${group}.standalone`,',
    '  primarySubnetId: "sn-a", replicaSubnetIds: [] });',
    "exports.sessionsEndpoint = sessions.primaryEndpoint;",
    "exports.queueEndpoint = queue.primaryEndpoint;",
  ],
  { pulumi: true },
);

const YAML = yamlProgram("keep-yaml", [
  "configuration:",
  "  version: { type: string }",
  "  group: { type: string }",
  "  flavor: { type: string }",
  "  password: { type: string, secret: true }",
  "resources:",
  "  sessions:",
  "    type: krcloud:cache:Cluster",
  "    properties:",
  "      version: ${version}",
  "      flavorId: ${flavor}",
  "      parameterGroupId: default.redis${group}.cluster",
  "      subnetIds: [sn-a, sn-b]",
  "      securityGroupIds: [sg-1]",
  "      shards:",
  "        - { primarySubnetId: sn-a, replicaSubnetIds: [] }",
  "        - { primarySubnetId: sn-b, replicaSubnetIds: [] }",
  "      user: { name: app, password: '${password}' }",
  "      dataOnReplace: keep",
  "  queue:",
  "    type: krcloud:cache:InstanceSet",
  "    properties:",
  "      version: ${version}",
  "      flavorId: ${flavor}",
  "      parameterGroupId: default.redis${group}.standalone",
  "      subnetIds: [sn-a, sn-b]",
  "      securityGroupIds: [sg-1]",
  "      primarySubnetId: sn-a",
  "      replicaSubnetIds: []",
  "      user: { name: app, password: '${password}' }",
  "      dataOnReplace: keep",
  "outputs:",
  "  sessionsEndpoint: ${sessions.primaryEndpoint}",
  "  queueEndpoint: ${queue.primaryEndpoint}",
]);

interface Settings {
  version: string;
  group: string;
  flavor: string;
  password: string;
}
const FIRST: Settings = { version: "7.0.15", group: "7.0", flavor: "redis.small", password: "Pw-one-1" };
/** The three changes, one `up` each: a newer engine, a bigger flavor, a rotated password. */
const CHANGES: [string, Partial<Settings>][] = [
  ["version", { version: "7.2.4", group: "7.2" }],
  ["flavorId", { flavor: "redis.medium" }],
  ["user", { password: "Pw-two-2" }],
];

/** Requests of the operations that change something, counted by the local cloud so far. */
async function mutating(): Promise<Record<string, number>> {
  const ops = [
    "CreateBackup",
    "DeleteBackup",
    "CreateCluster",
    "CreateInstanceSet",
    "DeleteCluster",
    "DeleteInstanceSet",
    "UpdateCluster",
    "UpdateInstanceSet",
  ];
  const by = (await engine.project.control.counters()).byOperation;
  return Object.fromEntries(ops.map((op) => [op, by[`cache.${op}`] ?? 0]));
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 100));
}

/** What each cache holds, read through the endpoint the stack outputs, logged in as its user. */
async function data(stack: Stack, output: string, clusterMode: boolean, password: string) {
  const endpoint = String((await stack.outputs())[output]!.value);
  const c = cacheClient(endpoint, clusterMode, { username: "app", password });
  try {
    return await contents(c);
  } finally {
    c.disconnect();
  }
}

/** The caches the state holds (ids) and the backups their replacements took. */
async function fromState(stack: Stack): Promise<{ caches: string[]; expected: string[] }> {
  const caches: string[] = [];
  const expected: string[] = [];
  for (const r of stateResources(await stack.exportStack())) {
    const kind = r.type.endsWith("cache:Cluster") ? "cluster" : r.type.endsWith("cache:InstanceSet") ? "instance-set" : undefined;
    if (kind === undefined || r.id === undefined) continue;
    caches.push(r.id);
    expected.push(`${kind}:${r.id}`);
    const b = (r.outputs as { replacementBackup?: { id?: string } } | undefined)?.replacementBackup;
    if (b?.id) expected.push(`backup:${b.id}`);
  }
  return { caches: caches.sort(), expected: expected.sort() };
}

describe.each(["typescript", "yaml"])("dataOnReplace: keep from %s", (door) => {
  let stack: Stack;
  let settings = FIRST;
  const configure = async (s: Settings) => {
    settings = s;
    await stack.setAllConfig({
      version: { value: s.version },
      group: { value: s.group },
      flavor: { value: s.flavor },
      password: { value: s.password, secret: true },
    });
  };

  beforeAll(async () => {
    stack = await engine.programStack(`keep-${door}`, door === "yaml" ? YAML : TS);
  });

  const keys = KEYS[door]!;
  const caches = [
    ["sessionsEndpoint", true, keys.sessions],
    ["queueEndpoint", false, keys.queue],
  ] as const;

  test(`up: a cluster of two shards with ${keys.sessions.toLocaleString("en")} keys, an instance set with ${keys.queue.toLocaleString("en")}`, async () => {
    await configure(FIRST);
    expect((await stack.up({ color: "never" })).summary.result).toBe("succeeded");
    for (const [output, clusterMode, n] of caches) {
      const c = cacheClient(String((await stack.outputs())[output]!.value), clusterMode, { username: "app", password: settings.password });
      try {
        await writeKeys(c, n);
      } finally {
        c.disconnect();
      }
    }
    const written = await data(stack, "sessionsEndpoint", true, settings.password);
    expect(written.keys).toBe(keys.sessions);
    expect(written.perShard).toHaveLength(2);
    expect(written.perShard.every((n) => n > keys.sessions / 4)).toBe(true);
  });

  test.each(CHANGES)(
    "%s changes: both replaced through backups, every key on the new endpoints, the old ones gone, 0 orphans, no changes after",
    async (_what, change) => {
      const before = await fromState(stack);
      await configure({ ...settings, ...change });
      const up = await stack.up({ color: "never" });
      expect(up.summary.result).toBe("succeeded");
      expect(up.summary.resourceChanges).toMatchObject({ replace: 2 });

      const after = await fromState(stack);
      expect(after.caches.filter((id) => before.caches.includes(id))).toEqual([]);
      for (const [output, clusterMode, n] of caches) {
        expect(await data(stack, output, clusterMode, settings.password)).toMatchObject({ keys: n, checksum: expectedChecksum(n) });
      }
      const cloud = (await engine.inventory()).filter((e) => e.service === "cache").map((e) => `${e.kind}:${e.id}`);
      expect(cloud.sort()).toEqual(after.expected);
      await stack.preview({ color: "never", expectNoChanges: true });
    },
  );

  test("refused at preview, naming the rule, with no request that changes anything: an older version, a flavor too small for the data", async () => {
    // The data's size as the cloud reports it: a backup of the cluster, reported at 2.7 GiB.
    const [cluster] = (await engine.inventory()).filter((e) => e.service === "cache" && e.kind === "cluster");
    const taken = await fetch(`${engine.cloud.url}/cache/v1/backups`, {
      method: "POST",
      headers: { "x-auth-token": engine.project.token, "content-type": "application/json" },
      body: JSON.stringify({ clusterId: cluster!.id, name: `sized-${door}` }),
    });
    const { objectId } = (await taken.json()) as { objectId: string };
    await until(async () => (await engine.project.control.getResource<{ status: string }>("cache", "backup", objectId))?.status === "Available");
    await engine.project.control.patchResource("cache", "backup", objectId, { size: Math.round(2.7 * 1024 ** 3) });

    const current = settings;
    const before = await mutating();
    const refusal = async (change: Partial<Settings>, rule: RegExp) => {
      await configure({ ...current, ...change });
      const message = await stack.preview({ color: "never" }).then(
        () => "",
        (e: Error) => e.message,
      );
      expect(message).toMatch(rule);
    };
    await refusal(
      { version: "7.0.15", group: "7.0" },
      /version: 7\.0\.15 is older than 7\.2\.4, the version of the data: a restore needs the same engine version or a newer one/,
    );
    await refusal(
      { flavor: "redis.small" },
      /flavorId: redis\.small has 2 GiB of memory, and the data is 2\.9 GB \(135% of it; backup "sized-[a-z]+"\): a restore needs it below 60%/,
    );
    expect(await mutating()).toEqual(before);
    await configure(current);
    await engine.project.control.deleteResource("cache", "backup", objectId);
  });

  test("destroy leaves nothing (the last replacement's backups go with their caches)", async () => {
    await engine.destroyLeavesNothing(stack);
  });
});
