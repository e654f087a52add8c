/**
 * The Pulumi schema's shapes (the subset tools/gen-schema.ts emits), the names and tokens of its
 * types, and the registry of named types every resource and function shares.
 */
export const PACKAGE_NAME = "krcloud";
/** Pulumi's built-in "any value" type. */
export const ANY = { $ref: "pulumi.json#/Any" } as const;
export const PRIMITIVES = new Set(["string", "number", "integer", "boolean"]);

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
export function singular(name: string): string {
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

export type Json = Record<string, unknown>;

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
