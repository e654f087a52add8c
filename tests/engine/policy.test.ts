/**
 * pulumi-krcloud/policy through the real engine (`pulumi preview --policy-pack`, `pulumi up
 * --policy-pack`), on both doors: a TypeScript program of the dynamic classes and a YAML program
 * of the native plugin. Each door previews one program that violates every rule once and one that
 * satisfies them all, on a stack named `prod-readonly` (production and read-only by the rules'
 * default stack globs). Then `up` with the pack: blocked by a mandatory violation with nothing
 * created, and passing with none. The live-cloud side (state-out, policy analyze --file, drift
 * --policy) is tests/engine/drift-policy.test.ts.
 */
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { PACK_DIR, RULES } from "../../policy";
import { backedUpCluster, ENGINE_TEST_TIMEOUT_MS, eventCollector } from "../harness/engine";
import { smallCluster } from "../resources/hadoop/small-cluster";
import { engineFile, jsProgram, yamlProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "policy", project: "policy", yaml: true, plugin: true });

type Spec = Record<string, { token: string; props: Record<string, unknown> }>;

/** One resource per rule's subject, violating (`bad`) or satisfying every rule; names unique per door (`p`). */
function resources(p: string, bad: boolean): Spec {
  const encrypted = { encryption: { type: "managed" } };
  const instanceSet = {
    name: `${p}-queue`,
    version: "7.0.15",
    flavorId: "redis.m.large",
    subnetIds: ["subnet-a", "subnet-b"],
    parameterGroupId: "default.redis7.0.standalone",
    securityGroupIds: ["sg-1"],
    primarySubnetId: "subnet-a",
    replicaSubnetIds: ["subnet-b"],
    tlsEnabled: !bad,
    ...(bad ? {} : { backupSchedule: { hour: 3, retentionDays: 7 } }),
  };
  return {
    open: {
      token: "krcloud:objectstorage:Bucket",
      props: { name: `${p}-open`, acl: { public: "read-only", ...(bad ? {} : { publicReadAllowIpList: ["203.0.113.0/24"] }) }, ...encrypted },
    },
    plain: { token: "krcloud:objectstorage:Bucket", props: { name: `${p}-plain`, ...(bad ? {} : encrypted) } },
    results: {
      token: "krcloud:objectstorage:Bucket",
      props: { name: `${p}-results`, acl: bad ? { public: "read-only", publicReadAllowIpList: ["203.0.113.0/24"] } : { public: "deny" }, ...encrypted },
    },
    db: {
      token: "krcloud:dataquery:DataSource",
      props: {
        name: `${p}_db`,
        type: "MYSQL",
        instanceId: "db-1",
        username: "reader",
        ...(bad ? { password: "Pw-plain-1" } : { passwordCiphertext: { ciphertext: "c2VjcmV0", keyId: "key-1" } }),
      },
    },
    cache: { token: "krcloud:cache:Cluster", props: backedUpCluster(`${p}-cache`, bad ? [] : ["sn-b"]) },
    queue: { token: "krcloud:cache:InstanceSet", props: instanceSet },
    hadoop: { token: "krcloud:hadoop:Cluster", props: { ...smallCluster, name: `${p}-hadoop`, monitoring: !bad } },
    daily: {
      token: "krcloud:dataquery:Query",
      props: { query: bad ? "insert into audit select * from sales" : "select * from sales", bucketName: `${p}-results`, path: "daily" },
    },
  };
}

/** Where each rule is violated in the `bad` program: the logical name of the resource it names. */
const EXPECTED: Record<string, string> = {
  "krcloud-bucket-public-without-allow-list": "open",
  "krcloud-bucket-without-encryption": "plain",
  "krcloud-password-not-kms-ciphertext": "db",
  "krcloud-cache-replica-in-production": "cache",
  "krcloud-cache-backups-in-production": "queue",
  "krcloud-cache-without-tls": "queue",
  "krcloud-query-result-bucket-public": "daily",
  "krcloud-hadoop-without-monitoring": "hadoop",
  "krcloud-query-writes-in-read-only-stack": "daily",
};

function program(door: string, name: string, spec: Spec): Record<string, string> {
  if (door === "yaml") {
    return yamlProgram(name, [
      "resources:",
      ...Object.entries(spec).flatMap(([n, r]) => [`  ${n}:`, `    type: ${r.token}`, `    properties: ${JSON.stringify(r.props)}`]),
    ]);
  }
  return jsProgram(
    name,
    Object.entries(spec).map(([n, r]) => {
      const [, mod, type] = r.token.split(":");
      return `new krcloud.${mod}.${type}(${JSON.stringify(n)}, ${JSON.stringify(r.props)});`;
    }),
  );
}

/** The policy violations of a run: [rule, logical name, level], sorted. */
function violations(events: EngineEvent[]): [string, string, string][] {
  return events
    .flatMap((e) => (e.policyEvent ? [e.policyEvent] : []))
    .map((p): [string, string, string] => [p.policyName, p.resourceUrn?.split("::").pop() ?? "(stack)", p.enforcementLevel])
    .sort((a, b) => (a.join() < b.join() ? -1 : 1));
}

const levelOf = (id: string) => RULES.find((r) => r.id === id)!.enforcementLevel;

describe.each(["typescript", "yaml"])("the policy pack on a %s program", (door) => {
  const p = door === "yaml" ? "py" : "pt";
  let bad: Stack;
  let good: Stack;

  beforeAll(async () => {
    bad = await engine.stack(engine.program(`bad-${door}`, program(door, `policy-bad-${door}`, resources(p, true))), "prod-readonly");
    good = await engine.stack(engine.program(`good-${door}`, program(door, `policy-good-${door}`, resources(p, false))), "prod-readonly");
  });

  test("preview --policy-pack: every rule violated once, on the resource it names; the mandatory ones fail the preview", async () => {
    const { events, onEvent } = eventCollector();
    const failed = await bad.preview({ color: "never", policyPacks: [PACK_DIR], onEvent }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/mandatory policy violation|preview failed/);
    expect(violations(events)).toEqual(
      Object.entries(EXPECTED)
        .map(([id, name]): [string, string, string] => [id, name, levelOf(id)])
        .sort((a, b) => (a.join() < b.join() ? -1 : 1)),
    );
    const messages = events.flatMap((e) => (e.policyEvent ? [e.policyEvent.message] : []));
    expect(messages).toContainEqual(expect.stringContaining('Bucket "open": acl.public is "read-only" and acl.publicReadAllowIpList is empty'));
    expect(messages).toContainEqual(expect.stringContaining('Query "daily": query writes (INSERT) in read-only stack "prod-readonly"'));
    // The plain password is a secret: no message prints it.
    expect(messages.join("\n")).not.toContain("Pw-plain-1");
  });

  test("preview --policy-pack: the satisfying program has no violation and passes", async () => {
    const { events, onEvent } = eventCollector();
    await good.preview({ color: "never", policyPacks: [PACK_DIR], onEvent });
    expect(violations(events)).toEqual([]);
  });

  test("up --policy-pack: a mandatory violation blocks it before anything is created; without one it deploys", async () => {
    const only = (spec: Spec, names: string[]): Spec => Object.fromEntries(Object.entries(spec).filter(([n]) => names.includes(n)));
    const blocked = await engine.stack(
      engine.program(`up-bad-${door}`, program(door, `policy-up-bad-${door}`, only(resources(`${p}u`, true), ["open"]))),
      "prod",
    );
    const failed = await blocked.up({ color: "never", policyPacks: [PACK_DIR] }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(failed).toContain("krcloud-bucket-public-without-allow-list");
    expect(await engine.inventory()).toEqual([]);

    const passing = await engine.stack(
      engine.program(`up-good-${door}`, program(door, `policy-up-good-${door}`, only(resources(`${p}u`, false), ["open", "plain"]))),
      "prod",
    );
    const { events, onEvent } = eventCollector();
    const up = await passing.up({ color: "never", policyPacks: [PACK_DIR], onEvent });
    expect(up.summary.result).toBe("succeeded");
    expect(violations(events)).toEqual([]);
    expect(
      (await engine.inventory())
        .filter((e) => e.kind === "bucket")
        .map((e) => e.id)
        .sort(),
    ).toEqual([`${p}u-open`, `${p}u-plain`]);
    await engine.destroyLeavesNothing(passing);
  });
});
