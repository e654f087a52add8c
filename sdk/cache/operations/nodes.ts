/** Nodes (primary and replicas) of a cluster's shard (seed 02 §4.2). */

import { seg, type CacheHttp } from "./context";
import { flattenNode, flattenNodeList, flattenObjectId } from "../parse";
import { shardsPath } from "./shards";
import type { CacheNode, ObjectIdResult, Ref } from "../types";

function nodesPath(clusterId: string, shardId: string, action: string): string {
  return `${shardsPath(clusterId, action)}/${seg(shardId, "shard id", action)}/nodes`;
}

export class NodeApi {
  constructor(private readonly http: CacheHttp) {}

  /** POST …/shards/{shard}/nodes: one new replica in `subnet`. Not idempotent. */
  async addReplica(clusterId: string, shardId: string, input: { subnet: Ref }): Promise<ObjectIdResult> {
    const action = `adding a replica to shard "${shardId}" of cache cluster "${clusterId}"`;
    const body = await this.http.json({
      operation: "AddReplicaNode",
      method: "POST",
      path: nodesPath(clusterId, shardId, action),
      body: { subnet: { id: input.subnet.id } },
      expect: [200, 201],
      action,
      idempotent: false,
    });
    return flattenObjectId(body, action);
  }

  async list(clusterId: string, shardId: string): Promise<CacheNode[]> {
    const action = `listing the nodes of shard "${shardId}" of cache cluster "${clusterId}"`;
    const body = await this.http.json({ operation: "ListNodes", method: "GET", path: nodesPath(clusterId, shardId, action), action, idempotent: true });
    return flattenNodeList(body, action);
  }

  async get(clusterId: string, shardId: string, nodeId: string): Promise<CacheNode> {
    const action = `reading node "${nodeId}" of shard "${shardId}" of cache cluster "${clusterId}"`;
    const body = await this.http.json({
      operation: "GetNode",
      method: "GET",
      path: `${nodesPath(clusterId, shardId, action)}/${seg(nodeId, "node id", action)}`,
      action,
      idempotent: true,
    });
    return flattenNode(body, action);
  }

  /** DELETE …/nodes/{node}: replicas only (the API refuses primaries). */
  async delete(clusterId: string, shardId: string, nodeId: string): Promise<ObjectIdResult> {
    const action = `deleting node "${nodeId}" of shard "${shardId}" of cache cluster "${clusterId}"`;
    const body = await this.http.json({
      operation: "DeleteNode",
      method: "DELETE",
      path: `${nodesPath(clusterId, shardId, action)}/${seg(nodeId, "node id", action)}`,
      action,
      idempotent: true,
    });
    return flattenObjectId(body, action, nodeId);
  }
}
