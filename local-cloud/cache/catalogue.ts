/**
 * What the cache service offers: engine versions, flavors, and the default parameter groups with
 * their parameter catalogue (spec 02 §2.3: dataType, editable, validationValueFormat).
 */
import type { StoredParameterGroup } from "./model";

export const VERSIONS = ["6.2.14", "7.0.15", "7.2.4"] as const;

export const FLAVORS = [
  { id: "redis.small", name: "redis.small", vcpus: 1, memory: 2 },
  { id: "redis.medium", name: "redis.medium", vcpus: 2, memory: 4 },
  { id: "redis.large", name: "redis.large", vcpus: 4, memory: 16 },
] as const;

export interface ParameterDef {
  parameterKey: string;
  parameterType: "STATIC" | "DYNAMIC";
  dataType: "ENUM" | "STRING" | "INTEGER" | "NUMBER";
  editable: boolean;
  defaultParameterValue: string;
  validationValueFormat: string;
}

/** The catalogue every default group carries (a `NUMBER` among the `INTEGER`s, as a sample shows). */
export const PARAMETERS: readonly ParameterDef[] = [
  {
    parameterKey: "maxmemory-policy",
    parameterType: "DYNAMIC",
    dataType: "ENUM",
    editable: true,
    defaultParameterValue: "noeviction",
    validationValueFormat: "volatile-lru|allkeys-lru|volatile-lfu|allkeys-lfu|volatile-random|allkeys-random|volatile-ttl|noeviction",
  },
  { parameterKey: "timeout", parameterType: "DYNAMIC", dataType: "INTEGER", editable: true, defaultParameterValue: "0", validationValueFormat: "0~100000" },
  {
    parameterKey: "maxmemory-samples",
    parameterType: "DYNAMIC",
    dataType: "INTEGER",
    editable: true,
    defaultParameterValue: "5",
    validationValueFormat: "1~64",
  },
  {
    parameterKey: "tcp-keepalive",
    parameterType: "DYNAMIC",
    dataType: "INTEGER",
    editable: true,
    defaultParameterValue: "300",
    validationValueFormat: "0~3600",
  },
  {
    parameterKey: "slowlog-log-slower-than",
    parameterType: "DYNAMIC",
    dataType: "NUMBER",
    editable: true,
    defaultParameterValue: "10000",
    validationValueFormat: "-1|0~1000000",
  },
  {
    parameterKey: "lua-time-limit",
    parameterType: "DYNAMIC",
    dataType: "INTEGER",
    editable: true,
    defaultParameterValue: "5000",
    validationValueFormat: "100~60000",
  },
  { parameterKey: "appendonly", parameterType: "DYNAMIC", dataType: "ENUM", editable: true, defaultParameterValue: "no", validationValueFormat: "yes|no" },
  {
    parameterKey: "notify-keyspace-events",
    parameterType: "DYNAMIC",
    dataType: "STRING",
    editable: true,
    defaultParameterValue: "",
    validationValueFormat: "[KEg$lshzxetmdnA]*",
  },
  // Offered by the service, but a server built without Redis' own jemalloc (Debian's) refuses `yes`:
  // the local cloud's real nodes then report Error-Sync, as a managed service does for a value its
  // engine rejects.
  { parameterKey: "activedefrag", parameterType: "DYNAMIC", dataType: "ENUM", editable: true, defaultParameterValue: "no", validationValueFormat: "yes|no" },
  { parameterKey: "databases", parameterType: "STATIC", dataType: "INTEGER", editable: false, defaultParameterValue: "16", validationValueFormat: "1~16" },
];

/** `default.redis7.0.cluster` / `default.redis7.0.standalone`. */
export function defaultGroupId(version: string, clusterMode: boolean): string {
  const [major, minor] = version.split(".");
  return `default.redis${major}.${minor}.${clusterMode ? "cluster" : "standalone"}`;
}

/** The default parameter groups: one per engine version and cluster mode, every parameter at its default. */
export function defaultParameterGroups(): StoredParameterGroup[] {
  return VERSIONS.flatMap((v) =>
    [true, false].map((clusterMode) => {
      const gid = defaultGroupId(v, clusterMode);
      return {
        id: gid,
        projectId: "",
        name: gid,
        description: `Default parameters for Redis ${v} (${clusterMode ? "cluster mode" : "instance sets"})`,
        engineVersion: v,
        clusterMode,
        isDefault: true,
        defaultParameterGroupId: "",
        values: Object.fromEntries(PARAMETERS.map((p) => [p.parameterKey, p.defaultParameterValue])),
        events: [],
        createdAt: new Date(0).toISOString(),
      };
    }),
  );
}

/** Why `value` breaks the parameter's rule, or undefined. */
export function invalidValue(def: ParameterDef, value: string): string | undefined {
  if (def.dataType === "ENUM") return def.validationValueFormat.split("|").includes(value) ? undefined : `must be one of ${def.validationValueFormat}`;
  if (def.dataType === "STRING") return new RegExp(`^(?:${def.validationValueFormat})$`).test(value) ? undefined : `must match ${def.validationValueFormat}`;
  if (!/^-?\d+$/.test(value)) return "must be an integer";
  const n = Number(value);
  const ok = def.validationValueFormat.split("|").some((alt) => {
    const [lo, hi] = alt.includes("~") ? alt.split("~") : [alt, alt];
    return n >= Number(lo) && n <= Number(hi);
  });
  return ok ? undefined : `must be in ${def.validationValueFormat}`;
}
