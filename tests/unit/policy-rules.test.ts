/**
 * pulumi-krcloud/policy (policy/): each rule violated and satisfied, on both doors' type names; the
 * production and read-only marks; each rule's configuration; the SQL write check; the adapter to
 * @pulumi/policy as the analyzer calls it; and the rules held against schema.json and the registry,
 * so a renamed property or type cannot silently turn a rule off. Engine runs: tests/engine/policy.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ResourceValidationArgs, ResourceValidationPolicy, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import { krcloudPolicies, PACK_DIR, RULES, sqlWrites, stackOf, tokenOf, type ResourceRule, type RuleContext, type StackRule, type Subject } from "../../policy";
import { allDefinitions } from "../../provider/registry";

const REPO = path.resolve(__dirname, "..", "..", "..");
const rule = (id: string) => RULES.find((r) => r.id === id)!;
const NATIVE = (token: string) => token;
const DYNAMIC = (token: string) => token.replace(/^krcloud:([^:]+):/, "pulumi-nodejs:dynamic/krcloud/$1:");

function subject(token: string, props: Record<string, unknown>, stack = "dev", name = "it"): Subject {
  return { token, name, urn: `urn:pulumi:${stack}::proj::${token}::${name}`, props };
}

function check(id: string, token: string, props: Record<string, unknown>, stack = "dev", config: object = {}, tags: Record<string, string> = {}): string[] {
  const r = rule(id) as ResourceRule<object>;
  const ctx: RuleContext<object> = { stack, stackTags: new Map(Object.entries(tags)), config: { ...r.defaults, ...config } };
  return r.check(subject(token, props, stack), ctx);
}

/** Each resource rule: a violating and a satisfying input, and the words its message must hold. */
const CASES: { id: string; token: string; bad: Record<string, unknown>; good: Record<string, unknown>; stack?: string; says: RegExp }[] = [
  {
    id: "krcloud-bucket-public-without-allow-list",
    token: "krcloud:objectstorage:Bucket",
    bad: { acl: { public: "read-only" } },
    good: { acl: { public: "read-only", publicReadAllowIpList: ["203.0.113.0/24"] } },
    says: /Bucket "it": acl\.public is "read-only" and acl\.publicReadAllowIpList is empty.*Fix: set acl\.publicReadAllowIpList/,
  },
  {
    id: "krcloud-bucket-without-encryption",
    token: "krcloud:objectstorage:Bucket",
    bad: { name: "logs-1" },
    good: { name: "logs-1", encryption: { type: "managed" } },
    says: /Bucket "it": encryption is not set.*Fix: set encryption: \{type: "managed"\}.*exemptBuckets: \["logs-1"\]/,
  },
  {
    id: "krcloud-password-not-kms-ciphertext",
    token: "krcloud:dataquery:DataSource",
    bad: { password: "[secret]" },
    good: { passwordCiphertext: { ciphertext: "c", keyId: "k" } },
    says: /DataSource "it": password is given as a secret value.*Fix: .*set passwordCiphertext: \{ciphertext, keyId\}/,
  },
  {
    id: "krcloud-cache-replica-in-production",
    token: "krcloud:cache:Cluster",
    stack: "prod",
    bad: {
      shards: [
        { primarySubnetId: "a", replicaSubnetIds: ["b"] },
        { primarySubnetId: "a", replicaSubnetIds: [] },
      ],
    },
    good: { shards: [{ primarySubnetId: "a", replicaSubnetIds: ["b"] }] },
    says: /Cluster "it": shards\[1\]\.replicaSubnetIds has 0 replica\(s\), fewer than 1, in production stack "prod"/,
  },
  {
    id: "krcloud-cache-backups-in-production",
    token: "krcloud:cache:InstanceSet",
    stack: "prod-eu",
    bad: { backupSchedule: { hour: 3, retentionDays: 2 } },
    good: { backupSchedule: { hour: 3, retentionDays: 7 } },
    says: /InstanceSet "it": backupSchedule\.retentionDays is 2 day\(s\), under 7, in production stack "prod-eu"/,
  },
  {
    id: "krcloud-cache-without-tls",
    token: "krcloud:cache:InstanceSet",
    bad: { tlsEnabled: false },
    good: { tlsEnabled: true },
    says: /InstanceSet "it": tlsEnabled is not true.*Fix: set tlsEnabled: true/,
  },
  {
    id: "krcloud-hadoop-without-monitoring",
    token: "krcloud:hadoop:Cluster",
    bad: {},
    good: { monitoring: true },
    says: /Cluster "it": monitoring is not true.*Fix: set monitoring: true/,
  },
  {
    id: "krcloud-query-writes-in-read-only-stack",
    token: "krcloud:dataquery:Query",
    stack: "reports-readonly",
    bad: { query: "insert into t select * from s; delete from s" },
    good: { query: "select count(*) from s where updated_at > now() - interval '1' day" },
    says: /Query "it": query writes \(INSERT, DELETE\) in read-only stack "reports-readonly"/,
  },
];

describe.each(CASES)("$id", ({ id, token, bad, good, stack, says }) => {
  test.each([
    ["native", NATIVE],
    ["dynamic", DYNAMIC],
  ])("violated and satisfied on the %s door's type", (_door, typeOf) => {
    const r = rule(id) as ResourceRule<object>;
    expect(Object.keys(r.reads)).toContain(tokenOf(typeOf(token)));
    const bad1 = check(id, tokenOf(typeOf(token)), bad, stack);
    expect(bad1).toHaveLength(1);
    expect(bad1[0]).toMatch(says);
    expect(check(id, tokenOf(typeOf(token)), good, stack)).toEqual([]);
  });
});

test("production rules apply only to production stacks: by name glob (configurable) or the krcloud:environment tag", () => {
  const bare = { shards: [{ primarySubnetId: "a" }] };
  const id = "krcloud-cache-replica-in-production";
  for (const s of ["prod", "prod-kr", "web-prod", "production"]) expect(check(id, "krcloud:cache:Cluster", bare, s)).toHaveLength(1);
  for (const s of ["dev", "staging", "product-x", "prodigy"]) expect(check(id, "krcloud:cache:Cluster", bare, s)).toEqual([]);
  expect(check(id, "krcloud:cache:Cluster", bare, "live", { productionStacks: ["live"] })).toHaveLength(1);
  expect(check(id, "krcloud:cache:Cluster", bare, "prod", { productionStacks: ["live"] })).toEqual([]);
  expect(check(id, "krcloud:cache:Cluster", bare, "blue", {}, { "krcloud:environment": "production" })).toHaveLength(1);
  // minReplicas: two replicas per shard
  expect(check(id, "krcloud:cache:Cluster", { shards: [{ replicaSubnetIds: ["b"] }] }, "prod", { minReplicas: 2 })[0]).toMatch(/1 replica\(s\), fewer than 2/);
  expect(check("krcloud-cache-backups-in-production", "krcloud:cache:Cluster", {}, "dev")).toEqual([]);
});

test("backups: none, retention unset, retention under the configured minimum", () => {
  const id = "krcloud-cache-backups-in-production";
  expect(check(id, "krcloud:cache:Cluster", {}, "prod")[0]).toMatch(/backupSchedule is not set.*backupSchedule: \{cron: "0 3 \* \* \*", retentionDays: 7\}/);
  expect(check(id, "krcloud:cache:Cluster", { backupSchedule: { cron: "0 3 * * *" } }, "prod")[0]).toMatch(/retentionDays is not set/);
  expect(check(id, "krcloud:cache:Cluster", { backupSchedule: { cron: "0 3 * * *", retentionDays: 7 } }, "prod", { minRetentionDays: 14 })[0]).toMatch(
    /7 day\(s\), under 14/,
  );
});

test("every password input with a KMS ciphertext input is covered, one message each", () => {
  const id = "krcloud-password-not-kms-ciphertext";
  expect(check(id, "krcloud:cache:Cluster", { user: { name: "u", password: "x" } })).toEqual([
    expect.stringMatching(/user\.password .*user\.passwordCiphertext/),
  ]);
  expect(check(id, "krcloud:cache:InstanceSet", { user: { name: "u", passwordCiphertext: { ciphertext: "c", keyId: "k" } } })).toEqual([]);
  expect(
    check(id, "krcloud:hadoop:Cluster", { adminPassword: "[secret]", metastore: { mysql: { dbName: "d", objectId: "o", userId: "u", password: "p" } } }),
  ).toEqual([expect.stringMatching(/adminPassword is given/), expect.stringMatching(/metastore\.mysql\.password is given/)]);
  // Every input of the schema (at any depth) with a ...Ciphertext sibling is in the rule.
  const schema = JSON.parse(fs.readFileSync(path.join(REPO, "schema.json"), "utf8"));
  const reads = rule(id).reads;
  const paired = (props: Record<string, any>, at: string, depth: number): string[] =>
    Object.entries(props).flatMap(([k, p]) => {
      const here = [...(props[`${k}Ciphertext`] ? [`${at}${k}`] : [])];
      const ref = p?.$ref?.replace("#/types/", "");
      return depth < 3 && ref && schema.types[ref]?.properties ? [...here, ...paired(schema.types[ref].properties, `${at}${k}.`, depth + 1)] : here;
    });
  let found = 0;
  for (const [token, res] of Object.entries<any>(schema.resources)) {
    if (res.isComponent) continue;
    for (const p of paired(res.inputProperties ?? {}, "", 0)) {
      expect([token, reads[token] ?? []]).toEqual([token, expect.arrayContaining([p])]);
      found++;
    }
  }
  expect(found).toBe(5);
});

test("bucket encryption: exempt names are configurable globs", () => {
  const id = "krcloud-bucket-without-encryption";
  expect(check(id, "krcloud:objectstorage:Bucket", { name: "site-www" }, "dev", { exemptBuckets: ["site-*"] })).toEqual([]);
  expect(check(id, "krcloud:objectstorage:Bucket", { name: "data-1" }, "dev", { exemptBuckets: ["site-*"] })).toHaveLength(1);
});

test("read-only stacks: by name glob or the krcloud:readOnly tag; other stacks may write", () => {
  const id = "krcloud-query-writes-in-read-only-stack";
  const q = { query: "drop table t" };
  expect(check(id, "krcloud:dataquery:Query", q, "dev")).toEqual([]);
  expect(check(id, "krcloud:dataquery:Query", q, "dev", {}, { "krcloud:readOnly": "true" })).toHaveLength(1);
  expect(check(id, "krcloud:dataquery:Query", q, "bi", { readOnlyStacks: ["bi"] })).toHaveLength(1);
});

test.each([
  ["select * from t", []],
  ["SELECT replace(name, 'a', 'b'), insert(s, 1, 2, 'x') FROM t", []],
  ["select 'delete from t' as s -- update t\n/* drop table t */", []],
  ['select "update", `delete` from t', []],
  ["select * from t for update", []],
  ["select a into @v from t", []],
  ["select a into backup_t from t", ["SELECT INTO"]],
  ["with d as (delete from t returning *) select * from d", ["DELETE"]],
  ["INSERT INTO t VALUES (1); UPDATE t SET a = 2", ["INSERT", "UPDATE"]],
  ["create table x as select 1", ["CREATE"]],
  ["merge into t using s on t.id = s.id when matched then update set a = s.a", ["MERGE", "UPDATE"]],
  ["truncate t", ["TRUNCATE"]],
  ["load data infile 'f' into table t", ["LOAD DATA"]],
  ["select 'it''s' from t; grant select on t to u", ["GRANT"]],
])("SQL %j writes %j", (sql, writes) => {
  expect(sqlWrites(sql)).toEqual(writes);
});

test("a query writing its result into a public bucket of the stack, whichever door made either", () => {
  const r = rule("krcloud-query-result-bucket-public") as StackRule<object>;
  const ctx: RuleContext<object> = { stack: "dev", stackTags: new Map(), config: {} };
  const bucket = (name: string, acl: object) => subject(tokenOf(DYNAMIC("krcloud:objectstorage:Bucket")), { name, acl }, "dev", name);
  const query = subject("krcloud:dataquery:Query", { query: "select 1", bucketName: "results-1" }, "dev", "daily");
  expect(r.check([bucket("results-1", { public: "read-only" }), query], ctx)).toEqual([
    { urn: query.urn, message: expect.stringMatching(/Query "daily": bucketName "results-1" is public \(Bucket "results-1" has acl\.public "read-only"\)/) },
  ]);
  expect(r.check([bucket("results-1", { public: "deny" }), query], ctx)).toEqual([]);
  expect(r.check([bucket("other", { public: "read-only" }), query], ctx)).toEqual([]);
});

test("the rules name only types and input properties that exist (schema.json, the registry)", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(REPO, "schema.json"), "utf8"));
  const tokens = new Set(allDefinitions().map((d) => d.token));
  const has = (spec: any, parts: string[]): boolean => {
    if (parts.length === 0) return true;
    const [head, ...rest] = parts;
    let prop = spec?.inputProperties?.[head!.replace("[]", "")] ?? spec?.properties?.[head!.replace("[]", "")];
    if (!prop) return false;
    if (head!.endsWith("[]")) prop = prop.items;
    const ref = prop?.$ref?.replace("#/types/", "");
    return has(ref ? schema.types[ref] : prop, rest);
  };
  for (const r of RULES) {
    for (const [token, paths] of Object.entries(r.reads)) {
      expect(tokens).toContain(token);
      for (const p of paths) expect([r.id, token, p, has(schema.resources[token], p.split("."))]).toEqual([r.id, token, p, true]);
    }
  }
});

test("the pack: unique policy names, default levels, configuration schemas without enforcementLevel; its version is the package's", () => {
  const policies = krcloudPolicies({ "krcloud-cache-without-tls": "mandatory" });
  expect(new Set(policies.map((p) => p.name)).size).toBe(RULES.length);
  expect(policies.find((p) => p.name === "krcloud-cache-without-tls")!.enforcementLevel).toBe("mandatory");
  expect(policies.find((p) => p.name === "krcloud-hadoop-without-monitoring")!.enforcementLevel).toBe("advisory");
  for (const p of policies) expect(Object.keys(p.configSchema?.properties ?? {})).not.toContain("enforcementLevel");
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
  const packPkg = JSON.parse(fs.readFileSync(path.join(PACK_DIR, "package.json"), "utf8"));
  expect(packPkg.version).toBe(pkg.version);
  expect(fs.existsSync(path.resolve(PACK_DIR, packPkg.main))).toBe(true);
  expect(fs.readFileSync(path.join(PACK_DIR, "PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
  expect(pkg.files).toContain("policy/pack/");
});

test("the adapter: the analyzer's arguments (type, URN, config, tags) reach the rule; other types are left alone", () => {
  const reports: [string, string | undefined][] = [];
  const report = (m: string, urn?: string) => reports.push([m, urn]);
  const policy = krcloudPolicies().find((p) => p.name === "krcloud-cache-backups-in-production") as ResourceValidationPolicy;
  const args = (type: string, urn: string, props: object, config: object = {}, tags: [string, string][] = []) =>
    ({ type, urn, name: "c", props, getConfig: () => config, stackTags: new Map(tags) }) as unknown as ResourceValidationArgs;
  const validate = policy.validateResource as (a: ResourceValidationArgs, r: typeof report) => void;
  validate(args(DYNAMIC("krcloud:cache:Cluster"), `urn:pulumi:live::p::${DYNAMIC("krcloud:cache:Cluster")}::c`, {}, { productionStacks: ["live"] }), report);
  validate(args("krcloud:cache:Cluster", "urn:pulumi:dev::p::krcloud:cache:Cluster::c", {}, {}, [["krcloud:environment", "production"]]), report);
  validate(args("krcloud:cache:Cluster", "urn:pulumi:dev::p::krcloud:cache:Cluster::c", {}), report);
  validate(args("krcloud:objectstorage:Bucket", "urn:pulumi:prod::p::krcloud:objectstorage:Bucket::c", {}), report);
  expect(reports.map(([m]) => m.match(/in production stack "(\w+)"/)?.[1])).toEqual(["live", "dev"]);

  const stackPolicy = krcloudPolicies().find((p) => p.name === "krcloud-query-result-bucket-public") as StackValidationPolicy;
  const resources = [
    {
      type: "krcloud:objectstorage:Bucket",
      urn: "urn:pulumi:dev::p::krcloud:objectstorage:Bucket::b",
      name: "b",
      props: { name: "r", acl: { public: "read-only" } },
    },
    { type: DYNAMIC("krcloud:dataquery:Query"), urn: `urn:pulumi:dev::p::${DYNAMIC("krcloud:dataquery:Query")}::q`, name: "q", props: { bucketName: "r" } },
  ];
  reports.length = 0;
  (stackPolicy.validateStack as (a: StackValidationArgs, r: typeof report) => void)(
    { resources, getConfig: () => ({}), stackTags: new Map() } as unknown as StackValidationArgs,
    report,
  );
  expect(reports).toEqual([[expect.stringMatching(/^Query "q": bucketName "r" is public/), resources[1]!.urn]]);
  expect(stackOf(resources[1]!.urn)).toBe("dev");
});
