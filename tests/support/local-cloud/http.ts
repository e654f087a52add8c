/**
 * A request to the local cloud over loopback HTTP, as a client meets it, and its answer read as
 * text: the local cloud tests that call its APIs and control API directly (tests/local-cloud).
 */
import { request } from "undici";
import type { LocalCloud } from "../../../local-cloud";

export const JSON_HEADERS = { "Content-Type": "application/json" };

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => any;
}

/** Sends `body` as it is when it is a string, as JSON otherwise (the caller sets its content type). */
export async function call(method: string, url: string, options: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Reply> {
  const body = options.body === undefined ? null : typeof options.body === "string" ? options.body : JSON.stringify(options.body);
  const res = await request(url, { method: method as "GET", headers: options.headers ?? {}, body });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: () => JSON.parse(text) };
}

/** A call to the local cloud's control API; a body given goes as JSON. */
export const control = (cloud: LocalCloud, method: string, path: string, body?: unknown): Promise<Reply> =>
  call(method, `${cloud.controlUrl}${path}`, body === undefined ? {} : { headers: JSON_HEADERS, body });
