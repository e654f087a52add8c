import { z } from "zod";
import { describeIssues } from "../core/http";
import { InvalidCorsConfiguration } from "./errors";
import { LIMITS } from "./limits";

/** One CORS policy of spec section 2.4, normalised: optional lists default to []. */
export interface CorsPolicy {
  allowed_origins: string[];
  allowed_methods: Array<"PUT" | "POST" | "GET" | "DELETE">;
  allowed_headers: string[];
  expose_headers: string[];
  max_age_seconds?: number;
}

const METHODS = ["PUT", "POST", "GET", "DELETE"] as const;

function corsSchema() {
  const origin = z
    .string()
    .max(LIMITS.maxCorsOrigin, `an origin may have at most ${LIMITS.maxCorsOrigin} characters`)
    .refine((o) => /^https?:\/\/[\x21-\x7e]+$/.test(o), "an origin must start with http:// or https:// and contain no spaces or non-ASCII characters")
    .refine((o) => (o.match(/\*/g) ?? []).length <= 1, 'an origin may contain at most one "*" wildcard');
  const headerName = z.string().regex(/^(\*|[A-Za-z0-9!#$%&'+.^_`|~-]+)$/, 'header names must be HTTP tokens (or "*")');
  const policy = z.strictObject({
    allowed_origins: z.array(origin).min(1, "at least one origin is required"),
    allowed_methods: z.array(z.enum(METHODS, { message: "methods must be PUT, POST, GET or DELETE" })).min(1, "at least one method is required"),
    allowed_headers: z.array(headerName).nullish(),
    expose_headers: z.array(headerName).nullish(),
    max_age_seconds: z.number().int().nonnegative().nullish(),
  });
  return z.strictObject({
    cors: z.array(policy).max(LIMITS.maxCorsPolicies, `at most ${LIMITS.maxCorsPolicies} CORS policies are allowed`),
  });
}

/** Validates a PutBucketCors body `{cors: [...]}`. An empty list removes the configuration. */
export function parseCors(body: unknown): CorsPolicy[] {
  const result = corsSchema().safeParse(body);
  if (!result.success) throw new InvalidCorsConfiguration(describeIssues(result.error.issues));
  return result.data.cors.map((p) => ({
    allowed_origins: p.allowed_origins,
    allowed_methods: p.allowed_methods,
    allowed_headers: p.allowed_headers ?? [],
    expose_headers: p.expose_headers ?? [],
    ...(p.max_age_seconds !== undefined && p.max_age_seconds !== null ? { max_age_seconds: p.max_age_seconds } : {}),
  }));
}

/**
 * Literal match with at most one `*` matching any run of characters. There is no port
 * normalisation, which gives the rule of spec 2.4: `https://a.com:443` does not match an Origin
 * of `https://a.com`. Scheme and host compare case-insensitively.
 */
export function originMatches(pattern: string, origin: string): boolean {
  const p = pattern.toLowerCase();
  const o = origin.toLowerCase();
  const star = p.indexOf("*");
  if (star < 0) return p === o;
  const head = p.slice(0, star);
  const tail = p.slice(star + 1);
  return o.length >= head.length + tail.length && o.startsWith(head) && o.endsWith(tail);
}

function headerAllowed(policy: CorsPolicy, name: string): boolean {
  const lower = name.toLowerCase();
  return policy.allowed_headers.some((h) => h === "*" || h.toLowerCase() === lower);
}

/** The first policy allowing this origin, method and request headers. */
export function findCorsPolicy(
  policies: readonly CorsPolicy[] | null,
  origin: string,
  method: string,
  requestHeaders: readonly string[] = [],
): CorsPolicy | undefined {
  return (policies ?? []).find(
    (policy) =>
      policy.allowed_origins.some((pattern) => originMatches(pattern, origin)) &&
      (policy.allowed_methods as string[]).includes(method.toUpperCase()) &&
      requestHeaders.every((h) => headerAllowed(policy, h)),
  );
}

/** Headers for an actual (non-preflight) cross-origin request that a policy allows. */
export function corsResponseHeaders(policy: CorsPolicy, origin: string): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Credentials": "true",
    ...(policy.expose_headers.length > 0 ? { "Access-Control-Expose-Headers": policy.expose_headers.join(", ") } : {}),
    Vary: "Origin",
  };
}

/** Headers of a successful preflight (204). */
export function preflightHeaders(policy: CorsPolicy, origin: string, requestHeaders: readonly string[]): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Methods": policy.allowed_methods.join(", "),
    "Access-Control-Allow-Headers": requestHeaders.join(", "),
    "Access-Control-Expose-Headers": policy.expose_headers.join(", "),
    "Access-Control-Allow-Credentials": "true",
    ...(policy.max_age_seconds !== undefined ? { "Access-Control-Max-Age": String(policy.max_age_seconds) } : {}),
    Vary: "Origin",
    "Content-Length": "0",
  };
}

/** The CORS list as GetBucketCors returns it (max_age_seconds only when set). */
export function corsView(policies: readonly CorsPolicy[] | null): { cors: CorsPolicy[] } {
  return { cors: (policies ?? []).map((p) => structuredClone(p)) };
}
