/**
 * What the local cloud answers that its console page reads too, declared once for both (types
 * only: tsconfig.json here says why this is a project of its own). The server's modules re-export
 * each beside the code that makes it: browse.ts, request-log.ts, faults.ts, managed-state.ts,
 * control.ts.
 */

/** A value shown on a node's line beside its name. */
export type Fact = string | number | boolean | null;

export interface BrowseNode {
  /** The control API kind (`bucket`, `node`), or a kind only the console shows (`group`, `vm`). */
  kind: string;
  /** Unique among its siblings; the control API id where there is one. */
  id: string;
  label: string;
  status?: string;
  /** A few short facts for the node's line: size, content type, role. */
  facts?: Record<string, Fact>;
  /** The raw record: what the control API shows for it (GET /_control/resources/...), or the API's view. */
  record?: unknown;
  /** The control API resource it is, when it is one (`{kind, id}` of GET /_control/resources/{service}/{kind}/{id}). */
  control?: { kind: string; id: string };
  children?: BrowseNode[];
  /** Content the console can page through: an object's bytes, a query's rows. */
  preview?: "bytes" | "rows";
}

/** A node as the console's API sends it: its children cut to a page, `total` the number there are. */
export type SentNode = Omit<BrowseNode, "children"> & { children?: SentNode[]; total?: number };

export type Preview =
  | { kind: "bytes"; total: number; offset: number; contentType?: string; text?: string; hex?: string }
  | { kind: "rows"; total: number; offset: number; columns: string[]; rows: string[][] };

/** A managed-state kind the console offers to slow down (PUT /_control/transitions). */
export interface TransitionKind {
  kind: string;
  /** What it moves between, e.g. `Creating -> Running`. */
  moves: string;
}

export type Progression = { mode: "immediate" } | { mode: "reads"; reads: number } | { mode: "duration"; ms: number };

export interface TransitionSetting {
  service: string;
  kind: string;
  mode: Progression["mode"];
  reads?: number;
  ms?: number;
}

export type FaultAction = "error" | "latency" | "drop" | "lose-response";

export interface FaultSpec {
  service?: string;
  operation?: string;
  method?: string;
  /** Tested against the service-relative path without the query string. */
  pathRegex?: string;
  /** Chance in [0, 1] that a matching request is hit; default 1. */
  probability?: number;
  /** How many requests the fault hits before it is spent; default unlimited. */
  times?: number;
  action: FaultAction;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Retry-After header value, in seconds. */
  retryAfter?: number;
  /** Delay before the request is handled, on the local cloud's clock (real time or clock advances). */
  latencyMs?: number;
}

export interface Fault extends FaultSpec {
  id: string;
  /** Requests hit so far. */
  fired: number;
  /** Hits left (null = unlimited). */
  remaining: number | null;
}

export interface RequestLogEntry {
  seq: number;
  /** ISO 8601 time on the local cloud's (virtual) clock. */
  time: string;
  service: string;
  operation: string;
  method: string;
  /** Service-relative path, without the query string. */
  path: string;
  query: string;
  /** Status sent, or would have been sent for `lose-response`; 0 for `drop`. */
  status: number;
  requestId: string;
  /** Real time (not the virtual clock) from the request's arrival to its answer (or the closed connection), ms. */
  durationMs: number;
  /** The project of the credential the request presented, when it was valid. */
  projectId?: string;
  fault?: FaultAction;
}
