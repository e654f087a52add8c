/**
 * Values not yet known during preview. The engine sends each as the sentinel string below, whatever
 * the property's type: it passes string schemas and fails all others, so validation, defaults and
 * derivations must treat it explicitly (`parseKnown`), never as a value.
 */
import type { z } from "zod";

/** During preview, inputs not yet known arrive as this sentinel string. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function containsUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(containsUnknown);
  return false;
}

export interface ParseIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
  issues?: readonly { message: string }[];
}

export type ParseResult = { ok: true; value: unknown } | { ok: false; issues: ParseIssue[] };

/** The parts of zod 4's schema definitions that `parseKnown` walks. */
interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/**
 * `schema.safeParse(value)` for a value that may hold unknowns: every fully known part is parsed
 * (validated, defaults applied) by its own schema; an unknown leaf is kept as it is and neither
 * validated nor defaulted; containers with unknowns inside are walked key by key. Rules that look
 * at several properties at once (object refinements) are skipped for a container holding an
 * unknown: the engine checks again with the real values before create or update.
 */
export function parseKnown(schema: z.ZodType, value: unknown): ParseResult {
  if (value === UNKNOWN) return { ok: true, value };
  if (!containsUnknown(value)) {
    const r = schema.safeParse(value);
    return r.success ? { ok: true, value: r.data } : { ok: false, issues: r.error.issues as unknown as ParseIssue[] };
  }
  const def = defOf(schema);
  switch (def.type) {
    case "default":
    case "prefault":
    case "optional":
    case "nullable":
    case "readonly":
    case "catch":
      return parseKnown(def.innerType!, value);
    case "pipe":
      // A transform cannot run on a value that is not there yet: validate what is known of its input.
      return parseKnown(def.in!, value);
    case "object":
      return parseObject(def, value);
    case "array":
      return parseEntries(Array.isArray(value) ? value.map((v, i) => [i, v] as const) : undefined, def.element!, value, []);
    case "record":
      return parseRecord(def, value);
    default:
      // Unions, intersections and the like: nothing safe to say about a partly unknown value.
      return { ok: true, value };
  }
}

function parseObject(def: Def, value: unknown): ParseResult {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: true, value };
  const input = value as Record<string, unknown>;
  const shape = def.shape ?? {};
  const strict = def.catchall !== undefined && defOf(def.catchall).type === "never";
  const out: Record<string, unknown> = {};
  const issues: ParseIssue[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (k in shape) continue;
    if (strict) issues.push({ path: [k], message: `unrecognized key "${k}"`, code: "unrecognized_keys" });
    else out[k] = v;
  }
  for (const [k, s] of Object.entries(shape)) {
    const r = parseKnown(s, input[k]);
    if (!r.ok) issues.push(...prefix(k, r.issues));
    else if (r.value !== undefined) out[k] = r.value;
  }
  return issues.length ? { ok: false, issues } : { ok: true, value: out };
}

function parseRecord(def: Def, value: unknown): ParseResult {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return { ok: true, value };
  const issues: ParseIssue[] = [];
  for (const k of Object.keys(value)) {
    if (k === UNKNOWN) continue;
    const r = def.keyType!.safeParse(k);
    if (!r.success) issues.push({ path: [k], message: "Invalid key in record", code: "invalid_key", issues: r.error.issues });
  }
  const entries = parseEntries(Object.entries(value), def.valueType!, value, issues);
  return entries;
}

function parseEntries(
  entries: readonly (readonly [PropertyKey, unknown])[] | undefined,
  schema: z.ZodType,
  original: unknown,
  issues: ParseIssue[],
): ParseResult {
  if (entries === undefined) return { ok: true, value: original };
  const out: Record<PropertyKey, unknown> | unknown[] = Array.isArray(original) ? [] : {};
  for (const [k, v] of entries) {
    const r = parseKnown(schema, v);
    if (!r.ok) issues.push(...prefix(k, r.issues));
    else (out as Record<PropertyKey, unknown>)[k] = r.value;
  }
  return issues.length ? { ok: false, issues } : { ok: true, value: out };
}

function prefix(key: PropertyKey, issues: readonly ParseIssue[]): ParseIssue[] {
  return issues.map((i) => ({ ...i, path: [key, ...i.path] }));
}
