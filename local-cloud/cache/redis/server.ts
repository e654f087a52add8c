/**
 * One `redis-server` process on 127.0.0.1 behind a node or instance of the cache local cloud: its own
 * directory (RDB, AOF, `nodes.conf`, pid file, log), a client port and, in cluster mode, a bus port.
 * Unless it is to outlive a crash of the local cloud (a persisted one takes it over on restart), it
 * is started through `setpriv --pdeathsig KILL` where that exists, so it stops with the local cloud
 * even when that is killed; a graceful stop saves the data set first when asked.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import Redis from "ioredis";
import { freePort } from "../../core/ports";
import { clientOptions, configLine, type NodeSecurity } from "./security";

/** Settings every node gets; parameter groups change the tunable ones at run time with CONFIG SET. */
const BASE_CONFIG = [
  ["bind", "127.0.0.1"],
  ["daemonize", "no"],
  // The local cloud saves explicitly (backups, a graceful stop): no background snapshots.
  ["save", ""],
  ["appendonly", "no"],
  // A new replica syncs at once (the default waits 5 s for more replicas to share one transfer).
  ["repl-diskless-sync", "yes"],
  ["repl-diskless-sync-delay", "0"],
] as const;

/** Cluster mode: shard membership stays what the API says (no replica migration); failures detected in 2 s. */
const CLUSTER_CONFIG = [
  ["cluster-enabled", "yes"],
  ["cluster-config-file", "nodes.conf"],
  ["cluster-node-timeout", "2000"],
  ["cluster-allow-replica-migration", "no"],
  // A node learns its own address from its peers; a 1-node cluster has none and would report "".
  ["cluster-announce-ip", "127.0.0.1"],
] as const;

export interface RedisServerSpec {
  /** The node's own directory (created when missing). */
  dir: string;
  cluster: boolean;
  /** Ports to bind; 0 or absent picks free ones (a restart asks for the ports it had). */
  port?: number;
  busPort?: number;
  /** Standalone replicas: the primary's port. */
  replicaOf?: number;
  /** Startup-only settings (static parameters), e.g. `{ databases: "16" }`. */
  config?: Record<string, string>;
  /** Keeps running when the local cloud dies without stopping it (a persisted local cloud finds it again). */
  outlivesParent?: boolean;
  /** The cluster's user and TLS (security.ts): the node enforces them, and the local cloud logs in with `login`. */
  security?: NodeSecurity;
}

let pdeathsig: boolean | undefined;

/** The `redis-server` to run: $KRCLOUD_REDIS_SERVER, else the first on PATH; undefined when there is none. */
export function findRedisServer(): string | undefined {
  const explicit = process.env.KRCLOUD_REDIS_SERVER;
  const candidates = explicit ? [explicit] : (process.env.PATH ?? "").split(delimiter).map((d) => join(d, "redis-server"));
  return candidates.find((c) => c && existsSync(c));
}

function canUsePdeathsig(): boolean {
  pdeathsig ??= spawnSync("setpriv", ["--pdeathsig", "KILL", "true"], { stdio: "ignore" }).status === 0;
  return pdeathsig;
}

/** A pause that never keeps the process alive by itself. */
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

export class RedisServer {
  port = 0;
  busPort = 0;
  /** Set while the process runs; undefined once it has exited. */
  pid: number | undefined;
  private child: ChildProcess | undefined;
  private admin: Redis | undefined;
  private exited: Promise<void> = Promise.resolve();
  private readonly exitListeners: (() => void)[] = [];
  private watcher: NodeJS.Timeout | undefined;
  /**
   * Set once a process answered (or was taken over). Only the end of such a process is heard by the
   * exit listeners: a launch that dies on a port taken meanwhile is retried on another port by
   * `start`, and its end is not the node failing.
   */
  private served = false;

  constructor(readonly spec: RedisServerSpec) {}

  get alive(): boolean {
    return this.pid !== undefined;
  }

  get logFile(): string {
    return join(this.spec.dir, "redis.log");
  }

  /** Called once when the process ends, whoever ended it. */
  onExit(listener: () => void): void {
    this.exitListeners.push(listener);
  }

  /** Starts the process and resolves when it answers PING (and has loaded its data). Retries other ports when one was taken meanwhile. */
  async start(): Promise<void> {
    const exe = findRedisServer();
    if (!exe) throw new Error("redis-server is not installed (set KRCLOUD_REDIS_SERVER or put it on PATH)");
    mkdirSync(this.spec.dir, { recursive: true });
    let lastError: Error | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      this.port = attempt === 0 && this.spec.port ? this.spec.port : await freePort();
      if (this.spec.cluster) this.busPort = attempt === 0 && this.spec.busPort ? this.spec.busPort : await freePort();
      try {
        await this.launch(exe);
        return;
      } catch (e) {
        lastError = e as Error;
        if (!/address already in use/i.test(lastError.message)) throw lastError;
      }
    }
    throw lastError ?? new Error("redis-server did not start");
  }

  private async launch(exe: string): Promise<void> {
    // Settings with secrets go in a file only the owner reads, first on the command line (redis-server
    // reads a config file named first, then the options after it).
    const security = this.spec.security;
    const configFile = join(this.spec.dir, "krcloud.conf");
    if (security?.config.length) writeFileSync(configFile, `${security.config.map(configLine).join("\n")}\n`, { mode: 0o600 });
    const args = [
      ...(security?.config.length ? [configFile] : []),
      // With TLS the client port is the TLS port; the plain one is off.
      ...(security?.tls ? ["--port", "0", "--tls-port", String(this.port)] : ["--port", String(this.port)]),
      "--dir",
      this.spec.dir,
      "--pidfile",
      join(this.spec.dir, "redis.pid"),
      "--logfile",
      this.logFile,
      ...BASE_CONFIG.flatMap(([k, v]) => [`--${k}`, v]),
      ...(this.spec.cluster ? [...CLUSTER_CONFIG.flatMap(([k, v]) => [`--${k}`, v]), "--cluster-port", String(this.busPort)] : []),
      ...(this.spec.replicaOf ? ["--replicaof", "127.0.0.1", String(this.spec.replicaOf)] : []),
      ...Object.entries(this.spec.config ?? {}).flatMap(([k, v]) => [`--${k}`, v]),
    ];
    // Written before the process starts, so a process that runs always has its ports here: a restart
    // finds it by its directory even when the local cloud died before its state file recorded them.
    writeFileSync(this.portsFile, `${JSON.stringify({ port: this.port, busPort: this.busPort })}\n`);
    const [cmd, argv] = !this.spec.outlivesParent && canUsePdeathsig() ? ["setpriv", ["--pdeathsig", "KILL", "--", exe, ...args]] : [exe, args];
    const child = spawn(cmd, argv, { stdio: "ignore", cwd: this.spec.dir });
    this.child = child;
    this.pid = child.pid;
    this.exited = new Promise((resolve) => {
      child.once("exit", () => {
        this.ended();
        resolve();
      });
      child.once("error", () => {
        this.ended();
        resolve();
      });
    });
    const ready = await Promise.race([this.waitReady(), this.exited.then(() => false)]);
    if (!ready) throw new Error(`redis-server on port ${this.port} exited: ${this.lastLogLine()}`);
    this.served = true;
  }

  private get portsFile(): string {
    return join(this.spec.dir, "krcloud-ports.json");
  }

  /**
   * Takes over a process left running by an earlier local cloud, when the pid file names a live
   * process that answers from this directory on the ports it was launched with (recorded in the
   * directory; else the `stored` ones). False when there is none.
   */
  async takeOver(stored: { port?: number; busPort?: number }): Promise<boolean> {
    const pidFile = join(this.spec.dir, "redis.pid");
    if (!existsSync(pidFile)) return false;
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    if (!Number.isInteger(pid) || pid <= 0 || !processExists(pid)) return false;
    const { port, busPort } = { ...stored, ...this.launchedPorts() };
    if (!port) return false;
    this.port = port;
    this.busPort = busPort ?? 0;
    try {
      const [, dir] = (await this.command("CONFIG", "GET", "dir")) as [string, string];
      if (dir !== this.spec.dir) return false;
    } catch {
      this.dropAdmin();
      return false;
    }
    this.pid = pid;
    this.served = true;
    this.exited = new Promise((resolve) => {
      // Not our child: watch the pid.
      this.watcher = setInterval(() => {
        if (!processExists(pid)) {
          this.ended();
          resolve();
        }
      }, 500);
      this.watcher.unref();
    });
    return true;
  }

  /** The ports the directory's last process was launched with; none when unrecorded or unreadable. */
  private launchedPorts(): { port?: number; busPort?: number } {
    try {
      const { port, busPort } = JSON.parse(readFileSync(this.portsFile, "utf8")) as { port?: unknown; busPort?: unknown };
      const valid = (p: unknown): p is number => Number.isInteger(p) && (p as number) > 0 && (p as number) < 65536;
      return { ...(valid(port) ? { port } : {}), ...(valid(busPort) ? { busPort } : {}) };
    } catch {
      return {};
    }
  }

  private ended(): void {
    if (this.pid === undefined && !this.child && !this.watcher) return;
    this.pid = undefined;
    this.child = undefined;
    if (this.watcher) clearInterval(this.watcher);
    this.watcher = undefined;
    this.dropAdmin();
    if (!this.served) return;
    this.served = false;
    for (const l of this.exitListeners.splice(0)) l();
  }

  private async waitReady(): Promise<boolean> {
    for (let i = 0; i < 600; i++) {
      if (!this.alive) return false;
      try {
        // LOADING while a large data set is read: keep asking.
        if ((await this.command("PING")) === "PONG") return true;
      } catch {
        this.dropAdmin();
      }
      await sleep(10);
    }
    throw new Error(`redis-server on port ${this.port} did not answer within 6 s: ${this.lastLogLine()}`);
  }

  private lastLogLine(): string {
    try {
      const lines = readFileSync(this.logFile, "utf8").trim().split("\n");
      return (lines.find((l) => /# /.test(l) && /error|fatal|fail|address/i.test(l)) ?? lines.at(-1) ?? "").replace(/^\d+:\w \d.*?[#*] /, "");
    } catch {
      return "no log";
    }
  }

  /** The admin connection (no reconnects: a node that went away fails the command at once). */
  private client(): Redis {
    if (this.admin && this.admin.status !== "end" && this.admin.status !== "close") return this.admin;
    // "close": the socket went away and, with no reconnects, "end" follows: dropped, a new connection now.
    this.dropAdmin();
    const admin = new Redis({
      host: "127.0.0.1",
      port: this.port,
      ...(this.spec.security ? clientOptions(this.spec.security) : {}),
      lazyConnect: true,
      connectTimeout: 2000,
      commandTimeout: 15_000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableReadyCheck: false,
      // Its socket may already be gone with the process: do not wait 2 s for a close that came.
      disconnectTimeout: 100,
    });
    admin.on("error", () => undefined);
    this.admin = admin;
    return admin;
  }

  private dropAdmin(): void {
    this.admin?.disconnect();
    this.admin = undefined;
  }

  /** One command on the admin connection. */
  command(...args: (string | number | Buffer)[]): Promise<unknown> {
    const [name, ...rest] = args;
    return this.client().call(String(name), ...rest);
  }

  /** One command whose reply is binary (DUMP). */
  commandBuffer(...args: (string | number | Buffer)[]): Promise<unknown> {
    const [name, ...rest] = args;
    return this.client().callBuffer(String(name), ...rest);
  }

  /** Several commands in one round trip; each result or error in order (binary replies as Buffers when `binary`). */
  async pipeline(commands: (string | number | Buffer)[][], binary = false): Promise<[Error | null, unknown][]> {
    if (commands.length === 0) return [];
    const p = this.client().pipeline();
    for (const [name, ...rest] of commands) {
      if (binary) p.callBuffer(String(name), ...rest);
      else p.call(String(name), ...rest);
    }
    return (await p.exec()) ?? [];
  }

  /** `INFO <section>` as a map. */
  async info(section: string): Promise<Record<string, string>> {
    const text = String(await this.command("INFO", section));
    return Object.fromEntries(
      text
        .split(/\r?\n/)
        .filter((l) => l.includes(":") && !l.startsWith("#"))
        .map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1)]),
    );
  }

  /** Stops the process: SHUTDOWN (saving the data set first when `save`), SIGKILL if it lingers. */
  async stop(save: boolean): Promise<void> {
    if (!this.alive) return;
    const exited = this.exited;
    await this.command("SHUTDOWN", save ? "SAVE" : "NOSAVE").catch(() => undefined);
    const done = await Promise.race([exited.then(() => true), sleep(save ? 10_000 : 2_000).then(() => false)]);
    if (!done) this.kill();
    await exited;
  }

  /** Ends the process at once (a failure, a reset). */
  kill(): void {
    const pid = this.pid;
    if (pid === undefined) return;
    try {
      process.kill(this.child?.pid ?? pid, "SIGKILL");
    } catch {
      // already gone
    }
    // setpriv execs redis-server, so the child's pid is the server's: one signal ends it.
    if (!this.child) this.ended();
  }
}

/** A live process (a zombie, dead but not yet reaped by whoever adopted it, does not count). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    // No /proc: kill(0) is all there is.
    return true;
  }
}
