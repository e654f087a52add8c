/** Nodes (primary and replicas) of a cluster's shard (spec 02 §4.2). */

import { seg, type CacheHttp } from "./context";
import { flattenNode, flattenNodeList } from "../parse";
import { shardPath } from "./shards";
import type { CacheNode, ObjectIdResult, Ref } from "../types";

function nodesPath(clusterId: string, shardId: string, action: string): string {
  return `${shardPath(clusterId, shardId, action)}/nodes`;
}

function nodePath(clusterId: string, shardId: string, nodeId: string, action: string): string {
  return `${nodesPath(clusterId, shardId, action)}/${seg(nodeId, "node id", action)}`;
}

export class NodeApi {
  constructor(private readonly http: CacheHttp) {}

  /** POST …/shards/{shard}/nodes: one new replica in `subnet`. Not idempotent. */
  async addReplica(clusterId: string, shardId: string, input: { subnet: Ref }): Promise<ObjectIdResult> {
    const action = `adding a replica to shard "${shardId}" of cache cluster "${clusterId}"`;
    return this.http.objectId({
      operation: "AddReplicaNode",
      method: "POST",
      path: nodesPath(clusterId, shardId, action),
      body: { subnet: { id: input.subnet.id } },
      expect: [200, 201],
      action,
      idempotent: false,
    });
  }

  async list(clusterId: string, shardId: string): Promise<CacheNode[]> {
    const action = `listing the nodes of shard "${shardId}" of cache cluster "${clusterId}"`;
    return this.http.read({ operation: "ListNodes", method: "GET", path: nodesPath(clusterId, shardId, action), action, idempotent: true }, flattenNodeList);
  }

  async get(clusterId: string, shardId: string, nodeId: string): Promise<CacheNode> {
    const action = `reading node "${nodeId}" of shard "${shardId}" of cache cluster "${clusterId}"`;
    return this.http.read({ operation: "GetNode", method: "GET", path: nodePath(clusterId, shardId, nodeId, action), action, idempotent: true }, flattenNode);
  }

  /** DELETE …/nodes/{node}: replicas only (the API refuses primaries). */
  async delete(clusterId: string, shardId: string, nodeId: string): Promise<ObjectIdResult> {
    const action = `deleting node "${nodeId}" of shard "${shardId}" of cache cluster "${clusterId}"`;
    return this.http.objectId(
      { operation: "DeleteNode", method: "DELETE", path: nodePath(clusterId, shardId, nodeId, action), action, idempotent: true },
      nodeId,
    );
  }
}
