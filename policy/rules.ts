/**
 * krcloud's guardrails as data: each rule's id, default enforcement level, configuration and the
 * check itself, a pure function of a resource's properties (or, for the one stack rule, of all of
 * a stack's resources). index.ts turns them into @pulumi/policy policies; the same rules run in a
 * preview or an up (`--policy-pack`), and on what the cloud holds now (`pulumi policy analyze
 * --file` on krcloud-drift's `--state-out`). docs/policy.md shows a violation and its fix for each.
 *
 * A resource is matched by its type token whichever door made it: the native plugin's
 * `krcloud:objectstorage:Bucket` and the dynamic class's `pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket`
 * carry the same input properties. Components are not checked: their children are.
 */
import { sqlWrites as sqlWritesOf } from "./sql";

export type EnforcementLevel = "advisory" | "mandatory" | "disabled";

/** A resource as a rule sees it. */
export interface Subject {
  /** `krcloud:objectstorage:Bucket`, whichever door made it. */
  token: string;
  /** The logical name. */
  name: string;
  urn: string;
  /** Its input properties (secrets unwrapped or `[secret]`; an unknown value throws when read in a preview). */
  props: Record<string, unknown>;
}

/** What a rule knows of the stack and its configuration. */
export interface RuleContext<C> {
  /** The stack the URN names. */
  stack: string;
  /** The stack's tags, where the backend has them (`krcloud:environment: production`, `krcloud:readOnly: "true"`). */
  stackTags: ReadonlyMap<string, string>;
  config: C;
}

/** A JSON Schema of a rule's configuration (the subset @pulumi/policy takes). */
export interface ConfigSchema {
  properties: Record<string, Record<string, unknown>>;
}

export interface RuleBase<C> {
  /** The policy name in Pulumi's output, SARIF's rule id and the key of `--policy-pack-config`. */
  id: string;
  description: string;
  enforcementLevel: EnforcementLevel;
  /** What to do about a violation, in general (each message says it for its resource). */
  remediationSteps: string;
  /** The configuration and its defaults (a pack config value replaces a default). */
  defaults: C;
  /**
   * The type tokens it checks, each with the input properties it reads of that type
   * (`acl.publicReadAllowIpList`, `shards[].replicaSubnetIds`): a unit test holds them against
   * schema.json, so a renamed property cannot silently disable a rule.
   */
  reads: Readonly<Record<string, readonly string[]>>;
  configSchema?: ConfigSchema;
}

export interface ResourceRule<C = object> extends RuleBase<C> {
  kind: "resource";
  /** One message per violation: what is wrong with which property, and the fix. */
  check(subject: Subject, ctx: RuleContext<C>): string[];
}

export interface StackViolation {
  urn: string;
  message: string;
}

export interface StackRule<C = object> extends RuleBase<C> {
  kind: "stack";
  check(resources: readonly Subject[], ctx: RuleContext<C>): StackViolation[];
}

export type Rule = ResourceRule<any> | StackRule<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** `pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket` -> `krcloud:objectstorage:Bucket`; a token stays as it is. */
export function tokenOf(type: string): string {
  const m = /^pulumi-nodejs:dynamic\/krcloud\/([^:]+):(.+)$/.exec(type);
  return m ? `krcloud:${m[1]}:${m[2]}` : type;
}

/** `urn:pulumi:<stack>::<project>::…` -> `<stack>`. */
export function stackOf(urn: string): string {
  return /^urn:pulumi:([^:]*)::/.exec(urn)?.[1] ?? "";
}

/** Whole-string glob: `*` any run of characters, `?` one. */
export function globMatch(glob: string, s: string): boolean {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`, "s").test(s);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const set = (v: unknown): boolean => v !== undefined && v !== null && v !== "";
const kindOf = (token: string): string => token.split(":")[2] ?? token;
/** `Bucket "site"`: how messages name a resource. */
const named = (s: Subject): string => `${kindOf(s.token)} "${s.name}"`;

export interface StackMarks {
  /** Stack name globs that mark production stacks. */
  productionStacks: string[];
}

export interface ReadOnlyMarks {
  /** Stack name globs that mark read-only stacks. */
  readOnlyStacks: string[];
}

export const DEFAULT_PRODUCTION_STACKS = ["prod", "prod-*", "*-prod", "production", "production-*", "*-production"];
export const DEFAULT_READ_ONLY_STACKS = ["readonly", "readonly-*", "*-readonly"];

/** A production stack: its `krcloud:environment` tag says so, or its name matches a glob. */
export function isProduction(ctx: RuleContext<StackMarks>): boolean {
  return ctx.stackTags.get("krcloud:environment") === "production" || ctx.config.productionStacks.some((g) => globMatch(g, ctx.stack));
}

export function isReadOnly(ctx: RuleContext<ReadOnlyMarks>): boolean {
  return ctx.stackTags.get("krcloud:readOnly") === "true" || ctx.config.readOnlyStacks.some((g) => globMatch(g, ctx.stack));
}

const globs = (description: string) => ({ type: "array", items: { type: "string" }, description });
const PRODUCTION_SCHEMA = globs("Stack name globs of production stacks (a stack tagged krcloud:environment=production is one too).");

/** The settings of a rule for production stacks with one minimum `key` (a whole number, 1 or more): defaults and schema. */
function productionMinimum<K extends string>(
  key: K,
  value: number,
  description: string,
): Pick<RuleBase<StackMarks & Record<K, number>>, "defaults" | "configSchema"> {
  return {
    defaults: { productionStacks: DEFAULT_PRODUCTION_STACKS, [key]: value } as StackMarks & Record<K, number>,
    configSchema: { properties: { productionStacks: PRODUCTION_SCHEMA, [key]: { type: "integer", minimum: 1, description } } },
  };
}

const BUCKET = "krcloud:objectstorage:Bucket";
const CACHE_CLUSTER = "krcloud:cache:Cluster";
const INSTANCE_SET = "krcloud:cache:InstanceSet";
const SHARD = "krcloud:cache:Shard";
const DATA_SOURCE = "krcloud:dataquery:DataSource";
const QUERY = "krcloud:dataquery:Query";
const HADOOP = "krcloud:hadoop:Cluster";

export const bucketPublicWithoutAllowList: ResourceRule<object> = {
  kind: "resource",
  id: "krcloud-bucket-public-without-allow-list",
  description: "A bucket readable without a token must name who may read it (an IP allow list).",
  enforcementLevel: "mandatory",
  remediationSteps: 'Set acl.publicReadAllowIpList to the addresses or CIDR ranges that may read, or set acl.public to "deny".',
  reads: { [BUCKET]: ["acl.public", "acl.publicReadAllowIpList"] },
  defaults: {},
  check(s) {
    const acl = isRecord(s.props.acl) ? s.props.acl : {};
    if (acl.public !== "read-only" || list(acl.publicReadAllowIpList).length > 0) return [];
    return [
      `${named(s)}: acl.public is "read-only" and acl.publicReadAllowIpList is empty, so anyone on the internet can read its objects. Fix: set acl.publicReadAllowIpList to the addresses that may read (e.g. ["203.0.113.0/24"]), or acl.public to "deny".`,
    ];
  },
};

export interface EncryptionConfig {
  /** Bucket name globs that may stay unencrypted (a public site, which encryption would not protect). */
  exemptBuckets: string[];
}

export const bucketWithoutEncryption: ResourceRule<EncryptionConfig> = {
  kind: "resource",
  id: "krcloud-bucket-without-encryption",
  description: "Buckets are encrypted at rest (server-side encryption), unless exempted by name.",
  enforcementLevel: "advisory",
  remediationSteps: 'Set encryption: {type: "managed"} (a new bucket: encryption is set at creation), or list the bucket in exemptBuckets.',
  reads: { [BUCKET]: ["encryption.type", "name"] },
  defaults: { exemptBuckets: [] },
  configSchema: { properties: { exemptBuckets: globs("Bucket name globs exempt from the rule.") } },
  check(s, ctx) {
    const encryption = isRecord(s.props.encryption) ? s.props.encryption : undefined;
    if (set(encryption?.type)) return [];
    const name = typeof s.props.name === "string" ? s.props.name : s.name;
    if (ctx.config.exemptBuckets.some((g) => globMatch(g, name))) return [];
    return [
      `${named(s)}: encryption is not set, so its objects are stored unencrypted. Fix: set encryption: {type: "managed"} (this replaces an existing bucket: copy its objects first), or exempt it with exemptBuckets: ["${name}"].`,
    ];
  },
};

/** Where a type takes a password as a value and where it takes the same password as a KMS ciphertext. */
const PASSWORD_INPUTS: Readonly<Record<string, readonly { path: string[]; ciphertext: string }[]>> = {
  [CACHE_CLUSTER]: [{ path: ["user", "password"], ciphertext: "user.passwordCiphertext" }],
  [INSTANCE_SET]: [{ path: ["user", "password"], ciphertext: "user.passwordCiphertext" }],
  [DATA_SOURCE]: [{ path: ["password"], ciphertext: "passwordCiphertext" }],
  [HADOOP]: [
    { path: ["adminPassword"], ciphertext: "adminPasswordCiphertext" },
    { path: ["metastore", "mysql", "password"], ciphertext: "metastore.mysql.passwordCiphertext" },
  ],
};

function valueAt(props: Record<string, unknown>, path: readonly string[]): unknown {
  let cur: unknown = props;
  for (const k of path) {
    if (!isRecord(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

export const passwordNotCiphertext: ResourceRule<object> = {
  kind: "resource",
  id: "krcloud-password-not-kms-ciphertext",
  description: "A password is given as a KMS ciphertext where the resource takes one, so no plaintext is kept in the state, not even encrypted.",
  enforcementLevel: "advisory",
  remediationSteps: "Encrypt the password with a krcloud.kms.Ciphertext and pass {ciphertext, keyId} as the ...Ciphertext input instead of the password.",
  reads: Object.fromEntries(Object.entries(PASSWORD_INPUTS).map(([t, ps]) => [t, ps.flatMap((p) => [p.path.join("."), p.ciphertext])])),
  defaults: {},
  check(s) {
    return (PASSWORD_INPUTS[s.token] ?? [])
      .filter((p) => set(valueAt(s.props, p.path)))
      .map(
        (p) =>
          `${named(s)}: ${p.path.join(".")} is given as a secret value; the state keeps it (encrypted). Fix: encrypt it with a kms.Ciphertext and set ${p.ciphertext}: {ciphertext, keyId} instead of ${p.path.join(".")}.`,
      );
  },
};

export interface ReplicaConfig extends StackMarks {
  /** Replicas each shard (or instance set) needs in production. */
  minReplicas: number;
}

export const cacheReplicaInProduction: ResourceRule<ReplicaConfig> = {
  kind: "resource",
  id: "krcloud-cache-replica-in-production",
  description: "In production stacks every cache shard and instance set has a replica, so a node's loss is no outage.",
  enforcementLevel: "mandatory",
  remediationSteps: "Add a replica subnet to each shard (shards[i].replicaSubnetIds) or instance set (replicaSubnetIds); replicas are added in place.",
  reads: { [CACHE_CLUSTER]: ["shards[].replicaSubnetIds"], [INSTANCE_SET]: ["replicaSubnetIds"], [SHARD]: ["replicaSubnetIds"] },
  ...productionMinimum("minReplicas", 1, "Replicas each shard needs."),
  check(s, ctx) {
    if (!isProduction(ctx)) return [];
    const min = ctx.config.minReplicas;
    const fix = (path: string, n: number) =>
      `${path} has ${n} replica(s), fewer than ${min}, in production stack "${ctx.stack}". Fix: add a subnet per missing replica to ${path} (replicas are added in place).`;
    if (s.token === CACHE_CLUSTER) {
      return list(s.props.shards).flatMap((shard, i) => {
        const n = list(isRecord(shard) ? shard.replicaSubnetIds : undefined).length;
        return n < min ? [`${named(s)}: ${fix(`shards[${i}].replicaSubnetIds`, n)}`] : [];
      });
    }
    const n = list(s.props.replicaSubnetIds).length;
    return n < min ? [`${named(s)}: ${fix("replicaSubnetIds", n)}`] : [];
  },
};

export interface BackupConfig extends StackMarks {
  /** Days automatic backups are kept, at least. */
  minRetentionDays: number;
}

export const cacheBackupsInProduction: ResourceRule<BackupConfig> = {
  kind: "resource",
  id: "krcloud-cache-backups-in-production",
  description: "In production stacks caches take automatic backups and keep them long enough to restore from.",
  enforcementLevel: "mandatory",
  remediationSteps: "Set backupSchedule with retentionDays of at least the configured minimum; it changes in place.",
  reads: { [CACHE_CLUSTER]: ["backupSchedule.retentionDays"], [INSTANCE_SET]: ["backupSchedule.retentionDays"] },
  ...productionMinimum("minRetentionDays", 7, "Days backups are kept, at least."),
  check(s, ctx) {
    if (!isProduction(ctx)) return [];
    const min = ctx.config.minRetentionDays;
    const example = s.token === CACHE_CLUSTER ? `{cron: "0 3 * * *", retentionDays: ${min}}` : `{hour: 3, retentionDays: ${min}}`;
    const schedule = isRecord(s.props.backupSchedule) ? s.props.backupSchedule : undefined;
    if (!schedule) {
      return [
        `${named(s)}: backupSchedule is not set, so it takes no automatic backups, in production stack "${ctx.stack}". Fix: set backupSchedule: ${example} (in place).`,
      ];
    }
    const days = schedule.retentionDays;
    if (typeof days === "number" && days >= min) return [];
    const now = typeof days === "number" ? `${days} day(s)` : "not set (the service's default is not documented)";
    return [
      `${named(s)}: backupSchedule.retentionDays is ${now}, under ${min}, in production stack "${ctx.stack}". Fix: set backupSchedule.retentionDays to ${min} or more (in place).`,
    ];
  },
};

export const cacheWithoutTls: ResourceRule<object> = {
  kind: "resource",
  id: "krcloud-cache-without-tls",
  description: "Caches encrypt traffic in transit (TLS).",
  enforcementLevel: "advisory",
  remediationSteps: "Set tlsEnabled: true (this replaces the cache: restore it from a backup to keep its data).",
  reads: { [CACHE_CLUSTER]: ["tlsEnabled"], [INSTANCE_SET]: ["tlsEnabled"] },
  defaults: {},
  check(s) {
    if (s.props.tlsEnabled === true) return [];
    return [
      `${named(s)}: tlsEnabled is not true, so clients talk to it in plain text. Fix: set tlsEnabled: true (this replaces it; restoreFromBackup keeps its data).`,
    ];
  },
};

export const hadoopWithoutMonitoring: ResourceRule<object> = {
  kind: "resource",
  id: "krcloud-hadoop-without-monitoring",
  description: "Hadoop clusters run the monitoring agent.",
  enforcementLevel: "advisory",
  remediationSteps: "Set monitoring: true (this replaces the cluster).",
  reads: { [HADOOP]: ["monitoring"] },
  defaults: {},
  check(s) {
    if (s.props.monitoring === true) return [];
    return [`${named(s)}: monitoring is not true, so the cluster runs without the monitoring agent. Fix: set monitoring: true (this replaces the cluster).`];
  },
};

export const queryWritesInReadOnlyStack: ResourceRule<ReadOnlyMarks> = {
  kind: "resource",
  id: "krcloud-query-writes-in-read-only-stack",
  description: "In read-only stacks a data query only reads (no INSERT, UPDATE, DELETE, CREATE, DROP, ...).",
  enforcementLevel: "mandatory",
  remediationSteps: "Remove the writing statements from the query, or move the query to a stack that may write.",
  reads: { [QUERY]: ["query"] },
  defaults: { readOnlyStacks: DEFAULT_READ_ONLY_STACKS },
  configSchema: { properties: { readOnlyStacks: globs("Stack name globs of read-only stacks (a stack tagged krcloud:readOnly=true is one too).") } },
  check(s, ctx) {
    if (!isReadOnly(ctx) || typeof s.props.query !== "string") return [];
    const writes = sqlWritesOf(s.props.query);
    if (writes.length === 0) return [];
    return [
      `${named(s)}: query writes (${writes.join(", ")}) in read-only stack "${ctx.stack}". Fix: keep only reading statements (SELECT) in query, or move the query to a stack that may write.`,
    ];
  },
};

export const queryResultBucketPublic: StackRule<object> = {
  kind: "stack",
  id: "krcloud-query-result-bucket-public",
  description: "A data query does not write its result into a bucket anyone can read.",
  enforcementLevel: "mandatory",
  remediationSteps: 'Point bucketName at a private bucket, or set the bucket\'s acl.public to "deny".',
  reads: { [QUERY]: ["bucketName"], [BUCKET]: ["name", "acl.public", "acl.publicReadAllowIpList"] },
  defaults: {},
  check(resources) {
    const publicBuckets = new Map<string, Subject>();
    for (const b of resources) {
      if (b.token !== BUCKET || typeof b.props.name !== "string") continue;
      const acl = isRecord(b.props.acl) ? b.props.acl : {};
      if (acl.public === "read-only") publicBuckets.set(b.props.name, b);
    }
    return resources.flatMap((q) => {
      if (q.token !== QUERY || typeof q.props.bucketName !== "string") return [];
      const bucket = publicBuckets.get(q.props.bucketName);
      if (!bucket) return [];
      const limited = list(isRecord(bucket.props.acl) ? bucket.props.acl.publicReadAllowIpList : undefined).length > 0 ? " (to its IP allow list)" : "";
      return [
        {
          urn: q.urn,
          message: `${named(q)}: bucketName "${q.props.bucketName}" is public (${named(bucket)} has acl.public "read-only"${limited}), so the query's result can be read without a token. Fix: set bucketName to a private bucket, or the bucket's acl.public to "deny".`,
        },
      ];
    });
  },
};

/** Every rule of the pack, in the order docs/policy.md lists them. */
export const RULES: readonly Rule[] = [
  bucketPublicWithoutAllowList,
  bucketWithoutEncryption,
  passwordNotCiphertext,
  cacheReplicaInProduction,
  cacheBackupsInProduction,
  cacheWithoutTls,
  queryResultBucketPublic,
  hadoopWithoutMonitoring,
  queryWritesInReadOnlyStack,
];
