/**
 * Cache errors raised before a request is sent or after an unusable answer, and the reading of
 * error bodies that core's transport does not understand.
 *
 * API failures use core's ApiError family (`isNotFound`, `isConflict`, ...); invalid arguments and
 * unusable answers use core's InvalidArgumentError and ResponseFormatError.
 */

import { apiErrorFor, isApiError, redactError, redactText } from "../core";

/** Core's shared classes, under the names this module has always exported. */
export {
  InvalidArgumentError as CacheInvalidArgumentError,
  ResponseFormatError as CacheResponseFormatError,
  isInvalidArgument,
  isResponseFormatError,
} from "../core";

interface ParsedErrorBody {
  code?: string;
  message?: string;
  requestId?: string;
}

function str(v: unknown): string | undefined {
  if (typeof v === "string" && v !== "") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}

/**
 * Error envelopes the spec might mean by "error response body format: not shown" (02 §7), beyond
 * the `{code, message, requestId}` and `{error: {code, message}}` that core reads:
 * `{errorCode, errorMessage}` / `{error_code, error_message}`, RFC 7807 `{title, detail, status}`,
 * `{detail}`, OpenStack's single-key envelope `{"itemNotFound": {"code": 404, "message": …}}`, and
 * `request_id` / `requestID` spellings. Returns undefined for anything else.
 */
export function parseCacheErrorBody(text: string): ParsedErrorBody | undefined {
  const t = text.trim();
  if (!t.startsWith("{")) return undefined;
  let j: Record<string, unknown>;
  try {
    const v = JSON.parse(t) as unknown;
    if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
    j = v as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const requestId = str(j.requestId) ?? str(j.request_id) ?? str(j.requestID);
  const keys = Object.keys(j);
  const single = keys.length === 1 ? j[keys[0]!] : undefined;
  const inner =
    typeof j.error === "object" && j.error !== null
      ? (j.error as Record<string, unknown>)
      : typeof single === "object" && single !== null && !Array.isArray(single)
        ? { ...(single as Record<string, unknown>), code: keys[0] }
        : j;
  const code = str(inner.errorCode) ?? str(inner.error_code) ?? str(inner.code) ?? str(inner.title) ?? str(inner.status);
  const message =
    str(inner.errorMessage) ??
    str(inner.error_message) ??
    str(inner.message) ??
    str(inner.detail) ??
    str(inner.msg) ??
    (typeof j.error === "string" ? j.error : undefined);
  if (code === undefined && message === undefined && requestId === undefined) return undefined;
  return { code, message, requestId };
}

/**
 * Core's transport keeps the body text as `apiMessage` when it did not recognise the envelope; this
 * reads it again with `parseCacheErrorBody` and rebuilds the same error class (by status) with the
 * API's code, message and request id. It also rebuilds when the API's message echoes one of
 * `secrets` (a create body's `user.password` that core does not know about), so neither `message`
 * nor `apiMessage` carries it. Anything else is returned with its message redacted.
 */
export function refineApiError(e: unknown, action: string, secrets: readonly string[]): unknown {
  if (!isApiError(e)) return e;
  const err = e;
  const parsed = err.apiCode === undefined && err.apiMessage !== undefined ? parseCacheErrorBody(err.apiMessage) : undefined;
  const leaks = err.apiMessage !== undefined && secrets.some((s) => s.length >= 4 && err.apiMessage!.includes(s));
  if (!parsed && !leaks) return redactError(e, secrets);
  const message = parsed?.message ?? err.apiMessage;
  const refined = apiErrorFor({
    service: err.service,
    operation: err.operation,
    method: err.method,
    path: err.path,
    status: err.status,
    apiCode: err.apiCode ?? parsed?.code,
    apiMessage: message === undefined ? undefined : redactText(message, secrets),
    requestId: err.requestId ?? parsed?.requestId,
    action,
    earlierAttemptMayHaveApplied: err.earlierAttemptMayHaveApplied,
  });
  return redactError(refined, secrets);
}
