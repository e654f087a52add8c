/**
 * The field and record readers every cache answer is read with (spec 02 §2, §4): zod schemas built
 * per call (never held at module level), tolerant of the spec's ambiguities.
 *
 * Tolerance: `raw` is the object as received (unknown fields included); numbers may arrive as
 * numeric strings and booleans as "true"/"false"; ids may be numbers; a field of an unexpected type
 * is left out of the typed record (it stays in `raw`) rather than failing the whole record. Only
 * what an operation cannot do without fails: a record without an id, a list that is not a list.
 */

import { z } from "zod";
import { once } from "../../core";
import { CacheResponseFormatError } from "../errors";
import { normalizeStatus } from "../topology";
import type { ObjectIdResult, Ref } from "../types";

/** A string; numbers become strings; anything else is dropped. */
export function optStr() {
  return z
    .union([z.string(), z.number().transform(String)])
    .nullish()
    .catch(undefined);
}

/** A number or a numeric string; anything else is dropped. */
export function optNum() {
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

export function optBool() {
  return z
    .union([z.boolean(), z.enum(["true", "false", "TRUE", "FALSE", "True", "False"]).transform((v) => v.toLowerCase() === "true")])
    .nullish()
    .catch(undefined);
}

export function idValue() {
  return z.union([z.string().min(1), z.number().transform(String)]);
}

/** A record's ids: `objectId` and `id`, either of which may be missing (withId picks one). */
export function idFields() {
  return { objectId: idValue().optional().catch(undefined), id: idValue().optional().catch(undefined) };
}

export const refSchema = once(() => {
  return z.looseObject({ id: idValue() });
});

/** A list read item by item: `read` gives undefined for an item it drops; no list (or not one) reads as empty. */
export function tolerantList<T>(read: (item: unknown) => T | undefined) {
  return z
    .array(z.unknown())
    .nullish()
    .catch(undefined)
    .transform((items): T[] => (items ?? []).map(read).filter((v): v is T => v !== undefined));
}

/** A list of `{id}` refs; bare id strings are accepted, malformed items dropped. */
export function refList() {
  return tolerantList((item): Ref | undefined => {
    if (typeof item === "string" && item !== "") return { id: item };
    const r = refSchema().safeParse(item);
    return r.success ? { id: r.data.id } : undefined;
  });
}

/**
 * Drops undefined and null members so records compare cleanly (`toEqual`, Pulumi state); members
 * named in `keepNull` keep a null (backupSchedule: null means "off", not "unknown").
 */
export function compact<T>(o: Record<string, unknown>, keepNull: readonly string[] = []): T {
  for (const k of Object.keys(o)) if (o[k] === undefined || (o[k] === null && !keepNull.includes(k))) delete o[k];
  return o as T;
}

export function fail(action: string, what: string, error: z.ZodError | string): never {
  const detail = typeof error === "string" ? error : z.prettifyError(error).replace(/\n/g, "; ");
  throw new CacheResponseFormatError(`${action}: unexpected ${what}: ${detail}`);
}

/**
 * `input` read by `schema`, with its id: the first of `ids` it has (each record's own preference).
 * Fails naming `what` when `input` does not fit or has none of them.
 */
export function withId<S extends z.ZodType<Record<string, unknown>>>(
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
export function unwrap(body: unknown, key: string): unknown {
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
export function recordReader<S extends z.ZodType<Record<string, unknown>>, T>(
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
export function listOf(body: unknown, key: string, action: string, what: string, alternatives: string[] = []): unknown[] {
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
export function listReader<T>(read: (item: unknown, action: string) => T, key: string, what: string, alternatives: string[] = []) {
  return (body: unknown, action: string): T[] => listOf(body, key, action, what, alternatives).map((item) => read(item, action));
}

/** A record's status as sent, and as the state every record reports (normalizeStatus). */
export function statusFields(status: string | null | undefined) {
  return { status, state: normalizeStatus(status) };
}

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
