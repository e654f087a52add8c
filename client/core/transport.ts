/**
 * HTTP transport on undici: one keep-alive pool per endpoint origin, connect/headers/body timeouts,
 * retries per retry.ts, API errors per errors.ts, secrets redacted from every message and log line.
 */

import type { Readable } from "node:stream";
import type { Client, Pool } from "undici";
import { systemClock, type Clock } from "./clock";
import { apiErrorFor, TransportError } from "./errors";
import { reserveStart } from "./pacer";
import { isSecretHeader, redactHeaders, redactText, redactError } from "./redact";
import { isNetworkErrorCode, mergeRetry, notProcessed, parseRetryAfter, retryDelay, shouldRetry, type RetryOptions, type RetryOutcome } from "./retry";
import { DEFAULT_TIMEOUTS, type TimeoutOptions } from "./settings";
import { currentRequestStats, retryBudget } from "./stats";

export type Headers = Record<string, string>;
export type Query = Record<string, string | number | boolean | undefined | null>;

export interface TransportOptions {
  /** Service name used in errors and logs, e.g. `objectstorage`. */
  service: string;
  /** Base URL of the service, may include a path prefix (`http://127.0.0.1:8790/object-storage`). */
  endpoint: string;
  /**
   * Credential headers, computed per attempt so a rotated credential is picked up. Their values are
   * redacted from every message, error field and log line, whether or not their names are
   * registered as secret (redact.ts). `credentials`, when given, takes their place (and may name
   * identifiers that are no secret, `CredentialLease.identifiers`).
   */
  authHeaders?: () => Headers;
  /** Credentials that renew themselves (credentials.ts): asked per attempt, renewed after a 401. */
  credentials?: TransportCredentials;
  /** Secret values to redact from messages and logs. */
  secrets?: readonly (string | undefined)[];
  retry?: Partial<RetryOptions>;
  timeouts?: Partial<TimeoutOptions>;
  clock?: Clock;
  /** Debug log sink; lines are already redacted. */
  debug?: (line: string) => void;
  userAgent?: string;
}

/** The credential headers one attempt was sent with. */
export interface CredentialLease {
  headers: Headers;
  /**
   * Those of `headers` that say who calls without proving it (the access key's ID, `Credential-ID`):
   * no secret, so messages keep naming them, as the identity service's do. Every other credential
   * header's value is redacted everywhere.
   */
  identifiers?: readonly string[];
}

/**
 * Credentials the transport asks for at every attempt (so every poll of a wait sends the current
 * token), renews after a 401, and lets explain a refusal in terms of the setting they came from.
 */
export interface TransportCredentials {
  /** The headers of the next attempt: the current credential, renewed first when near its end. */
  current(): Promise<CredentialLease>;
  /**
   * A 401 answered a request sent with `lease`. Resolves true once a newer credential is there to
   * send it again with (one renewal, whatever the number of requests refused with the same one),
   * false when none can be had (a static token, an access key). Rejects when renewing fails.
   */
  renew(lease: CredentialLease): Promise<boolean>;
  /** What a 401 or 403 of a request sent with `lease` means, naming where the credential came from. */
  explain(status: 401 | 403, lease: CredentialLease, renewed: boolean): string;
}

export interface RequestSpec {
  /** API operation name, e.g. `CreateBucket`. */
  operation: string;
  method: string;
  /** Path relative to the endpoint, starting with `/`, already percent-encoded. */
  path: string;
  query?: Query;
  headers?: Record<string, string | undefined>;
  /**
   * The body. A function is a streamed body: it is called once per attempt for a fresh stream (a
   * stream is consumed by the attempt that sends it, so a retry needs a new one), and the caller
   * sets `content-length`. Memory stays bounded whatever the size.
   */
  body?: string | Uint8Array | (() => Readable);
  /** Statuses treated as success; default any 2xx. */
  expect?: readonly number[];
  /** What is being done, for error messages: `creating bucket "logs"`. */
  action?: string;
  /** Send credential headers (default true). */
  auth?: boolean;
  /**
   * Whether this operation may be sent again after an attempt that may have reached the server
   * (a lost answer, a reset, a 5xx): declared by each client operation, never inferred from the
   * method (retry.ts has the rules). True when repeating it leaves the same result as sending it
   * once: reads; PUT of a whole object or document; DELETE (the caller treats a 404 after a retry
   * as success where that is its contract); POST that sets metadata or an ACL to absolute values.
   * False when a repeat does something else: creates a second thing with a server-chosen id,
   * completes an upload that no longer exists, moves a source that is gone.
   */
  idempotent: boolean;
  /** Aborts the request, also while it waits before a retry. */
  signal?: AbortSignal;
  /** Secret values this request carries in its body (a password), redacted from its errors and log lines. */
  secrets?: readonly (string | undefined)[];
  /**
   * When the caller stops caring, in the transport clock's ms (`clock.now()`): a retry whose delay
   * would reach it is not started, the last error is thrown instead. Waiters pass their deadline.
   */
  deadline?: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  requestId?: string;
  /** Attempts made, including the successful one. */
  attempts: number;
}

/** The values of a lease's credential headers that are secret (all but its identifiers). */
function secretValuesOf(lease: CredentialLease | undefined): string[] {
  const ids = new Set((lease?.identifiers ?? []).map((h) => h.toLowerCase()));
  return Object.entries(lease?.headers ?? {})
    .filter(([k]) => !ids.has(k.toLowerCase()))
    .map(([, v]) => v);
}

/**
 * undici, loaded by the first request: a provider process that only plans (check and diff make no
 * request) and a program that only declares resources never pay for loading it.
 */
let undiciModule: typeof import("undici") | undefined;
function undici(): typeof import("undici") {
  return (undiciModule ??= require("undici") as typeof import("undici"));
}

const POOLS = Symbol.for("krcloud.transport.pools");

/** Process-wide pool registry, created lazily at run time (never captured by a serialized provider). */
function pools(): Map<string, Pool> {
  const g = globalThis as unknown as Record<symbol, Map<string, Pool> | undefined>;
  let m = g[POOLS];
  if (!m) {
    m = new Map();
    g[POOLS] = m;
  }
  return m;
}

function poolFor(origin: string, t: TimeoutOptions): Pool {
  const key = `${origin}|${t.connectMs}|${t.headersMs}|${t.bodyMs}`;
  const m = pools();
  let p = m.get(key);
  if (!p || p.destroyed || p.closed) {
    p = new (undici().Pool)(origin, {
      connections: 16,
      keepAliveTimeout: 10_000,
      connect: { timeout: t.connectMs },
      headersTimeout: t.headersMs,
      bodyTimeout: t.bodyMs,
    });
    m.set(key, p);
  }
  return p;
}

/**
 * A connection of its own for a request that is not idempotent. A pooled keep-alive connection may
 * be closed by the server as idle just as the request goes out; for an idempotent request that is a
 * retry, but for a create it would be a request of unknown outcome. On a new connection, a
 * connection closed before the answer means the server has the request.
 */
function freshClient(origin: string, t: TimeoutOptions): Client {
  return new (undici().Client)(origin, { connect: { timeout: t.connectMs }, headersTimeout: t.headersMs, bodyTimeout: t.bodyMs, pipelining: 1 });
}

/** Closes every pool of this process (tests, CLI exit). */
export async function closeAllPools(): Promise<void> {
  const m = pools();
  const all = [...m.values()];
  m.clear();
  await Promise.allSettled(all.map((p) => p.close()));
}

export class Transport {
  readonly service: string;
  readonly endpoint: string;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly retry: RetryOptions;
  private readonly timeouts: TimeoutOptions;
  private readonly clock: Clock;
  /** The credential values the last attempt carried, for `redact`. */
  private lastAuthValues: string[] = [];

  constructor(private readonly opts: TransportOptions) {
    const u = new URL(opts.endpoint);
    this.service = opts.service;
    this.endpoint = opts.endpoint;
    this.origin = u.origin;
    this.basePath = u.pathname.replace(/\/+$/, "");
    this.retry = mergeRetry(opts.retry);
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...(opts.timeouts ?? {}) };
    this.clock = opts.clock ?? systemClock;
  }

  /** Absolute URL of a path, for values handed to users (temp URLs, bucket URLs). */
  url(path: string, query?: Query): string {
    return `${this.origin}${this.basePath}${path}${queryString(query)}`;
  }

  /** The path including the endpoint's prefix, as the server sees it. */
  fullPath(path: string): string {
    return `${this.basePath}${path}`;
  }

  async request(spec: RequestSpec): Promise<HttpResponse> {
    const method = spec.method.toUpperCase();
    const fullPath = `${this.basePath}${spec.path}${queryString(spec.query)}`;
    const what = spec.action ?? `${this.service} ${spec.operation}`;

    let mayHaveApplied = false;
    /** Sent again once with a renewed credential after a 401. */
    let reauthenticated = false;
    const stats = currentRequestStats();
    for (let attempt = 1; ; attempt++) {
      const lease = await this.lease(spec);
      const headers: Headers = { "user-agent": this.opts.userAgent ?? "pulumi-krcloud", ...(lease?.headers ?? {}) };
      for (const [k, v] of Object.entries(spec.headers ?? {})) if (v !== undefined) headers[k.toLowerCase()] = v;
      const secrets = this.secretList(headers, secretValuesOf(lease));
      for (const v of spec.secrets ?? []) if (v) secrets.push(v);

      let outcome: RetryOutcome;
      /** The error to throw when this attempt is the last. */
      let failure: (note?: string, hint?: string) => Error;
      // A shared request budget (krcloud-drift's fleet check): every attempt waits for its turn.
      await reserveStart(this.clock, spec.signal);
      const own = spec.idempotent ? undefined : freshClient(this.origin, this.timeouts);
      if (stats) stats.requests++;
      let refusedWith: 401 | 403 | undefined;
      try {
        const res = await (own ?? poolFor(this.origin, this.timeouts)).request({
          method: method,
          path: fullPath,
          headers,
          body: typeof spec.body === "function" ? spec.body() : spec.body,
          signal: spec.signal,
        });
        const body = Buffer.from(await res.body.arrayBuffer());
        const resHeaders = flattenHeaders(res.headers);
        const requestId = resHeaders["x-openstack-request-id"] ?? resHeaders["x-trans-id"] ?? bodyRequestId(body);
        this.log(`${method} ${fullPath} -> ${res.statusCode} (attempt ${attempt})`, headers, secrets);
        const ok = spec.expect ? spec.expect.includes(res.statusCode) : res.statusCode >= 200 && res.statusCode < 300;
        if (ok) return { status: res.statusCode, headers: resHeaders, body, requestId, attempts: attempt };
        const retryAfter = resHeaders["retry-after"];
        outcome = { kind: "status", status: res.statusCode, retryAfter };
        if (lease && (res.statusCode === 401 || res.statusCode === 403)) refusedWith = res.statusCode;
        const earlier = mayHaveApplied;
        failure = (note, hint) => {
          const parsed = parseErrorBody(body);
          return redactError(
            apiErrorFor({
              service: this.service,
              operation: spec.operation,
              method,
              path: fullPath,
              status: res.statusCode,
              apiCode: parsed.code,
              apiMessage: note && parsed.message ? `${parsed.message} ${note}` : (parsed.message ?? note),
              requestId: requestId ?? parsed.requestId,
              action: spec.action,
              earlierAttemptMayHaveApplied: earlier,
              retryAfterMs: parseRetryAfter(retryAfter, this.clock.now()),
              hint,
            }),
            secrets,
          );
        };
      } catch (e) {
        if (!isNetworkError(e)) throw redactError(e, secrets);
        const cause = redactError(e, secrets);
        const code = networkCode(e);
        outcome = { kind: "network", code };
        this.log(`${method} ${fullPath} -> network error ${code ?? "?"} (attempt ${attempt})`, headers, secrets);
        failure = (note) => {
          const neverSent = this.retry.neverSentCodes.includes(code ?? "");
          return new TransportError(
            redactText(`${what}: ${method} ${fullPath} failed after ${attempt} attempt(s): ${(cause as Error).message}${note ? ` ${note}` : ""}`, secrets),
            this.service,
            spec.operation,
            code,
            neverSent,
            cause,
          );
        };
      } finally {
        own?.destroy().catch(() => undefined);
      }

      // A refused credential: after a 401, one new credential for all the requests refused with the
      // same one (never after a 403: the credential is good, the permission is missing), and this
      // request once more; a 401 can only follow a request that was not processed.
      const creds = this.opts.credentials;
      if (refusedWith !== undefined && lease && creds) {
        if (refusedWith === 401 && !reauthenticated) {
          let renewed: boolean;
          try {
            renewed = await creds.renew(lease);
          } catch (e) {
            throw redactError(e, secrets);
          }
          if (renewed) {
            if (typeof spec.body === "function") {
              throw failure(
                undefined,
                `${creds.explain(401, lease, false)}; a new token was issued, but this request is not sent again: its body is a stream, read while it was sent. Run the operation again`,
              );
            }
            reauthenticated = true;
            this.log(`sending ${spec.operation} again with a renewed credential`, undefined, secrets);
            continue;
          }
        }
        throw failure(undefined, creds.explain(refusedWith, lease, reauthenticated));
      }

      const now = this.clock.now();
      const delay = retryDelay(this.retry, attempt, this.clock.random, outcome.kind === "status" ? outcome.retryAfter : undefined, now);
      // A retry that could only start at or after the caller's deadline (a waiter's) is pointless.
      const pastDeadline = spec.deadline !== undefined && now + delay >= spec.deadline;
      if (spec.signal?.aborted || pastDeadline || !shouldRetry(this.retry, spec.idempotent, outcome, attempt, now)) throw failure();
      const budget = retryBudget();
      if (budget && budget.left <= 0) throw failure(`(not retried: the retry budget KRCLOUD_RETRY_BUDGET=${budget.limit} of this run is spent)`);
      if (budget) budget.left--;

      // 429 and 503 with Retry-After say the request was not processed; a refused connection proves
      // it never arrived. Anything else may have been applied before the answer was lost.
      const unapplied = outcome.kind === "status" ? outcome.status < 500 || notProcessed(outcome, now) : this.retry.neverSentCodes.includes(outcome.code ?? "");
      if (!unapplied) mayHaveApplied = true;
      if (stats) {
        stats.retries++;
        if (notProcessed(outcome, now)) stats.throttled++;
      }
      this.log(`retrying ${spec.operation} in ${delay} ms`, undefined, secrets);
      await this.clock.sleep(delay, spec.signal);
    }
  }

  /**
   * Redacts an error built outside the transport (an API error a client derives from a 200 answer,
   * say) with the same secrets as the transport's own errors.
   */
  redact<E>(e: E, extra: readonly string[] = []): E {
    return redactError(e, [...this.secretList({}, this.lastAuthValues), ...extra]);
  }

  /** The credential headers of the next attempt of `spec`; none when it is sent without. */
  private async lease(spec: RequestSpec): Promise<CredentialLease | undefined> {
    if (spec.auth === false) return undefined;
    let lease: CredentialLease | undefined;
    if (this.opts.credentials) lease = await this.opts.credentials.current();
    else if (this.opts.authHeaders) lease = { headers: this.opts.authHeaders() };
    if (lease) this.lastAuthValues = secretValuesOf(lease);
    return lease;
  }

  private secretList(headers: Headers, authValues: readonly string[]): string[] {
    const out: string[] = [...authValues];
    for (const s of this.opts.secrets ?? []) if (s) out.push(s);
    for (const [k, v] of Object.entries(headers)) if (isSecretHeader(k)) out.push(v);
    return out;
  }

  private log(line: string, headers: Headers | undefined, secrets: string[]): void {
    if (!this.opts.debug) return;
    const h = headers ? ` ${JSON.stringify(redactHeaders(headers))}` : "";
    this.opts.debug(redactText(`[krcloud ${this.service}] ${line}${h}`, secrets));
  }
}

export function queryString(q?: Query): string {
  if (!q) return "";
  const parts: string[] = [];
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null) continue;
    // A flag parameter (`?uploads`, `?temp_url`) is sent as `true` by callers and written bare.
    parts.push(v === true ? encodeURIComponent(k) : `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

/**
 * Duck-typed: errors from node core may come from another realm (jest's vm context), so no
 * instanceof. Only socket errno codes and undici's connection codes count (retry.ts): a Node
 * `ERR_*` code is a defect or a local problem, never a reason to blame or retry the network.
 */
function isNetworkError(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  if (isNetworkErrorCode(networkCode(e))) return true;
  const name = (e as { name?: string }).name;
  return name === "AbortError" || name === "SocketError";
}

function networkCode(e: unknown): string | undefined {
  const err = e as { code?: string; cause?: { code?: string } };
  if (err.code === "UND_ERR_SOCKET" && err.cause?.code) return err.cause.code === "ECONNRESET" ? "ECONNRESET" : err.code;
  return err.code ?? err.cause?.code;
}

function bodyRequestId(body: Buffer): string | undefined {
  if (body.length === 0 || body.length > 65536 || body[0] !== 0x7b) return undefined;
  try {
    const j = JSON.parse(body.toString("utf8")) as { requestId?: unknown };
    return typeof j.requestId === "string" ? j.requestId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Error bodies are "not shown" in the specs. Accepted readings: JSON `{code, message, requestId}`,
 * JSON `{error: {code, message}}`, the key management envelope, or plain text / HTML (Swift).
 */
export function parseErrorBody(body: Buffer): { code?: string; message?: string; requestId?: string } {
  const text = body.toString("utf8").trim();
  if (!text) return {};
  if (text.startsWith("{")) {
    try {
      const j = JSON.parse(text) as Record<string, unknown>;
      const inner = (typeof j.error === "object" && j.error !== null ? j.error : j) as Record<string, unknown>;
      return {
        code: typeof inner.code === "string" || typeof inner.code === "number" ? String(inner.code) : undefined,
        message: typeof inner.message === "string" ? inner.message : text.slice(0, 500),
        requestId: typeof j.requestId === "string" ? j.requestId : undefined,
      };
    } catch {
      /* fall through to text */
    }
  }
  const plain = text
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { message: plain.slice(0, 500) };
}
