/**
 * What every service's routes do first, in one place: who is calling (the credential the service
 * takes, else 401), the JSON object body, and a zod schema over a value (400 naming the fields).
 */
import type { z } from "zod";
import type { Identity } from "./credentials";
import { ApiError, BadRequest, Unauthorized } from "./errors";
import { describeIssues, parseJsonBody, requireMediaType, type RequestContext } from "./http";

const SCHEMES = {
  token: { header: "X-Auth-Token", invalid: "Authentication failed: the X-Auth-Token is not valid." },
  "access-key": {
    header: "Credential-ID and Credential-Secret",
    invalid: "Credential authentication failed: the Credential-ID and Credential-Secret do not match an access key.",
  },
} as const;

/**
 * The identity behind the request when it presents the credential kind the service takes; 401
 * (`Unauthorized`, or the service's own error from `unauthorized`) when it presents none, an
 * invalid one or the other kind.
 */
export function caller(
  ctx: RequestContext,
  kind: Identity["kind"],
  service: string,
  unauthorized: (message: string) => ApiError = (m) => new Unauthorized(m),
): Identity {
  const p = ctx.presented;
  const scheme = SCHEMES[kind];
  if (p.kind === "invalid") throw unauthorized(scheme.invalid);
  if (p.kind !== "valid" || p.identity.kind !== kind) throw unauthorized(`${service} authenticates with ${scheme.header}.`);
  return p.identity;
}

/**
 * The body as a JSON object: 400 when it is empty (unless `optional`, then `{}`), not JSON, or not
 * an object; with `mediaTypes`, 415 unless the Content-Type is one of them.
 */
export function jsonObjectBody(
  ctx: RequestContext,
  options: { optional?: boolean; mediaTypes?: string[]; notAnObject?: () => ApiError } = {},
): Record<string, unknown> {
  if (options.optional && ctx.body.length === 0) return {};
  if (options.mediaTypes) requireMediaType(ctx, options.mediaTypes);
  const body = parseJsonBody(ctx);
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw options.notAnObject?.() ?? new BadRequest("The body must be a JSON object.");
  return body as Record<string, unknown>;
}

/** `value` parsed by `schema`; 400 naming the first fields that do not fit. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new BadRequest(describeIssues(result.error.issues));
  return result.data;
}
