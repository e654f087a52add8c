/** Shards of a cluster (spec 02 §4.2). */

import { expandAddShard } from "../expand";
import { seg, type CacheHttp } from "./context";
import { flattenShard, flattenShardList } from "../parse";
import type { AddShardInput, CacheShard, ObjectIdResult } from "../types";

function shardsPath(clusterId: string, action: string): string {
  return `/v1/clusters/${seg(clusterId, "cluster id", action)}/shards`;
}

export function shardPath(clusterId: string, shardId: string, action: string): string {
  return `${shardsPath(clusterId, action)}/${seg(shardId, "shard id", action)}`;
}

export class ShardApi {
  constructor(private readonly http: CacheHttp) {}

  /** POST /v1/clusters/{id}/shards: one new shard. Not idempotent (a repeat adds another). */
  async add(clusterId: string, input: AddShardInput): Promise<ObjectIdResult> {
    const action = `adding a shard to cache cluster "${clusterId}"`;
    return this.http.objectId({
      operation: "AddShard",
      method: "POST",
      path: shardsPath(clusterId, action),
      body: expandAddShard(input),
      expect: [200, 201],
      action,
      idempotent: false,
    });
  }

  /** GET /v1/clusters/{id}/shards: shards with their slots and nodes. */
  async list(clusterId: string): Promise<CacheShard[]> {
    const action = `listing the shards of cache cluster "${clusterId}"`;
    return this.http.read({ operation: "ListShards", method: "GET", path: shardsPath(clusterId, action), action, idempotent: true }, flattenShardList);
  }

  async get(clusterId: string, shardId: string): Promise<CacheShard> {
    const action = `reading shard "${shardId}" of cache cluster "${clusterId}"`;
    return this.http.read({ operation: "GetShard", method: "GET", path: shardPath(clusterId, shardId, action), action, idempotent: true }, flattenShard);
  }

  async delete(clusterId: string, shardId: string): Promise<ObjectIdResult> {
    const action = `deleting shard "${shardId}" of cache cluster "${clusterId}"`;
    return this.http.objectId({ operation: "DeleteShard", method: "DELETE", path: shardPath(clusterId, shardId, action), action, idempotent: true }, shardId);
  }
}
