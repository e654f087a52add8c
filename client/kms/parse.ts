/**
 * The key management envelope `{code, message, data, requestId}` (spec 03 A.2). Success is the HTTP
 * status (200); the envelope's `code` values are not shown in the spec, so `code` is never used to
 * decide success. Verify operations answer "boolean": accepted as `data: true|false`, as a bare JSON
 * boolean body, or as `data: {result|valid|verified: boolean}` (docs/api-assumptions.md).
 */
import { jsonObject, parseJson } from "../core/json";
import { ResponseFormatError } from "./errors";

export interface Envelope {
  code?: string;
  message?: string;
  data?: unknown;
  requestId?: string;
}

export function parseEnvelope(body: Buffer, action: string): Envelope & { raw: unknown } {
  const raw = parseJson(body, action);
  const e = jsonObject(raw);
  if (e) {
    return {
      raw,
      code: typeof e.code === "string" || typeof e.code === "number" ? String(e.code) : undefined,
      message: typeof e.message === "string" ? e.message : undefined,
      data: "data" in e ? e.data : undefined,
      requestId: typeof e.requestId === "string" ? e.requestId : undefined,
    };
  }
  return { raw };
}

/** `data` as an object with string fields `keys`; anything else is a format error naming the field. */
export function dataFields<K extends string>(env: Envelope, keys: readonly K[], action: string): Record<K, unknown> {
  const d = env.data;
  if (d === null || typeof d !== "object" || Array.isArray(d)) throw new ResponseFormatError(`${action}: the answer has no data object${suffix(env)}`);
  for (const k of keys) {
    if (!(k in d)) throw new ResponseFormatError(`${action}: the answer's data has no "${k}"${suffix(env)}`);
  }
  return d as Record<K, unknown>;
}

export function dataString(env: Envelope, key: string, action: string): string {
  const v = dataFields(env, [key], action)[key];
  if (typeof v !== "string") throw new ResponseFormatError(`${action}: the answer's data.${key} is not a string${suffix(env)}`);
  return v;
}

export function verifyResult(env: Envelope & { raw: unknown }, action: string): boolean {
  if (typeof env.raw === "boolean") return env.raw;
  const d = env.data;
  if (typeof d === "boolean") return d;
  if (d !== null && typeof d === "object") {
    for (const k of ["result", "valid", "verified"]) {
      const v = (d as Record<string, unknown>)[k];
      if (typeof v === "boolean") return v;
    }
  }
  throw new ResponseFormatError(`${action}: the answer carries no boolean result${suffix(env)}`);
}

function suffix(env: Envelope): string {
  return env.requestId ? ` (request id ${env.requestId})` : "";
}
