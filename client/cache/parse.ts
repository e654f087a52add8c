/**
 * Tolerant readers of the cache API's answers (spec 02 §2, §4): zod schemas built per call (never
 * held at module level) and flatteners to the types of types.ts.
 *
 * Tolerance: `raw` is the object as received (unknown fields included); numbers may arrive as
 * numeric strings and booleans as "true"/"false"; ids may be numbers; a field of an unexpected type
 * is left out of the typed record (it stays in `raw`) rather than failing the whole record. Only what an operation cannot do without fails: a
 * record without an id, a list that is not a list.
 */

import { z } from "zod";
import { once } from "../core";
import { CacheResponseFormatError } from "./errors";
import { normalizeRole, normalizeStatus, parseSlots } from "./topology";
import type {
  BackupSchedule,
  CacheClusterRecord,
  CacheInstance,
  CacheNode,
  CacheShard,
  Flavor,
  InstanceList,
  ObjectIdResult,
  ParameterDefinition,
  ParameterGroup,
  ParameterGroupEvent,
  ParameterGroupSummary,
  ParameterValueKind,
  Ref,
  SubnetAssignment,
} from "./types";

// ---------------------------------------------------------------------------------------------
// Field readers

/** A string; numbers become strings; anything else is dropped. */
function optStr() {
  return z
    .union([z.string(), z.number().transform(String)])
    .nullish()
    .catch(undefined);
}

/** A number or a numeric string; anything else is dropped. */
function optNum() {
  return z
    .union([
      z.number(),
      z
        .string()
        .regex(/^\s*-?\d+(\.\d+)?\s*$/)
        .transform(Number),
    ])
    .nullish()
    .catch(undefined);
}

function optBool() {
  return z
    .union([z.boolean(), z.enum(["true", "false", "TRUE", "FALSE", "True", "False"]).transform((v) => v.toLowerCase() === "true")])
    .nullish()
    .catch(undefined);
}

function idValue() {
  return z.union([z.string().min(1), z.number().transform(String)]);
}

/** A record's ids: `objectId` and `id`, either of which may be missing (withId picks one). */
function idFields() {
  return { objectId: idValue().optional().catch(undefined), id: idValue().optional().catch(undefined) };
}

const refSchema = once(() => {
  return z.looseObject({ id: idValue() });
});

/** A list of `{id}` refs; bare id strings are accepted, malformed items dropped. */
function refList() {
  return z
    .array(z.unknown())
    .nullish()
    .catch(undefined)
    .transform((items): Ref[] => {
      const out: Ref[] = [];
      for (const item of items ?? []) {
        if (typeof item === "string" && item !== "") out.push({ id: item });
        else {
          const r = refSchema().safeParse(item);
          if (r.success) out.push({ id: r.data.id });
        }
      }
      return out;
    });
}

function subnetAssignmentList() {
  return z
    .array(z.unknown())
    .nullish()
    .catch(undefined)
    .transform((items): SubnetAssignment[] => {
      const out: SubnetAssignment[] = [];
      for (const item of items ?? []) {
        const r = z.looseObject({ primary: refSchema(), replicas: refList() }).safeParse(item);
        if (r.success) out.push({ primary: { id: r.data.primary.id }, replicas: r.data.replicas });
      }
      return out;
    });
}

const backupScheduleSchema = once(() => {
  return z
    .looseObject({ cron: optStr(), retentionLimit: optNum() })
    .nullish()
    .catch(undefined)
    .transform((b): BackupSchedule | null => {
      if (!b || b.cron == null || b.cron.trim() === "") return null;
      return b.retentionLimit == null ? { cron: b.cron } : { cron: b.cron, retentionLimit: b.retentionLimit };
    });
});

/**
 * Drops undefined and null members so records compare cleanly (`toEqual`, Pulumi state); members
 * named in `keepNull` keep a null (backupSchedule: null means "off", not "unknown").
 */
function compact<T>(o: Record<string, unknown>, keepNull: readonly string[] = []): T {
  for (const k of Object.keys(o)) if (o[k] === undefined || (o[k] === null && !keepNull.includes(k))) delete o[k];
  return o as T;
}

function fail(action: string, what: string, error: z.ZodError | string): never {
  const detail = typeof error === "string" ? error : z.prettifyError(error).replace(/\n/g, "; ");
  throw new CacheResponseFormatError(`${action}: unexpected ${what}: ${detail}`);
}

/**
 * `input` read by `schema`, with its id: the first of `ids` it has (each record's own preference).
 * Fails naming `what` when `input` does not fit or has none of them.
 */
function withId<S extends z.ZodType<Record<string, unknown>>>(
  input: unknown,
  schema: S,
  what: string,
  action: string,
  ids: readonly string[],
): { d: z.infer<S>; id: string } {
  const r = schema.safeParse(input);
  if (!r.success) return fail(action, what, r.error);
  const id = ids.map((k) => r.data[k]).find((v) => v !== undefined && v !== null);
  if (id === undefined) return fail(action, what, `no ${ids[0]}`);
  return { d: r.data, id: id as string };
}

/**
 * A single record may come bare or wrapped in a one-key object named after it
 * (`{cluster: {...}}`); the wrapper is not in the spec but costs nothing to accept.
 */
function unwrap(body: unknown, key: string): unknown {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const o = body as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0] === key && typeof o[key] === "object") return o[key];
  }
  return body;
}

/**
 * The reader of one kind of record: unwrapped from `{<wrapper>: {...}}` where it may come so,
 * read by `schema`, its id the first of `ids` it has (fails naming `what`), `fields` its members
 * (in the record's order), `raw` what it was read from; `keepNull` as in compact.
 */
function recordReader<S extends z.ZodType<Record<string, unknown>>, T>(
  what: string,
  schema: () => S,
  ids: readonly string[],
  fields: (d: z.infer<S>, action: string) => Record<string, unknown>,
  o: { wrapper?: string; keepNull?: readonly string[] } = {},
): (body: unknown, action: string) => T {
  return (body, action) => {
    const input = o.wrapper === undefined ? body : unwrap(body, o.wrapper);
    const { d, id } = withId(input, schema(), what, action, ids);
    return compact<T>({ id, ...fields(d, action), raw: input }, o.keepNull);
  };
}

/** The list under `key`, or a bare array; `alternatives` are other keys seen for the same list. */
function listOf(body: unknown, key: string, action: string, what: string, alternatives: string[] = []): unknown[] {
  if (Array.isArray(body)) return body;
  if (body === undefined) return [];
  if (typeof body === "object" && body !== null) {
    const o = body as Record<string, unknown>;
    for (const k of [key, ...alternatives]) {
      if (Array.isArray(o[k])) return o[k] as unknown[];
      if (o[k] === null) return [];
    }
    if (!(key in o) && alternatives.every((k) => !(k in o))) return [];
  }
  return fail(action, what, `expected {${key}: [...]}`);
}

/** The reader of a list (see listOf) whose items `read` reads. */
function listReader<T>(read: (item: unknown, action: string) => T, key: string, what: string, alternatives: string[] = []) {
  return (body: unknown, action: string): T[] => listOf(body, key, action, what, alternatives).map((item) => read(item, action));
}

/** A record's status as sent, and as the state every record reports (normalizeStatus). */
function statusFields(status: string | null | undefined) {
  return { status, state: normalizeStatus(status) };
}

// ---------------------------------------------------------------------------------------------
// `{objectId}` answers (spec 4: every success body unless stated)

/**
 * Reads `{objectId}` (also `{id}`). `fallback` is the id the caller addressed; without one (a
 * create), a missing id is an error, since the caller could not find what was made.
 */
export function flattenObjectId(body: unknown, action: string, fallback?: string): ObjectIdResult {
  const r = z.looseObject(idFields()).safeParse(body ?? {});
  const id = r.success ? (r.data.objectId ?? r.data.id) : undefined;
  if (id !== undefined) return { id };
  if (fallback !== undefined) return { id: fallback };
  return fail(action, "answer", "no objectId");
}

// ---------------------------------------------------------------------------------------------
// Cluster / instance set record (2.1)

export const clusterRecordSchema = once(() => {
  return z.looseObject({
    ...idFields(),
    projectId: optStr(),
    name: optStr(),
    description: optStr(),
    version: optStr(),
    port: optNum(),
    clusterEnabled: optBool(),
    recoveryEnabled: optBool(),
    shardCount: optNum(),
    totalNodeCount: optNum(),
    flavorId: optStr(),
    vcpu: optNum(),
    memory: optNum(),
    endpoints: z.looseObject({ primaryEndpoint: optStr(), readEndpoint: optStr() }).nullish().catch(undefined),
    userName: optStr(),
    subnets: refList(),
    subnetAssignments: subnetAssignmentList(),
    securityGroups: refList(),
    backupSchedule: backupScheduleSchema(),
    tlsEnabled: optBool(),
    creator: optStr(),
    license: optStr(),
    status: optStr(),
    parameterGroupId: optStr(),
    parameterGroupName: optStr(),
    parameterGroupSyncStatus: optStr(),
    createdAt: optStr(),
  });
});

export const flattenClusterRecord: (body: unknown, action: string) => CacheClusterRecord = recordReader(
  "cluster record",
  clusterRecordSchema,
  ["objectId", "id"],
  (d) => {
    const userName = d.userName != null && d.userName.trim() !== "-" && d.userName.trim() !== "" ? d.userName : undefined;
    return {
      projectId: d.projectId,
      name: d.name,
      description: d.description,
      version: d.version,
      port: d.port,
      clusterEnabled: d.clusterEnabled,
      recoveryEnabled: d.recoveryEnabled,
      shardCount: d.shardCount,
      totalNodeCount: d.totalNodeCount,
      flavorId: d.flavorId,
      vcpu: d.vcpu,
      memory: d.memory,
      endpoints: compact<CacheClusterRecord["endpoints"]>({
        primaryEndpoint: d.endpoints?.primaryEndpoint ?? undefined,
        readEndpoint: d.endpoints?.readEndpoint ?? undefined,
      }),
      userName,
      authEnabled: userName !== undefined,
      subnets: d.subnets,
      subnetAssignments: d.subnetAssignments,
      securityGroups: d.securityGroups,
      backupSchedule: d.backupSchedule,
      tlsEnabled: d.tlsEnabled,
      creator: d.creator,
      license: d.license,
      ...statusFields(d.status),
      parameterGroupId: d.parameterGroupId,
      parameterGroupName: d.parameterGroupName,
      parameterGroupSyncStatus: d.parameterGroupSyncStatus,
      parameterGroupSyncState: normalizeStatus(d.parameterGroupSyncStatus),
      createdAt: d.createdAt,
    };
  },
  { wrapper: "cluster", keepNull: ["backupSchedule"] },
);

export const flattenClusterList = listReader(flattenClusterRecord, "clusters", "cluster list", ["data"]);

// ---------------------------------------------------------------------------------------------
// Shards, nodes, instances (2.2)

const nodeSchema = once(() => {
  return z.looseObject({
    ...idFields(),
    name: optStr(),
    subnet: z.looseObject({ id: optStr() }).nullish().catch(undefined),
    subnetId: optStr(),
    endpoint: optStr(),
    role: optStr(),
    status: optStr(),
    createdAt: optStr(),
  });
});

export const flattenNode: (body: unknown, action: string) => CacheNode = recordReader(
  "node",
  nodeSchema,
  ["id", "objectId"],
  (d) => ({
    name: d.name,
    subnetId: d.subnet?.id ?? d.subnetId,
    endpoint: d.endpoint,
    role: normalizeRole(d.role),
    ...statusFields(d.status),
    createdAt: d.createdAt,
  }),
  { wrapper: "node" },
);

export const flattenNodeList = listReader(flattenNode, "nodes", "node list");

const shardSchema = once(() => {
  return z.looseObject({
    ...idFields(),
    name: optStr(),
    slots: z.unknown().optional(),
    nodes: z.array(z.unknown()).nullish().catch(undefined),
    status: optStr(),
    createdAt: optStr(),
  });
});

export const flattenShard: (body: unknown, action: string) => CacheShard = recordReader(
  "shard",
  shardSchema,
  ["id", "objectId"],
  (d, action) => ({
    name: d.name,
    slotsText: typeof d.slots === "string" ? d.slots : undefined,
    slots: parseSlots(d.slots),
    nodes: (d.nodes ?? []).map((n) => flattenNode(n, action)),
    ...statusFields(d.status),
    createdAt: d.createdAt,
  }),
  { wrapper: "shard" },
);

export const flattenShardList = listReader(flattenShard, "shards", "shard list");

const instanceSchema = once(() => {
  return z.looseObject({
    ...idFields(),
    instanceName: optStr(),
    description: optStr(),
    projectId: optStr(),
    role: optStr(),
    flavorId: optStr(),
    version: optStr(),
    port: optNum(),
    subnet: z.looseObject({ id: optStr() }).nullish().catch(undefined),
    creator: optStr(),
    endpoint: optStr(),
    license: optStr(),
    createdAt: optStr(),
    status: optStr(),
  });
});

export const flattenInstance: (body: unknown, action: string) => CacheInstance = recordReader("instance", instanceSchema, ["objectId", "id"], (d) => ({
  instanceName: d.instanceName,
  description: d.description,
  projectId: d.projectId,
  role: normalizeRole(d.role),
  flavorId: d.flavorId,
  version: d.version,
  port: d.port,
  subnetId: d.subnet?.id ?? undefined,
  creator: d.creator,
  endpoint: d.endpoint,
  license: d.license,
  createdAt: d.createdAt,
  ...statusFields(d.status),
}));

const instanceList = listReader(flattenInstance, "data", "instance list", ["instances"]);

/** `{size, data: [instance]}` (4.3); `instances` and a bare array are read too. */
export function flattenInstanceList(body: unknown, action: string): InstanceList {
  const instances = instanceList(body, action);
  const size = typeof body === "object" && body !== null && !Array.isArray(body) ? optNum().parse((body as Record<string, unknown>).size) : undefined;
  return { size: size ?? instances.length, instances };
}

// ---------------------------------------------------------------------------------------------
// Versions and flavors (4.1)

/** A JSON array of version strings (4.1); `{versions: [...]}` and items `{version}`/`{name}` are read too. */
export function flattenVersions(body: unknown, action: string): string[] {
  const out: string[] = [];
  for (const item of listOf(body, "versions", action, "version list")) {
    if (typeof item === "string") out.push(item);
    else if (typeof item === "number") out.push(String(item));
    else if (typeof item === "object" && item !== null) {
      const o = item as Record<string, unknown>;
      const v = o.version ?? o.name ?? o.id;
      if (typeof v === "string") out.push(v);
    }
  }
  return out;
}

export function flattenFlavors(body: unknown, action: string): Flavor[] {
  const schema = z.looseObject({ id: idValue(), name: optStr(), vcpus: optNum(), vcpu: optNum(), memory: optNum() });
  return listOf(body, "flavors", action, "flavor list").map((item) => {
    const r = schema.safeParse(item);
    if (!r.success) return fail(action, "flavor", r.error);
    const d = r.data;
    return compact<Flavor>({ id: d.id, name: d.name, vcpus: d.vcpus ?? d.vcpu, memory: d.memory, raw: item });
  });
}

// ---------------------------------------------------------------------------------------------
// Parameter groups (2.3)

const parameterGroupSummarySchema = once(() => {
  return z.looseObject({
    ...idFields(),
    parameterGroupId: idValue().optional().catch(undefined),
    engineVersion: optStr(),
    name: optStr(),
    description: optStr(),
    isDefault: optBool(),
    defaultParameterGroupId: optStr(),
    rollbackAvailable: optBool(),
    clusterModeEnabled: optBool(),
    existErrorSync: optBool(),
    clusterSize: optNum(),
    createdAt: optStr(),
    parameters: z.array(z.unknown()).nullish().catch(undefined),
  });
});

type SummaryData = z.infer<ReturnType<typeof parameterGroupSummarySchema>>;

function summaryFields(d: SummaryData, id: string, input: unknown): ParameterGroupSummary {
  const { parameters: _parameters, ...raw } = input as Record<string, unknown>;
  return compact({
    id,
    engineVersion: d.engineVersion,
    name: d.name,
    description: d.description,
    isDefault: d.isDefault,
    defaultParameterGroupId: d.defaultParameterGroupId === "" ? undefined : d.defaultParameterGroupId,
    rollbackAvailable: d.rollbackAvailable,
    clusterModeEnabled: d.clusterModeEnabled,
    existErrorSync: d.existErrorSync,
    clusterSize: d.clusterSize,
    createdAt: d.createdAt,
    raw: raw,
  });
}

function parseSummary(body: unknown, action: string, what: string): { d: SummaryData; id: string } {
  return withId(body, parameterGroupSummarySchema(), what, action, ["id", "objectId", "parameterGroupId"]);
}

export function flattenParameterGroupSummary(body: unknown, action: string): ParameterGroupSummary {
  const { d, id } = parseSummary(body, action, "parameter group");
  return summaryFields(d, id, body);
}

export const flattenParameterGroupList = listReader(flattenParameterGroupSummary, "parameterGroups", "parameter group list");

/** `NUMBER` (a sample) and `INTEGER` (the table) are one kind; unknown types are kept and not checked. */
export function parameterValueKind(dataType: string | undefined): ParameterValueKind {
  switch ((dataType ?? "").trim().toUpperCase()) {
    case "INTEGER":
    case "NUMBER":
    case "INT":
    case "LONG":
    case "FLOAT":
    case "DOUBLE":
      return "number";
    case "STRING":
      return "string";
    case "ENUM":
      return "enum";
    default:
      return "unknown";
  }
}

const parameterSchema = once(() => {
  return z.looseObject({
    parameterKey: idValue(),
    parameterType: optStr(),
    parameterValue: optStr(),
    defaultParameterValue: optStr(),
    dataType: optStr(),
    editable: optBool(),
    validationValueFormat: optStr(),
  });
});

export function flattenParameterDefinition(item: unknown, action: string): ParameterDefinition {
  const r = parameterSchema().safeParse(item);
  if (!r.success) return fail(action, "parameter", r.error);
  const d = r.data;
  return compact({
    parameterKey: d.parameterKey,
    parameterType: d.parameterType?.toUpperCase(),
    parameterValue: d.parameterValue,
    defaultParameterValue: d.defaultParameterValue,
    dataType: d.dataType?.toUpperCase(),
    valueKind: parameterValueKind(d.dataType ?? undefined),
    editable: d.editable,
    validationValueFormat: d.validationValueFormat,
  });
}

export function flattenParameterGroup(body: unknown, action: string): ParameterGroup {
  const input = unwrap(body, "parameterGroup");
  const { d, id } = parseSummary(input, action, "parameter group");
  return { ...summaryFields(d, id, input), parameters: (d.parameters ?? []).map((p) => flattenParameterDefinition(p, action)) };
}

export function flattenParameterGroupEvents(body: unknown, action: string): ParameterGroupEvent[] {
  const schema = z.looseObject({ eventName: optStr(), message: optStr(), createdAt: optStr() });
  return listOf(body, "events", action, "event list").map((item) => {
    const r = schema.safeParse(item);
    if (!r.success) return fail(action, "event", r.error);
    return compact<ParameterGroupEvent>({ eventName: r.data.eventName, message: r.data.message, createdAt: r.data.createdAt });
  });
}
