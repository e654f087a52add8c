/**
 * Errors raised by the clients.
 *
 * Provider code is loaded in more than one process and sometimes in more than one copy (the
 * serialized provider stub requires the installed package, tests load the sources), so `instanceof`
 * is not reliable across copies. Every error carries a stable `code` and a brand symbol registered
 * with `Symbol.for`, and the `is…` helpers below check those.
 */

const BRAND = Symbol.for("krcloud.error");

export type ErrorKind = "not-found" | "conflict" | "throttled" | "unauthorized" | "forbidden" | "invalid" | "server" | "other";

export abstract class KrcloudError extends Error {
  abstract readonly code: string;
  readonly [BRAND] = true;
}

export interface ApiErrorDetails {
  service: string;
  operation: string;
  method: string;
  path: string;
  status: number;
  /** The API's own error code, when the body carries one. */
  apiCode?: string;
  /** The API's message, or the response body text. */
  apiMessage?: string;
  requestId?: string;
  /** What was being done, e.g. `creating bucket "logs"`; prefixed to the message. */
  action?: string;
  /**
   * An earlier attempt of this request ended without a usable answer after it may have reached the
   * server (reset connection, lost response, 5xx): the change may have been applied by it, so a 409
   * now can be our own earlier success.
   */
  earlierAttemptMayHaveApplied?: boolean;
  /** The server's Retry-After (429, 503), parsed to ms; undefined when absent or invalid. */
  retryAfterMs?: number;
  /** What the answer means for the caller (a refused credential: which setting, what to do); ends the message. */
  hint?: string;
}

/** A request reached the API and was answered with a non-success status. */
export class ApiError extends KrcloudError {
  readonly code: string = "KRCLOUD_API_ERROR";
  override readonly name: string = "ApiError";
  readonly service: string;
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly apiCode?: string;
  readonly apiMessage?: string;
  readonly requestId?: string;
  readonly kind: ErrorKind;
  readonly earlierAttemptMayHaveApplied: boolean;
  /** How long the server asked us to wait (Retry-After of a 429 or 503), ms. */
  readonly retryAfterMs?: number;
  /** What the answer means for the caller, as the message ends with it (a refused credential's setting). */
  readonly hint?: string;

  constructor(d: ApiErrorDetails) {
    super(formatApiMessage(d));
    this.service = d.service;
    this.operation = d.operation;
    this.method = d.method;
    this.path = d.path;
    this.status = d.status;
    this.apiCode = d.apiCode;
    this.apiMessage = d.apiMessage;
    this.requestId = d.requestId;
    this.kind = kindOfStatus(d.status);
    this.earlierAttemptMayHaveApplied = d.earlierAttemptMayHaveApplied === true;
    if (d.retryAfterMs !== undefined) this.retryAfterMs = d.retryAfterMs;
    if (d.hint !== undefined) this.hint = d.hint;
  }
}

/** An ApiError subclass with its own stable code and name (which `instanceof` and messages show). */
function apiErrorOf<C extends string, N extends string>(code: C, name: N) {
  return class extends ApiError {
    override readonly code: C = code;
    override readonly name: N = name;
  };
}
export class NotFoundError extends apiErrorOf("KRCLOUD_NOT_FOUND", "NotFoundError") {}
export class ConflictError extends apiErrorOf("KRCLOUD_CONFLICT", "ConflictError") {}
export class ThrottledError extends apiErrorOf("KRCLOUD_THROTTLED", "ThrottledError") {}
export class UnauthorizedError extends apiErrorOf("KRCLOUD_UNAUTHORIZED", "UnauthorizedError") {}

/** The request never got an answer: refused, reset, timed out. */
export class TransportError extends KrcloudError {
  readonly code = "KRCLOUD_TRANSPORT_ERROR";
  override readonly name = "TransportError";
  constructor(
    message: string,
    readonly service: string,
    readonly operation: string,
    /** The underlying network error code (ECONNREFUSED, UND_ERR_SOCKET, ...). */
    readonly networkCode: string | undefined,
    /** True when the request provably never reached the server (connection refused or connect timeout). */
    readonly neverSent: boolean,
    /** The network error (redacted like the rest). */
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** A waiter gave up. Names the resource, the last state seen and all states seen. */
export class WaiterTimeoutError extends KrcloudError {
  readonly code = "KRCLOUD_WAITER_TIMEOUT";
  override readonly name = "WaiterTimeoutError";
  constructor(
    readonly resource: string,
    readonly target: readonly string[],
    readonly lastState: string | undefined,
    readonly statesSeen: readonly string[],
    readonly elapsedMs: number,
    /** The error of the last poll, when it failed. */
    readonly lastPollError?: string,
    /** The wait's timeout: what the message names (the last poll starts early enough to answer before it, so less has elapsed). */
    readonly timeoutMs: number = elapsedMs,
  ) {
    super(
      `timed out after ${+(timeoutMs / 1000).toFixed(1)}s waiting for ${resource} to become ${target.join(" or ")}` +
        ` (last state: ${lastState ?? "none"}; states seen: ${statesSeen.length ? statesSeen.join(" -> ") : "none"}` +
        `${lastPollError ? `; the last poll failed: ${lastPollError}` : ""})`,
    );
  }
}

/** A waiter saw a state that can never lead to the target. */
export class WaiterFailureError extends KrcloudError {
  readonly code = "KRCLOUD_WAITER_FAILURE";
  override readonly name = "WaiterFailureError";
  constructor(
    readonly resource: string,
    readonly state: string,
    readonly statesSeen: readonly string[],
    /** Why this state can never lead to the target, when the waiter's failure acceptor said. */
    readonly reason?: string,
  ) {
    super(
      reason
        ? `${resource} ${reason} (states seen: ${statesSeen.join(" -> ")})`
        : `${resource} entered failure state ${state} (states seen: ${statesSeen.join(" -> ")})`,
    );
  }
}

export class WaiterAbortedError extends KrcloudError {
  readonly code = "KRCLOUD_WAITER_ABORTED";
  override readonly name = "WaiterAbortedError";
}

export function isKrcloudError(e: unknown): e is KrcloudError {
  return typeof e === "object" && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}
export function isApiError(e: unknown): e is ApiError {
  return isKrcloudError(e) && typeof (e as ApiError).status === "number" && typeof (e as ApiError).kind === "string";
}
export function isNotFound(e: unknown): e is ApiError {
  return isApiError(e) && e.kind === "not-found";
}
/** Resolves undefined instead of rejecting with a NotFound error. */
export async function orUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}
export function isConflict(e: unknown): e is ApiError {
  return isApiError(e) && e.kind === "conflict";
}
export function isThrottled(e: unknown): e is ApiError {
  return isApiError(e) && e.kind === "throttled";
}
export function isUnauthorized(e: unknown): e is ApiError {
  return isApiError(e) && (e.kind === "unauthorized" || e.kind === "forbidden");
}
export function isTransportError(e: unknown): e is TransportError {
  return isKrcloudError(e) && e.code === "KRCLOUD_TRANSPORT_ERROR";
}

/**
 * Whether a request that failed may have been applied by the server, so that its outcome is
 * unknown: the connection failed after the request was sent (an answer lost, a reset, a timeout
 * waiting for the answer), a 5xx (the server may have applied the change before failing; 503 with
 * Retry-After says it did not), or a success answer that could not be read. A refused connection,
 * a 4xx, and a 429 say the request was not applied.
 */
export function mayHaveApplied(e: unknown): boolean {
  if (isTransportError(e)) return !e.neverSent;
  if (isResponseFormatError(e)) return true;
  if (isApiError(e)) return e.status >= 500 && !(e.status === 503 && e.retryAfterMs !== undefined);
  return false;
}

export function kindOfStatus(status: number): ErrorKind {
  if (status === 404) return "not-found";
  if (status === 409) return "conflict";
  if (status === 429) return "throttled";
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 400 || status === 413 || status === 422) return "invalid";
  if (status >= 500) return "server";
  return "other";
}

/** Builds the subclass that matches the status. */
export function apiErrorFor(d: ApiErrorDetails): ApiError {
  switch (kindOfStatus(d.status)) {
    case "not-found":
      return new NotFoundError(d);
    case "conflict":
      return new ConflictError(d);
    case "throttled":
      return new ThrottledError(d);
    case "unauthorized":
      return new UnauthorizedError(d);
    default:
      return new ApiError(d);
  }
}

function formatApiMessage(d: ApiErrorDetails): string {
  const what = d.action ?? `${d.service} ${d.operation}`;
  const code = d.apiCode ? ` ${d.apiCode}` : "";
  const msg = d.apiMessage ? `: ${d.apiMessage}` : "";
  const rid = d.requestId ? ` (request id ${d.requestId})` : "";
  const hint = d.hint ? `: ${d.hint}` : "";
  return `${what}: ${d.status}${code}${msg} [${d.method} ${d.path}]${rid}${hint}`;
}

/**
 * Adds what was being done to an error's message without losing its identity. When the message
 * already starts with the same subject (`creating bucket "x": ...`, set by the transport), the
 * subject is not repeated.
 */
export function withAction<E>(e: E, action: string): E {
  const err = e as { message?: unknown };
  if (typeof err !== "object" || err === null || typeof err.message !== "string") return e;
  if (err.message.startsWith(action)) return e;
  const subject = action.split(": ")[0] ?? action;
  const rest = err.message.startsWith(`${subject}: `) ? err.message.slice(subject.length + 2) : err.message;
  err.message = `${action}: ${rest}`;
  return e;
}

/** For `promise.catch(rethrowAs("reading bucket \"x\""))`: rethrows with what was being done. */
export function rethrowAs(action: string): (e: unknown) => never {
  return (e) => {
    throw withAction(e, action);
  };
}

/** An argument the service would reject anyway (a spec's limits, exclusive options, ...), found before any request. */
export class InvalidArgumentError extends KrcloudError {
  readonly code = "KRCLOUD_INVALID_ARGUMENT";
  override readonly name = "InvalidArgumentError";
}

/** A success answer whose body cannot be understood (not JSON, a missing field, the wrong shape). */
export class ResponseFormatError extends KrcloudError {
  readonly code = "KRCLOUD_BAD_RESPONSE";
  override readonly name = "ResponseFormatError";
}

export function isInvalidArgument(e: unknown): e is InvalidArgumentError {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === "KRCLOUD_INVALID_ARGUMENT";
}

export function isResponseFormatError(e: unknown): e is ResponseFormatError {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === "KRCLOUD_BAD_RESPONSE";
}
