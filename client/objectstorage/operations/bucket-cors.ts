/** The bucket CORS policy (spec 2.4, 4.1): a set replaces the whole list. */

import { isApiError, type HttpResponse, type RequestSpec } from "../../core";
import { expandCorsRules, flattenCorsRules } from "../wire/bucket-cors";
import { extBucketPath } from "../path";
import type { CorsRule } from "../types";
import { jsonRequest, wrap, type Ops } from "./context";

/** The bucket's CORS rules; an empty list when none is set. A missing bucket is a NotFound error. */
export async function getCors(c: Ops, bucket: string): Promise<CorsRule[]> {
  const action = `reading the CORS policy of bucket "${bucket}"`;
  const res = await c.send(jsonRequest("GetBucketCors", "GET", extBucketPath(bucket, "cors"), action, { idempotent: true }));
  return flattenCorsRules(c.json(res, action));
}

/**
 * Replaces the whole CORS policy. The spec's sample request uses PUT, its method table POST
 * (4.1): PUT is tried first and, when the server answers 405 or 404 to it, POST once. The method
 * that worked is remembered for the rest of this client's life.
 */
export async function putCors(c: Ops, bucket: string, rules: readonly CorsRule[]): Promise<CorsRule[]> {
  const action = rules.length ? `setting the CORS policy of bucket "${bucket}"` : `removing the CORS policy of bucket "${bucket}"`;
  const body = JSON.stringify(wrap(action, () => expandCorsRules(rules)));
  const spec = (method: "PUT" | "POST"): RequestSpec => jsonRequest("PutBucketCors", method, extBucketPath(bucket, "cors"), action, { idempotent: true, body });
  let res: HttpResponse;
  if (c.state.corsPutMethod) {
    res = await c.send(spec(c.state.corsPutMethod));
  } else {
    try {
      res = await c.send(spec("PUT"));
      c.state.corsPutMethod = "PUT";
    } catch (e) {
      if (!(isApiError(e) && (e.status === 405 || e.status === 404))) throw e;
      res = await c.send(spec("POST"));
      c.state.corsPutMethod = "POST";
    }
  }
  const json = c.json(res, action);
  return json === undefined ? rules.map((r) => ({ ...r })) : flattenCorsRules(json);
}

/**
 * Removes the CORS policy. The spec has no delete operation; since a set replaces the whole list,
 * setting an empty list is the removal.
 */
export async function deleteCors(c: Ops, bucket: string): Promise<void> {
  await putCors(c, bucket, []);
}
