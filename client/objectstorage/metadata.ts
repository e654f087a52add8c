/**
 * User metadata carried in headers: `X-Container-Meta-*` on buckets, `X-Object-Meta-*` on objects,
 * `X-Remove-Container-Meta-*` to remove a bucket key (spec 4.2, 4.3). Keys are returned lower-cased:
 * HTTP header names are case-insensitive and Swift title-cases them (`X-Object-Meta-Color`).
 */

import { InvalidArgumentError } from "./errors";

export const CONTAINER_META = "x-container-meta-";
export const OBJECT_META = "x-object-meta-";
export const REMOVE_CONTAINER_META = "x-remove-container-meta-";

/**
 * Temp URL keys are stored as metadata but are credentials: they never enter a metadata map (which
 * ends up in Pulumi state), and they are never sent through metadataHeaders.
 */
const SECRET_META_KEYS = new Set(["temp-url-key", "temp-url-key-2"]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Spec 8: name 2 to 64 characters. Only the header-token syntax is enforced here; length is the server's call. */
function checkKey(key: string): string {
  if (!TOKEN.test(key)) throw new InvalidArgumentError(`metadata key "${key}" must be a valid HTTP header name fragment (letters, digits, -, ...)`);
  if (SECRET_META_KEYS.has(key.toLowerCase())) throw new InvalidArgumentError(`metadata key "${key}" is reserved for temp URL keys`);
  return key.toLowerCase();
}

export function metadataHeaders(prefix: string, metadata: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata ?? {})) out[`${prefix}${checkKey(k)}`] = String(v);
  return out;
}

export function removeMetadataHeaders(prefix: string, keys: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  // Swift ignores the value of an X-Remove-* header; some proxies drop empty headers, so send "x".
  for (const k of keys ?? []) out[`${prefix}${checkKey(k)}`] = "x";
  return out;
}

/** Metadata from (lower-cased) response headers. */
export function metadataFromHeaders(prefix: string, headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const h = name.toLowerCase();
    if (!h.startsWith(prefix)) continue;
    const key = h.slice(prefix.length);
    if (key === "" || SECRET_META_KEYS.has(key)) continue;
    out[key] = value;
  }
  return out;
}
