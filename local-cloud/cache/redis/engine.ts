/**
 * The `redis` engine: every node of a cluster or instance set is a real redis-server on 127.0.0.1.
 *
 * - Clusters are a real Redis Cluster formed by hand (any shard count) with the slots the API
 *   reports; adding a shard starts its nodes, joins them and moves slots to it; deleting one drains
 *   its slots to the others first, then forgets and stops its nodes. Roles and slots in the API are
 *   read back from the nodes (an automatic failover shows), and a node is ready only when every node
 *   agrees on the topology and replicas have synced (cluster-mode.ts).
 * - Instance sets are standalone servers replicating with REPLICAOF; the primary endpoint is a
 *   forwarder that follows the primary through a promote or a high-availability failover
 *   (instance-set-mode.ts).
 * - Parameter values reach every node with CONFIG SET; a value the server refuses is Error-Sync.
 * - Backups are the primaries' RDB files; restores copy their keys into the new nodes (data.ts).
 *
 * Each cluster or instance set is a Deployment (deployment.ts): its processes, and its work run in
 * order (a queue per cluster); while it runs the cluster is Creating or Modifying. A step that fails
 * marks the nodes it was bringing up FAILED, with the reason printed.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { evenSlots, type CacheEngine, type EngineHooks, type NodeHealth, type RestoreFiles } from "../engine";
import type { StoredBackup, StoredCluster, StoredNode, StoredShard } from "../model";
import { clusterIdOf, meetAll } from "./cluster";
import { addReplica, addShard, clusterMode, formCluster, removeReplica, removeShard, settleCluster } from "./cluster-mode";
import { BackupFiles } from "./data";
import type { Forwarder } from "./forwarder";
import { Deployment, message, primaryOf, type DeploymentEnv } from "./deployment";
import { certificatePem } from "./security";
import { addInstance, failover, followStoredPrimary, formInstanceSet, instanceSetMode, settleInstanceSet } from "./instance-set-mode";

export class RedisEngine implements CacheEngine {
  readonly kind = "redis";
  private readonly env: DeploymentEnv;
  private readonly deployments = new Map<string, Deployment>();
  private readonly backupStore: BackupFiles;
  /** Deleted clusters whose processes are still stopping. */
  private readonly removing = new Set<Promise<void>>();

  constructor(
    private readonly root: string,
    persistent: boolean,
    private readonly hooks: EngineHooks,
  ) {
    this.env = { root, persistent, hooks };
    this.backupStore = new BackupFiles(
      root,
      (m) => hooks.warn(m),
      () => hooks.changed(),
    );
  }

  private deploy(cluster: StoredCluster): Deployment {
    const deployment = new Deployment(cluster, this.env, cluster.clusterEnabled ? clusterMode : instanceSetMode);
    this.deployments.set(cluster.id, deployment);
    return deployment;
  }

  /** Runs `step` on the cluster's deployment, when it has one (not on simulated or lost nodes). */
  private onDeployment(cluster: StoredCluster, what: string, step: (deployment: Deployment) => Promise<void>): void {
    const deployment = this.deployments.get(cluster.id);
    if (deployment) deployment.enqueue("Modifying", what, () => step(deployment));
  }

  // ---- changes of the stored state -----------------------------------------------------------------

  created(cluster: StoredCluster, restore?: RestoreFiles): void {
    cluster.engine = "redis";
    if (cluster.clusterEnabled) evenSlots(cluster.shards);
    const deployment = this.deploy(cluster);
    for (const n of deployment.nodes()) deployment.starting.set(n.id, true);
    deployment.phase = "Creating";
    deployment.enqueue("Creating", `creating ${cluster.name}`, async () => {
      await deployment.openEndpoints();
      if (cluster.clusterEnabled) await formCluster(deployment, restore);
      else await formInstanceSet(deployment, restore);
    });
  }

  shardAdded(cluster: StoredCluster, shard: StoredShard): void {
    for (const n of shard.nodes) this.deployments.get(cluster.id)?.starting.set(n.id, true);
    this.onDeployment(cluster, `adding shard ${shard.id}`, (deployment) => addShard(deployment, shard));
  }

  shardRemoved(cluster: StoredCluster, shard: StoredShard): void {
    this.deployments.get(cluster.id)?.drainingShards.add(shard);
    this.onDeployment(cluster, `removing shard ${shard.id}`, (deployment) => removeShard(deployment, shard));
  }

  leaving(cluster: StoredCluster, shard: StoredShard): boolean {
    return this.deployments.get(cluster.id)?.drainingShards.has(shard) ?? false;
  }

  nodeAdded(cluster: StoredCluster, shard: StoredShard, node: StoredNode): void {
    this.deployments.get(cluster.id)?.starting.set(node.id, true);
    this.onDeployment(cluster, `adding ${cluster.clusterEnabled ? "node" : "instance"} ${node.id}`, async (deployment) => {
      if (cluster.clusterEnabled) await addReplica(deployment, shard, node);
      else await addInstance(deployment, shard, node);
      deployment.starting.delete(node.id);
    });
  }

  nodeRemoved(cluster: StoredCluster, node: StoredNode): void {
    this.onDeployment(cluster, `removing ${cluster.clusterEnabled ? "node" : "instance"} ${node.id}`, async (deployment) => {
      if (cluster.clusterEnabled) await removeReplica(deployment, node);
      else {
        await deployment.stopNode(node);
        await settleInstanceSet(deployment);
      }
    });
  }

  promoted(cluster: StoredCluster): void {
    this.onDeployment(cluster, "promoting a replica", followStoredPrimary);
  }

  applyParameters(cluster: StoredCluster, mode: "sequential" | "parallel"): void {
    const deployment = this.deployments.get(cluster.id);
    if (!deployment) return;
    deployment.parameterRuns++;
    deployment.enqueue("Modifying", "applying parameters", async () => {
      deployment.parametersRefused = false;
      try {
        await deployment.applyParameterValues(deployment.servingServers(), mode);
      } catch (e) {
        deployment.parametersRefused = true;
        this.hooks.parameterEvent(cluster, `failed on ${cluster.name}: ${message(e)}`);
      } finally {
        deployment.parameterRuns--;
      }
    });
  }

  removed(cluster: StoredCluster): void {
    const deployment = this.deployments.get(cluster.id);
    if (!deployment) return;
    this.deployments.delete(cluster.id);
    const done = deployment.backupsWriting.then(async () => {
      await deployment.stopAll(false);
      rmSync(join(this.root, "nodes", cluster.id), { recursive: true, force: true });
    });
    this.removing.add(done);
    void done.finally(() => this.removing.delete(done));
  }

  failNode(cluster: StoredCluster, node: StoredNode): void {
    this.deployments.get(cluster.id)?.servers.get(node.id)?.kill();
  }

  // ---- backups and restores ------------------------------------------------------------------------

  backupTaken(cluster: StoredCluster, backup: StoredBackup): void {
    this.backupStore.taken(cluster, backup, this.deployments.get(cluster.id));
  }

  backupDropped(backup: StoredBackup): void {
    this.backupStore.dropped(backup);
  }

  backupFiles(backup: StoredBackup): RestoreFiles {
    return this.backupStore.files(backup);
  }

  incomingDir(): string {
    return this.backupStore.incomingDir();
  }

  // ---- what the API reads --------------------------------------------------------------------------

  health(cluster: StoredCluster, node: StoredNode): NodeHealth {
    const deployment = this.deployments.get(cluster.id);
    if (!deployment) return { state: "failed", reason: "no redis-server runs for it" };
    // Being removed (a shard or replica leaving): its process stops before it leaves the listing,
    // and a node on its way out is not a failure of the cluster.
    if (deployment.stopping.has(node.id)) return { state: "pending", joining: false };
    const why = deployment.failed.get(node.id);
    if (why !== undefined) return { state: "failed", reason: why };
    const joining = deployment.starting.get(node.id);
    if (joining !== undefined) return { state: "pending", joining };
    if (!deployment.servers.get(node.id)?.alive) return { state: "failed", reason: "its redis-server is not running" };
    if (!deployment.nodesAgree || [...deployment.drainingShards].some((s) => s.nodes.includes(node))) return { state: "pending", joining: false };
    return { state: "ready" };
  }

  busy(cluster: StoredCluster): "Creating" | "Modifying" | undefined {
    return this.deployments.get(cluster.id)?.phase;
  }

  sync(cluster: StoredCluster): "Applying" | "Error-Sync" | undefined {
    const deployment = this.deployments.get(cluster.id);
    if (!deployment) return undefined;
    return deployment.parameterRuns > 0 ? "Applying" : deployment.parametersRefused ? "Error-Sync" : undefined;
  }

  endpoints(cluster: StoredCluster): { primaryEndpoint: string; readEndpoint?: string } {
    const deployment = this.deployments.get(cluster.id);
    const at = (f: Forwarder | undefined): string => (f?.port ? `127.0.0.1:${f.port}` : "");
    return cluster.clusterEnabled
      ? { primaryEndpoint: at(deployment?.primaryEndpoint) }
      : { primaryEndpoint: at(deployment?.primaryEndpoint), readEndpoint: at(deployment?.readEndpoint) };
  }

  tlsCertificate(cluster: StoredCluster): string | undefined {
    const tls = this.deployments.get(cluster.id)?.security.tls;
    return tls ? certificatePem(tls) : undefined;
  }

  // ---- restarts and shutdown -----------------------------------------------------------------------

  /**
   * After a restart: each node's process is taken over when it still runs (its pid file names a live
   * server in its directory), else started again from its directory (data and nodes.conf); a node
   * whose directory is gone is FAILED. Nodes are not ready before every node agrees again.
   */
  restored(clusters: StoredCluster[]): void {
    for (const cluster of clusters) {
      if (cluster.engine !== "redis") continue;
      const deployment = this.deploy(cluster);
      for (const n of deployment.nodes()) deployment.starting.set(n.id, false);
      deployment.enqueue("Modifying", "restarting its nodes", () => this.restart(deployment));
    }
  }

  private async restart(deployment: Deployment): Promise<void> {
    const cluster = deployment.cluster;
    await deployment.openEndpoints();
    const nodes = deployment.nodes();
    const order = [...nodes.filter((n) => n.role === "primary"), ...nodes.filter((n) => n.role === "replica")];
    const moved: StoredNode[] = [];
    const start = async (node: StoredNode): Promise<void> => {
      if (!existsSync(deployment.nodeDir(node))) {
        deployment.starting.delete(node.id);
        deployment.failed.set(node.id, "its data directory is gone");
        return;
      }
      // Only a persisted local cloud restarts, so the server outlives a crash like the first one.
      const server = deployment.serverFor(node);
      const before = node.port;
      if (!(await server.takeOver(node))) await server.start();
      deployment.recordServer(node, server);
      // A crash may have come before the cluster id was recorded; the node's own answer is the truth.
      if (cluster.clusterEnabled) node.redisId = await clusterIdOf(server);
      if (node.port !== before) moved.push(node);
    };
    if (cluster.clusterEnabled) {
      await Promise.all(order.map(start));
      // Nodes that came back on other ports are found again at their new addresses.
      if (moved.length)
        await meetAll(
          deployment.members(),
          moved.filter((n) => deployment.serving(n)).map((n) => deployment.member(n)),
        );
    } else {
      for (const n of order) await start(n);
    }
    await deployment.applyParameterValues(deployment.servingServers(), "parallel");
    // The servers that run are up; whether they serve again is the nodes' business from here:
    // until they agree (a cluster) or replicate a primary (an instance set) they stay Modifying,
    // and a node that did not come back is FAILED. A lost primary is failed over where it can be.
    deployment.starting.clear();
    try {
      if (cluster.clusterEnabled) await settleCluster(deployment);
      else if (deployment.serving(primaryOf(cluster.shards[0]!))) await followStoredPrimary(deployment);
      else if (cluster.recoveryEnabled) await failover(deployment, primaryOf(cluster.shards[0]!));
    } catch (e) {
      this.hooks.warn(`${deployment.label} after the restart: ${message(e)}`);
    }
  }

  reset(): void {
    for (const deployment of this.deployments.values()) void deployment.stopAll(false);
    this.deployments.clear();
    this.backupStore.reset();
    rmSync(this.root, { recursive: true, force: true });
  }

  /** Stops every process; a persisted local cloud saves each data set first, so a restart has it. */
  async close(): Promise<void> {
    // Backups being written finish first.
    await this.backupStore.written();
    const all = [...this.deployments.values()];
    this.deployments.clear();
    await Promise.all([...all.map((deployment) => deployment.stopAll(this.env.persistent)), ...this.removing]);
  }
}
