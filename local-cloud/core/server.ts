import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import FindMyWay from "find-my-way";
import { VirtualClock, dayStart, type ClockSource } from "./clock";
import { CredentialStore, type CredentialSnapshot } from "./credentials";
import { ApiError, EntityTooLarge, InternalError, MethodNotAllowed, NotFound, isApiError } from "./errors";
import { FaultInjector, type Fault } from "./faults";
import type { ApiResponse, ErrorFormat, Presented, RequestContext, RouteDefinition, ServiceDefinition } from "./http";
import { newRequestId } from "./ids";
import { bindWarning, normalizeIp } from "./ip";
import { ManagedState, type ManagedStateSnapshot } from "./managed-state";
import { DataDirectory, Persister } from "./persistence";
import { RequestLog } from "./request-log";

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024;

/** What other services may do in object storage (query results, job logs), set by the object storage service. */
export interface ObjectStoreBridge {
  bucketExists(projectId: string, bucket: string): boolean;
  putObject(projectId: string, bucket: string, key: string, body: Buffer, contentType: string): void;
  /** An object's whole content, read lazily; undefined when the bucket or object does not exist. */
  readObject(projectId: string, bucket: string, key: string): Readable | undefined;
}

/** What services receive from the core at construction. */
export interface CoreContext {
  readonly clock: VirtualClock;
  readonly credentials: CredentialStore;
  readonly state: ManagedState;
  /** Directory for bulk data such as object bodies (kept with the snapshot when persisting). */
  readonly dataDir: string;
  /** Filled by the object storage service when it is mounted (services are built in order). */
  objectStore?: ObjectStoreBridge;
  /** Whether the state is persisted (a restart finds it again). */
  readonly persistent: boolean;
  /** The cache service's data plane for new clusters (see LocalCloudOptions.cacheEngine). */
  readonly cacheEngine: "auto" | "redis" | "simulated";
  /** The region the catalog names (LocalCloudOptions.region). */
  readonly region: string;
  /** The services with a catalog type and their URLs (known once the server listens). */
  catalog(): { type: string; name: string; url: string }[];
  /** State changed outside a request (background work): persist it soon. */
  changed(): void;
  /** A warning for whoever runs the local cloud (background work that failed). */
  warn(message: string): void;
}

export type ServiceFactory = (core: CoreContext) => ServiceDefinition;

export interface LocalCloudOptions {
  /** Interface to bind; default 127.0.0.1. Anything else prints a warning (the control API has no authentication). */
  host?: string;
  /** Where warnings go; default stderr. */
  onWarning?: (message: string) => void;
  /** Main port (all services under path prefixes, plus /_control); 0 picks a free port. Default 0. */
  port?: number;
  /** Also serve each service at the root of its own port. */
  separatePorts?: boolean;
  /** Fixed ports for `separatePorts` (service name to port); unlisted services get a free port. */
  servicePorts?: Record<string, number>;
  /** JSON snapshot file: loaded at start when present, rewritten after mutations, flushed on close. */
  persistPath?: string;
  /** Base clock (default Date.now); the control API adds an offset to it. */
  clock?: ClockSource;
  /** Request body cap; larger bodies get 413. Default 256 MiB. */
  maxBodyBytes?: number;
  /** Take the client address from X-Forwarded-For (for ACL IP-list tests only). */
  trustForwardedFor?: boolean;
  /** Random source for fault probabilities (default Math.random). */
  random?: () => number;
  /** How many requests the request log keeps. Default 10000. */
  requestLogCapacity?: number;
  /**
   * The cache service's nodes: `redis` runs a real redis-server per node on 127.0.0.1, `simulated`
   * runs none, `auto` (the default) is `redis` where redis-server is installed.
   */
  cacheEngine?: "auto" | "redis" | "simulated";
  /** How long the identity service's tokens live, ms (`--token-ttl`). Default 12 hours. */
  tokenTtlMs?: number;
  /** The region of every endpoint in the identity service's catalog. Default kr-central-2. */
  region?: string;
}

/** The region the local cloud's catalog names unless told otherwise (the client's default region). */
export const DEFAULT_REGION = "kr-central-2";

interface MountedService {
  definition: ServiceDefinition;
  prefix: string;
  router: FindMyWay.Instance<FindMyWay.HTTPVersion.V1>;
  methods: string[];
}

interface PersistedState {
  version: 1;
  clockOffsetMs: number;
  lastEvaluatedDay: number;
  credentials: CredentialSnapshot;
  managedState: ManagedStateSnapshot;
  services: Record<string, unknown>;
}

class ClientGone extends Error {}

type RouteStore = { route: RouteDefinition };

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const tooLarge = () => new EntityTooLarge(`The request body exceeds the local cloud limit of ${limit} bytes.`);
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) {
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      fn();
    };
    req.on("data", (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish(() => reject(tooLarge()));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => finish(() => resolve(Buffer.concat(chunks))));
    req.on("error", () => finish(() => reject(new ClientGone())));
    req.on("close", () => finish(() => (req.complete ? resolve(Buffer.concat(chunks)) : reject(new ClientGone()))));
  });
}

export function renderError(error: ApiError, format: ErrorFormat, requestId: string): ApiResponse {
  const headers: Record<string, string> = { ...error.headers };
  if (format === "json") {
    return {
      status: error.status,
      headers: { ...headers, "Content-Type": "application/json; charset=utf-8" },
      body: JSON.stringify({ code: error.code, message: error.message, requestId }),
    };
  }
  return {
    status: error.status,
    headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
    body: `${error.message}\n`,
  };
}

function send(res: ServerResponse, response: ApiResponse, method: string): void {
  if (response.stream) {
    sendStream(res, response, response.stream, method);
    return;
  }
  if (res.headersSent || res.destroyed) return;
  const body = response.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body);
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  const noBody = method === "HEAD" || response.status === 204 || response.status === 304;
  if (!noBody) res.setHeader("Content-Length", body.length);
  else if (method === "HEAD" && !res.hasHeader("Content-Length")) res.setHeader("Content-Length", body.length);
  res.writeHead(response.status);
  res.end(noBody ? undefined : body);
}

/** A streamed body (large downloads): the route sets Content-Length; a failing stream aborts the connection. */
function sendStream(res: ServerResponse, response: ApiResponse, body: Readable, method: string): void {
  if (res.headersSent || res.destroyed || method === "HEAD" || response.status === 204 || response.status === 304) {
    body.destroy();
    if (!res.headersSent && !res.destroyed) send(res, { status: response.status, headers: response.headers ?? {} }, method);
    return;
  }
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  res.writeHead(response.status);
  pipeline(body, res).catch(() => res.destroy());
}

export class LocalCloudServer {
  readonly clock: VirtualClock;
  readonly credentials: CredentialStore;
  readonly state: ManagedState;
  readonly faults: FaultInjector;
  readonly log: RequestLog;
  readonly services = new Map<string, MountedService>();
  readonly options: Readonly<LocalCloudOptions>;
  private readonly maxBodyBytes: number;
  private readonly persister: Persister | undefined;
  readonly dataDir: DataDirectory;
  private lastEvaluatedDay: number;
  private readonly servers: Server[] = [];
  private mainServer: Server | undefined;
  /** Control API handler, installed by the control module. */
  controlHandler: ((req: IncomingMessage, res: ServerResponse, path: string, rawQuery: string) => Promise<void>) | undefined;
  /** The console's handler (local-cloud/console), installed beside the control API: same port, same rules. */
  consoleHandler: ((req: IncomingMessage, res: ServerResponse, path: string, rawQuery: string) => Promise<void>) | undefined;
  readonly endpoints: Record<string, string> = {};
  url = "";

  constructor(options: LocalCloudOptions, factories: ServiceFactory[]) {
    this.options = options;
    this.clock = new VirtualClock(options.clock);
    this.credentials = new CredentialStore(() => this.clock.now());
    if (options.tokenTtlMs !== undefined) this.credentials.tokenTtlMs = options.tokenTtlMs;
    this.state = new ManagedState(this.clock);
    this.faults = new FaultInjector(options.random);
    this.log = new RequestLog(options.requestLogCapacity);
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.lastEvaluatedDay = dayStart(this.clock.now());
    this.dataDir = new DataDirectory(options.persistPath);
    const warn = options.onWarning ?? ((m: string) => process.stderr.write(`${m}\n`));
    const core: CoreContext = {
      clock: this.clock,
      credentials: this.credentials,
      state: this.state,
      dataDir: this.dataDir.path,
      persistent: options.persistPath !== undefined,
      cacheEngine: options.cacheEngine ?? "auto",
      region: options.region ?? DEFAULT_REGION,
      catalog: () =>
        [...this.services.values()].flatMap((m) => {
          const type = m.definition.catalogType;
          const url = this.endpoints[m.definition.name];
          return type !== undefined && url !== undefined ? [{ type, name: m.definition.name, url }] : [];
        }),
      changed: () => this.changed(),
      warn,
    };
    for (const factory of factories) {
      const definition = factory(core);
      this.services.set(definition.name, this.mount(definition));
    }
    if (options.persistPath) {
      this.persister = new Persister(options.persistPath, () => this.snapshot());
      const loaded = this.persister.load();
      if (loaded !== undefined) this.restore(loaded as PersistedState);
    }
  }

  private mount(definition: ServiceDefinition): MountedService {
    const router = FindMyWay({ maxParamLength: 4096 });
    const methods = new Set<string>();
    for (const route of definition.routes) {
      for (const m of route.methods) methods.add(m);
      const store: RouteStore = { route };
      router.on(route.methods as FindMyWay.HTTPMethod[], route.path, () => undefined, store);
    }
    return { definition, prefix: `/${definition.name}`, router, methods: [...methods] };
  }

  async listen(): Promise<void> {
    const host = this.options.host ?? "127.0.0.1";
    const warning = bindWarning(host);
    if (warning) (this.options.onWarning ?? ((m: string) => process.stderr.write(`${m}\n`)))(warning);
    this.mainServer = await this.startHttp(host, this.options.port ?? 0, undefined);
    const port = (this.mainServer.address() as AddressInfo).port;
    this.url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    for (const mounted of this.services.values()) {
      if (this.options.separatePorts) {
        const server = await this.startHttp(host, this.options.servicePorts?.[mounted.definition.name] ?? 0, mounted);
        const servicePort = (server.address() as AddressInfo).port;
        this.endpoints[mounted.definition.name] = `http://${host.includes(":") ? `[${host}]` : host}:${servicePort}`;
      } else {
        this.endpoints[mounted.definition.name] = `${this.url}${mounted.prefix}`;
      }
    }
  }

  private startHttp(host: string, port: number, bound: MountedService | undefined): Promise<Server> {
    const server = createServer({ requireHostHeader: false }, (req, res) => {
      this.dispatch(req, res, bound).catch(() => {
        if (!res.headersSent && !res.destroyed) {
          send(res, renderError(new InternalError(), "json", String(res.getHeader("X-Trans-Id") ?? "")), req.method ?? "GET");
        } else {
          res.destroy();
        }
      });
    });
    // Idle connections are kept longer than any client here keeps them (undici and fetch take the
    // Keep-Alive hint less a second): with Node's 5 s, a test's client reusing a socket at 4 s on a
    // loaded machine met the server's close (fetch failed, ECONNRESET).
    server.keepAliveTimeout = 65_000;
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve(server);
      });
    });
  }

  async close(): Promise<void> {
    await Promise.all(
      this.servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
    this.servers.length = 0;
    // Services stop their processes (and may record what they saved) before the last snapshot.
    await Promise.all([...this.services.values()].map((m) => m.definition.close?.() ?? Promise.resolve()));
    this.persister?.flush();
    this.dataDir.dispose();
  }

  /** Marks state dirty; the snapshot is written shortly after (and always on close). */
  changed(): void {
    this.persister?.schedule();
  }

  flush(): void {
    this.persister?.flush();
  }

  /** Runs day-boundary work (lifecycle expiry) when the clock has passed 00:00 UTC since the last run. */
  tick(): void {
    const today = dayStart(this.clock.now());
    if (today <= this.lastEvaluatedDay) return;
    this.lastEvaluatedDay = today;
    for (const mounted of this.services.values()) mounted.definition.onDayBoundary?.(today);
    this.changed();
  }

  resetAll(clearCredentials: boolean): void {
    for (const mounted of this.services.values()) mounted.definition.reset();
    this.state.reset();
    this.faults.clear();
    this.log.reset();
    this.clock.offset = 0;
    this.lastEvaluatedDay = dayStart(this.clock.now());
    if (clearCredentials) this.credentials.clear();
    this.changed();
  }

  snapshot(): PersistedState {
    const services: Record<string, unknown> = {};
    for (const [name, mounted] of this.services) services[name] = mounted.definition.snapshot();
    return {
      version: 1,
      clockOffsetMs: this.clock.offset,
      lastEvaluatedDay: this.lastEvaluatedDay,
      credentials: this.credentials.snapshot(),
      managedState: this.state.snapshot(),
      services,
    };
  }

  private restore(data: PersistedState): void {
    if (data.version !== 1) throw new Error(`unsupported local cloud state file version ${String(data.version)}`);
    this.clock.offset = data.clockOffsetMs ?? 0;
    this.lastEvaluatedDay = data.lastEvaluatedDay ?? dayStart(this.clock.now());
    this.credentials.restore(data.credentials);
    this.state.restore(data.managedState);
    for (const [name, mounted] of this.services) mounted.definition.restore(data.services?.[name]);
  }

  private resolvePresented(req: IncomingMessage): Presented {
    const first = (name: string): string | undefined => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const token = first("x-auth-token");
    if (token !== undefined) {
      const identity = this.credentials.resolveToken(token);
      return identity ? { kind: "valid", identity } : { kind: "invalid", scheme: "token" };
    }
    const id = first("credential-id");
    const secret = first("credential-secret");
    if (id !== undefined || secret !== undefined) {
      const identity = id !== undefined && secret !== undefined ? this.credentials.resolveAccessKey(id, secret) : undefined;
      return identity ? { kind: "valid", identity } : { kind: "invalid", scheme: "access-key" };
    }
    return { kind: "none" };
  }

  private clientIp(req: IncomingMessage): string {
    if (this.options.trustForwardedFor) {
      const forwarded = req.headers["x-forwarded-for"];
      const value = Array.isArray(forwarded) ? forwarded[0] : forwarded;
      const first = value?.split(",")[0]?.trim();
      if (first) return normalizeIp(first);
    }
    return normalizeIp(req.socket.remoteAddress ?? "");
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse, bound: MountedService | undefined): Promise<void> {
    const started = performance.now();
    const elapsed = (): number => Math.round((performance.now() - started) * 10) / 10;
    const method = (req.method ?? "GET").toUpperCase();
    const requestId = newRequestId(this.clock.now());
    res.setHeader("X-Trans-Id", requestId);
    res.setHeader("X-Openstack-Request-Id", requestId);
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const rawPath = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? "" : url.slice(q + 1);

    if (!bound && (rawPath === "/_control" || rawPath.startsWith("/_control/"))) {
      if (this.controlHandler) await this.controlHandler(req, res, rawPath, rawQuery);
      return;
    }
    if (!bound && this.consoleHandler && (rawPath === "/_console" || rawPath.startsWith("/_console/"))) {
      await this.consoleHandler(req, res, rawPath, rawQuery);
      return;
    }

    let mounted = bound;
    let path = rawPath;
    if (!mounted) {
      for (const candidate of this.services.values()) {
        if (rawPath.startsWith(`${candidate.prefix}/`)) {
          mounted = candidate;
          path = rawPath.slice(candidate.prefix.length);
          break;
        }
      }
    }
    if (!mounted) {
      req.resume();
      send(res, renderError(new NotFound(`No service is mounted at ${rawPath.slice(0, 200)}.`), "json", requestId), method);
      return;
    }
    const service = mounted.definition;
    const format = service.errorFormat?.(path) ?? "json";
    const presented = this.resolvePresented(req);
    const projectId = presented.kind === "valid" ? { projectId: presented.identity.projectId } : {};

    let body: Buffer;
    try {
      body = await readBody(req, this.maxBodyBytes);
    } catch (error) {
      if (error instanceof ClientGone) return;
      res.setHeader("Connection", "close");
      const apiError = isApiError(error) ? error : new InternalError();
      this.log.record({
        time: new Date(this.clock.now()).toISOString(),
        service: service.name,
        operation: "Unknown",
        method,
        path,
        query: rawQuery,
        status: apiError.status,
        requestId,
        durationMs: elapsed(),
        ...projectId,
      });
      send(res, renderError(apiError, format, requestId), method);
      req.resume();
      return;
    }

    this.tick();
    const now = this.clock.now();

    let found: FindMyWay.FindResult<FindMyWay.HTTPVersion.V1> | null;
    try {
      found = mounted.router.find(method as FindMyWay.HTTPMethod, path);
    } catch {
      found = null;
    }
    const route = (found?.store as RouteStore | undefined)?.route;
    const params = (found?.params ?? {}) as Record<string, string | undefined>;
    let query: URLSearchParams;
    try {
      query = new URLSearchParams(rawQuery);
    } catch {
      query = new URLSearchParams();
    }
    const ctx: RequestContext = {
      requestId,
      service: service.name,
      method,
      path,
      rawQuery,
      query,
      params,
      headers: req.headers,
      body,
      clientIp: this.clientIp(req),
      now,
      presented,
    };

    let operation = "Unknown";
    try {
      if (route) operation = typeof route.operation === "string" ? route.operation : route.operation(ctx);
    } catch {
      operation = "Unknown";
    }

    const fault = this.faults.match({ service: service.name, operation, method, path });
    const logEntry = (status: number, faultAction?: Fault["action"]): void => {
      this.log.record({
        time: new Date(now).toISOString(),
        service: service.name,
        operation,
        method,
        path,
        query: rawQuery,
        status,
        requestId,
        durationMs: elapsed(),
        ...projectId,
        ...(faultAction ? { fault: faultAction } : {}),
      });
    };

    if (fault?.action === "drop") {
      logEntry(0, "drop");
      req.socket.destroy();
      return;
    }
    if (fault?.action === "error") {
      const status = fault.status ?? 503;
      let response: ApiResponse;
      if (fault.body === undefined) {
        response = renderError(new ApiError(status, "InjectedFault", `Injected fault ${fault.id}.`), format, requestId);
      } else if (typeof fault.body === "string") {
        response = {
          status,
          headers: { "Content-Type": format === "json" ? "application/json; charset=utf-8" : "text/plain; charset=utf-8" },
          body: fault.body,
        };
      } else {
        response = { status, headers: { "Content-Type": "application/json; charset=utf-8" }, body: JSON.stringify(fault.body) };
      }
      response.headers = { ...response.headers, ...(fault.headers ?? {}) };
      if (fault.retryAfter !== undefined) response.headers["Retry-After"] = String(fault.retryAfter);
      logEntry(status, "error");
      send(res, response, method);
      return;
    }
    if (fault?.action === "latency" && fault.latencyMs !== undefined && fault.latencyMs > 0) {
      // On the local cloud's clock: a test advances it instead of waiting (docs/local-cloud.md).
      await this.clock.sleep(fault.latencyMs);
    }

    let response: ApiResponse;
    try {
      if (!route) {
        const allowed = mounted.methods.filter((m) => {
          try {
            return mounted.router.find(m as FindMyWay.HTTPMethod, path) !== null;
          } catch {
            return false;
          }
        });
        throw allowed.length > 0 ? new MethodNotAllowed(method, allowed) : new NotFound();
      }
      response = await route.handler(ctx, operation);
    } catch (error) {
      response = renderError(
        isApiError(error) ? error : new InternalError(`Internal error in the local cloud: ${(error as Error)?.message ?? String(error)}`),
        format,
        requestId,
      );
    }
    if (!READ_METHODS.has(method)) this.changed();

    if (fault?.action === "lose-response") {
      logEntry(response.status, "lose-response");
      req.socket.destroy();
      return;
    }
    logEntry(response.status, fault?.action);
    send(res, response, method);
  }
}
