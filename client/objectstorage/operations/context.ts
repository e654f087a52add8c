/**
 * What every operation module of the client is built on: the transport, the options, the project
 * ID as `{account}`, and the small helpers they share. `ObjectStorageClient` owns one `Ops` and
 * delegates to the modules of this folder, one per area of the spec.
 */

import { withAction, type HttpResponse, type RequestSpec, type Transport } from "../../core";
import { InvalidArgumentError, ResponseFormatError } from "../errors";
import { stripQuotes } from "../parse";
import { objectRef, requireKey } from "../path";
import type { ContentHeaders, ObjectStorageClientOptions } from "../types";

export const JSON_TYPE = "application/json";
export const XML_TYPE = "application/xml";
export const DIRECTORY_TYPE = "application/directory";

export class Ops {
  /** Facts learnt by this client while it runs (which method PutBucketCors accepted). */
  readonly state: { corsPutMethod?: "PUT" | "POST" } = {};

  constructor(
    readonly transport: Transport,
    readonly opts: ObjectStorageClientOptions,
  ) {}

  send(spec: RequestSpec): Promise<HttpResponse> {
    return this.transport.request(spec);
  }

  /** The project ID used as `{account}` in Swift paths. */
  account(action: string): string {
    const p = this.opts.settings.projectId;
    if (!p) throw new InvalidArgumentError(`${action}: no project ID: set krcloud:projectId or KRCLOUD_PROJECT_ID`);
    return p;
  }

  destination(bucket: string, key: string): string {
    const ref = objectRef(bucket, requireKey(key));
    return this.opts.destinationStyle === "relative" ? ref : `/${ref}`;
  }

  /** The JSON body, or undefined when empty. */
  json(res: HttpResponse, action: string, o: { lenient?: boolean } = {}): unknown {
    const text = res.body.toString("utf8").trim();
    if (text === "") return undefined;
    try {
      return JSON.parse(text);
    } catch {
      if (o.lenient) return undefined;
      throw new ResponseFormatError(`${action}: the answer is not JSON (status ${res.status})`);
    }
  }
}

/**
 * A request sent with the JSON content type the extension API and Swift both accept. Each call
 * declares whether a repeat leaves the same result (`idempotent`: a read, a whole-document PUT, a
 * delete, a POST of absolute values), never inferred from the method (client/core/retry.ts);
 * `more` adds it, the query or the body, or replaces the method-specific fields.
 */
export function jsonRequest(
  operation: string,
  method: string,
  path: string,
  action: string,
  more: Partial<RequestSpec> & Pick<RequestSpec, "idempotent">,
): RequestSpec {
  return { operation, method, path, headers: { "content-type": JSON_TYPE }, action, ...more };
}

/** Runs a local step (validation, document building) and prefixes its error with the action. */
export function wrap<T>(action: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw withAction(e, action);
  }
}

export function definedEtag(headers: Record<string, string>): { etag?: string } {
  const etag = stripQuotes(headers["etag"]);
  return etag === undefined ? {} : { etag };
}

/** The headers for `ContentHeaders`; absent values are not sent. */
export function contentHeaders(o: ContentHeaders): Record<string, string | undefined> {
  return { "cache-control": o.cacheControl, "content-disposition": o.contentDisposition, "content-encoding": o.contentEncoding };
}
