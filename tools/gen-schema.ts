/**
 * Generates the Pulumi package schema (`schema.json`) from the code: `make schema`, i.e.
 * `node dist/tools/gen-schema.js > schema.json`.
 *
 * - Resources come from `REGISTRY`: each definition's zod input/output schemas are converted with
 *   `z.toJSONSchema` and mapped to Pulumi types (see `typeSpec` for the mapping).
 * - Functions come from the hand-kept `FUNCTIONS` table below (the lookups are plain TS functions
 *   with TS interfaces, no runtime schema). Compile-time checks tie each entry to the interfaces of
 *   its function, and tests/unit/schema.test.ts fails when a module exports a `getX` the table lacks.
 * - Config variables come from `CONFIG_KEYS` and the settings module.
 *
 * The output is deterministic (object keys sorted), so `git diff schema.json` shows real changes.
 */
import { readFileSync, existsSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { REGISTRY } from "../provider/registry";
import type { AnyDefinition } from "../provider/core/resource";
import { CONFIG_KEYS } from "../provider/core/config";
import { DEFAULT_REGION, LOCAL_CLOUD_PREFIX, SECRET_SETTINGS, SERVICES, endpointKeys, type ServiceName } from "../sdk/core/settings";
import type {
  GetBucketArgs,
  GetBucketResult,
  GetBucketsArgs,
  GetBucketsResult,
  GetTempUrlArgs,
  GetTempUrlResult,
  getObjectStorageInfo,
} from "../provider/objectstorage/functions";
import type {
  ClusterResult,
  GetClusterArgs,
  GetClustersArgs,
  GetClustersResult,
  GetFlavorsResult,
  GetInstancesArgs,
  GetInstancesResult,
  GetParameterGroupArgs,
  GetParameterGroupResult,
  GetParameterGroupsArgs,
  GetParameterGroupsResult,
  GetVersionsResult,
} from "../provider/cache/functions";
import type { GetDataSourcesResult, GetQueryResultArgs, GetQueryResultResult } from "../provider/dataquery/functions";
import type {
  GetClusterArgs as HadoopGetClusterArgs,
  GetClusterResult as HadoopGetClusterResult,
  GetClustersArgs as HadoopGetClustersArgs,
  GetClustersResult as HadoopGetClustersResult,
  GetClusterVmsArgs,
  GetClusterVmsResult,
} from "../provider/hadoop/functions";
import type { CreateHmacArgs, CreateHmacResult, DecryptArgs, DecryptResult, SignArgs, SignResult, VerifyArgs, VerifyResult } from "../provider/kms/functions";

export const PACKAGE_NAME = "krcloud";
/** Pulumi's built-in "any value" type. */
const ANY = { $ref: "pulumi.json#/Any" } as const;
const PRIMITIVES = new Set(["string", "number", "integer", "boolean"]);

// ---------------------------------------------------------------------------------------------
// Pulumi schema shapes (the subset this generator emits)

export interface TypeSpec {
  type?: string;
  items?: TypeSpec;
  additionalProperties?: TypeSpec;
  $ref?: string;
  oneOf?: TypeSpec[];
}
export interface PropertySpec extends TypeSpec {
  description?: string;
  default?: string | number | boolean;
  defaultInfo?: { environment: string[] };
  secret?: boolean;
  replaceOnChanges?: boolean;
  willReplaceOnChanges?: boolean;
}
export interface ObjectTypeSpec {
  type?: "object";
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}
export interface EnumTypeSpec {
  type: string;
  description?: string;
  enum: { value: string | number | boolean }[];
}
export type ComplexTypeSpec = ObjectTypeSpec | EnumTypeSpec;
export interface ResourceSpec {
  description: string;
  inputProperties: Record<string, PropertySpec>;
  requiredInputs: string[];
  properties: Record<string, PropertySpec>;
  required: string[];
}
export interface FunctionSpec {
  description: string;
  inputs?: ObjectTypeSpec;
  outputs: ObjectTypeSpec | TypeSpec;
}

// ---------------------------------------------------------------------------------------------
// Names and tokens

export function pascal(s: string): string {
  return s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1))
    .join("");
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Element name of a list: `Rules` -> `Rule`; names that are not plural get `Item`. */
function singular(name: string): string {
  if (/ies$/.test(name)) return name.replace(/ies$/, "y");
  if (/[^su]s$/.test(name) && !/(is|ss|us)$/.test(name)) return name.slice(0, -1);
  return `${name}Item`;
}

/** `krcloud:<module>:<Name>` -> parts; throws on a malformed token. */
export function parseToken(token: string): { pkg: string; module: string; name: string } {
  const m = /^([^:]+):([^:]+):([^:]+)$/.exec(token);
  if (!m) throw new Error(`malformed token "${token}" (expected ${PACKAGE_NAME}:<module>:<Name>)`);
  const [, pkg = "", module = "", name = ""] = m;
  return { pkg, module, name };
}

/** Token of a named type: `krcloud:objectstorage/bucketAcl:BucketAcl` (moduleFormat strips the last segment). */
export function typeToken(module: string, name: string): string {
  return `${PACKAGE_NAME}:${module}/${lowerFirst(name)}:${name}`;
}

// ---------------------------------------------------------------------------------------------
// Named types, shared by every resource and function

type Json = Record<string, unknown>;

function stableJson(v: unknown): string {
  return JSON.stringify(sortKeys(v));
}

/** Collects object and enum types; the same token registered twice must describe compatible types. */
export class TypeRegistry {
  readonly types = new Map<string, ComplexTypeSpec>();

  addEnum(token: string, spec: EnumTypeSpec): void {
    const prev = this.types.get(token);
    if (!prev) {
      this.types.set(token, spec);
      return;
    }
    if (!("enum" in prev) || stableJson(prev.enum) !== stableJson(spec.enum) || prev.type !== spec.type) {
      throw new Error(`type ${token} is generated twice with different definitions (enum ${stableJson(spec.enum)})`);
    }
    if (!prev.description && spec.description) prev.description = spec.description;
  }

  /**
   * Object types reached from both inputs and outputs (or from several places) are merged: the
   * union of the properties (a property must have the same type everywhere) and the intersection of
   * `required`, i.e. input semantics: a property with a default is optional.
   */
  addObject(token: string, spec: ObjectTypeSpec): void {
    const prev = this.types.get(token);
    if (!prev) {
      this.types.set(token, spec);
      return;
    }
    if ("enum" in prev) throw new Error(`type ${token} is generated both as an enum and as an object`);
    for (const [k, p] of Object.entries(spec.properties)) {
      const q = prev.properties[k];
      if (!q) {
        prev.properties[k] = p;
        continue;
      }
      if (stableJson(typeOnly(q)) !== stableJson(typeOnly(p))) {
        throw new Error(`type ${token}: property "${k}" is generated twice with different types (${stableJson(typeOnly(q))} and ${stableJson(typeOnly(p))})`);
      }
      if (!q.description && p.description) q.description = p.description;
      if (q.default === undefined && p.default !== undefined) q.default = p.default;
    }
    const req = new Set(spec.required ?? []);
    const required = (prev.required ?? []).filter((k) => req.has(k) && k in spec.properties);
    if (required.length > 0) prev.required = required;
    else delete prev.required;
    if (!prev.description && spec.description) prev.description = spec.description;
  }

  toJSON(): Record<string, ComplexTypeSpec> {
    return Object.fromEntries(this.types);
  }
}

function typeOnly(p: PropertySpec): TypeSpec {
  const { type, items, additionalProperties, $ref, oneOf } = p;
  return { type, items, additionalProperties, $ref, oneOf };
}

// ---------------------------------------------------------------------------------------------
// JSON Schema (from z.toJSONSchema) -> Pulumi types

interface Ctx {
  module: string;
  root: Json;
  types: TypeRegistry;
  /** Named types by JSON Schema node, so that cycles (`$ref`) end. */
  seen: Map<object, TypeSpec>;
}

function deref(node: Json, ctx: Ctx): { node: Json; defName?: string } {
  let n = node;
  let defName: string | undefined;
  for (let i = 0; typeof n.$ref === "string" && i < 32; i++) {
    const ref = n.$ref;
    if (ref === "#") {
      n = ctx.root;
      continue;
    }
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const [, section, def] = m ?? [];
    const target = section && def ? ((ctx.root[section] as Json | undefined)?.[def] as Json | undefined) : undefined;
    if (!target || !def) throw new Error(`unresolvable JSON Schema reference ${ref}`);
    defName = def;
    n = target;
  }
  return { node: n, defName };
}

/** Drops `null` from unions: Pulumi has no null type, an absent value is the same. */
function nonNull(variants: Json[]): Json[] {
  return variants.filter((v) => v.type !== "null" && !(Array.isArray(v.type) && v.type.length === 1 && v.type[0] === "null"));
}

function literalValues(node: Json): unknown[] | undefined {
  if (Array.isArray(node.enum)) return node.enum;
  if ("const" in node) return [node.const];
  return undefined;
}

function primitiveOf(values: unknown[]): string | undefined {
  if (values.length === 0) return undefined;
  if (values.every((v) => typeof v === "string")) return "string";
  if (values.every((v) => typeof v === "boolean")) return "boolean";
  if (values.every((v) => typeof v === "number" && Number.isInteger(v))) return "integer";
  if (values.every((v) => typeof v === "number")) return "number";
  return undefined;
}

/**
 * The mapping:
 * - string / number / integer / boolean -> the same primitive (length, pattern and range
 *   constraints have no Pulumi equivalent: the provider's `check` enforces them);
 * - `enum` / `const` (z.enum, z.literal, unions of literals) -> a named enum type;
 * - array -> `{type: array, items}`; object with properties -> a named object type;
 *   record / object without properties -> map `{type: object, additionalProperties}`;
 * - nullable -> the non-null type; other unions -> a Pulumi union (`oneOf`);
 * - anything else (z.unknown, z.any, unrepresentable) -> `pulumi.json#/Any`.
 */
/** runtime/rpc.js `specialSigKey`: the key that marks a serialised asset. */
const ASSET_SIG_KEY = "4dabf18193072939515e22adb298388d";

export function typeSpec(node0: Json, name: string, ctx: Ctx): TypeSpec {
  const { node, defName } = deref(node0, ctx);
  const known = ctx.seen.get(node);
  if (known) return known;
  if (defName && !/^__schema\d+$/.test(defName)) name = pascal(defName);

  const variants = (node.anyOf ?? node.oneOf) as Json[] | undefined;
  if (Array.isArray(variants)) {
    const vs = nonNull(variants);
    if (vs.length === 1) return typeSpec(vs[0]!, name, ctx);
    const lits = vs.map((v) => literalValues(deref(v, ctx).node));
    if (vs.length > 0 && lits.every((l) => l !== undefined)) {
      const spec = enumSpec(lits.flat(), name, node, ctx);
      if (spec) return spec;
    }
    if (vs.length === 0) return { ...ANY };
    return { oneOf: vs.map((v, i) => typeSpec(v, `${name}${i + 1}`, ctx)) };
  }
  if (Array.isArray(node.allOf) && node.allOf.length === 1 && !node.type) return typeSpec(node.allOf[0] as Json, name, ctx);

  const lits = literalValues(node);
  if (lits) {
    const spec = enumSpec(lits, name, node, ctx);
    if (spec) return spec;
    return { ...ANY };
  }

  let type = node.type;
  if (Array.isArray(type)) {
    const ts = type.filter((t) => t !== "null");
    if (ts.length > 1) {
      // `type: [string, number]` (a union of primitives): a Pulumi union of the same.
      if (ts.every((t) => typeof t === "string" && PRIMITIVES.has(t))) return { oneOf: ts.map((t) => ({ type: t as string })) };
      return { ...ANY };
    }
    if (ts.length === 0) return { ...ANY };
    type = ts[0];
  }
  if (typeof type === "string" && PRIMITIVES.has(type)) return { type };
  if (type === "array") {
    const items = node.items;
    if (items && typeof items === "object" && !Array.isArray(items)) return { type: "array", items: typeSpec(items as Json, singular(name), ctx) };
    return { type: "array", items: { ...ANY } };
  }
  // A Pulumi asset as the engine serialises it (provider/objectstorage/object-source.ts): Pulumi's own Asset type.
  if (node.properties && typeof node.properties === "object" && ASSET_SIG_KEY in node.properties) return { $ref: "pulumi.json#/Asset" };
  if (type === "object" || node.properties) {
    const props = node.properties as Record<string, Json> | undefined;
    if (props && Object.keys(props).length > 0) return objectType(node, props, name, ctx);
    const ap = node.additionalProperties;
    if (ap && typeof ap === "object") return { type: "object", additionalProperties: typeSpec(ap as Json, `${name}Value`, ctx) };
    return { type: "object", additionalProperties: { ...ANY } };
  }
  return { ...ANY };
}

function enumSpec(values: unknown[], name: string, node: Json, ctx: Ctx): TypeSpec | undefined {
  const unique = [...new Set(values)];
  const prim = primitiveOf(unique);
  if (!prim) return undefined;
  const token = typeToken(ctx.module, name);
  const spec: EnumTypeSpec = { type: prim, enum: unique.map((value) => ({ value: value as string | number | boolean })) };
  if (typeof node.description === "string") spec.description = node.description;
  ctx.types.addEnum(token, spec);
  return { $ref: `#/types/${token}` };
}

function objectType(node: Json, props: Record<string, Json>, name: string, ctx: Ctx): TypeSpec {
  const token = typeToken(ctx.module, name);
  const ref: TypeSpec = { $ref: `#/types/${token}` };
  ctx.seen.set(node, ref);
  const spec: ObjectTypeSpec = { type: "object", properties: {} };
  for (const [k, v] of Object.entries(props)) spec.properties[k] = propertySpec(v, `${name}${pascal(k)}`, ctx);
  const required = ((node.required as string[] | undefined) ?? []).filter((k) => k in spec.properties);
  if (required.length > 0) spec.required = required;
  else delete spec.required;
  if (typeof node.description === "string") spec.description = node.description;
  ctx.types.addObject(token, spec);
  return ref;
}

/** A property: its type, plus the description from `.describe()` and a primitive `default`. */
export function propertySpec(node: Json, name: string, ctx: Ctx): PropertySpec {
  const t = typeSpec(node, name, ctx);
  const inner = deref(node, ctx).node;
  const p: PropertySpec = { ...t };
  const description = node.description ?? inner.description;
  if (typeof description === "string" && description.trim() !== "") p.description = description;
  const dflt = "default" in node ? node.default : inner.default;
  // Pulumi defaults are primitives only; object/array/map defaults (`{}`) stay in the provider.
  const primitiveType =
    (t.type !== undefined && PRIMITIVES.has(t.type)) || (t.$ref?.startsWith("#/types/") && "enum" in (ctx.types.types.get(t.$ref.slice(8)) ?? {}));
  if (primitiveType && (typeof dflt === "string" || typeof dflt === "number" || typeof dflt === "boolean")) p.default = dflt;
  return p;
}

function toJson(schema: z.ZodType, io: "input" | "output"): Json {
  return z.toJSONSchema(schema, { io, unrepresentable: "any", cycles: "ref", reused: "inline" });
}

/** Properties and required list of a zod object schema, in one direction. */
function objectProperties(schema: z.ZodType, io: "input" | "output", prefix: string, module: string, types: TypeRegistry): ObjectTypeSpec {
  const root = toJson(schema, io);
  const ctx: Ctx = { module, root, types, seen: new Map() };
  const { node } = deref(root, ctx);
  if (node.type !== "object" || !node.properties) throw new Error(`${prefix}: the ${io} schema must be a zod object`);
  const properties: Record<string, PropertySpec> = {};
  for (const [k, v] of Object.entries(node.properties as Record<string, Json>)) properties[k] = propertySpec(v, `${prefix}${pascal(k)}`, ctx);
  const required = ((node.required as string[] | undefined) ?? []).filter((k) => k in properties);
  return required.length > 0 ? { properties, required } : { properties };
}

// ---------------------------------------------------------------------------------------------
// Resources

export function resourceSpec(def: AnyDefinition, types: TypeRegistry): ResourceSpec {
  const { pkg, module, name } = parseToken(def.token);
  if (pkg !== PACKAGE_NAME) throw new Error(`resource token ${def.token} is not in package ${PACKAGE_NAME}`);
  const ins = objectProperties(def.inputs(), "input", name, module, types);
  const outs = objectProperties(def.outputs(), "output", name, module, types);
  const replace = new Set<string>(def.replaceOn);
  const secret = new Set<string>(def.secretOutputs ?? []);
  for (const k of replace) {
    if (!(k in ins.properties)) throw new Error(`${def.token}: replaceOn names "${k}", which is not an input`);
  }
  for (const props of [ins.properties, outs.properties]) {
    for (const [k, p] of Object.entries(props)) {
      if (secret.has(k)) p.secret = true;
      // The provider's diff replaces on these; `replaceOnChanges` also makes generated SDKs ask for it.
      if (replace.has(k)) {
        p.replaceOnChanges = true;
        p.willReplaceOnChanges = true;
      }
    }
  }
  const autoNamed = def.autoName?.property;
  return {
    description: def.description,
    inputProperties: ins.properties,
    requiredInputs: (ins.required ?? []).filter((k) => k !== autoNamed),
    properties: outs.properties,
    required: outs.required ?? [],
  };
}

// ---------------------------------------------------------------------------------------------
// Functions: hand-kept, as the lookups have TS interfaces and no runtime schema.

export interface FunctionEntry {
  description: string;
  /** Arguments (a zod object); omitted for a function without arguments. */
  inputs?: () => z.ZodType;
  /** Result: a zod object (-> `outputs` object type) or any other type (-> a plain return type). */
  outputs: () => z.ZodType;
}

const getBucketArgs = () => z.object({ name: z.string().describe("Bucket name.") });
const getBucketResult = () =>
  z.object({
    name: z.string().describe("Bucket name."),
    project: z.string().describe("Project (account) ID that owns the bucket."),
    type: z.string().describe("Bucket type, `STANDARD`."),
    encrypted: z.boolean().describe("Whether server-side encryption is on."),
    acl: z
      .object({
        public: z.enum(["read-only", "deny"]).describe("`read-only` allows token-less reads; `deny` forbids them."),
        publicReadAllowIpList: z.array(z.string()).optional().describe("IP addresses or CIDR ranges token-less reads are limited to."),
      })
      .describe("Public access."),
    metadata: z.record(z.string(), z.string()).describe("User metadata (`X-Container-Meta-*`)."),
    createdAt: z.string().describe("Creation time (RFC 3339)."),
    bytes: z.number().describe("Total size of the objects in bytes (refreshed by the service every 30 minutes)."),
    objectCount: z.number().describe("Number of objects (refreshed by the service every 30 minutes)."),
    url: z.string().describe("The bucket's Swift URL."),
  });
const getBucketsArgs = () =>
  z.object({
    prefix: z.string().optional().describe("Only buckets whose names start with this."),
    include: z.string().optional().describe("Only buckets whose names contain this (cannot be combined with prefix)."),
  });
const getBucketsResult = () =>
  z.object({
    names: z.array(z.string()).describe("Names of the buckets found."),
    buckets: z
      .array(
        z.object({
          name: z.string().describe("Bucket name."),
          createdAt: z.string().optional().describe("Creation time (RFC 3339)."),
          bytes: z.number().optional().describe("Total size of the objects in bytes."),
          objectCount: z.number().optional().describe("Number of objects."),
        }),
      )
      .describe("The buckets found, every page."),
  });
const getObjectStorageInfoResult = () => z.record(z.string(), z.unknown()).describe("The service's capability document.");
const getTempUrlArgs = () =>
  z.object({
    bucket: z.string().describe("The bucket."),
    key: z.string().describe("Object name."),
    expiresIn: z
      .number()
      .optional()
      .describe(
        "How long the URL stays valid, in seconds (default 3600); the expiry is aligned to a multiple of this period, so the URL stays the same on every run within one period. Ignored when expiresAt is set.",
      ),
    expiresAt: z.number().optional().describe("Expiry as Unix seconds."),
  });
const getTempUrlResult = () =>
  z.object({
    url: z.string().describe("Absolute URL for token-less GET until expiresAt. It carries a signature: a secret."),
    expiresAt: z.number().describe("Expiry as Unix seconds."),
  });

const kmsKeyId = (what: string) => z.string().describe(what);
const decryptArgs = () =>
  z.object({
    keyId: kmsKeyId("The symmetric KMS key."),
    ciphertext: z.string().describe("The ciphertext exactly as encrypt returned it."),
    aad: z.string().optional().describe("The AAD given at encryption, if any."),
  });
const decryptResult = () => z.object({ plaintext: z.string().describe("The decrypted text (secret).") });
const signArgs = () =>
  z.object({ keyId: kmsKeyId("An asymmetric signing key."), content: z.string().describe("Base64 of the data to sign, at most 4 KB decoded.") });
const signResult = () => z.object({ signature: z.string().describe("The signature.") });
const verifyArgs = () =>
  z.object({
    keyId: kmsKeyId("The signing or MAC key."),
    input: z.string().describe("Base64 of the original data."),
    output: z.string().describe("The signature, or the Base64 HMAC."),
  });
const verifyResult = () => z.object({ valid: z.boolean().describe("Whether it verified.") });
const createHmacArgs = () => z.object({ keyId: kmsKeyId("A MAC key."), content: z.string().describe("Base64 of the data, at most 4 KB decoded.") });
const createHmacResult = () => z.object({ hmac: z.string().describe("The Base64 HMAC (secret).") });

const getVersionsResult = () => z.object({ versions: z.array(z.string()).describe("Engine versions.") });
const getFlavorsResult = () =>
  z.object({
    flavors: z
      .array(z.object({ id: z.string(), name: z.string().optional(), vcpus: z.number().optional(), memory: z.number().optional().describe("GiB.") }))
      .describe("Node sizes."),
  });
const pgSummary = () => ({
  id: z.string(),
  name: z.string().optional(),
  engineVersion: z.string().optional(),
  description: z.string().optional(),
  isDefault: z.boolean().optional(),
  defaultParameterGroupId: z.string().optional().describe("The default group a custom group is based on."),
  clusterModeEnabled: z.boolean().optional(),
  clusterSize: z.number().optional().describe("Clusters using the group."),
});
const getParameterGroupsArgs = () =>
  z.object({
    engineVersion: z.string().optional().describe("Only groups of this engine version."),
    parameterGroupType: z.enum(["default", "custom"]).optional().describe("`default` or `custom`."),
    clusterMode: z.enum(["enabled", "disabled"]).optional().describe("`enabled` (clusters) or `disabled` (instance sets); omitted: both."),
  });
const getParameterGroupsResult = () => z.object({ parameterGroups: z.array(z.object(pgSummary())).describe("The groups found.") });
const getParameterGroupArgs = () => z.object({ idOrName: z.string().describe("The group's id or name.") });
const getParameterGroupResult = () =>
  z.object({
    ...pgSummary(),
    parameters: z
      .array(
        z.object({
          key: z.string(),
          value: z.string().optional(),
          defaultValue: z.string().optional(),
          dataType: z.string().optional(),
          editable: z.boolean().optional(),
          validationValueFormat: z.string().optional(),
          parameterType: z.string().optional(),
        }),
      )
      .describe("The parameter catalogue with current values."),
  });
const clusterResult = () =>
  z.object({
    id: z.string(),
    name: z.string().optional(),
    clusterEnabled: z.boolean().optional().describe("true for a cluster, false for an instance set."),
    version: z.string().optional(),
    status: z.string().optional(),
    shardCount: z.number().optional(),
    totalNodeCount: z.number().optional(),
    primaryEndpoint: z.string().optional(),
    readEndpoint: z.string().optional(),
    parameterGroupId: z.string().optional(),
    parameterGroupSyncStatus: z.string().optional(),
  });
const getClustersArgs = () => z.object({ parameterGroup: z.string().optional().describe("Only those using this parameter group (id or name).") });
const getClustersResult = () => z.object({ clusters: z.array(clusterResult()).describe("Clusters and instance sets.") });
const getClusterArgs = () => z.object({ id: z.string().describe("The cluster's or instance set's id.") });
const getInstancesArgs = () => z.object({ instanceSetId: z.string().describe("The instance set's id.") });
const getInstancesResult = () =>
  z.object({
    instances: z
      .array(
        z.object({
          id: z.string(),
          name: z.string().optional(),
          role: z.string().optional(),
          status: z.string().optional(),
          endpoint: z.string().optional(),
          subnetId: z.string().optional(),
        }),
      )
      .describe("The instances."),
  });

const getDataSourcesResult = () =>
  z.object({
    dataSources: z
      .array(
        z.object({ name: z.string(), type: z.string(), scope: z.string().optional(), creatorName: z.string().optional(), description: z.string().optional() }),
      )
      .describe("The project's data sources."),
  });
const getQueryResultArgs = () =>
  z.object({
    queryId: z.string().describe("The query's id."),
    page: z.number().optional().describe("One page, 0 to 9 (100 rows each); omitted: every page, up to 1000 rows."),
  });
const getQueryResultResult = () =>
  z.object({
    state: z.string().describe("The query's state."),
    storageUrl: z.string().optional().describe("Where the result lies: `bucket/path/YYYY/MM/DD`."),
    columns: z.array(z.object({ name: z.string(), index: z.number(), type: z.string() })).describe("Result columns."),
    rows: z.array(z.array(z.string())).describe("Rows, each an array of strings."),
    totalPages: z.number().optional(),
    totalElements: z.number().optional(),
  });

const hGetClustersArgs = () =>
  z.object({
    name: z.string().optional().describe("Clusters whose names contain this."),
    includeTerminated: z.boolean().optional().describe("Include terminated clusters (default true)."),
  });
const hGetClustersResult = () =>
  z.object({
    clusters: z
      .array(
        z.object({
          id: z.string(),
          name: z.string().optional(),
          status: z.string().optional(),
          clusterType: z.string().optional(),
          clusterVersion: z.string().optional(),
          apiKeyStatus: z.string().optional(),
          workerCnt: z.number().optional(),
        }),
      )
      .describe("The clusters, every page."),
  });
const hGetClusterArgs = () => z.object({ id: z.string().describe("The cluster's id.") });
const hGetClusterResult = () =>
  z.object({
    id: z.string(),
    name: z.string().optional(),
    status: z.string().optional(),
    clusterType: z.string().optional(),
    clusterVersion: z.string().optional(),
    workerCnt: z.number().optional(),
    masterCnt: z.number().optional(),
    apiKeyStatus: z.string().optional(),
    componentUrls: z.record(z.string(), z.string()).describe("Web UIs."),
  });
const hGetClusterVmsArgs = () => z.object({ clusterId: z.string().describe("The cluster's id.") });
const hGetClusterVmsResult = () =>
  z.object({
    vms: z
      .array(
        z.object({
          name: z.string().optional(),
          instanceId: z.string().optional(),
          isMaster: z.boolean().optional(),
          index: z.number().optional(),
          ip: z.string().optional(),
          floatingIp: z.string().optional(),
          status: z.string().optional(),
          flavorName: z.string().optional(),
        }),
      )
      .describe("The VMs, every page."),
  });

/** Token -> lookup. tests/unit/schema.test.ts fails when a service exports a `getX` missing here. */
export const FUNCTIONS: Readonly<Record<string, FunctionEntry>> = {
  "krcloud:objectstorage:getBucket": {
    description: "Looks up an existing bucket by name; fails when it does not exist.",
    inputs: getBucketArgs,
    outputs: getBucketResult,
  },
  "krcloud:objectstorage:getBuckets": {
    description: "Lists buckets, every page.",
    inputs: getBucketsArgs,
    outputs: getBucketsResult,
  },
  "krcloud:objectstorage:getObjectStorageInfo": {
    description: "The service's capability document (`/info`): limits such as max_file_size, container_listing_limit.",
    outputs: getObjectStorageInfoResult,
  },
  "krcloud:objectstorage:getTempUrl": {
    description: "Creates a temporary signed URL for token-less download of an object.",
    inputs: getTempUrlArgs,
    outputs: getTempUrlResult,
  },
  "krcloud:cache:getVersions": { description: "Engine versions the cache service offers.", outputs: getVersionsResult },
  "krcloud:cache:getFlavors": { description: "Cache node sizes (flavors).", outputs: getFlavorsResult },
  "krcloud:cache:getParameterGroups": { description: "Cache parameter groups, filtered.", inputs: getParameterGroupsArgs, outputs: getParameterGroupsResult },
  "krcloud:cache:getParameterGroup": {
    description: "One cache parameter group with its parameter catalogue.",
    inputs: getParameterGroupArgs,
    outputs: getParameterGroupResult,
  },
  "krcloud:cache:getClusters": { description: "Cache clusters and instance sets.", inputs: getClustersArgs, outputs: getClustersResult },
  "krcloud:cache:getCluster": { description: "One cache cluster or instance set.", inputs: getClusterArgs, outputs: clusterResult },
  "krcloud:cache:getInstances": { description: "The instances of a cache instance set.", inputs: getInstancesArgs, outputs: getInstancesResult },
  "krcloud:dataquery:getDataSources": { description: "The project's data sources.", outputs: getDataSourcesResult },
  "krcloud:dataquery:getQueryResult": {
    description: "A data query's state, result location, columns and rows.",
    inputs: getQueryResultArgs,
    outputs: getQueryResultResult,
  },
  "krcloud:hadoop:getClusters": { description: "Hadoop clusters, every page.", inputs: hGetClustersArgs, outputs: hGetClustersResult },
  "krcloud:hadoop:getCluster": { description: "One Hadoop cluster.", inputs: hGetClusterArgs, outputs: hGetClusterResult },
  "krcloud:hadoop:getClusterVms": { description: "A Hadoop cluster's VMs, every page.", inputs: hGetClusterVmsArgs, outputs: hGetClusterVmsResult },
  "krcloud:kms:decrypt": {
    description: "Decrypts a ciphertext with a symmetric KMS key (an `Active` or `Deactivated` version).",
    inputs: decryptArgs,
    outputs: decryptResult,
  },
  "krcloud:kms:sign": { description: "Signs Base64 data with an asymmetric KMS key.", inputs: signArgs, outputs: signResult },
  "krcloud:kms:verifySignature": { description: "Verifies a signature with an asymmetric KMS key.", inputs: verifyArgs, outputs: verifyResult },
  "krcloud:kms:createHmac": { description: "Creates an HMAC of Base64 data with a MAC key.", inputs: createHmacArgs, outputs: createHmacResult },
  "krcloud:kms:verifyHmac": { description: "Verifies an HMAC with a MAC key.", inputs: verifyArgs, outputs: verifyResult },
};

// The table cannot drift from the TS interfaces of the functions: these fail to compile otherwise.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type FunctionTableMatchesInterfaces = [
  Assert<Same<z.infer<ReturnType<typeof getBucketArgs>>, GetBucketArgs>>,
  Assert<Same<z.infer<ReturnType<typeof getBucketResult>>, GetBucketResult>>,
  Assert<Same<z.infer<ReturnType<typeof getBucketsArgs>>, GetBucketsArgs>>,
  Assert<Same<z.infer<ReturnType<typeof getBucketsResult>>, GetBucketsResult>>,
  Assert<Same<z.infer<ReturnType<typeof getObjectStorageInfoResult>>, Awaited<ReturnType<typeof getObjectStorageInfo>>>>,
  Assert<Same<z.infer<ReturnType<typeof getTempUrlArgs>>, GetTempUrlArgs>>,
  Assert<Same<z.infer<ReturnType<typeof getTempUrlResult>>, GetTempUrlResult>>,
  Assert<Same<z.infer<ReturnType<typeof getVersionsResult>>, GetVersionsResult>>,
  Assert<Same<z.infer<ReturnType<typeof getFlavorsResult>>, GetFlavorsResult>>,
  Assert<Same<z.infer<ReturnType<typeof getParameterGroupsArgs>>, GetParameterGroupsArgs>>,
  Assert<Same<z.infer<ReturnType<typeof getParameterGroupsResult>>, GetParameterGroupsResult>>,
  Assert<Same<z.infer<ReturnType<typeof getParameterGroupArgs>>, GetParameterGroupArgs>>,
  Assert<Same<z.infer<ReturnType<typeof getParameterGroupResult>>, GetParameterGroupResult>>,
  Assert<Same<z.infer<ReturnType<typeof getClustersArgs>>, GetClustersArgs>>,
  Assert<Same<z.infer<ReturnType<typeof getClustersResult>>, GetClustersResult>>,
  Assert<Same<z.infer<ReturnType<typeof getClusterArgs>>, GetClusterArgs>>,
  Assert<Same<z.infer<ReturnType<typeof clusterResult>>, ClusterResult>>,
  Assert<Same<z.infer<ReturnType<typeof getInstancesArgs>>, GetInstancesArgs>>,
  Assert<Same<z.infer<ReturnType<typeof getInstancesResult>>, GetInstancesResult>>,
  Assert<Same<z.infer<ReturnType<typeof getDataSourcesResult>>, GetDataSourcesResult>>,
  Assert<Same<z.infer<ReturnType<typeof getQueryResultArgs>>, GetQueryResultArgs>>,
  Assert<Same<z.infer<ReturnType<typeof getQueryResultResult>>, GetQueryResultResult>>,
  Assert<Same<z.infer<ReturnType<typeof hGetClustersArgs>>, HadoopGetClustersArgs>>,
  Assert<Same<z.infer<ReturnType<typeof hGetClustersResult>>, HadoopGetClustersResult>>,
  Assert<Same<z.infer<ReturnType<typeof hGetClusterArgs>>, HadoopGetClusterArgs>>,
  Assert<Same<z.infer<ReturnType<typeof hGetClusterResult>>, HadoopGetClusterResult>>,
  Assert<Same<z.infer<ReturnType<typeof hGetClusterVmsArgs>>, GetClusterVmsArgs>>,
  Assert<Same<z.infer<ReturnType<typeof hGetClusterVmsResult>>, GetClusterVmsResult>>,
  Assert<Same<z.infer<ReturnType<typeof decryptArgs>>, DecryptArgs>>,
  Assert<Same<z.infer<ReturnType<typeof decryptResult>>, DecryptResult>>,
  Assert<Same<z.infer<ReturnType<typeof signArgs>>, SignArgs>>,
  Assert<Same<z.infer<ReturnType<typeof signResult>>, SignResult>>,
  Assert<Same<z.infer<ReturnType<typeof verifyArgs>>, VerifyArgs>>,
  Assert<Same<z.infer<ReturnType<typeof verifyResult>>, VerifyResult>>,
  Assert<Same<z.infer<ReturnType<typeof createHmacArgs>>, CreateHmacArgs>>,
  Assert<Same<z.infer<ReturnType<typeof createHmacResult>>, CreateHmacResult>>,
];

export function functionSpec(token: string, entry: FunctionEntry, types: TypeRegistry): FunctionSpec {
  const { pkg, module, name } = parseToken(token);
  if (pkg !== PACKAGE_NAME) throw new Error(`function token ${token} is not in package ${PACKAGE_NAME}`);
  const prefix = pascal(name);
  const spec: FunctionSpec = { description: entry.description, outputs: {} };
  if (entry.inputs) spec.inputs = objectProperties(entry.inputs(), "input", prefix, module, types);
  const out = entry.outputs();
  const root = toJson(out, "output");
  const ctx: Ctx = { module, root, types, seen: new Map() };
  const node = deref(root, ctx).node;
  if (node.type === "object" && node.properties && Object.keys(node.properties).length > 0) {
    spec.outputs = objectProperties(out, "output", prefix, module, types);
  } else {
    spec.outputs = typeSpec(root, `${prefix}Result`, ctx);
  }
  return spec;
}

// ---------------------------------------------------------------------------------------------
// Provider configuration

/** Descriptions of the provider settings; each `<service>Endpoint` is described by `endpointDoc`. */
const CONFIG_DOCS: Record<string, string> = {
  region: "Region.",
  projectId: "Project (account) ID; object storage paths need it.",
  authToken: "`X-Auth-Token` for object storage, cache and key management.",
  credentialId: "Access key ID (`Credential-ID`) for data query and Hadoop.",
  credentialSecret: "Access key secret (`Credential-Secret`) for data query and Hadoop.",
  hadoopApiKey: "`Hadoop-Service-Api-Key`, for Hadoop re-runs.",
  localCloudUrl:
    "Base URL of a local cloud (e.g. `http://127.0.0.1:8790`); every service without an endpoint goes to it, under the service's prefix. Never implied: without it or an endpoint, a service's resources fail naming the missing setting.",
};
const CONFIG_DEFAULTS: Record<string, string> = {
  region: DEFAULT_REGION,
};

/** `projectId` -> `KRCLOUD_PROJECT_ID` (the settings module's naming rule). */
export function configEnvVar(key: string): string {
  const service = SERVICES.find((s) => endpointKeys(s)[0] === key);
  if (service) return endpointKeys(service)[1];
  return `KRCLOUD_${key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}`;
}

function endpointDoc(service: ServiceName): string {
  return `Endpoint of the ${service} service (https://, or http:// on loopback only). Default: \`{localCloudUrl}${LOCAL_CLOUD_PREFIX[service]}\` when \`localCloudUrl\` is set; otherwise required.`;
}

export function configVariables(): Record<string, PropertySpec> {
  const secrets = new Set<string>(SECRET_SETTINGS);
  const out: Record<string, PropertySpec> = {};
  for (const key of CONFIG_KEYS) {
    const service = SERVICES.find((s) => endpointKeys(s)[0] === key);
    const description = service ? endpointDoc(service) : CONFIG_DOCS[key];
    if (!description) throw new Error(`config key "${key}" has no description: add it to CONFIG_DOCS in tools/gen-schema.ts`);
    const p: PropertySpec = { type: "string", description, defaultInfo: { environment: [configEnvVar(key)] } };
    if (CONFIG_DEFAULTS[key] !== undefined) p.default = CONFIG_DEFAULTS[key];
    if (secrets.has(key)) p.secret = true;
    out[key] = p;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The package

export function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const p = path.join(dir, "package.json");
    if (existsSync(p) && (JSON.parse(readFileSync(p, "utf8")) as { name?: string }).name === "pulumi-krcloud") return dir;
    if (path.dirname(dir) === dir) throw new Error("package.json of pulumi-krcloud not found above " + __dirname);
  }
}

interface PackageJson {
  version: string;
  description: string;
  license: string;
  homepage?: string;
  repository?: string | { url?: string };
  dependencies?: Record<string, string>;
}

export function generateSchema(
  registry: Readonly<Record<string, () => AnyDefinition>> = REGISTRY,
  functions: Readonly<Record<string, FunctionEntry>> = FUNCTIONS,
): Record<string, unknown> {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as PackageJson;
  const types = new TypeRegistry();
  const resources: Record<string, ResourceSpec> = {};
  for (const [token, load] of Object.entries(registry)) {
    const def = load();
    if (def.token !== token) throw new Error(`REGISTRY key ${token} loads a definition with token ${def.token}`);
    resources[token] = resourceSpec(def, types);
  }
  const fns: Record<string, FunctionSpec> = {};
  for (const [token, entry] of Object.entries(functions)) fns[token] = functionSpec(token, entry, types);
  const repository = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;

  return sortKeys({
    name: PACKAGE_NAME,
    displayName: "krcloud",
    version: pkg.version,
    description: pkg.description,
    keywords: ["pulumi", "krcloud", "kr-central-2", "category/cloud"],
    ...(pkg.homepage ? { homepage: pkg.homepage } : {}),
    ...(repository ? { repository } : {}),
    license: pkg.license,
    publisher: "pulumi-krcloud",
    // Modules: `cache` of `krcloud:cache:Cluster`, `objectstorage` of `krcloud:objectstorage/bucketAcl:BucketAcl`.
    meta: { moduleFormat: "^(.*?)(?:/[^/]*)?$" },
    config: { variables: configVariables() },
    // An explicit provider resource (`pulumi:providers:krcloud`, native plugin) takes the same
    // settings as the stack config; the plugin's configure reads either.
    provider: {
      description:
        "The krcloud provider: where and as whom to call the services. Without an explicit one, the stack config (`krcloud:*`) and the environment configure the default provider.",
      inputProperties: configVariables(),
      properties: Object.fromEntries(Object.entries(configVariables()).filter(([k]) => !SECRET_SETTINGS.includes(k as never))),
    },
    types: types.toJSON(),
    resources,
    functions: fns,
    language: {
      nodejs: {
        packageName: "pulumi-krcloud",
        packageDescription: pkg.description,
        dependencies: { ...(pkg.dependencies ?? {}) },
      },
    },
  }) as Record<string, unknown>;
}

/**
 * Keys sorted at every level. Arrays keep their order (enum values as declared), except lists of
 * property names (`required`, `requiredInputs`), which are sorted.
 */
export function sortKeys(v: unknown, key?: string): unknown {
  if (Array.isArray(v)) {
    const items = v.map((x) => sortKeys(x));
    return (key === "required" || key === "requiredInputs") && items.every((x) => typeof x === "string") ? [...items].sort() : items;
  }
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortKeys(x, k);
    }
    return out;
  }
  return v;
}

/** The text of schema.json. */
export function renderSchema(): string {
  return `${JSON.stringify(generateSchema(), null, 2)}\n`;
}

if (require.main === module) {
  process.stdout.write(renderSchema());
}
