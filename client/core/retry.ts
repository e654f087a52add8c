/**
 * Transport retry policy: the one place that decides whether a failed request is tried again and
 * how long to wait first. Resource waiters (waiter.ts) are a separate mechanism.
 *
 * Whether a request may be sent again is declared by each client operation (`RequestSpec.idempotent`),
 * never inferred from the HTTP method: a PUT that completes a multipart upload must not be repeated,
 * a POST that sets an ACL to fixed values may be. The rules:
 *
 * - an answer that says the request was not processed (429; 503 with Retry-After) is retried for
 *   every operation;
 * - other retryable statuses (500, 502, 503, 504) only for idempotent operations;
 * - a network error that proves the request never left (refused, DNS, connect timeout) for every
 *   operation;
 * - any other transient network error only for idempotent operations. An operation that is not
 *   idempotent is sent on a connection of its own (transport.ts), so a keep-alive connection the
 *   server closed as idle cannot fail it; a connection closed under it means the server may have
 *   applied it, and the caller finds out what was made (provider/core/recovery.ts);
 * - throttling (429, 503 with Retry-After) up to `maxThrottledAttempts` attempts, the others up to
 *   `maxAttempts`: a throttled request was not processed, so waiting longer only costs time, and a
 *   busy service must not fail a deployment of hundreds of resources.
 */

export interface RetryOptions {
  /** Total attempts including the first. */
  maxAttempts: number;
  /** Total attempts of a request answered "not processed" (429, 503 with Retry-After) every time. */
  maxThrottledAttempts: number;
  /** Base delay of the exponential backoff, ms. */
  baseDelayMs: number;
  /** Cap on one backoff delay, ms. */
  maxDelayMs: number;
  /** Cap on a server-sent Retry-After, ms; larger values are clamped, not ignored. */
  maxRetryAfterMs: number;
  retryStatuses: readonly number[];
  /** Network error codes treated as transient. */
  retryNetworkCodes: readonly string[];
  /** Codes proving the request never reached the server: safe to retry for every operation. */
  neverSentCodes: readonly string[];
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({
  maxAttempts: 5,
  maxThrottledAttempts: 20,
  baseDelayMs: 200,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
  retryStatuses: [429, 500, 502, 503, 504],
  retryNetworkCodes: [
    "ECONNRESET",
    "ECONNREFUSED",
    "ETIMEDOUT",
    "EPIPE",
    "ENOTFOUND",
    "ENETUNREACH",
    "EHOSTUNREACH",
    "EAI_AGAIN",
    "UND_ERR_SOCKET",
    "UND_ERR_CONNECT_TIMEOUT",
    "UND_ERR_HEADERS_TIMEOUT",
    "UND_ERR_BODY_TIMEOUT",
    "UND_ERR_CLOSED",
  ],
  neverSentCodes: ["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"],
});

/**
 * Every code that means "the network failed us", retried or not: socket errno codes and undici's
 * connection codes. Anything else (Node's `ERR_*` argument and stream errors, file system errnos,
 * undici's argument errors) is a defect or a local problem and surfaces as itself.
 */
const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  ...DEFAULT_RETRY.retryNetworkCodes,
  ...DEFAULT_RETRY.neverSentCodes,
  "ECONNABORTED",
  "ENETDOWN",
  "ENETRESET",
  "EHOSTDOWN",
  "EPROTO",
  "EADDRNOTAVAIL",
  "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
]);

export function isNetworkErrorCode(code: string | undefined): boolean {
  return code !== undefined && NETWORK_ERROR_CODES.has(code);
}

export type RetryOutcome = { kind: "status"; status: number; retryAfter?: string } | { kind: "network"; code: string | undefined };

/** The answer says the request was not processed: 429, or 503 with a valid Retry-After. */
export function notProcessed(outcome: RetryOutcome, now: number = Date.now()): boolean {
  if (outcome.kind !== "status") return false;
  if (outcome.status === 429) return true;
  return outcome.status === 503 && parseRetryAfter(outcome.retryAfter, now) !== undefined;
}

/**
 * Decides whether attempt number `attempt` (1-based, just failed) should be followed by another.
 * `idempotent` is the operation's declaration (RequestSpec.idempotent).
 */
export function shouldRetry(opts: RetryOptions, idempotent: boolean, outcome: RetryOutcome, attempt: number, now: number = Date.now()): boolean {
  const limit = notProcessed(outcome, now) ? Math.max(opts.maxAttempts, opts.maxThrottledAttempts) : opts.maxAttempts;
  if (attempt >= limit) return false;
  if (outcome.kind === "status") {
    if (!opts.retryStatuses.includes(outcome.status)) return false;
    return idempotent || notProcessed(outcome, now);
  }
  const code = outcome.code ?? "";
  if (opts.neverSentCodes.includes(code)) return true;
  if (!opts.retryNetworkCodes.includes(code)) return false;
  return idempotent;
}

/**
 * Equal-jitter exponential backoff: half of min(cap, base * 2^(attempt-1)) plus a uniform draw over
 * the other half, so a retry always waits at least half the ceiling (full jitter can draw 0 ms and
 * retry at once, which bunches clients behind a struggling server). A valid Retry-After takes
 * precedence (clamped to maxRetryAfterMs).
 */
export function retryDelay(opts: RetryOptions, attempt: number, random: () => number, retryAfter?: string, now: number = Date.now()): number {
  const ra = parseRetryAfter(retryAfter, now);
  if (ra !== undefined) return Math.min(ra, opts.maxRetryAfterMs);
  const ceiling = Math.min(opts.maxDelayMs, opts.baseDelayMs * 2 ** (attempt - 1));
  const half = ceiling / 2;
  return Math.floor(half + random() * half);
}

/** Retry-After is either delta-seconds or an HTTP date. Returns ms, or undefined when absent/invalid. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export function mergeRetry(partial?: Partial<RetryOptions>): RetryOptions {
  return { ...DEFAULT_RETRY, ...(partial ?? {}) };
}
