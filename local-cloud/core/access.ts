/**
 * Who the control API and the console answer (docs/local-cloud.md, Control API and Console). Both
 * answer without a credential, for the machine the local cloud runs on: besides listening on
 * loopback, they refuse what a browser sends on behalf of another site. A request addressed to a host
 * name that is neither a loopback one nor the one the local cloud was bound to is refused (a page of
 * another site reaching 127.0.0.1 through a name of its own: DNS rebinding), and so is one that a
 * page of another origin made (its `Sec-Fetch-Site`, or an `Origin` naming another host). Programs
 * (curl, Node, the tests, the provider) send neither header and are answered as always.
 */
import type { IncomingHttpHeaders } from "node:http";
import { ApiError } from "./errors";

export function refusedRequest(headers: IncomingHttpHeaders, bound: string): ApiError | undefined {
  const host = hostName(headers.host);
  if (!allowedHost(host, bound)) {
    return new ApiError(403, "ForeignHost", `The control API and the console answer requests addressed to this machine, not to "${host.slice(0, 100)}".`);
  }
  const site = headers["sec-fetch-site"];
  const origin = headers.origin;
  let originHost: string | undefined;
  try {
    originHost = origin === undefined || origin === "null" ? undefined : new URL(origin).host.toLowerCase();
  } catch {
    originHost = "";
  }
  if (site === "cross-site" || site === "same-site" || (originHost !== undefined && originHost !== (headers.host ?? "").toLowerCase())) {
    return new ApiError(403, "CrossSiteRequest", "The control API and the console answer the local cloud's own page and programs, not a page of another site.");
  }
  return undefined;
}

/** The host name a request was addressed to, without its port. */
function hostName(header: string | undefined): string {
  const value = (header ?? "").trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1);
  return value.replace(/:\d*$/, "");
}

/** A loopback name, or the host the local cloud was bound to (any name where it was bound to every interface). */
function allowedHost(host: string, bound: string): boolean {
  if (host === "" || host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host)) return true;
  if (bound === "0.0.0.0" || bound === "::") return true;
  return host === bound.toLowerCase() || host === `[${bound.toLowerCase()}]`;
}
