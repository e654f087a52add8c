import { emptyResponse, header, type ApiResponse, type RequestContext } from "../../core/http";
import { corsResponseHeaders, findCorsPolicy, preflightHeaders } from "../bucket-cors";
import { CorsForbidden, InvalidArgument } from "../errors";
import type { Bucket } from "../model";

/** OPTIONS: 204 with the Access-Control-* headers of the first matching policy, else 403. */
export function preflight(ctx: RequestContext, bucket: Bucket | undefined): ApiResponse {
  const origin = header(ctx, "origin");
  const method = header(ctx, "access-control-request-method");
  if (!origin || !method) throw new InvalidArgument("A CORS preflight needs Origin and Access-Control-Request-Method headers.");
  const requested = (header(ctx, "access-control-request-headers") ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h !== "");
  const policy = bucket ? findCorsPolicy(bucket.cors, origin, method, requested) : undefined;
  if (!policy) throw new CorsForbidden();
  return emptyResponse(204, preflightHeaders(policy, origin, requested));
}

/** Adds CORS response headers to an actual request from an allowed Origin. */
export function withCors(ctx: RequestContext, bucket: Bucket | undefined, response: ApiResponse): ApiResponse {
  const origin = header(ctx, "origin");
  if (!origin || !bucket) return response;
  const method = ctx.method === "HEAD" ? "GET" : ctx.method;
  const policy = findCorsPolicy(bucket.cors, origin, method);
  if (!policy) return response;
  return { ...response, headers: { ...(response.headers ?? {}), ...corsResponseHeaders(policy, origin) } };
}
