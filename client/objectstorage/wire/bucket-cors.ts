/**
 * CORS policy (spec 2.4): `{cors: [policy]}` with snake_case fields on the wire.
 *
 * Flattening drops absent, null and empty optional lists: the spec says `allowed_headers` comes back
 * "as required" in the get response even when it was never set, and an empty list means the same as
 * none, so reading a policy back yields what was written.
 */

import { InvalidArgumentError } from "../errors";
import type { CorsMethod, CorsRule } from "../types";
import { isRecord } from "../xml";

import { MAX_CORS_RULES } from "../limits";

export { MAX_CORS_RULES } from "../limits";

export interface CorsRuleWire {
  allowed_origins: string[];
  allowed_methods: string[];
  allowed_headers?: string[];
  expose_headers?: string[];
  max_age_seconds?: number;
}

export function expandCorsRules(rules: readonly CorsRule[]): { cors: CorsRuleWire[] } {
  if (rules.length > MAX_CORS_RULES) throw new InvalidArgumentError(`a CORS policy has at most ${MAX_CORS_RULES} rules, got ${rules.length}`);
  return {
    cors: rules.map((r) => {
      const w: CorsRuleWire = { allowed_origins: [...r.allowedOrigins], allowed_methods: [...r.allowedMethods] };
      if (r.allowedHeaders !== undefined) w.allowed_headers = [...r.allowedHeaders];
      if (r.exposeHeaders !== undefined) w.expose_headers = [...r.exposeHeaders];
      if (r.maxAgeSeconds !== undefined) w.max_age_seconds = r.maxAgeSeconds;
      return w;
    }),
  };
}

function strings(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter((x): x is string => typeof x === "string");
}

/** Accepts `{cors: [...]}`, `{cors: null}` (no policy) and, leniently, a bare list. */
export function flattenCorsRules(body: unknown): CorsRule[] {
  const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.cors) ? body.cors : [];
  return list.filter(isRecord).map((w) => {
    const r: CorsRule = {
      allowedOrigins: strings(w.allowed_origins) ?? [],
      allowedMethods: (strings(w.allowed_methods) ?? []).map((m) => m.toUpperCase() as CorsMethod),
    };
    const headers = strings(w.allowed_headers);
    if (headers?.length) r.allowedHeaders = headers;
    const expose = strings(w.expose_headers);
    if (expose?.length) r.exposeHeaders = expose;
    const maxAge = typeof w.max_age_seconds === "string" ? Number(w.max_age_seconds) : w.max_age_seconds;
    if (typeof maxAge === "number" && Number.isFinite(maxAge)) r.maxAgeSeconds = maxAge;
    return r;
  });
}
