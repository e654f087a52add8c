/**
 * The `redis` engine: every node of a cluster or instance set is a real redis-server on 127.0.0.1.
 *
 * - Clusters are a real Redis Cluster formed by hand (any shard count) with the slots the API
 *   reports; adding a shard starts its nodes, joins them and moves slots to it; deleting one drains
 *   its slots to the others first, then forgets and stops its nodes. Roles and slots in the API are
 *   read back from the nodes (an automatic failover shows), and a node is ready only when every node
 *   agrees on the topology and replicas have synced.
 * - Instance sets are standalone servers replicating with REPLICAOF; the primary endpoint is a
 *   forwarder that follows the primary through a promote or a high-availability failover.
 * - Parameter values reach every node with CONFIG SET; a value the server refuses is Error-Sync.
 * - Backups are the primaries' RDB files; restores copy their keys into the new nodes.
 *
 * Work on one cluster runs in order (a queue per cluster); while it runs the cluster is Creating or
 * Modifying. A step that fails marks the nodes it was bringing up FAILED, with the reason printed.
 */
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Cluster } from "ioredis";
import type { StoredBackup } from "../backups";
import { evenSlots, type CacheEngine, type EngineHooks, type NodeHealth, type RestoreFiles } from "../engine";
import type { StoredCluster, StoredNode, StoredShard } from "../model";
import {
  clusterIdOf,
  forget,
  form,
  meetAll,
  moveSlots,
  observe,
  planMoves,
  replicating,
  replicate,
  slotList,
  until,
  type Consensus,
  type Member,
} from "./cluster";
import { Forwarder } from "./forwarder";
import { RedisServer } from "./server";
import { loadRdb, restoreCommands, saveRdb, type DumpedKey } from "./transfer";

/** How long one step may wait for the nodes to agree before it fails. */
const SETTLE_MS = 120_000;

interface Live {
  c: StoredCluster;
  servers: Map<string, RedisServer>;
  /** Nodes being brought up (true: new; false: restarting). */
  pending: Map<string, boolean>;
  failed: Map<string, string>;
  /** Nodes stopped on purpose: their exit is no failure. */
  stopping: Set<string>;
  leaving: Set<StoredShard>;
  phase: "Creating" | "Modifying" | undefined;
  ops: number;
  queue: Promise<void>;
  /** The last look at the nodes found them agreeing (cluster) or replicating (instance set). */
  agreed: boolean;
  /** Parameter applications queued or running; the last one's outcome. */
  applying: number;
  syncError: boolean;
  primary?: Forwarder;
  read?: Forwarder;
  readTurn: number;
  monitor?: NodeJS.Timeout;
  /** Deleted or reset: background work stops. */
  gone: boolean;
  /** Backups of this cluster still being written. */
  saving: Promise<void>;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class RedisEngine implements CacheEngine {
  readonly kind = "redis";
  private readonly live = new Map<string, Live>();
  /** Backups being written, by backup directory. */
  private readonly backupWork = new Map<string, Promise<void>>();
  /** Deleted clusters whose processes are still stopping. */
  private readonly removing = new Set<Promise<void>>();

  constructor(
    private readonly root: string,
    private readonly persistent: boolean,
    private readonly hooks: EngineHooks,
  ) {}

  private get tmp(): string {
    return join(this.root, "tmp");
  }

  private nodeDir(c: StoredCluster, n: StoredNode): string {
    return join(this.root, "nodes", c.id, n.id);
  }

  private backupDir(b: StoredBackup): string {
    return join(this.root, "backups", b.projectId, b.name);
  }

  // ---- bookkeeping ---------------------------------------------------------------------------------

  private track(c: StoredCluster): Live {
    const l: Live = {
      c,
      servers: new Map(),
      pending: new Map(),
      failed: new Map(),
      stopping: new Set(),
      leaving: new Set(),
      phase: undefined,
      ops: 0,
      queue: Promise.resolve(),
      agreed: false,
      applying: 0,
      syncError: false,
      readTurn: 0,
      gone: false,
      saving: Promise.resolve(),
    };
    this.live.set(c.id, l);
    return l;
  }

  /** Runs `work` after the cluster's earlier work; the cluster is `phase` until the queue is empty. */
  private enqueue(l: Live, phase: "Creating" | "Modifying", what: string, work: () => Promise<void>): void {
    l.ops++;
    if (l.phase !== "Creating") l.phase = phase;
    l.queue = l.queue.then(async () => {
      try {
        if (!l.gone) await work();
      } catch (e) {
        if (!l.gone) this.failPending(l, `${what}: ${message(e)}`);
      } finally {
        l.ops--;
        if (l.ops === 0) l.phase = undefined;
        if (!l.gone) {
          this.hooks.changed();
          this.watchSoon(l);
        }
      }
    });
  }

  private failPending(l: Live, reason: string): void {
    this.hooks.warn(`cache ${l.c.clusterEnabled ? "cluster" : "instance set"} ${l.c.name} (${l.c.id}): ${reason}`);
    for (const id of l.pending.keys()) l.failed.set(id, reason);
    l.pending.clear();
  }

  private nodes(l: Live): StoredNode[] {
    return l.c.shards.flatMap((s) => s.nodes);
  }

  private serving(l: Live, n: StoredNode): RedisServer | undefined {
    const s = l.servers.get(n.id);
    return s?.alive && !l.failed.has(n.id) ? s : undefined;
  }

  private member(l: Live, n: StoredNode): Member {
    return { redisId: n.redisId ?? "", server: l.servers.get(n.id)! };
  }

  private members(l: Live): Member[] {
    return this.nodes(l)
      .filter((n) => n.redisId && this.serving(l, n))
      .map((n) => this.member(l, n));
  }

  /** The servers of `l` that serve now. */
  private servingServers(l: Live): RedisServer[] {
    return this.nodes(l).flatMap((n) => this.serving(l, n) ?? []);
  }

  /** The node's server in its own directory, known to `l` (an exit nobody asked for is a failure); not started yet. */
  private serverFor(l: Live, n: StoredNode, replicaOf?: number): RedisServer {
    const server = new RedisServer({
      dir: this.nodeDir(l.c, n),
      cluster: l.c.clusterEnabled,
      port: n.port,
      busPort: n.busPort,
      replicaOf,
      outlivesParent: this.persistent,
    });
    l.servers.set(n.id, server);
    server.onExit(() => this.exited(l, n, server));
    return server;
  }

  /** Starts the node's server, records its ports and applies the parameters. */
  private async startNode(l: Live, n: StoredNode, replicaOf?: number): Promise<RedisServer> {
    const server = this.serverFor(l, n, replicaOf);
    await server.start();
    this.record(l, n, server);
    if (l.c.clusterEnabled) n.redisId = await clusterIdOf(server);
    await this.configure(l, [server], "parallel");
    return server;
  }

  private record(l: Live, n: StoredNode, server: RedisServer): void {
    n.port = server.port;
    n.busPort = server.busPort || undefined;
    n.endpoint = `127.0.0.1:${server.port}`;
    l.failed.delete(n.id);
  }

  /** A process ended that nobody stopped: the node has failed; an instance set with high availability fails over. */
  private exited(l: Live, n: StoredNode, server: RedisServer): void {
    if (l.gone || l.stopping.has(n.id) || l.servers.get(n.id) !== server) return;
    l.failed.set(n.id, "its redis-server process exited");
    l.pending.delete(n.id);
    l.agreed = false;
    this.hooks.warn(`cache node ${n.id} of ${l.c.name}: redis-server on port ${server.port} exited`);
    if (!l.c.clusterEnabled && n.role === "primary" && l.c.recoveryEnabled) {
      this.enqueue(l, "Modifying", "failing over", () => this.failover(l, n));
    }
    this.hooks.changed();
    this.watchSoon(l);
  }

  private async stopNode(l: Live, n: StoredNode): Promise<void> {
    l.stopping.add(n.id);
    await l.servers.get(n.id)?.stop(false);
    l.servers.delete(n.id);
    l.failed.delete(n.id);
    l.pending.delete(n.id);
    rmSync(this.nodeDir(l.c, n), { recursive: true, force: true });
  }

  // ---- endpoints -----------------------------------------------------------------------------------

  private async openEndpoints(l: Live): Promise<void> {
    const ports = l.c.endpointPorts ?? {};
    if (l.c.clusterEnabled) {
      // Any serving node answers a cluster client's first question (CLUSTER SLOTS); primaries first.
      l.primary ??= new Forwarder(() => {
        const candidates = this.nodes(l).filter((n) => this.serving(l, n) && ![...l.leaving].some((s) => s.nodes.includes(n)));
        const n = candidates.find((x) => x.role === "primary") ?? candidates[0];
        return n ? l.servers.get(n.id)!.port : undefined;
      });
      l.c.endpointPorts = { primary: await l.primary.listen(ports.primary) };
      return;
    }
    l.primary ??= new Forwarder(() => {
      const p = this.nodes(l).find((n) => n.role === "primary");
      return p && this.serving(l, p)?.port;
    });
    l.read ??= new Forwarder(() => {
      const replicas = this.nodes(l).filter((n) => n.role === "replica" && this.serving(l, n));
      const pick = replicas.length ? replicas[l.readTurn++ % replicas.length]! : this.nodes(l).find((n) => n.role === "primary");
      return pick && this.serving(l, pick)?.port;
    });
    l.c.endpointPorts = { primary: await l.primary.listen(ports.primary), read: await l.read.listen(ports.read) };
  }

  endpoints(c: StoredCluster): { primaryEndpoint: string; readEndpoint?: string } {
    const l = this.live.get(c.id);
    const at = (f: Forwarder | undefined): string => (f?.port ? `127.0.0.1:${f.port}` : "");
    return c.clusterEnabled ? { primaryEndpoint: at(l?.primary) } : { primaryEndpoint: at(l?.primary), readEndpoint: at(l?.read) };
  }

  // ---- clusters ------------------------------------------------------------------------------------

  /**
   * One look at the nodes: when they agree, the stored roles and slots become what they agree on
   * (an automatic failover shows here) and the cluster is `agreed`.
   */
  private async lookAtCluster(l: Live): Promise<boolean> {
    const all = this.nodes(l);
    const members = this.members(l);
    const dead = all.filter((n) => n.redisId && !this.serving(l, n)).map((n) => n.redisId!);
    const consensus = await observe(members, dead);
    let agreed = consensus !== undefined && this.adopt(l, consensus);
    for (const shard of agreed ? l.c.shards : []) {
      const primary = this.serving(l, this.primaryOf(shard))!;
      const replicas = shard.nodes.filter((n) => n.role === "replica").flatMap((n) => this.serving(l, n) ?? []);
      if (!(await replicating(primary, replicas))) agreed = false;
    }
    l.agreed = agreed && !l.gone;
    return l.agreed;
  }

  /** Roles and slots from the nodes' consensus: each shard needs exactly one serving primary, its replicas following it. */
  private adopt(l: Live, consensus: Consensus): boolean {
    const plan: { shard: StoredShard; primary: StoredNode }[] = [];
    for (const shard of l.c.shards) {
      const serving = shard.nodes.filter((n) => n.redisId && this.serving(l, n));
      const primaries = serving.filter((n) => consensus.nodes.get(n.redisId!)?.primary);
      if (primaries.length !== 1) return false;
      const primary = primaries[0]!;
      if (serving.some((n) => n !== primary && consensus.nodes.get(n.redisId!)?.primaryId !== primary.redisId)) return false;
      plan.push({ shard, primary });
    }
    let changed = false;
    for (const { shard, primary } of plan) {
      for (const n of shard.nodes) {
        const role = n === primary ? "primary" : "replica";
        if (n.role !== role) changed = true;
        n.role = role;
      }
      const slots = consensus.nodes.get(primary.redisId!)!.slots;
      if (JSON.stringify(slots) !== JSON.stringify(shard.slots)) changed = true;
      shard.slots = slots;
    }
    if (changed) this.hooks.changed();
    return true;
  }

  private settleCluster(l: Live): Promise<void> {
    return until(
      `every node of ${l.c.name} agreeing on the topology`,
      () => this.lookAtCluster(l),
      SETTLE_MS,
      () => !l.gone,
    );
  }

  /** Until the serving nodes (newcomers included) all know each other, whatever their roles. */
  private async knownToAll(l: Live): Promise<Consensus> {
    let seen: Consensus | undefined;
    await until(
      `every node of ${l.c.name} knowing the new nodes`,
      async () => {
        seen = await observe(this.members(l));
        return seen !== undefined;
      },
      SETTLE_MS,
      () => !l.gone,
    );
    return seen!;
  }

  private primaryOf(shard: StoredShard): StoredNode {
    const p = shard.nodes.find((n) => n.role === "primary");
    if (!p) throw new Error(`shard ${shard.id} has no primary`);
    return p;
  }

  private async formCluster(l: Live, restore: RestoreFiles | undefined): Promise<void> {
    await Promise.all(this.nodes(l).map((n) => this.startNode(l, n)));
    await form(
      l.c.shards.map((s) => ({
        primary: this.member(l, this.primaryOf(s)),
        replicas: s.nodes.filter((n) => n.role === "replica").map((n) => this.member(l, n)),
        slots: s.slots,
      })),
    );
    await this.settleCluster(l);
    if (restore) await this.restoreInto(l, await restore());
    l.pending.clear();
  }

  /** Moves slots as `planMoves` says, between primaries known by their cluster ids. */
  private async rebalance(l: Live, consensus: Consensus, joining: string[], leaving: string[]): Promise<void> {
    const primaries = this.members(l).filter((m) => consensus.nodes.get(m.redisId)?.primary);
    const owners = new Map(primaries.filter((m) => !joining.includes(m.redisId)).map((m) => [m.redisId, slotList(consensus.nodes.get(m.redisId)!.slots)]));
    const byId = new Map(primaries.map((m) => [m.redisId, m]));
    for (const move of planMoves(owners, joining, leaving)) {
      const from = byId.get(move.from)!;
      const to = byId.get(move.to)!;
      await moveSlots(
        move.slots,
        from,
        to,
        primaries.filter((p) => p !== from && p !== to),
      );
    }
  }

  shardAdded(c: StoredCluster, shard: StoredShard): void {
    const l = this.live.get(c.id);
    if (!l) return;
    for (const n of shard.nodes) l.pending.set(n.id, true);
    this.enqueue(l, "Modifying", `adding shard ${shard.id}`, async () => {
      await Promise.all(shard.nodes.map((n) => this.startNode(l, n)));
      const newcomers = shard.nodes.map((n) => this.member(l, n));
      await meetAll(newcomers, this.members(l));
      await this.knownToAll(l);
      const primary = this.primaryOf(shard);
      await Promise.all(shard.nodes.filter((n) => n !== primary).map((n) => replicate(this.member(l, n), this.member(l, primary))));
      await this.settleCluster(l);
      await this.rebalance(l, await this.knownToAll(l), [primary.redisId!], []);
      await this.settleCluster(l);
      for (const n of shard.nodes) l.pending.delete(n.id);
    });
  }

  shardRemoved(c: StoredCluster, shard: StoredShard): void {
    const l = this.live.get(c.id);
    if (!l) return;
    l.leaving.add(shard);
    this.enqueue(l, "Modifying", `removing shard ${shard.id}`, async () => {
      const consensus = await this.knownToAll(l);
      const primary = shard.nodes.find((n) => n.redisId && consensus.nodes.get(n.redisId)?.primary && this.serving(l, n));
      if (primary) await this.rebalance(l, consensus, [], [primary.redisId!]);
      const gone = shard.nodes.map((n) => n.redisId).filter((x): x is string => x !== undefined);
      // Replicas first: a primary stopped before its replicas would make them try to fail over.
      for (const n of [...shard.nodes.filter((x) => x.role === "replica"), ...shard.nodes.filter((x) => x.role === "primary")]) await this.stopNode(l, n);
      l.c.shards = l.c.shards.filter((s) => s !== shard);
      l.leaving.delete(shard);
      await forget(gone, this.members(l));
      await this.settleCluster(l);
    });
  }

  leaving(c: StoredCluster, shard: StoredShard): boolean {
    return this.live.get(c.id)?.leaving.has(shard) ?? false;
  }

  nodeAdded(c: StoredCluster, shard: StoredShard, node: StoredNode): void {
    const l = this.live.get(c.id);
    if (!l) return;
    l.pending.set(node.id, true);
    this.enqueue(l, "Modifying", `adding ${c.clusterEnabled ? "node" : "instance"} ${node.id}`, async () => {
      if (!c.clusterEnabled) {
        const primary = this.serving(l, this.primaryOf(shard));
        if (!primary) throw new Error("the instance set has no serving primary to replicate");
        await this.startNode(l, node, primary.port);
        await this.settleInstanceSet(l);
      } else {
        const primary = this.primaryOf(shard);
        await this.startNode(l, node);
        await meetAll([this.member(l, node)], this.members(l));
        await this.knownToAll(l);
        await replicate(this.member(l, node), this.member(l, primary));
        await this.settleCluster(l);
      }
      l.pending.delete(node.id);
    });
  }

  nodeRemoved(c: StoredCluster, node: StoredNode): void {
    const l = this.live.get(c.id);
    if (!l) return;
    this.enqueue(l, "Modifying", `removing ${c.clusterEnabled ? "node" : "instance"} ${node.id}`, async () => {
      await this.stopNode(l, node);
      if (c.clusterEnabled) {
        if (node.redisId) await forget([node.redisId], this.members(l));
        await this.settleCluster(l);
      } else {
        await this.settleInstanceSet(l);
      }
    });
  }

  // ---- instance sets -------------------------------------------------------------------------------

  private async lookAtInstanceSet(l: Live): Promise<boolean> {
    const nodes = this.nodes(l);
    const primary = nodes.find((n) => n.role === "primary");
    const p = primary && this.serving(l, primary);
    let agreed = p !== undefined && (await p.info("replication").catch(() => undefined))?.role === "master";
    if (p && agreed)
      agreed = await replicating(
        p,
        nodes.flatMap((n) => (n === primary ? [] : (this.serving(l, n) ?? []))),
      );
    l.agreed = agreed && !l.gone;
    return l.agreed;
  }

  private settleInstanceSet(l: Live): Promise<void> {
    return until(
      `the replicas of ${l.c.name} replicating their primary`,
      () => this.lookAtInstanceSet(l),
      SETTLE_MS,
      () => !l.gone,
    );
  }

  private async formInstanceSet(l: Live, restore: RestoreFiles | undefined): Promise<void> {
    const primary = this.primaryOf(l.c.shards[0]!);
    const p = await this.startNode(l, primary);
    if (restore) await this.restoreInto(l, await restore());
    await Promise.all(
      this.nodes(l)
        .filter((n) => n !== primary)
        .map((n) => this.startNode(l, n, p.port)),
    );
    await this.settleInstanceSet(l);
    l.pending.clear();
  }

  /**
   * The stored primary becomes the servers' primary. While the one serving as primary now is up,
   * it hands over with FAILOVER, which pauses writes until the new primary has caught up (a promote
   * loses nothing); otherwise (it failed) the new one stops replicating. The others then replicate it.
   */
  private async repoint(l: Live): Promise<void> {
    const primary = this.primaryOf(l.c.shards[0]!);
    const p = this.serving(l, primary);
    if (!p) throw new Error(`primary ${primary.id} is not serving`);
    const others = this.nodes(l).flatMap((n) => (n === primary ? [] : (this.serving(l, n) ?? [])));
    const role = async (s: RedisServer) => (await s.info("replication")).role;
    const mine = await p.info("replication");
    if (mine.role !== "master") {
      const current = others.find((o) => String(o.port) === mine.master_port);
      const handover =
        current && (await role(current)) === "master"
          ? await current.command("FAILOVER", "TO", "127.0.0.1", p.port, "TIMEOUT", 10_000).then(
              () => true,
              () => false,
            )
          : false;
      if (handover)
        await until(
          `${l.c.name}: the primary handing over to 127.0.0.1:${p.port}`,
          async () => (await role(p)) === "master",
          15_000,
          () => !l.gone,
        );
      else await p.command("REPLICAOF", "NO", "ONE");
    }
    for (const r of others) {
      const info = await r.info("replication");
      if (info.role !== "slave" || info.master_port !== String(p.port)) await r.command("REPLICAOF", "127.0.0.1", p.port);
    }
    l.primary?.retarget();
    l.read?.retarget();
    await this.settleInstanceSet(l);
  }

  promoted(c: StoredCluster): void {
    const l = this.live.get(c.id);
    if (l) this.enqueue(l, "Modifying", "promoting a replica", () => this.repoint(l));
  }

  /** High availability: the replica furthest along takes over from a failed primary. */
  private async failover(l: Live, failed: StoredNode): Promise<void> {
    if (failed.role !== "primary" || !l.c.recoveryEnabled) return;
    let best: { node: StoredNode; offset: number } | undefined;
    for (const n of this.nodes(l)) {
      const r = n.role === "replica" ? this.serving(l, n) : undefined;
      const info = r && (await r.info("replication").catch(() => undefined));
      const offset = Number(info?.slave_repl_offset ?? -1);
      if (info && (!best || offset > best.offset)) best = { node: n, offset };
    }
    if (!best) throw new Error("no serving replica to fail over to");
    failed.role = "replica";
    best.node.role = "primary";
    this.hooks.changed();
    await this.repoint(l);
  }

  // ---- parameters, backups, restores ---------------------------------------------------------------

  /** CONFIG SET of the group's run-time values on `servers`; a refusal turns the sync to Error-Sync with the server's words in an event. */
  private async configure(l: Live, servers: RedisServer[], mode: "sequential" | "parallel"): Promise<void> {
    const values = Object.entries(this.hooks.runtimeParameters(l.c));
    // "key=value: the server's words" to the nodes that refused it.
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
      l.syncError = true;
      const lines = [...refusals].map(([what, ports]) => `${what} (refused by ${ports.map((p) => `127.0.0.1:${p}`).join(", ")})`);
      this.hooks.parameterEvent(l.c, `failed on ${l.c.name}: ${lines.join("; ")}`);
    }
  }

  applyParameters(c: StoredCluster, mode: "sequential" | "parallel"): void {
    const l = this.live.get(c.id);
    if (!l) return;
    l.applying++;
    this.enqueue(l, "Modifying", "applying parameters", async () => {
      l.syncError = false;
      try {
        await this.configure(l, this.servingServers(l), mode);
      } catch (e) {
        l.syncError = true;
        this.hooks.parameterEvent(c, `failed on ${c.name}: ${message(e)}`);
      } finally {
        l.applying--;
      }
    });
  }

  backupTaken(c: StoredCluster, backup: StoredBackup): void {
    const l = this.live.get(c.id);
    const dir = this.backupDir(backup);
    const primaries = c.shards.map((s) => s.nodes.find((n) => n.role === "primary")).filter((n): n is StoredNode => n !== undefined);
    const work = (async () => {
      mkdirSync(dir, { recursive: true });
      for (const [i, n] of primaries.entries()) {
        const s = l && this.serving(l, n);
        if (s) await saveRdb(s, join(dir, `${String(i).padStart(4, "0")}.rdb`));
      }
    })().catch((e: unknown) => {
      if (!l?.gone) this.hooks.warn(`backup ${backup.name} of ${c.name}: ${message(e)}`);
    });
    this.backupWork.set(dir, work);
    // The cluster's processes stay until its backups are written (a delete right after a backup keeps it).
    if (l) l.saving = Promise.all([l.saving, work]).then(() => undefined);
  }

  backupDropped(backup: StoredBackup): void {
    const dir = this.backupDir(backup);
    this.backupWork.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  }

  /** The RDB files of a backup, once they are written. */
  backupFiles(backup: StoredBackup): RestoreFiles {
    const dir = this.backupDir(backup);
    return async () => {
      await this.backupWork.get(dir);
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((f) => f.endsWith(".rdb"))
        .sort()
        .map((f) => join(dir, f));
    };
  }

  /** A directory for files a restore brings in (removed once loaded). */
  incomingDir(): string {
    mkdirSync(this.tmp, { recursive: true });
    return this.tmp;
  }

  private async restoreInto(l: Live, files: string[]): Promise<void> {
    let sink: (batch: DumpedKey[]) => Promise<void>;
    let client: Cluster | undefined;
    if (l.c.clusterEnabled) {
      client = new Cluster(
        this.members(l).map((m) => ({ host: "127.0.0.1", port: m.server.port })),
        { enableReadyCheck: true, redisOptions: { maxRetriesPerRequest: 3, disconnectTimeout: 100 } },
      );
      client.on("error", () => undefined);
      const cluster = client;
      sink = async (batch) => {
        await Promise.all(restoreCommands(batch).map(([name, ...args]) => cluster.call(String(name), ...args)));
      };
    } else {
      const primary = this.serving(l, this.primaryOf(l.c.shards[0]!))!;
      sink = async (batch) => {
        const results = await primary.pipeline(restoreCommands(batch));
        const bad = results.find(([e]) => e);
        if (bad) throw bad[0]!;
      };
    }
    try {
      for (const file of files) {
        await loadRdb(file, this.tmp, sink);
        if (file.startsWith(this.tmp)) rmSync(file, { force: true });
      }
    } finally {
      client?.disconnect();
    }
  }

  created(c: StoredCluster, restore?: RestoreFiles): void {
    c.engine = "redis";
    if (c.clusterEnabled) evenSlots(c.shards);
    const l = this.track(c);
    for (const n of this.nodes(l)) l.pending.set(n.id, true);
    l.phase = "Creating";
    this.enqueue(l, "Creating", `creating ${c.name}`, async () => {
      await this.openEndpoints(l);
      if (c.clusterEnabled) await this.formCluster(l, restore);
      else await this.formInstanceSet(l, restore);
    });
  }

  removed(c: StoredCluster): void {
    const l = this.live.get(c.id);
    if (!l) return;
    this.live.delete(c.id);
    const done = l.saving.then(async () => {
      await this.drop(l, false);
      rmSync(join(this.root, "nodes", c.id), { recursive: true, force: true });
    });
    this.removing.add(done);
    void done.finally(() => this.removing.delete(done));
  }

  /** Stops everything of `l` at once (its data is not kept). */
  private drop(l: Live, keep: boolean): Promise<void> {
    l.gone = true;
    if (l.monitor) clearTimeout(l.monitor);
    const stops = [...l.servers.values()].map((s) => (keep ? s.stop(true) : Promise.resolve(s.kill())));
    return Promise.all([...stops, l.primary?.close(), l.read?.close()]).then(() => undefined);
  }

  failNode(c: StoredCluster, node: StoredNode): void {
    this.live.get(c.id)?.servers.get(node.id)?.kill();
  }

  // ---- views ---------------------------------------------------------------------------------------

  health(c: StoredCluster, node: StoredNode): NodeHealth {
    const l = this.live.get(c.id);
    if (!l) return { state: "failed", reason: "no redis-server runs for it" };
    const why = l.failed.get(node.id);
    if (why !== undefined) return { state: "failed", reason: why };
    const joining = l.pending.get(node.id);
    if (joining !== undefined) return { state: "pending", joining };
    if (!l.servers.get(node.id)?.alive) return { state: "failed", reason: "its redis-server is not running" };
    if (!l.agreed || [...l.leaving].some((s) => s.nodes.includes(node))) return { state: "pending", joining: false };
    return { state: "ready" };
  }

  busy(c: StoredCluster): "Creating" | "Modifying" | undefined {
    return this.live.get(c.id)?.phase;
  }

  sync(c: StoredCluster): "Applying" | "Error-Sync" | undefined {
    const l = this.live.get(c.id);
    if (!l) return undefined;
    return l.applying > 0 ? "Applying" : l.syncError ? "Error-Sync" : undefined;
  }

  // ---- watching, restarts, shutdown ----------------------------------------------------------------

  /** Looks at idle clusters now and then: failovers, failures and agreement show in the API. */
  private watchSoon(l: Live): void {
    if (l.monitor) clearTimeout(l.monitor);
    if (l.gone) return;
    l.monitor = setTimeout(
      () => {
        const look = l.ops > 0 || l.gone ? Promise.resolve(false) : l.c.clusterEnabled ? this.lookAtCluster(l) : this.lookAtInstanceSet(l);
        void look.catch(() => false).then(() => this.watchSoon(l));
      },
      l.agreed ? 1000 : 200,
    );
    l.monitor.unref();
  }

  /**
   * After a restart: each node's process is taken over when it still runs (its pid file names a live
   * server in its directory), else started again from its directory (data and nodes.conf); a node
   * whose directory is gone is FAILED. Nodes are not ready before every node agrees again.
   */
  restored(clusters: StoredCluster[]): void {
    for (const c of clusters) {
      if (c.engine !== "redis") continue;
      const l = this.track(c);
      for (const n of this.nodes(l)) l.pending.set(n.id, false);
      this.enqueue(l, "Modifying", "restarting its nodes", async () => {
        await this.openEndpoints(l);
        const nodes = this.nodes(l);
        const order = [...nodes.filter((n) => n.role === "primary"), ...nodes.filter((n) => n.role === "replica")];
        const moved: StoredNode[] = [];
        const start = async (n: StoredNode): Promise<void> => {
          if (!existsSync(this.nodeDir(c, n))) {
            l.pending.delete(n.id);
            l.failed.set(n.id, "its data directory is gone");
            return;
          }
          // Only a persisted local cloud restarts, so the server outlives a crash like the first one.
          const server = this.serverFor(l, n);
          const before = n.port;
          if (!(n.port && (await server.adopt(n.port, n.busPort)))) await server.start();
          this.record(l, n, server);
          if (n.port !== before) moved.push(n);
        };
        if (c.clusterEnabled) {
          await Promise.all(order.map(start));
          // Nodes that came back on other ports are found again at their new addresses.
          if (moved.length)
            await meetAll(
              this.members(l),
              moved.filter((n) => this.serving(l, n)).map((n) => this.member(l, n)),
            );
        } else {
          for (const n of order) await start(n);
        }
        await this.configure(l, this.servingServers(l), "parallel");
        // The servers that run are up; whether they serve again is the nodes' business from here:
        // until they agree (a cluster) or replicate a primary (an instance set) they stay Modifying,
        // and a node that did not come back is FAILED. A lost primary is failed over where it can be.
        l.pending.clear();
        try {
          if (c.clusterEnabled) await this.settleCluster(l);
          else if (this.serving(l, this.primaryOf(c.shards[0]!))) await this.repoint(l);
          else if (c.recoveryEnabled) await this.failover(l, this.primaryOf(c.shards[0]!));
        } catch (e) {
          this.hooks.warn(`cache ${c.clusterEnabled ? "cluster" : "instance set"} ${c.name} (${c.id}) after the restart: ${message(e)}`);
        }
      });
    }
  }

  reset(): void {
    for (const l of this.live.values()) void this.drop(l, false);
    this.live.clear();
    this.backupWork.clear();
    rmSync(this.root, { recursive: true, force: true });
  }

  /** Stops every process; a persisted local cloud saves each data set first, so a restart has it. */
  async close(): Promise<void> {
    // Backups being written finish first.
    await Promise.all(this.backupWork.values());
    const all = [...this.live.values()];
    this.live.clear();
    await Promise.all([...all.map((l) => this.drop(l, this.persistent)), ...this.removing]);
  }
}
