/**
 * Loose readers of JSON answers, for the answers read by hand rather than by a zod schema (data
 * query, Hadoop, the key management envelope): a value of another type reads as absent, a number
 * may come as a string and a boolean as "true"/"false".
 */
import { ResponseFormatError } from "./errors";

export type JsonObject = Record<string, unknown>;

/** The answer's JSON; a body that is not JSON is a ResponseFormatError naming the action. */
export function parseJson(body: Buffer, action: string): unknown {
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new ResponseFormatError(`${action}: the answer is not JSON`);
  }
}

export function jsonObject(v: unknown): JsonObject | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : undefined;
}

export function jsonString(v: unknown): string | undefined {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
}

export function jsonNumber(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

export function jsonBoolean(v: unknown): boolean | undefined {
  return typeof v === "boolean" ? v : v === "true" ? true : v === "false" ? false : undefined;
}

/**
 * An answer that must be an object with an id: the object and the id, read from the first of `keys`
 * that holds one (`["id", "clusterId"]`); without either, a ResponseFormatError saying the answer has no `what`.
 */
export function jsonWithId(v: unknown, keys: readonly string[], action: string, what: string): { o: JsonObject; id: string } {
  const o = jsonObject(v);
  const id = o && keys.map((k) => jsonString(o[k])).find((s) => s !== undefined);
  if (!o || !id) throw new ResponseFormatError(`${action}: the answer has no ${what}`);
  return { o, id };
}
