/**
 * The one path every cache operation takes to the wire: JSON bodies with
 * `content-type: application/json` (spec 02 conventions), `accept: application/json`, the
 * operation's idempotency declared explicitly, error bodies read by `refineApiError`, and answers
 * parsed by the caller's tolerant reader.
 */

import { secretValues, type HttpResponse, type Query, type Transport } from "../../core";
import { CacheInvalidArgumentError, CacheResponseFormatError, refineApiError } from "../errors";
import type { Settings } from "../../core";
import { flattenObjectId } from "../parse";
import type { ObjectIdResult } from "../types";

export const JSON_TYPE = "application/json";

export interface CacheRequest {
  operation: string;
  method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT";
  path: string;
  query?: Query;
  /** Serialised as JSON; omitted entirely when undefined (e.g. retry apply sends no body). */
  body?: unknown;
  expect?: readonly number[];
  action: string;
  /** Required here even while core's RequestSpec still has it optional. */
  idempotent: boolean;
  /** Values of this request to keep out of error messages (a create body's `user.password`). */
  secrets?: readonly (string | undefined)[];
  signal?: AbortSignal;
}

export class CacheHttp {
  constructor(
    readonly transport: Transport,
    private readonly settings: Settings,
  ) {}

  /** Sends the request; API errors come back as core ApiErrors with the action as their subject. */
  async send(r: CacheRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: JSON_TYPE };
    if (r.body !== undefined) headers["content-type"] = JSON_TYPE;
    try {
      return await this.transport.request({
        operation: r.operation,
        method: r.method,
        path: r.path,
        query: r.query,
        headers,
        body: r.body === undefined ? undefined : JSON.stringify(r.body),
        expect: r.expect,
        action: r.action,
        idempotent: r.idempotent,
        signal: r.signal,
      });
    } catch (e) {
      const extra = (r.secrets ?? []).filter((s): s is string => typeof s === "string" && s !== "");
      throw refineApiError(e, r.action, [...secretValues(this.settings), ...extra]);
    }
  }

  /** Sends and returns the JSON body (undefined for an empty body). */
  async json(r: CacheRequest): Promise<unknown> {
    return parseJson(await this.send(r), r.action);
  }

  /** Sends and reads the answer with `reader` (the operation's flattener), which names the action in its errors. */
  async read<T>(r: CacheRequest, reader: (body: unknown, action: string) => T): Promise<T> {
    return reader(await this.json(r), r.action);
  }

  /** Sends and reads the `{objectId}` most operations answer; `addressed` is the id the request named, for an answer without one. */
  async objectId(r: CacheRequest, addressed?: string): Promise<ObjectIdResult> {
    return flattenObjectId(await this.json(r), r.action, addressed);
  }
}

/**
 * A change to one part of a record, `{recordPath}/{part}` (an instance set's primary, replicas or
 * recovery; a parameter group's rollback or reset), answered with the record's `{objectId}`:
 * `addressed` when the answer has none.
 */
export function changePart(
  http: CacheHttp,
  method: "PATCH" | "POST",
  recordPath: string,
  part: string,
  addressed: string,
  r: Pick<CacheRequest, "operation" | "body" | "expect" | "action" | "idempotent">,
): Promise<ObjectIdResult> {
  return http.objectId({ ...r, method, path: `${recordPath}/${part}` }, addressed);
}

export function parseJson(res: HttpResponse, action: string): unknown {
  const text = res.body.toString("utf8").trim();
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CacheResponseFormatError(`${action}: the answer is not JSON (status ${res.status})`);
  }
}

/** One path segment: rejects empty ids (which would turn `/v1/clusters/{id}` into the list). */
export function seg(value: string, what: string, action: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new CacheInvalidArgumentError(`${action}: ${what} is empty`);
  return encodeURIComponent(value);
}
