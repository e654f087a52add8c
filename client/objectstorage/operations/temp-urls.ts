/** Temporary URLs (spec 4.6). */

import { Transport } from "../../core";
import { InvalidArgumentError, ResponseFormatError } from "../errors";
import { stripQuotes } from "../parse";
import { objectPath, requireBucket, requireKey } from "../path";
import { resolveTempUrl, signTempUrl, type TempUrlDigest } from "../wire/temp-url";
import type { DownloadResult, TempUrl } from "../types";
import type { Ops } from "./context";

/** Asks the service for a signed download URL valid until `expiresAt` (Unix seconds). */
export async function createTempUrl(c: Ops, bucket: string, key: string, expiresAt: number): Promise<TempUrl> {
  const action = `creating a temp URL for "${bucket}/${key}"`;
  if (!Number.isInteger(expiresAt) || expiresAt <= 0) throw new InvalidArgumentError(`${action}: expiresAt must be Unix seconds`);
  const res = await c.send({
    operation: "CreateTempUrl",
    idempotent: true,
    method: "GET",
    path: objectPath(c.account(action), bucket, key),
    query: { temp_url: true, temp_url_expires: expiresAt },
    action,
  });
  const json = c.json(res, action) as { url?: unknown; sig?: unknown } | undefined;
  if (!json || typeof json.url !== "string") throw new ResponseFormatError(`${action}: the answer has no url`);
  const sig = typeof json.sig === "string" ? json.sig : (new URL(json.url, "http://x").searchParams.get("temp_url_sig") ?? "");
  return { url: json.url, sig, absoluteUrl: resolveTempUrl(c.transport.endpoint, json.url) };
}

/** The decoded path a temp URL signature covers: `/v1/{account}/{bucket}/{key}`. */
export function tempUrlPath(c: Ops, bucket: string, key: string): string {
  return `/v1/${c.account("signing a temp URL")}/${requireBucket(bucket)}/${requireKey(key)}`;
}

/** A temp URL signed locally with Swift's scheme (see signTempUrl), for servers without createTempUrl. */
export function signedTempUrl(
  c: Ops,
  bucket: string,
  key: string,
  o: { tempUrlKey: string; expires: number; filename?: string; digest?: TempUrlDigest },
): string {
  const sig = signTempUrl({ key: o.tempUrlKey, expires: o.expires, path: tempUrlPath(c, bucket, key), digest: o.digest });
  return c.transport.url(objectPath(c.account("signing a temp URL"), bucket, key), { temp_url_sig: sig, temp_url_expires: o.expires, filename: o.filename });
}

/** Downloads through a temp URL (absolute, or relative to the endpoint) without the auth token. */
export async function downloadWithTempUrl(c: Ops, url: string, filename?: string): Promise<DownloadResult> {
  const u = new URL(resolveTempUrl(c.transport.endpoint, url));
  if (filename !== undefined) u.searchParams.set("filename", filename);
  const s = c.opts.settings;
  const t = new Transport({ service: "objectstorage", endpoint: u.origin, retry: s.retry, timeouts: s.timeouts, clock: c.opts.clock, debug: c.opts.debug });
  const res = await t.request({
    operation: "DownloadWithTempUrl",
    idempotent: true,
    method: "GET",
    path: `${u.pathname}${u.search}`,
    auth: false,
    action: "downloading through a temp URL",
  });
  const out: DownloadResult = { body: res.body, headers: res.headers };
  if (res.headers["content-type"] !== undefined) out.contentType = res.headers["content-type"];
  if (res.headers["content-disposition"] !== undefined) out.contentDisposition = res.headers["content-disposition"];
  const etag = stripQuotes(res.headers["etag"]);
  if (etag !== undefined) out.etag = etag;
  return out;
}
