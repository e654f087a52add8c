/**
 * CacheClient: every operation of spec 02-cache.md (and the on-demand backups of the cloud's public
 * API documentation, operations/backups.ts) over core's Transport (retries, errors,
 * redaction, `X-Auth-Token`). Operations are grouped by API noun; failures are core ApiErrors
 * (`isNotFound`, `isConflict`, ...) whose message says what was being done, e.g.
 * `creating cache cluster "web": 409 …`.
 */

import { transportFor, type Transport } from "../core";
import { BackupApi } from "./operations/backups";
import { CatalogueApi } from "./operations/catalogue";
import { ClusterApi } from "./operations/clusters";
import { CacheHttp } from "./operations/context";
import { InstanceSetApi } from "./operations/instance-sets";
import { NodeApi } from "./operations/nodes";
import { ParameterGroupApi } from "./operations/parameter-groups";
import { ShardApi } from "./operations/shards";
import { flattenClusterTopology, flattenInstanceSetTopology, type ClusterTopology, type InstanceSetTopology } from "./topology";
import type { CacheClientOptions, CacheClusterRecord } from "./types";
import "./secrets";

export class CacheClient {
  readonly transport: Transport;
  readonly catalogue: CatalogueApi;
  readonly clusters: ClusterApi;
  readonly shards: ShardApi;
  readonly nodes: NodeApi;
  readonly instanceSets: InstanceSetApi;
  readonly parameterGroups: ParameterGroupApi;
  readonly backups: BackupApi;

  constructor(opts: CacheClientOptions) {
    this.transport = transportFor("cache", opts);
    const http = new CacheHttp(this.transport, opts.settings);
    this.catalogue = new CatalogueApi(http);
    this.clusters = new ClusterApi(http);
    this.shards = new ShardApi(http);
    this.nodes = new NodeApi(http);
    this.instanceSets = new InstanceSetApi(http, opts.settings.projectId);
    this.parameterGroups = new ParameterGroupApi(http);
    this.backups = new BackupApi(http);
  }

  /** The cluster or instance set, or undefined on 404. */
  findClusterById(id: string): Promise<CacheClusterRecord | undefined> {
    return this.clusters.find(id);
  }

  /**
   * The live topology of a cluster: its shards with slots and nodes. A shard listed without nodes
   * has them fetched from its nodes endpoint (the spec shows `nodes[]` in the shard, §2.2, but the
   * list answer is not shown).
   */
  async clusterTopology(clusterId: string): Promise<ClusterTopology> {
    const shards = await this.shards.list(clusterId);
    for (const s of shards) if (s.nodes.length === 0 && s.raw.nodes === undefined) s.nodes = await this.nodes.list(clusterId, s.id);
    return flattenClusterTopology(shards);
  }

  /** The live topology of an instance set: primary, replicas, states. */
  async instanceSetTopology(instanceSetId: string): Promise<InstanceSetTopology> {
    return flattenInstanceSetTopology((await this.instanceSets.listInstances(instanceSetId)).instances);
  }
}
