/**
 * One cluster or instance set on real redis-server processes: its servers, the work queued on it
 * (one step at a time; while any runs it is Creating or Modifying), the endpoints in front of it,
 * and what the API reads from it (which nodes are starting, failed or draining, whether the nodes
 * agree, whether a parameter value was refused). The topology work itself is cluster-mode.ts and
 * instance-set-mode.ts, which sit above this file: a deployment is given its mode (`DeploymentMode`)
 * and never imports them; this file starts, watches and stops the processes.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { EngineHooks } from "../engine";
import type { StoredCluster, StoredNode, StoredShard } from "../model";
import { clusterIdOf, type Member } from "./cluster";
import { Forwarder } from "./forwarder";
import { localCertificate, nodeSecurity, type NodeSecurity } from "./security";
import { RedisServer } from "./server";

/** What every deployment shares: where nodes keep their data, whether they outlive the local cloud, the backend's hooks. */
export interface DeploymentEnv {
  /** `{root}/nodes/<cluster>/<node>/` is a node's directory. */
  root: string;
  persistent: boolean;
  hooks: EngineHooks;
}

export type Phase = "Creating" | "Modifying";

/** What differs between a cluster and an instance set while their nodes run (cluster-mode.ts, instance-set-mode.ts). */
export interface DeploymentMode {
  /** One look: do the nodes agree on the topology (a cluster) or replicate their primary (an instance set)? Sets `nodesAgree`. */
  readonly checkAgreement: (deployment: Deployment) => Promise<boolean>;
  /** High availability, where the mode has it: a step that replaces `failed`, a primary whose process exited. */
  readonly failover?: (deployment: Deployment, failed: StoredNode) => Promise<void>;
}

/** How long one step may wait for the nodes to agree before it fails. */
export const SETTLE_MS = 120_000;

export const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const tmpDir = (root: string): string => join(root, "tmp");

/** Where the TLS nodes' certificate and key are (security.ts `localCertificate`). */
export const tlsDir = (root: string): string => join(root, "tls");

/** The shard's primary as stored (the nodes' consensus updates it). */
export function primaryOf(shard: StoredShard): StoredNode {
  const primary = shard.nodes.find((n) => n.role === "primary");
  if (!primary) throw new Error(`shard ${shard.id} has no primary`);
  return primary;
}

export class Deployment {
  readonly servers = new Map<string, RedisServer>();
  /** Nodes being brought up: `true` a new node (PROVISIONING until it has joined), `false` one restarting. */
  readonly starting = new Map<string, boolean>();
  /** Nodes whose process failed or could not start, with why. */
  readonly failed = new Map<string, string>();
  /** Nodes stopped on purpose: their exit is no failure. */
  readonly stopping = new Set<string>();
  /** Shards whose slots are moving away before they go. */
  readonly drainingShards = new Set<StoredShard>();
  phase: Phase | undefined;
  /** Steps queued or running. */
  private queued = 0;
  private work: Promise<void> = Promise.resolve();
  /** The last look at the nodes found them agreeing (cluster) or replicating (instance set). */
  nodesAgree = false;
  /** Parameter applications queued or running, and whether the last one had a value refused. */
  parameterRuns = 0;
  parametersRefused = false;
  primaryEndpoint?: Forwarder;
  readEndpoint?: Forwarder;
  /** The replica the read endpoint hands the next connection to. */
  private nextReader = 0;
  private watchTimer?: NodeJS.Timeout;
  /** Deleted or reset: background work stops. */
  removed = false;
  /** Backups of this cluster still being written: its processes stay until they are. */
  backupsWriting: Promise<void> = Promise.resolve();
  private nodeSecurity?: NodeSecurity;

  constructor(
    readonly cluster: StoredCluster,
    private readonly env: DeploymentEnv,
    private readonly mode: DeploymentMode,
  ) {}

  get hooks(): EngineHooks {
    return this.env.hooks;
  }

  /** What this deployment is, for messages. */
  get label(): string {
    return `cache ${this.cluster.clusterEnabled ? "cluster" : "instance set"} ${this.cluster.name} (${this.cluster.id})`;
  }

  /** The user and TLS every node of the cluster enforces, and how the local cloud logs in (security.ts). */
  get security(): NodeSecurity {
    this.nodeSecurity ??= nodeSecurity(this.cluster, () => localCertificate(tlsDir(this.env.root)));
    return this.nodeSecurity;
  }

  nodeDir(n: StoredNode): string {
    return join(this.env.root, "nodes", this.cluster.id, n.id);
  }

  /** Where files a restore brings in or unpacks go (tmpDir(root)). */
  get tmpDir(): string {
    return tmpDir(this.env.root);
  }

  // ---- work ------------------------------------------------------------------------------------------

  /** Runs `work` after the earlier steps; the deployment is `phase` until none is left. */
  enqueue(phase: Phase, what: string, work: () => Promise<void>): void {
    this.queued++;
    if (this.phase !== "Creating") this.phase = phase;
    this.work = this.work.then(async () => {
      try {
        if (!this.removed) await work();
      } catch (e) {
        if (!this.removed) this.failStarting(`${what}: ${message(e)}`);
      } finally {
        this.queued--;
        if (this.queued === 0) this.phase = undefined;
        if (!this.removed) {
          this.hooks.changed();
          this.watchSoon();
        }
      }
    });
  }

  /** The nodes being brought up have failed, for `reason` (printed by the local cloud). */
  private failStarting(reason: string): void {
    this.hooks.warn(`${this.label}: ${reason}`);
    for (const id of this.starting.keys()) this.failed.set(id, reason);
    this.starting.clear();
  }

  // ---- nodes -----------------------------------------------------------------------------------------

  nodes(): StoredNode[] {
    return this.cluster.shards.flatMap((s) => s.nodes);
  }

  /** The node's server when it runs and has not failed. */
  serving(n: StoredNode): RedisServer | undefined {
    const s = this.servers.get(n.id);
    return s?.alive && !this.failed.has(n.id) ? s : undefined;
  }

  member(n: StoredNode): Member {
    return { redisId: n.redisId ?? "", server: this.servers.get(n.id)! };
  }

  /** The serving nodes that have joined the cluster, as cluster members. */
  members(): Member[] {
    return this.nodes()
      .filter((n) => n.redisId && this.serving(n))
      .map((n) => this.member(n));
  }

  servingServers(): RedisServer[] {
    return this.nodes().flatMap((n) => this.serving(n) ?? []);
  }

  /** The node's server in its own directory, known to the deployment (an exit nobody asked for is a failure); not started yet. */
  serverFor(n: StoredNode, replicaOf?: number): RedisServer {
    const server = new RedisServer({
      dir: this.nodeDir(n),
      cluster: this.cluster.clusterEnabled,
      port: n.port,
      busPort: n.busPort,
      replicaOf,
      outlivesParent: this.env.persistent,
      security: this.security,
    });
    this.servers.set(n.id, server);
    server.onExit(() => this.exited(n, server));
    return server;
  }

  /** Starts the node's server, records its ports and applies the parameters. */
  async startNode(n: StoredNode, replicaOf?: number): Promise<RedisServer> {
    const server = this.serverFor(n, replicaOf);
    await server.start();
    this.recordServer(n, server);
    if (this.cluster.clusterEnabled) n.redisId = await clusterIdOf(server);
    await this.applyParameterValues([server], "parallel");
    return server;
  }

  /** The node now runs on `server`: its ports and endpoint are stored, and it has not failed. */
  recordServer(n: StoredNode, server: RedisServer): void {
    n.port = server.port;
    n.busPort = server.busPort || undefined;
    n.endpoint = `127.0.0.1:${server.port}`;
    this.failed.delete(n.id);
  }

  /** A process ended that nobody stopped: the node has failed; an instance set with high availability fails over. */
  private exited(n: StoredNode, server: RedisServer): void {
    if (this.removed || this.stopping.has(n.id) || this.servers.get(n.id) !== server) return;
    this.failed.set(n.id, "its redis-server process exited");
    this.starting.delete(n.id);
    this.nodesAgree = false;
    this.hooks.warn(`cache node ${n.id} of ${this.cluster.name}: redis-server on port ${server.port} exited`);
    const failover = this.mode.failover;
    if (failover && n.role === "primary" && this.cluster.recoveryEnabled) {
      this.enqueue("Modifying", "failing over", () => failover(this, n));
    }
    this.hooks.changed();
    this.watchSoon();
  }

  async stopNode(n: StoredNode): Promise<void> {
    this.stopping.add(n.id);
    await this.servers.get(n.id)?.stop(false);
    this.servers.delete(n.id);
    this.failed.delete(n.id);
    this.starting.delete(n.id);
    rmSync(this.nodeDir(n), { recursive: true, force: true });
  }

  /** Stops every process at once (`keepData`: a clean shutdown that saves the data set first). */
  stopAll(keepData: boolean): Promise<void> {
    this.removed = true;
    if (this.watchTimer) clearTimeout(this.watchTimer);
    const stops = [...this.servers.values()].map((s) => (keepData ? s.stop(true) : Promise.resolve(s.kill())));
    return Promise.all([...stops, this.primaryEndpoint?.close(), this.readEndpoint?.close()]).then(() => undefined);
  }

  // ---- parameters --------------------------------------------------------------------------------------

  /** CONFIG SET of the group's run-time values on `servers`; a refusal turns the sync to Error-Sync with the server's words in an event. */
  async applyParameterValues(servers: RedisServer[], mode: "sequential" | "parallel"): Promise<void> {
    const values = Object.entries(this.hooks.runtimeParameters(this.cluster));
    // "key=value: the server's words" to the ports of the nodes that refused it.
    const refusals = new Map<string, number[]>();
    const apply = async (s: RedisServer): Promise<void> => {
      const results = await s.pipeline(values.map(([k, v]) => ["CONFIG", "SET", k, v]));
      results.forEach(([e], i) => {
        if (!e) return;
        const what = `${values[i]![0]}=${values[i]![1]}: ${e.message}`;
        refusals.set(what, [...(refusals.get(what) ?? []), s.port]);
      });
    };
    if (mode === "sequential") for (const s of servers) await apply(s);
    else await Promise.all(servers.map(apply));
    if (refusals.size) {
      this.parametersRefused = true;
      const lines = [...refusals].map(([what, ports]) => `${what} (refused by ${ports.map((p) => `127.0.0.1:${p}`).join(", ")})`);
      this.hooks.parameterEvent(this.cluster, `failed on ${this.cluster.name}: ${lines.join("; ")}`);
    }
  }

  // ---- endpoints ---------------------------------------------------------------------------------------

  /**
   * A cluster's primary endpoint forwards to any serving node (a cluster client's first question,
   * CLUSTER SLOTS, any node answers; primaries first). An instance set's follows its primary, its
   * read endpoint spreads connections over the serving replicas (the primary when there is none).
   */
  async openEndpoints(): Promise<void> {
    const ports = this.cluster.endpointPorts ?? {};
    if (this.cluster.clusterEnabled) {
      this.primaryEndpoint ??= new Forwarder(() => {
        const candidates = this.nodes().filter((n) => this.serving(n) && ![...this.drainingShards].some((s) => s.nodes.includes(n)));
        const n = candidates.find((x) => x.role === "primary") ?? candidates[0];
        return n ? this.servers.get(n.id)!.port : undefined;
      });
      this.cluster.endpointPorts = { primary: await this.primaryEndpoint.listen(ports.primary) };
      return;
    }
    this.primaryEndpoint ??= new Forwarder(() => {
      const p = this.nodes().find((n) => n.role === "primary");
      return p && this.serving(p)?.port;
    });
    this.readEndpoint ??= new Forwarder(() => {
      const replicas = this.nodes().filter((n) => n.role === "replica" && this.serving(n));
      const pick = replicas.length ? replicas[this.nextReader++ % replicas.length]! : this.nodes().find((n) => n.role === "primary");
      return pick && this.serving(pick)?.port;
    });
    this.cluster.endpointPorts = { primary: await this.primaryEndpoint.listen(ports.primary), read: await this.readEndpoint.listen(ports.read) };
  }

  // ---- watching ----------------------------------------------------------------------------------------

  /** Looks at the idle nodes now and then: failovers, failures and agreement show in the API. */
  watchSoon(): void {
    if (this.watchTimer) clearTimeout(this.watchTimer);
    if (this.removed) return;
    this.watchTimer = setTimeout(
      () => {
        const look = this.queued > 0 || this.removed ? Promise.resolve(false) : this.checkAgreement();
        void look.catch(() => false).then(() => this.watchSoon());
      },
      this.nodesAgree ? 1000 : 200,
    );
    this.watchTimer.unref();
  }

  /** One look: do the nodes agree on the topology (a cluster) or replicate their primary (an instance set)? */
  checkAgreement(): Promise<boolean> {
    return this.mode.checkAgreement(this);
  }
}
