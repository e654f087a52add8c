/**
 * Tokens that renew themselves. A token (`X-Auth-Token`) comes from the first configured source of
 * the chain (auth.ts): a static token, a token command, or the access key, for which the identity
 * service issues one (Keystone v3 application-credential authentication, docs/api-assumptions.md).
 * A token of the last two is reused while enough of its life remains, issued again before that,
 * and after a 401 once for every request the same token failed (single flight, comparing the
 * token the failed request carried with the current one, as gophercloud does).
 *
 * The tokens live in a process-global registry keyed by their source, like the transport's pools:
 * never in module state a serialized provider could capture. Every token issued and every token
 * command output is remembered for redaction (redact.ts `rememberSecret`).
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { accessKeyHeaders, accessKeyOrigin, assertCredentials, tokenSourceOf, type TokenSource } from "./auth";
import { systemClock, type Clock } from "./clock";
import { isApiError, ResponseFormatError } from "./errors";
import { redactText, registerSecrets, rememberSecret } from "./redact";
import { AUTH_SCHEME, checkedUrl, ConfigurationError, endpointKeys, settingOrigin, SERVICES, type ServiceName, type Settings } from "./settings";
import { Transport, type CredentialLease, type TransportCredentials } from "./transport";

// The identity service's answer carries the token in this header (the services register theirs).
registerSecrets({ headers: ["x-subject-token"] });

/** A token with what its issuer said of it. */
export interface IssuedToken {
  value: string;
  /** When it expires, as its issuer wrote it (for messages); undefined when the issuer did not say. */
  expiresAt?: string;
  /** When to stop sending it, on this machine's clock (ms): its issue time here plus its lifetime. */
  expiresLocal?: number;
  /** When to issue the next one (ms, this machine's clock). */
  renewAt?: number;
  /** The project the token is scoped to, when its issuer said. */
  projectId?: string;
  /** The identity service's catalog of service endpoints (tokens of the access key). */
  catalog?: CatalogEntry[];
}

/** One service of a Keystone v3 catalog, as read (every other field ignored). */
export interface CatalogEntry {
  type: string;
  name?: string;
  endpoints: { interface?: string; region?: string; regionId?: string; url: string }[];
}

/** The longest a token is renewed before it expires (AWS SDKs' synchronous margin): 5 minutes. */
export const RENEW_BEFORE_MS = 5 * 60_000;

/**
 * How long before its expiry a token is renewed: 5 minutes, or a quarter of its lifetime when that
 * is shorter (a token of 20 seconds lives 15 of them, instead of being issued for every request).
 */
export function renewalMargin(lifetimeMs: number): number {
  return Math.min(RENEW_BEFORE_MS, Math.max(0, lifetimeMs) / 4);
}

/**
 * The catalog types the client accepts for each service, the first being the one it publishes under
 * (the local cloud). Object storage and key management have OpenStack's own types; Hadoop answers to
 * OpenStack's type for Hadoop clusters (Sahara's `data-processing`) too. docs/api-assumptions.md.
 */
export const CATALOG_TYPES: Readonly<Record<ServiceName, readonly string[]>> = {
  objectstorage: ["object-store"],
  cache: ["cache", "redis"],
  kms: ["key-manager", "kms"],
  dataquery: ["data-query", "dataquery"],
  hadoop: ["hadoop", "data-processing"],
};

// ---------------------------------------------------------------------------------------------
// The registry

interface Entry {
  current?: IssuedToken;
  /** The issue under way, shared by every caller (single flight). */
  pending?: Promise<IssuedToken>;
  /** Tokens issued for this source by this process. */
  issued: number;
  /**
   * The identity service's refusal of the access key (401, 403, 404): a definitive answer, so every
   * later caller in this process gets it without another request (a wrong key fails a preview of a
   * thousand resources with one token request).
   */
  refused?: Error;
}

const REGISTRY = Symbol.for("krcloud.credentials.tokens");

function registry(): Map<string, Entry> {
  const g = globalThis as unknown as Record<symbol, Map<string, Entry> | undefined>;
  return (g[REGISTRY] ??= new Map());
}

function keyOf(source: TokenSource): string {
  const parts =
    source.kind === "access-key"
      ? ["access-key", source.identityEndpoint, source.credentialId, source.credentialSecret]
      : source.kind === "command"
        ? ["command", source.command]
        : ["static", source.token];
  return createHash("sha256").update(parts.join("\u0000")).digest("hex");
}

function entryOf(source: TokenSource): Entry {
  const m = registry();
  const key = keyOf(source);
  let e = m.get(key);
  if (!e) {
    e = { issued: 0 };
    m.set(key, e);
  }
  return e;
}

/** How many tokens this process had issued for the settings' source (tests, the bench). */
export function tokensIssued(s: Settings): number {
  const source = tokenSourceOf(s);
  return source ? (registry().get(keyOf(source))?.issued ?? 0) : 0;
}

/** Forgets every token (tests). */
export function resetTokens(): void {
  registry().clear();
}

export interface TokenOptions {
  clock?: Clock;
  /** Settings of the identity request (retries, timeouts). */
  settings?: Settings;
}

/**
 * The token to send now: the current one while enough of its life remains, else a new one (one
 * issue for every caller waiting). A static token is returned as it is.
 */
export async function currentToken(source: TokenSource, o: TokenOptions = {}): Promise<IssuedToken> {
  if (source.kind === "static") return { value: source.token };
  const clock = o.clock ?? systemClock;
  const e = entryOf(source);
  const current = e.current;
  if (current && (current.renewAt === undefined || clock.now() < current.renewAt)) return current;
  try {
    return await issue(source, e, o);
  } catch (err) {
    // Renewing early failed for a reason that may pass (the network, a 5xx): the token still has
    // some life, use it; the next request tries again.
    if (current?.expiresLocal !== undefined && clock.now() < current.expiresLocal && !isCredentialError(err)) return current;
    throw err;
  }
}

function isCredentialError(e: unknown): boolean {
  return (e as { code?: unknown })?.code === "KRCLOUD_CREDENTIALS";
}

/**
 * After a 401 to a request sent with `sent`: true once a token newer than `sent` is current (this
 * call issued it, or another had already); false for a static token, which cannot be renewed.
 */
export async function renewToken(source: TokenSource, sent: string, o: TokenOptions = {}): Promise<boolean> {
  if (source.kind === "static") return false;
  const e = entryOf(source);
  if (e.current && e.current.value !== sent) return true;
  await issue(source, e, o);
  return true;
}

function issue(source: Exclude<TokenSource, { kind: "static" }>, e: Entry, o: TokenOptions): Promise<IssuedToken> {
  if (e.refused) return Promise.reject(e.refused);
  if (!e.pending) {
    const clock = o.clock ?? systemClock;
    const started = clock.now();
    const p = (source.kind === "command" ? runTokenCommand(source, started) : issueForAccessKey(source, started, o)).then(
      (t) => {
        rememberSecret(t.value);
        e.current = t;
        e.issued++;
        return t;
      },
      (err: unknown) => {
        if (source.kind === "access-key" && isCredentialError(err)) e.refused = err as Error;
        throw err;
      },
    );
    e.pending = p;
    // Cleared once settled, whatever the outcome: the next caller after a failure tries again.
    p.then(
      () => (e.pending = undefined),
      () => (e.pending = undefined),
    );
  }
  return e.pending;
}

/** Local expiry and renewal times of a token issued at `startedLocal`, from what its issuer said. */
function lifetime(startedLocal: number, expiresAt: string | undefined, issuedAt: string | undefined, receivedLocal: number): Partial<IssuedToken> {
  if (expiresAt === undefined) return {};
  const expires = parseTime(expiresAt);
  if (expires === undefined) return {};
  // Measured from the issuer's own issue time when given, so that a clock skew between this machine
  // and the issuer does not shorten or lengthen it; else from the answer's arrival.
  const issued = issuedAt === undefined ? undefined : parseTime(issuedAt);
  const life = issued === undefined ? expires - receivedLocal : expires - issued;
  const expiresLocal = (issued === undefined ? receivedLocal : startedLocal) + life;
  return { expiresAt, expiresLocal, renewAt: expiresLocal - renewalMargin(life) };
}

/** An RFC 3339 time; one without an offset is UTC (Keystone wrote them so). */
function parseTime(s: string): number | undefined {
  const withZone = /(?:Z|[+-]\d\d:?\d\d)$/i.test(s.trim()) ? s.trim() : `${s.trim()}Z`;
  const t = Date.parse(withZone);
  return Number.isNaN(t) ? undefined : t;
}

// ---------------------------------------------------------------------------------------------
// The identity service (Keystone v3, application credentials)

/** A credential was refused, or could not produce a token; the message names the setting. */
export class CredentialError extends Error {
  readonly code = "KRCLOUD_CREDENTIALS";
  override readonly name = "CredentialError";
  /** 401 when the identity service refused the access key itself (wrong, revoked or expired). */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** `{identity}/v3/auth/tokens`, whether the identity endpoint was given with its `/v3` or without. */
export function tokensPath(identityEndpoint: string): string {
  return /\/v3$/.test(new URL(identityEndpoint).pathname.replace(/\/+$/, "")) ? "/auth/tokens" : "/v3/auth/tokens";
}

async function issueForAccessKey(source: Extract<TokenSource, { kind: "access-key" }>, started: number, o: TokenOptions): Promise<IssuedToken> {
  const clock = o.clock ?? systemClock;
  const endpoint = checkedUrl(source.identityEndpoint, "the identity endpoint", "krcloud:identityEndpoint / KRCLOUD_IDENTITY_ENDPOINT");
  const transport = new Transport({
    service: "identity",
    endpoint,
    secrets: [source.credentialSecret],
    retry: o.settings?.retry,
    timeouts: o.settings?.timeouts,
    clock,
  });
  const which = `the access key "${source.credentialId}" (${source.setting})`;
  let res;
  try {
    res = await transport.request({
      operation: "IssueToken",
      method: "POST",
      path: tokensPath(endpoint),
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        auth: { identity: { methods: ["application_credential"], application_credential: { id: source.credentialId, secret: source.credentialSecret } } },
      }),
      auth: false,
      // A second token does no harm: the request may be repeated.
      idempotent: true,
      action: `issuing a token for ${which} at the identity service ${endpoint}`,
    });
  } catch (e) {
    if (isApiError(e) && e.status === 401) {
      throw new CredentialError(
        `${which} was refused by the identity service ${endpoint} (401${e.apiMessage ? `: ${e.apiMessage}` : ""}): it is wrong, revoked or expired; ` +
          `create a new access key and set krcloud:credentialId and krcloud:credentialSecret (as a secret)`,
        401,
      );
    }
    if (isApiError(e) && e.status === 403) {
      throw new CredentialError(
        `${which} may not issue tokens: the identity service ${endpoint} refused the permission (403${e.apiMessage ? `: ${e.apiMessage}` : ""}); the key is valid, its rights are not`,
      );
    }
    if (isApiError(e) && e.status === 404) {
      throw new CredentialError(
        `no identity service answers at ${endpoint}${tokensPath(endpoint)} (404): check krcloud:identityEndpoint (${settingOriginText(source)})`,
      );
    }
    throw e;
  }
  const received = clock.now();
  const value = res.headers["x-subject-token"];
  if (!value)
    throw new ResponseFormatError(`issuing a token for ${which}: the identity service ${endpoint} answered ${res.status} without an X-Subject-Token header`);
  rememberSecret(value);
  const body = parseTokenBody(res.body);
  return { value, projectId: body.projectId, catalog: body.catalog, ...lifetime(started, body.expiresAt, body.issuedAt, received) };
}

function settingOriginText(source: Extract<TokenSource, { kind: "access-key" }>): string {
  return `the access key came from ${source.setting}`;
}

/** What the client reads of a Keystone token body; every field optional, anything else ignored. */
export function parseTokenBody(body: Buffer): { expiresAt?: string; issuedAt?: string; projectId?: string; catalog: CatalogEntry[] } {
  let j: unknown;
  try {
    j = JSON.parse(body.toString("utf8"));
  } catch {
    return { catalog: [] };
  }
  const token = (j as { token?: unknown })?.token;
  if (typeof token !== "object" || token === null) return { catalog: [] };
  const t = token as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  const project = typeof t.project === "object" && t.project !== null ? (t.project as Record<string, unknown>) : {};
  const catalog: CatalogEntry[] = [];
  for (const c of Array.isArray(t.catalog) ? t.catalog : []) {
    if (typeof c !== "object" || c === null) continue;
    const svc = c as Record<string, unknown>;
    const type = str(svc.type);
    if (!type) continue;
    const endpoints = (Array.isArray(svc.endpoints) ? svc.endpoints : []).flatMap((ep: unknown) => {
      const x = (typeof ep === "object" && ep !== null ? ep : {}) as Record<string, unknown>;
      const url = str(x.url);
      return url ? [{ interface: str(x.interface), region: str(x.region), regionId: str(x.region_id), url }] : [];
    });
    catalog.push({ type, name: str(svc.name), endpoints });
  }
  return { expiresAt: str(t.expires_at), issuedAt: str(t.issued_at), projectId: str(project.id), catalog };
}

/**
 * The endpoint of `service` in a catalog: the entry of one of its types, the public interface in
 * `region` (a catalog entry without a region serves every region). Object storage's URL ends with
 * its account (`/v1/AUTH_…`) in OpenStack clouds; the client builds that part itself, so it is dropped.
 */
export function catalogEndpoint(catalog: readonly CatalogEntry[], service: ServiceName, region: string): string | undefined {
  for (const type of CATALOG_TYPES[service]) {
    for (const entry of catalog.filter((c) => c.type === type)) {
      const candidates = entry.endpoints.filter((e) => (e.interface ?? "public") === "public");
      const here = candidates.find((e) => e.regionId === region || e.region === region) ?? candidates.find((e) => !e.regionId && !e.region);
      if (here) return (service === "objectstorage" ? here.url.replace(/\/v1(\/[^/]*)?\/*$/, "") : here.url).replace(/\/+$/, "");
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The token command

/** How long a token command may run. */
export const TOKEN_COMMAND_TIMEOUT_MS = 60_000;

/**
 * Runs the token command with the shell, in this process's directory and environment. Its standard
 * output is `{"token": "...", "expiresAt": "<RFC 3339>", "projectId": "..."}` (`expiresAt` and
 * `projectId` optional). A failure says its exit code and its standard error, with every secret
 * removed (what it printed on standard output too).
 */
export function runTokenCommand(
  source: Extract<TokenSource, { kind: "command" }>,
  started: number,
  timeoutMs = TOKEN_COMMAND_TIMEOUT_MS,
): Promise<IssuedToken> {
  const which = `the token command (${source.setting})`;
  return new Promise((resolve, reject) => {
    const child = spawn(source.command, { shell: true, stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    timer.unref();
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new CredentialError(`${which} could not be started: ${e.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString("utf8");
      // Whatever it printed may be a token: never shown, in any message.
      const printed = secretsIn(stdout);
      for (const p of printed) rememberSecret(p);
      const stderr = redactText(Buffer.concat(err).toString("utf8"), printed).trim();
      const tail = stderr === "" ? "nothing on standard error" : `standard error: ${stderr.length > 2000 ? `...${stderr.slice(-2000)}` : stderr}`;
      if (code !== 0) {
        const how = signal
          ? `was killed by ${signal}${signal === "SIGKILL" ? ` (it ran longer than ${timeoutMs / 1000} s?)` : ""}`
          : `exited with code ${code}`;
        reject(new CredentialError(`${which} ${how}; ${tail}`));
        return;
      }
      try {
        resolve(parseCommandOutput(stdout, which, started));
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

/** The words of a command's output long enough to be a credential, and the output itself. */
function secretsIn(stdout: string): string[] {
  const words = stdout.split(/[\s"'{}[\],:]+/).filter((w) => w.length >= 8);
  return [stdout.trim(), ...words].filter((w) => w.length >= 4);
}

function parseCommandOutput(stdout: string, which: string, started: number): IssuedToken {
  const shape = `{"token": "...", "expiresAt": "<RFC 3339 time>", "projectId": "..."}`;
  let j: unknown;
  try {
    j = JSON.parse(stdout);
  } catch {
    throw new CredentialError(
      `${which} printed something that is not JSON on standard output (expected ${shape}; its output is not shown, it may hold a secret)`,
    );
  }
  const o = (typeof j === "object" && j !== null ? j : {}) as Record<string, unknown>;
  if (typeof o.token !== "string" || o.token === "") throw new CredentialError(`${which} printed JSON without a "token" string (expected ${shape})`);
  if (o.expiresAt !== undefined && (typeof o.expiresAt !== "string" || parseTime(o.expiresAt) === undefined)) {
    throw new CredentialError(`${which} printed an "expiresAt" that is not an RFC 3339 time (expected ${shape})`);
  }
  if (o.projectId !== undefined && (typeof o.projectId !== "string" || o.projectId === "")) {
    throw new CredentialError(`${which} printed a "projectId" that is not a non-empty string (expected ${shape})`);
  }
  rememberSecret(o.token);
  const expiresAt = o.expiresAt;
  // Its own clock is this machine's: the time it names is when the token expires here.
  const expires = expiresAt === undefined ? undefined : parseTime(expiresAt);
  return {
    value: o.token,
    projectId: o.projectId,
    ...(expires === undefined ? {} : { expiresAt, expiresLocal: expires, renewAt: expires - renewalMargin(expires - started) }),
  };
}

// ---------------------------------------------------------------------------------------------
// Settings with what the credential tells, and the transport's credentials

/**
 * The settings as the credential completes them: the project and the catalog's endpoints of a
 * token the identity service issued (or a token command's project). `service`, when given, is the
 * service about to be called: no token is issued for a service that needs none. The configured
 * project and a token's project must agree: otherwise nothing may be read or changed.
 */
export async function authenticated(s: Settings, o: { service?: ServiceName; clock?: Clock } = {}): Promise<Settings> {
  const source = tokenSourceOf(s);
  if (!source || source.kind === "static") return s;
  const service = o.service;
  if (service !== undefined && AUTH_SCHEME[service] !== "token" && s.endpoints[service] !== undefined) return s;
  const token = await currentToken(source, { clock: o.clock, settings: s });
  if (token.projectId !== undefined && s.projectId !== undefined && token.projectId !== s.projectId) {
    throw new ConfigurationError(
      `the token from ${source.kind === "command" ? `the token command (${source.setting})` : `the access key "${source.kind === "access-key" ? source.credentialId : ""}" (${source.setting})`} ` +
        `belongs to project "${token.projectId}", not to project "${s.projectId}" (${settingOrigin(s, "projectId")}). Nothing was read or changed; ` +
        `remove krcloud:projectId (the token names the project) or set it to "${token.projectId}"`,
    );
  }
  const endpoints = { ...s.endpoints };
  for (const svc of SERVICES) {
    if (endpoints[svc] !== undefined || !token.catalog) continue;
    const url = catalogEndpoint(token.catalog, svc, s.region);
    if (url !== undefined) endpoints[svc] = url;
  }
  if (service !== undefined && endpoints[service] === undefined && token.catalog) {
    const [cfgKey, envKey] = endpointKeys(service);
    throw new ConfigurationError(
      `no endpoint for the ${service} service: the identity service's catalog has no public endpoint of type ${CATALOG_TYPES[service].map((t) => `"${t}"`).join(" or ")} ` +
        `in region "${s.region}" (krcloud:region); set krcloud:${cfgKey} (or ${envKey})`,
    );
  }
  return { ...s, projectId: s.projectId ?? token.projectId, endpoints, ...(token.projectId !== undefined ? { tokenProjectId: token.projectId } : {}) };
}

/** The transport's credentials for `service`: its access key, or the token of the chain's source. */
export function credentialsFor(service: ServiceName, s: Settings, clock?: Clock): TransportCredentials {
  // Missing credentials fail the first request, not the client's construction: a client may be
  // built for what needs none (a temp URL signed with a key).
  if (AUTH_SCHEME[service] === "access-key") {
    const which = `the access key "${s.credentialId ?? ""}" (${accessKeyOrigin(s)})`;
    return {
      // The ID names the key in messages (as the identity service's do); only the secret is redacted.
      current: async () => ({ headers: accessKeyHeaders(service, s), identifiers: ["credential-id"] }),
      renew: async () => false,
      explain: (status) =>
        status === 401
          ? `${which} was refused (401): it is wrong, revoked or expired; create a new access key and set krcloud:credentialId and krcloud:credentialSecret (as a secret)`
          : `permission refused (403): ${which} is valid but not allowed to do this (not an expired credential; nothing was renewed)`,
    };
  }
  const source = (): TokenSource => {
    assertCredentials(service, s);
    return tokenSourceOf(s)!;
  };
  const tokens = new Map<string, IssuedToken>();
  const lease = (t: IssuedToken): CredentialLease => {
    tokens.set(t.value, t);
    return { headers: { "x-auth-token": t.value } };
  };
  return {
    current: async () => lease(await currentToken(source(), { clock, settings: s })),
    renew: (l) => renewToken(source(), l.headers["x-auth-token"] ?? "", { clock, settings: s }),
    explain: (status, l, renewed) => explainRefusal(source(), status, tokens.get(l.headers["x-auth-token"] ?? ""), renewed),
  };
}

function describeSource(source: TokenSource): string {
  switch (source.kind) {
    case "static":
      return `the auth token from ${source.setting}`;
    case "command":
      return `the token printed by the token command (${source.setting})`;
    case "access-key":
      return `the token issued for the access key "${source.credentialId}" (${source.setting}) by ${source.identityEndpoint}`;
  }
}

function explainRefusal(source: TokenSource, status: 401 | 403, token: IssuedToken | undefined, renewed: boolean): string {
  const which = describeSource(source);
  if (status === 403) return `permission refused (403): ${which} is valid but not allowed to do this (not an expired token; no new token was requested)`;
  const expiry = token?.expiresAt ? `; it expires at ${token.expiresAt}` : "";
  if (source.kind === "static") {
    return (
      `${which} was refused (401): it has expired or was revoked. A static token cannot be renewed: configure an access key ` +
      `(krcloud:credentialId, krcloud:credentialSecret and krcloud:identityEndpoint) or krcloud:tokenCommand so that the provider renews it`
    );
  }
  return renewed
    ? `${which} was refused (401) although it had just been issued${expiry}: the credential behind it was revoked, or the service does not accept its tokens`
    : `${which} was refused (401)${expiry}`;
}
