/** A cluster's shards and their nodes (spec 02 §4.2): add, delete; one method per operation. */
import { BadRequest } from "../../core/errors";
import { LastShard, NodeNotFound, NotACluster, PrimaryNode, ReplicaLimit, ShardDeleting, ShardLimit, ShardNotFound } from "../errors";
import { SERVICE } from "../lifecycle";
import type { StoredCluster, StoredShard } from "../model";
import type { CacheState } from "./state";

export class ShardBackend {
  constructor(private readonly state: CacheState) {}

  /** A cluster (never an instance set) of the project. */
  clusterOnly(projectId: string, clusterId: string): StoredCluster {
    const c = this.state.cluster(projectId, clusterId);
    if (!c.clusterEnabled) throw new NotACluster(`"${clusterId}" is an instance set: it has no shards.`);
    return c;
  }

  shard(projectId: string, clusterId: string, shardId: string): StoredShard {
    const s = this.clusterOnly(projectId, clusterId).shards.find((x) => x.id === shardId);
    if (!s) throw new ShardNotFound(`No shard "${shardId}" in cluster "${clusterId}".`);
    return s;
  }

  add(projectId: string, clusterId: string, b: { nodeCount: number; subnetAssignment: { primary: { id: string }; replicas: { id: string }[] } }): string {
    const c = this.clusterOnly(projectId, clusterId);
    if (c.shards.length >= 12) throw new ShardLimit("A cluster has at most 12 shards.");
    if (b.subnetAssignment.replicas.length + 1 !== b.nodeCount)
      throw new BadRequest("nodeCount: must equal the primary plus the replicas of subnetAssignment.");
    const last = Math.max(0, ...c.shards.map((s) => Number(s.id.slice(-4))));
    const shard: StoredShard = {
      id: `${c.id}-shard-${String(last + 1).padStart(4, "0")}`,
      name: `shard-${last + 1}`,
      slots: [],
      nodes: [
        this.state.node(b.subnetAssignment.primary.id, "primary", "node"),
        ...b.subnetAssignment.replicas.map((r) => this.state.node(r.id, "replica", "node")),
      ],
      createdAt: this.state.iso(),
    };
    c.shards.push(shard);
    this.state.modifying(c);
    this.state.engineOf(c).shardAdded(c, shard);
    return shard.id;
  }

  delete(projectId: string, clusterId: string, shardId: string): string {
    const c = this.clusterOnly(projectId, clusterId);
    const s = this.shard(projectId, clusterId, shardId);
    const engine = this.state.engineOf(c);
    if (engine.leaving(c, s)) throw new ShardDeleting(`Shard "${shardId}" is being deleted.`);
    if (c.shards.filter((x) => !engine.leaving(c, x)).length === 1) throw new LastShard("The last shard of a cluster cannot be deleted.");
    for (const n of s.nodes) this.state.managed.remove(SERVICE, "node", n.id);
    this.state.modifying(c);
    // Its slots move to the other shards first; the shard is listed until then.
    engine.shardRemoved(c, s);
    return s.id;
  }

  addReplica(projectId: string, clusterId: string, shardId: string, subnetId: string): string {
    const s = this.shard(projectId, clusterId, shardId);
    const c = this.state.clusters.get(clusterId)!;
    if (this.state.engineOf(c).leaving(c, s)) throw new ShardDeleting(`Shard "${shardId}" is being deleted.`);
    if (s.nodes.length >= 6) throw new ReplicaLimit("A shard has at most 5 replicas.");
    const n = this.state.node(subnetId, "replica", "node");
    s.nodes.push(n);
    this.state.modifying(c);
    this.state.engineOf(c).nodeAdded(c, s, n);
    return n.id;
  }

  deleteNode(projectId: string, clusterId: string, shardId: string, nodeId: string): string {
    const s = this.shard(projectId, clusterId, shardId);
    const n = s.nodes.find((x) => x.id === nodeId);
    if (!n) throw new NodeNotFound(`No node "${nodeId}".`);
    if (n.role === "primary") throw new PrimaryNode("A primary node cannot be deleted.");
    const c = this.state.clusters.get(clusterId)!;
    if (this.state.engineOf(c).leaving(c, s)) throw new ShardDeleting(`Shard "${shardId}" is being deleted.`);
    s.nodes = s.nodes.filter((x) => x.id !== nodeId);
    this.state.managed.remove(SERVICE, "node", nodeId);
    this.state.modifying(c);
    this.state.engineOf(c).nodeRemoved(c, n);
    return nodeId;
  }
}
