/**
 * Generates the Pulumi package schema (`schema.json`) from the code: `make schema`, i.e.
 * `node dist/tools/gen-schema.js > schema.json`.
 *
 * - Resources and functions come from the registry (provider/registry.ts): each resource and lookup
 *   definition's zod schemas are converted with `z.toJSONSchema` and mapped to Pulumi types (see
 *   `typeSpec` for the mapping); secrets from provider/core/secrets.ts, as both front doors use them.
 * - Config variables come from `CONFIG_KEYS` and the settings module.
 *
 * The output is deterministic (object keys sorted), so `git diff schema.json` shows real changes.
 */
import { readFileSync, existsSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { allComponents, allDefinitions, allLookups } from "../provider/registry";
import type { AnyComponent } from "../provider/core/component";
import type { AnyDefinition } from "../provider/core/resource";
import type { AnyLookup } from "../provider/core/lookup";
import { alwaysSecretOutputKeys, secretInputKeys } from "../provider/core/secrets";
import { CONFIG_KEYS } from "../provider/core/config";
import { DEFAULT_REGION, LOCAL_CLOUD_PREFIX, SECRET_SETTINGS, SERVICES, endpointKeys, type ServiceName } from "../client/core/settings";

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
  /** What `List` (the plugin's, `pulumi do <token> list`) filters by; absent: the type cannot be listed. */
  listInputs?: ObjectTypeSpec;
  /** A component: the plugin's Construct builds it (SDKs register it as a remote component). */
  isComponent?: boolean;
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
  for (const k of replace) {
    if (!(k in ins.properties)) throw new Error(`${def.token}: replaceOn names "${k}", which is not an input`);
  }
  const secretIns = new Set<string>(secretInputKeys(def));
  const secretOuts = new Set<string>(alwaysSecretOutputKeys(def));
  for (const [props, secret] of [
    [ins.properties, secretIns],
    [outs.properties, secretOuts],
  ] as const) {
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
  const spec: ResourceSpec = {
    description: def.unlisted ? `${def.description}\n\nIt cannot be listed: ${def.unlisted}.` : def.description,
    inputProperties: ins.properties,
    requiredInputs: (ins.required ?? []).filter((k) => k !== autoNamed),
    properties: outs.properties,
    required: outs.required ?? [],
  };
  if (def.list) spec.listInputs = listInputsOf(def, ins.properties);
  return spec;
}

/** A component's resource entry: its inputs and outputs, marked `isComponent` (the plugin's Construct builds it). */
export function componentSpec(c: AnyComponent, types: TypeRegistry): ResourceSpec {
  const { pkg, module, name } = parseToken(c.token);
  if (pkg !== PACKAGE_NAME) throw new Error(`component token ${c.token} is not in package ${PACKAGE_NAME}`);
  const ins = objectProperties(c.inputs(), "input", name, module, types);
  const outs = objectProperties(c.outputs(), "output", name, module, types);
  for (const k of c.secretInputs ?? []) {
    if (!ins.properties[k]) throw new Error(`${c.token}: secretInputs names "${k}", which is not an input`);
    ins.properties[k].secret = true;
  }
  return {
    description: c.description,
    isComponent: true,
    inputProperties: ins.properties,
    requiredInputs: ins.required ?? [],
    properties: outs.properties,
    required: outs.required ?? [],
  };
}

/**
 * The type's `listInputs`: each filter of its `list`, a string input of the type. A type that lists
 * within another (an object within its bucket) requires that one.
 */
function listInputsOf(def: AnyDefinition, inputs: Record<string, PropertySpec>): ObjectTypeSpec {
  const list = def.list!;
  const properties: Record<string, PropertySpec> = {};
  for (const [k, description] of Object.entries(list.inputs ?? {})) {
    if (inputs[k]?.type !== "string") throw new Error(`${def.token}: list filters by "${k}", which is not a string input`);
    properties[k] = { type: "string", description };
  }
  const required = list.parent ? [list.parent.input] : [];
  for (const k of required) if (!(k in properties)) throw new Error(`${def.token}: list needs "${k}", which is not one of its filters`);
  return required.length > 0 ? { type: "object", properties, required } : { type: "object", properties };
}

// ---------------------------------------------------------------------------------------------
// Functions

export function functionSpec(lookup: AnyLookup, types: TypeRegistry): FunctionSpec {
  const { pkg, module, name } = parseToken(lookup.token);
  if (pkg !== PACKAGE_NAME) throw new Error(`function token ${lookup.token} is not in package ${PACKAGE_NAME}`);
  const prefix = pascal(name);
  const spec: FunctionSpec = { description: lookup.description, outputs: {} };
  if (lookup.args) spec.inputs = objectProperties(lookup.args(), "input", prefix, module, types);
  const out = lookup.result();
  const root = toJson(out, "output");
  const ctx: Ctx = { module, root, types, seen: new Map() };
  const node = deref(root, ctx).node;
  if (node.type === "object" && node.properties && Object.keys(node.properties).length > 0) {
    const outs = objectProperties(out, "output", prefix, module, types);
    for (const k of lookup.secretResults ?? []) {
      const p = outs.properties[k];
      if (!p) throw new Error(`${lookup.token}: secretResults names "${k}", which is not a result property`);
      p.secret = true;
    }
    spec.outputs = outs;
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
  projectId:
    "Project (account) ID; object storage paths need it. Optional with a token that names its project (an access key's, a token command's): taken from it; when both are set and differ, nothing is done.",
  authToken:
    "A static `X-Auth-Token` for object storage, cache and key management: the first source of tokens. It cannot be renewed; prefer an access key (`credentialId`, `credentialSecret`, `identityEndpoint`).",
  tokenCommand:
    'A command (run with the shell) whose standard output is `{"token": ..., "expiresAt": ..., "projectId": ...}`: the second source of tokens, run again near expiry and after a 401.',
  credentialId:
    "Access key ID: `Credential-ID` of data query and Hadoop, and the application credential the identity service issues tokens for (the third source of tokens).",
  credentialSecret: "Access key secret: `Credential-Secret` of data query and Hadoop, and the secret of the application credential.",
  identityEndpoint:
    "Endpoint of the identity service (Keystone v3) that issues tokens for the access key; its catalog gives every service endpoint not set. Default: `{localCloudUrl}/identity` when `localCloudUrl` is set.",
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
  definitions: readonly AnyDefinition[] = allDefinitions(),
  lookups: readonly AnyLookup[] = allLookups(),
  components: readonly AnyComponent[] = allComponents(),
): Record<string, unknown> {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as PackageJson;
  const types = new TypeRegistry();
  const resources: Record<string, ResourceSpec> = {};
  for (const def of definitions) {
    if (resources[def.token]) throw new Error(`resource token ${def.token} is declared twice`);
    resources[def.token] = resourceSpec(def, types);
  }
  for (const c of components) {
    if (resources[c.token]) throw new Error(`resource token ${c.token} is declared twice`);
    resources[c.token] = componentSpec(c, types);
  }
  const fns: Record<string, FunctionSpec> = {};
  for (const lookup of lookups) {
    if (fns[lookup.token]) throw new Error(`function token ${lookup.token} is declared twice`);
    fns[lookup.token] = functionSpec(lookup, types);
  }
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
