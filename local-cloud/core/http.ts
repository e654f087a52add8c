import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import { InvalidArgument, MalformedJson, NoSuchKind, UnsupportedMediaType } from "./errors";
import type { ServiceBrowser } from "./browse";
import type { Identity } from "./credentials";

export type HeaderValue = string | string[];

/** What a route handler answers; the server adds request ids, CORS decoration and error bodies. */
export interface ApiResponse {
  status: number;
  headers?: Record<string, HeaderValue>;
  body?: Buffer | string;
  /**
   * A body streamed instead of `body` (large downloads). The handler sets Content-Length; the
   * stream should open its source lazily, as it may never be read (HEAD, faults).
   */
  stream?: Readable;
}

/** Authentication as presented by the request, resolved once by the server. */
export type Presented = { kind: "none" } | { kind: "invalid"; scheme: "token" | "access-key" } | { kind: "valid"; identity: Identity };

export interface RequestContext {
  readonly requestId: string;
  readonly service: string;
  readonly method: string;
  /** Service-relative path as received (still percent-encoded), without the query string. */
  readonly path: string;
  readonly rawQuery: string;
  readonly query: URLSearchParams;
  /** Route parameters, percent-decoded by the router. */
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly clientIp: string;
  /** Virtual clock reading at the start of the request (ms since epoch). */
  readonly now: number;
  readonly presented: Presented;
}

export interface RouteDefinition {
  methods: string[];
  /** find-my-way pattern relative to the service root. */
  path: string;
  /** The spec's operation name; a function when the query string selects the operation. */
  operation: string | ((ctx: RequestContext) => string);
  handler: (ctx: RequestContext, operation: string) => ApiResponse | Promise<ApiResponse>;
}

export interface InventoryEntry {
  service: string;
  kind: string;
  id: string;
  projectId: string;
}

export type ErrorFormat = "json" | "text";

/** Everything the core needs from a service. Services own their state; the core owns HTTP. */
export interface ServiceDefinition {
  readonly name: string;
  /** Its type in the identity service's catalog (docs/api-assumptions.md); unlisted without one. */
  readonly catalogType?: string;
  readonly routes: RouteDefinition[];
  /** How its errors are written for a request to `path`; JSON when it does not say (only Swift's API answers text). */
  errorFormat?(path: string): ErrorFormat;
  inventory(): InventoryEntry[];
  getResource(kind: string, id: string): unknown;
  patchResource(kind: string, id: string, patch: unknown): unknown;
  deleteResource(kind: string, id: string): void;
  reset(): void;
  snapshot(): unknown;
  restore(data: unknown): void;
  /** Called once per crossed 00:00 UTC with the latest boundary crossed (ms since epoch). */
  onDayBoundary?(boundaryMs: number): void;
  /** Stops what the service runs besides HTTP (processes); called when the local cloud closes. */
  close?(): Promise<void>;
  /** Its resources in the console (local-cloud/console); a service without one shows its inventory. */
  readonly browse?: ServiceBrowser;
}

/**
 * A service's part of the control API (its control.ts): its inventory, its records behind the API's
 * back, and its state as a whole (reset, snapshot, restore).
 */
export type ServiceControl = Pick<ServiceDefinition, "inventory" | "getResource" | "patchResource" | "deleteResource" | "reset" | "snapshot" | "restore">;

/** The control API members of a ServiceDefinition, served by `control` (a class instance: its methods stay bound). */
export function controlledBy(control: ServiceControl): ServiceControl {
  return {
    inventory: () => control.inventory(),
    getResource: (kind, id) => control.getResource(kind, id),
    patchResource: (kind, id, patch) => control.patchResource(kind, id, patch),
    deleteResource: (kind, id) => control.deleteResource(kind, id),
    reset: () => control.reset(),
    snapshot: () => control.snapshot(),
    restore: (data) => control.restore(data),
  };
}

/** A service whose routes, control (its control.ts) and console tree all work on one backend. */
export interface BackendParts<B, C extends ServiceControl> {
  routes(backend: B): RouteDefinition[];
  control: new (backend: B) => C;
  browse?(backend: B, control: C): ServiceBrowser;
}

/** The service `name` (`catalogType` in the identity catalog) over `backend`, its control API served by its control. */
export function serviceOver<B, C extends ServiceControl>(name: string, catalogType: string, backend: B, parts: BackendParts<B, C>): ServiceDefinition {
  const control = new parts.control(backend);
  return {
    name,
    catalogType,
    routes: parts.routes(backend),
    ...controlledBy(control),
    ...(parts.browse ? { browse: parts.browse(backend, control) } : {}),
  };
}

/** What the control API does with one kind of a service's records (`/_control/resources/{service}/{kind}/{id}`). */
export interface ControlledKind {
  get(id: string): unknown;
  /** The record after the change; a Promise of it where the service applies the patch asynchronously. */
  patch(id: string, patch: unknown): unknown;
  delete(id: string): void;
}

/**
 * A service's control (its control.ts) with its kinds in one table: GET, PATCH and DELETE of a
 * record look its kind up and hand over to it; a kind not in the table is `unknownKind`'s error
 * (the core's NoSuchKind, naming the kinds in the table's order).
 */
export abstract class KindControl implements ServiceControl {
  protected abstract readonly kinds: Readonly<Record<string, ControlledKind>>;
  abstract inventory(): InventoryEntry[];
  abstract reset(): void;
  abstract snapshot(): unknown;
  abstract restore(data: unknown): void;

  getResource(kind: string, id: string): unknown {
    return this.kind(kind).get(id);
  }

  patchResource(kind: string, id: string, patch: unknown): unknown {
    return this.kind(kind).patch(id, patch);
  }

  deleteResource(kind: string, id: string): void {
    this.kind(kind).delete(id);
  }

  protected unknownKind(kind: string): Error {
    return new NoSuchKind(kind, Object.keys(this.kinds).join(", "));
  }

  private kind(kind: string): ControlledKind {
    // Own keys only: "constructor" or "__proto__" is no kind.
    if (!Object.hasOwn(this.kinds, kind)) throw this.unknownKind(kind);
    return this.kinds[kind]!;
  }
}

export function header(ctx: { headers: IncomingHttpHeaders }, name: string): string | undefined {
  const value = ctx.headers[name.toLowerCase()];
  if (Array.isArray(value)) return value[0];
  return value;
}

export function jsonResponse(status: number, value: unknown, headers: Record<string, HeaderValue> = {}): ApiResponse {
  return {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
    body: JSON.stringify(value),
  };
}

export function xmlResponse(status: number, xml: string, headers: Record<string, HeaderValue> = {}): ApiResponse {
  return { status, headers: { "Content-Type": "application/xml; charset=utf-8", ...headers }, body: xml };
}

export function textResponse(status: number, text: string, headers: Record<string, HeaderValue> = {}): ApiResponse {
  return { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...headers }, body: text };
}

export function emptyResponse(status: number, headers: Record<string, HeaderValue> = {}): ApiResponse {
  return { status, headers };
}

function mediaType(ctx: RequestContext): string {
  return (header(ctx, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

export function requireMediaType(ctx: RequestContext, accepted: string[]): void {
  if (!accepted.includes(mediaType(ctx))) throw new UnsupportedMediaType(accepted.join(" or "));
}

/** Parses a JSON body; an empty or malformed body is a 400. */
export function parseJsonBody(ctx: RequestContext): unknown {
  if (ctx.body.length === 0) throw new MalformedJson("A JSON request body is required.");
  const text = ctx.body.toString("utf8");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new MalformedJson();
  }
}

/** Formats zod-style issues as "path: message; ..." for 400 messages. */
export function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join(".") : "(body)"}: ${issue.message}`)
    .join("; ");
}

export function parseIntegerParam(value: string | null, name: string, { min, max, fallback }: { min: number; max: number; fallback: number }): number {
  if (value === null) return fallback;
  if (!/^-?\d{1,15}$/.test(value)) throw new InvalidArgument(`Query parameter ${name} must be an integer.`);
  const n = Number(value);
  if (n < min || n > max) {
    throw new InvalidArgument(`Query parameter ${name} must be between ${min} and ${max}.`);
  }
  return n;
}
