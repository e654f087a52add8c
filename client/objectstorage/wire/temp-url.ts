/**
 * Temporary URLs (spec 4.6).
 *
 * Two ways to get one: the service's create endpoint (`?temp_url&temp_url_expires=`, answered with
 * `{url, sig}`), or signing locally with Swift's scheme for servers without that endpoint (upstream
 * Swift answers it with 401): HMAC over `{METHOD}\n{expires}\n{path}` keyed with the account's (or
 * container's) `Temp-URL-Key`, hex encoded. Swift computes it over the *decoded* request path as it
 * sees it, i.e. `/v1/{account}/{container}/{object}` relative to its own root.
 */

import { createHmac } from "node:crypto";
import { InvalidArgumentError } from "../errors";

export type TempUrlDigest = "sha1" | "sha256" | "sha512";

export interface SignTempUrlInput {
  /** The Temp-URL-Key. */
  key: string;
  /** Only GET is allowed through temp URLs on this service. */
  method?: "GET";
  /** Unix seconds. */
  expires: number;
  /** Decoded path, `/v1/{account}/{bucket}/{object}`. */
  path: string;
  /** Default sha256 (Swift's sha1 is deprecated). */
  digest?: TempUrlDigest;
}

export function signTempUrl(i: SignTempUrlInput): string {
  if (!i.key) throw new InvalidArgumentError("signing a temp URL needs a key");
  if (!Number.isInteger(i.expires) || i.expires <= 0) throw new InvalidArgumentError("temp URL expiry must be a positive integer (Unix seconds)");
  if (!i.path.startsWith("/")) throw new InvalidArgumentError(`temp URL path "${i.path}" must start with /`);
  return createHmac(i.digest ?? "sha256", i.key)
    .update(`${i.method ?? "GET"}\n${i.expires}\n${i.path}`)
    .digest("hex");
}

/**
 * Resolves the `url` of a create-temp-URL answer. An absolute URL is kept. A path is read as
 * relative to the base URL (spec 4.6); when the endpoint has a path prefix (`http://host/object-storage`)
 * and the answer already starts with it, it is taken as an origin-relative path instead.
 */
export function resolveTempUrl(endpoint: string, url: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  const base = new URL(endpoint);
  const prefix = base.pathname.replace(/\/+$/, "");
  const path = url.startsWith("/") ? url : `/${url}`;
  if (prefix && (path === prefix || path.startsWith(`${prefix}/`))) return `${base.origin}${path}`;
  return `${base.origin}${prefix}${path}`;
}
