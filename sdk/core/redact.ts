/**
 * Secret redaction. Every message and debug line that could contain a credential passes through
 * here: header values of the credential headers, and any known secret value found in free text
 * (error bodies echo requests, URLs carry temp-URL signatures).
 */

export const REDACTED = "[redacted]";

/** Headers whose values are credentials, lower-case. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  "x-auth-token",
  "x-storage-token",
  "x-auth-key",
  "credential-secret",
  "hadoop-service-api-key",
  "authorization",
  "x-account-meta-temp-url-key",
  "x-container-meta-temp-url-key",
]);

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k] = SECRET_HEADERS.has(k.toLowerCase()) ? REDACTED : Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/** Replaces every occurrence of each secret (at least 4 characters long) in `text`. */
export function redactText(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 4) continue;
    out = out.split(s).join(REDACTED);
  }
  return out.replace(/([?&]temp_url_sig=)[^&\s"']+/g, `$1${REDACTED}`);
}

/** Redacts the message (and stack) of an error in place and returns it. */
export function redactError<E>(e: E, secrets: Iterable<string | undefined>): E {
  const err = e as { message?: unknown; stack?: unknown };
  if (typeof err === "object" && err !== null && typeof err.message === "string") {
    const list = [...secrets];
    err.message = redactText(err.message, list);
    if (typeof err.stack === "string") err.stack = redactText(err.stack, list);
  }
  return e;
}
