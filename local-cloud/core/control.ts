import type { IncomingMessage, ServerResponse } from "node:http";
import FindMyWay from "find-my-way";
import { z } from "zod";
import { DAY_MS } from "./clock";
import { refusedRequest } from "./access";
import type { CredentialRecord, TokenFilter, TokenState } from "./credentials";
import { isValidProjectId, tokenMatches } from "./credentials";
import {
  BadRequest,
  EntityTooLarge,
  InternalError,
  MalformedJson,
  MethodNotAllowed,
  NoSuchCredential,
  NoSuchFault,
  NoSuchService,
  NotFound,
  isApiError,
} from "./errors";
import type { Fault, FaultSpec } from "./faults";
import { jsonResponse, type ApiResponse, type InventoryEntry } from "./http";
import { parseWith } from "./input";
import type { RequestCounters, RequestLogEntry } from "./request-log";
import { renderError, type LocalCloudServer } from "./server";
import type { Progression, TransitionSetting } from "./wire";

export type { TransitionSetting } from "./wire";

export type IssuedCredential =
  | { kind: "token"; projectId: string; token: string; permissions: string[] }
  | { kind: "access-key"; projectId: string; credentialId: string; credentialSecret: string; permissions: string[] };

export interface IssueRequest {
  projectId?: string;
  kind?: "token" | "access-key";
  permissions?: string[];
}

/** A token as the control API shows it. */
export interface TokenView {
  token: string;
  projectId: string;
  /** The access key it was issued for; absent for a token the control API issued. */
  credentialId?: string;
  issuedAt?: string;
  expiresAt?: string;
  state: TokenState;
}

export interface TokenReport {
  /** The lifetime of the tokens the identity service issues. */
  ttlSeconds: number;
  /** Tokens the identity service issued (since the start, or the last reset with credentials). */
  issued: number;
  active: number;
  tokens: TokenView[];
}

export interface ClockAdvance {
  ms?: number;
  days?: number;
}

/** Programmatic twin of the /_control HTTP API, for in-process tests. */
export interface LocalCloudControl {
  /** Clears resources, faults, transitions, the request log and the clock offset; credentials survive unless asked. */
  reset(options?: { credentials?: boolean }): void;
  issueCredentials(request?: IssueRequest): IssuedCredential;
  /** Deletes an access key; the tokens issued for it stop working. False when there is none. */
  revokeAccessKey(credentialId: string): boolean;
  /** Expires now the active tokens that match (every token without a filter); returns how many. */
  expireTokens(filter?: TokenFilter): number;
  /** The tokens, and how many the identity service issued. */
  tokens(filter?: TokenFilter): TokenReport;
  /** Sets the lifetime of the tokens the identity service issues from now on. */
  setTokenTtl(ttlSeconds: number): void;
  /** The first token and access key already issued for a project, if any (the CLI reuses them). */
  existingCredentials(projectId: string): { token?: IssuedCredential; accessKey?: IssuedCredential };
  setTransition(setting: TransitionSetting): void;
  transitions(): TransitionSetting[];
  addFault(spec: FaultSpec): Fault;
  faults(): Fault[];
  removeFault(id: string): boolean;
  clearFaults(): void;
  inventory(): InventoryEntry[];
  getResource(service: string, kind: string, id: string): unknown;
  /** The patched resource; a Promise of it where the service applies the patch asynchronously. */
  patchResource(service: string, kind: string, id: string, patch: unknown): unknown;
  deleteResource(service: string, kind: string, id: string): void;
  requests(since?: number): RequestLogEntry[];
  counters(): RequestCounters;
  advanceClock(by: ClockAdvance): { now: string; offsetMs: number };
  /** The local cloud's current time (ms since epoch). */
  now(): number;
  /** Writes the persistence file now (no-op without persistPath). */
  flush(): void;
}

function credentialView(record: CredentialRecord): IssuedCredential {
  return record.kind === "token"
    ? { kind: "token", projectId: record.projectId, token: record.token, permissions: [...record.permissions] }
    : {
        kind: "access-key",
        projectId: record.projectId,
        credentialId: record.credentialId,
        credentialSecret: record.credentialSecret,
        permissions: [...record.permissions],
      };
}

function progressionOf(setting: TransitionSetting): Progression {
  switch (setting.mode) {
    case "immediate":
      return { mode: "immediate" };
    case "reads":
      if (setting.reads === undefined || !Number.isInteger(setting.reads) || setting.reads < 0)
        throw new BadRequest('mode "reads" needs a non-negative integer "reads".');
      return { mode: "reads", reads: setting.reads };
    case "duration":
      if (setting.ms === undefined || !Number.isFinite(setting.ms) || setting.ms < 0) throw new BadRequest('mode "duration" needs a non-negative "ms".');
      return { mode: "duration", ms: setting.ms };
    default:
      throw new BadRequest("mode must be immediate, reads or duration.");
  }
}

export function createControl(server: LocalCloudServer): LocalCloudControl {
  const serviceOf = (name: string) => {
    const mounted = server.services.get(name);
    if (!mounted) throw new NoSuchService(name);
    return mounted.definition;
  };
  return {
    reset(options) {
      server.resetAll(parseWith(resetBody, options === undefined ? {} : options).credentials === true);
    },
    issueCredentials(input = {}) {
      const request = parseWith(credentialsBody, input);
      if (request.projectId !== undefined && !isValidProjectId(request.projectId)) {
        throw new BadRequest('projectId must be 1-32 characters of letters, digits, "-" and "_", starting with a letter or digit.');
      }
      const record = server.credentials.issue(request);
      server.changed();
      return credentialView(record);
    },
    revokeAccessKey(credentialId) {
      const done = server.credentials.revokeAccessKey(credentialId);
      if (done) server.changed();
      return done;
    },
    expireTokens(input = {}) {
      const n = server.credentials.expireTokens(parseWith(tokenFilterBody, input));
      server.changed();
      return n;
    },
    tokens(input = {}) {
      const f = parseWith(tokenFilterBody, input);
      const store = server.credentials;
      const all = store.tokenRecords();
      const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
      const shown = all.filter((t) => tokenMatches(t, f));
      return {
        ttlSeconds: store.tokenTtlMs / 1000,
        issued: shown.filter((t) => t.credentialId !== undefined).length,
        active: shown.filter((t) => store.stateOf(t) === "active").length,
        tokens: shown.map((t) => ({
          token: t.token,
          projectId: t.projectId,
          ...(t.credentialId !== undefined ? { credentialId: t.credentialId } : {}),
          ...(t.issuedAt !== undefined ? { issuedAt: iso(t.issuedAt) } : {}),
          ...(t.expiresAt !== undefined ? { expiresAt: iso(t.expiresAt) } : {}),
          state: store.stateOf(t),
        })),
      };
    },
    setTokenTtl(ttlSeconds) {
      server.credentials.tokenTtlMs = parseWith(ttlBody, { ttlSeconds }).ttlSeconds * 1000;
    },
    existingCredentials(projectId) {
      // The control API's own tokens: those the identity service issued expire.
      const mine = server.credentials.list().filter((c) => c.projectId === projectId && (c.kind !== "token" || c.credentialId === undefined));
      const token = mine.find((c) => c.kind === "token");
      const accessKey = mine.find((c) => c.kind === "access-key");
      return { ...(token ? { token: credentialView(token) } : {}), ...(accessKey ? { accessKey: credentialView(accessKey) } : {}) };
    },
    setTransition(input) {
      const setting = parseWith(transitionBody, input);
      serviceOf(setting.service);
      server.state.setProgression(setting.service, setting.kind, progressionOf(setting));
      server.changed();
    },
    transitions() {
      return server.state.listProgressions().map(({ service, kind, progression }) => ({ service, kind, ...progression }));
    },
    addFault(input) {
      const spec: FaultSpec = parseWith(faultBody, input);
      if (spec.pathRegex !== undefined) {
        try {
          new RegExp(spec.pathRegex);
        } catch {
          throw new BadRequest("pathRegex is not a valid regular expression.");
        }
      }
      if (spec.service !== undefined) serviceOf(spec.service);
      if (spec.action === "latency" && (spec.latencyMs === undefined || spec.latencyMs <= 0)) {
        throw new BadRequest('action "latency" needs a positive latencyMs.');
      }
      return server.faults.add(spec);
    },
    faults: () => server.faults.list(),
    removeFault: (id) => server.faults.remove(id),
    clearFaults: () => server.faults.clear(),
    inventory() {
      return [...server.services.values()].flatMap((m) => m.definition.inventory());
    },
    getResource(service, kind, id) {
      server.tick();
      return serviceOf(service).getResource(kind, id);
    },
    patchResource(service, kind, id, patch) {
      const result = serviceOf(service).patchResource(kind, id, patch);
      // A service may need to reach something outside to apply a patch (a real database server).
      if (result instanceof Promise) {
        return result.then((r: unknown) => {
          server.changed();
          return r;
        });
      }
      server.changed();
      return result;
    },
    deleteResource(service, kind, id) {
      serviceOf(service).deleteResource(kind, id);
      server.changed();
    },
    requests: (since = 0) => server.log.since(since),
    counters: () => server.log.counters(),
    advanceClock(by) {
      const { ms, days } = parseWith(clockBody, by);
      const total = (ms ?? 0) + (days ?? 0) * DAY_MS;
      if (!Number.isFinite(total) || total < 0) throw new BadRequest("The clock only moves forward: ms and days must be non-negative numbers.");
      if (server.clock.now() + total > LATEST_TIME)
        throw new BadRequest(`The clock may not pass ${new Date(LATEST_TIME).toISOString()}: it is ${new Date(server.clock.now()).toISOString()} now.`);
      server.clock.advance(total);
      server.tick();
      server.changed();
      return { now: new Date(server.clock.now()).toISOString(), offsetMs: server.clock.offset };
    },
    now: () => server.clock.now(),
    flush: () => server.flush(),
  };
}

/** The latest time the clock may reach: timestamps stay four-digit-year ISO 8601 (and far inside Date's range). */
export const LATEST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The longest a transition may take or a clock advance may add in one call (a hundred years). */
const LONGEST_MS = 100 * 365 * DAY_MS;
/** HTTP header names (RFC 9110 tokens) and values without control characters: what Node sends. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,8192}$/;

const name = (what: string) => z.string().min(1, `${what} must not be empty`).max(256);
const count = (max: number) => z.number().int().min(0).max(max);

const credentialsBody = z.strictObject({
  projectId: z.string().optional(),
  kind: z.enum(["token", "access-key"]).optional(),
  permissions: z.array(z.string().min(1).max(256)).max(1000).optional(),
});

const transitionBody = z.strictObject({
  service: name("service"),
  kind: name("kind"),
  mode: z.enum(["immediate", "reads", "duration"]),
  reads: count(1_000_000_000).optional(),
  ms: z.number().min(0).max(LONGEST_MS).optional(),
});

const faultBody = z.strictObject({
  service: name("service").optional(),
  operation: name("operation").optional(),
  method: name("method").optional(),
  pathRegex: z.string().max(1000).optional(),
  probability: z.number().min(0).max(1).optional(),
  times: z.number().int().positive().max(1_000_000_000).optional(),
  action: z.enum(["error", "latency", "drop", "lose-response"]),
  // 1xx would leave the client waiting for a final answer.
  status: z.number().int().min(200).max(599).optional(),
  body: z.unknown().optional(),
  headers: z.record(z.string().regex(HEADER_NAME, "a header name"), z.string().regex(HEADER_VALUE, "a header value without line breaks")).optional(),
  retryAfter: count(86_400).optional(),
  latencyMs: z.number().min(0).max(600_000).optional(),
});

const clockBody = z.strictObject({
  ms: z.number().int().min(0).max(LONGEST_MS).optional(),
  days: z
    .number()
    .min(0)
    .max(LONGEST_MS / DAY_MS)
    .optional(),
});
const resetBody = z.strictObject({ credentials: z.boolean().optional() });
const tokenFilterBody = z.strictObject({
  token: z.string().min(1).max(4096).optional(),
  projectId: z.string().min(1).max(256).optional(),
  credentialId: z.string().min(1).max(256).optional(),
});
/** Up to a year: a lifetime longer than that is no test of renewal. */
const ttlBody = z.strictObject({
  ttlSeconds: z
    .number()
    .positive()
    .max(365 * 86_400),
});

type ControlHandler = (input: { body: unknown; params: Record<string, string | undefined>; query: URLSearchParams }) => ApiResponse | Promise<ApiResponse>;

/** Installs the /_control HTTP API on the server; returns the programmatic handle it wraps. */
export function installControl(server: LocalCloudServer): LocalCloudControl {
  const control = createControl(server);
  const router = FindMyWay({ maxParamLength: 4096 });
  // Each method of `control` validates what it is given whole before it changes anything, so the
  // bodies go in as received (the casts only name what they should be).
  const routes: Array<[FindMyWay.HTTPMethod, string, ControlHandler]> = [
    ["GET", "/_control", () => jsonResponse(200, { url: server.url, endpoints: server.endpoints, services: [...server.services.keys()] })],
    [
      "POST",
      "/_control/reset",
      ({ body }) => {
        control.reset(body as { credentials?: boolean } | undefined);
        return jsonResponse(200, { reset: true });
      },
    ],
    ["POST", "/_control/credentials", ({ body }) => jsonResponse(201, control.issueCredentials((body === undefined ? {} : body) as IssueRequest))],
    [
      "DELETE",
      "/_control/credentials/:credentialId",
      ({ params }) => {
        if (!control.revokeAccessKey(params.credentialId ?? "")) throw new NoSuchCredential(params.credentialId ?? "");
        return { status: 204 };
      },
    ],
    [
      "GET",
      "/_control/tokens",
      ({ query }) =>
        jsonResponse(
          200,
          control.tokens(Object.fromEntries(["token", "projectId", "credentialId"].flatMap((k) => (query.get(k) === null ? [] : [[k, query.get(k)]])))),
        ),
    ],
    [
      "PUT",
      "/_control/tokens",
      ({ body }) => {
        control.setTokenTtl(parseWith(ttlBody, body).ttlSeconds);
        return jsonResponse(200, { ttlSeconds: server.credentials.tokenTtlMs / 1000 });
      },
    ],
    ["POST", "/_control/tokens/expire", ({ body }) => jsonResponse(200, { expired: control.expireTokens((body === undefined ? {} : body) as TokenFilter) })],
    ["GET", "/_control/transitions", () => jsonResponse(200, { transitions: control.transitions() })],
    [
      "PUT",
      "/_control/transitions",
      ({ body }) => {
        control.setTransition(body as TransitionSetting);
        return jsonResponse(200, body);
      },
    ],
    ["POST", "/_control/faults", ({ body }) => jsonResponse(201, control.addFault(body as FaultSpec))],
    ["GET", "/_control/faults", () => jsonResponse(200, { faults: control.faults() })],
    [
      "DELETE",
      "/_control/faults",
      () => {
        control.clearFaults();
        return { status: 204 };
      },
    ],
    [
      "DELETE",
      "/_control/faults/:id",
      ({ params }) => {
        if (!control.removeFault(params.id ?? "")) throw new NoSuchFault(params.id ?? "");
        return { status: 204 };
      },
    ],
    ["GET", "/_control/inventory", () => jsonResponse(200, { resources: control.inventory() })],
    ["GET", "/_control/resources/:service/:kind/*", ({ params }) => jsonResponse(200, control.getResource(params.service!, params.kind!, params["*"] ?? ""))],
    [
      "PATCH",
      "/_control/resources/:service/:kind/*",
      async ({ params, body }) => {
        if (body !== undefined && (body === null || typeof body !== "object" || Array.isArray(body))) throw new BadRequest("The patch must be a JSON object.");
        return jsonResponse(200, await control.patchResource(params.service!, params.kind!, params["*"] ?? "", body));
      },
    ],
    [
      "DELETE",
      "/_control/resources/:service/:kind/*",
      ({ params }) => {
        control.deleteResource(params.service!, params.kind!, params["*"] ?? "");
        return { status: 204 };
      },
    ],
    [
      "GET",
      "/_control/requests",
      ({ query }) => {
        const since = query.get("since");
        if (since !== null && !/^\d+$/.test(since)) throw new BadRequest("since must be a non-negative integer.");
        return jsonResponse(200, { requests: control.requests(since === null ? 0 : Number(since)), lastSeq: server.log.lastSeq });
      },
    ],
    ["GET", "/_control/counters", () => jsonResponse(200, control.counters())],
    ["GET", "/_control/clock", () => jsonResponse(200, { now: new Date(control.now()).toISOString(), offsetMs: server.clock.offset })],
    ["POST", "/_control/clock/advance", ({ body }) => jsonResponse(200, control.advanceClock((body === undefined ? {} : body) as ClockAdvance))],
  ];
  for (const [method, path, handler] of routes) router.on(method, path, () => undefined, { handler });

  server.controlHandler = async (req: IncomingMessage, res: ServerResponse, path: string, rawQuery: string) => {
    const requestId = String(res.getHeader("X-Trans-Id") ?? "");
    const method = (req.method ?? "GET").toUpperCase();
    let response: ApiResponse;
    try {
      const refused = refusedRequest(req.headers, server.options.host ?? "127.0.0.1");
      if (refused) {
        req.resume();
        throw refused;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > 16 * 1024 * 1024) throw new EntityTooLarge("Control request bodies are limited to 16 MiB.");
        chunks.push(chunk);
      }
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      if (text.trim() !== "") {
        try {
          body = JSON.parse(text) as unknown;
        } catch {
          throw new MalformedJson();
        }
      }
      let found: FindMyWay.FindResult<FindMyWay.HTTPVersion.V1> | null = null;
      try {
        found = router.find(method as FindMyWay.HTTPMethod, path);
      } catch {
        found = null;
      }
      if (!found) {
        const allowed = ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => router.find(m as FindMyWay.HTTPMethod, path) !== null);
        throw allowed.length > 0 ? new MethodNotAllowed(method, allowed) : new NotFound(`No control route ${method} ${path.slice(0, 200)}.`);
      }
      const { handler } = found.store as { handler: ControlHandler };
      response = await handler({ body, params: found.params, query: new URLSearchParams(rawQuery) });
    } catch (error) {
      response = renderError(
        isApiError(error) ? error : error instanceof RangeError ? new BadRequest(error.message) : new InternalError(String((error as Error)?.message ?? error)),
        "json",
        requestId,
      );
    }
    if (res.headersSent || res.destroyed) return;
    for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
    const payload = response.body === undefined ? undefined : Buffer.from(response.body);
    if (payload && response.status !== 204) res.setHeader("Content-Length", payload.length);
    res.writeHead(response.status);
    res.end(response.status === 204 ? undefined : payload);
  };
  return control;
}
