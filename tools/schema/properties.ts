/**
 * JSON Schema (from `z.toJSONSchema`) to Pulumi types: a definition's zod schemas become the
 * properties and named types of schema.json (`typeSpec` says how each JSON Schema shape maps).
 */
import { z } from "zod";
import {
  ANY,
  PRIMITIVES,
  pascal,
  singular,
  typeToken,
  TypeRegistry,
  type Json,
  type ObjectTypeSpec,
  type PropertySpec,
  type TypeSpec,
  type EnumTypeSpec,
} from "./types";

export interface Ctx {
  module: string;
  root: Json;
  types: TypeRegistry;
  /** Named types by JSON Schema node, so that cycles (`$ref`) end. */
  seen: Map<object, TypeSpec>;
}

export function deref(node: Json, ctx: Ctx): { node: Json; defName?: string } {
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

export function toJson(schema: z.ZodType, io: "input" | "output"): Json {
  return z.toJSONSchema(schema, { io, unrepresentable: "any", cycles: "ref", reused: "inline" });
}

/** Properties and required list of a zod object schema, in one direction. */
export function objectProperties(schema: z.ZodType, io: "input" | "output", prefix: string, module: string, types: TypeRegistry): ObjectTypeSpec {
  const root = toJson(schema, io);
  const ctx: Ctx = { module, root, types, seen: new Map() };
  const { node } = deref(root, ctx);
  if (node.type !== "object" || !node.properties) throw new Error(`${prefix}: the ${io} schema must be a zod object`);
  const properties: Record<string, PropertySpec> = {};
  for (const [k, v] of Object.entries(node.properties as Record<string, Json>)) properties[k] = propertySpec(v, `${prefix}${pascal(k)}`, ctx);
  const required = ((node.required as string[] | undefined) ?? []).filter((k) => k in properties);
  return required.length > 0 ? { properties, required } : { properties };
}
