/**
 * Clusters (cluster mode enabled, spec 02 §4.2) and the record both clusters and instance sets are
 * read through (`/v1/clusters`, §4.1), plus retry-apply of a parameter group (§4.1).
 */

import { CacheInvalidArgumentError } from "../errors";
import { expandCreateCluster, expandUpdate } from "../expand";
import { orUndefined } from "../../core";
import { seg, type CacheHttp } from "./context";
import { flattenClusterList, flattenClusterRecord } from "../parse";
import type { CacheClusterRecord, CreateClusterInput, DeleteOptions, ObjectIdResult, UpdateClusterInput } from "../types";
import { formatFailures, validateUpdateInput } from "../validate";

export interface ListClustersOptions {
  /** Keep only clusters using this parameter group (ID or name). */
  parameterGroup?: string;
}

/** `keepAutomaticBackups` as the query wants it: the string "true"/"false", omitted when undefined. */
export function keepBackupsQuery(o: DeleteOptions = {}): Record<string, string | undefined> {
  return { keepAutomaticBackups: o.keepAutomaticBackups === undefined ? undefined : String(o.keepAutomaticBackups) };
}

function clusterPath(id: string, action: string): string {
  return `/v1/clusters/${seg(id, "cluster id", action)}`;
}

export class ClusterApi {
  constructor(private readonly http: CacheHttp) {}

  /**
   * GET /v1/clusters: clusters and instance sets. The spec shows no paging (§4.1: `{clusters: [...]}`),
   * so this is one request; `parameterGroup` filters to the clusters using that group.
   */
  async list(o: ListClustersOptions = {}): Promise<CacheClusterRecord[]> {
    const action = o.parameterGroup === undefined ? "listing cache clusters" : `listing cache clusters using parameter group "${o.parameterGroup}"`;
    return this.http.read(
      {
        operation: "ListClusters",
        method: "GET",
        path: "/v1/clusters",
        query: { parameterGroup: o.parameterGroup },
        action,
        idempotent: true,
      },
      flattenClusterList,
    );
  }

  /** GET /v1/clusters/{id}: a cluster or an instance set. */
  async get(id: string): Promise<CacheClusterRecord> {
    const action = `reading cache cluster "${id}"`;
    return this.http.read(
      {
        operation: "GetCluster",
        method: "GET",
        path: clusterPath(id, action),
        action,
        idempotent: true,
      },
      flattenClusterRecord,
    );
  }

  /** The record, or undefined when it does not exist (404). */
  async find(id: string): Promise<CacheClusterRecord | undefined> {
    return orUndefined(this.get(id));
  }

  /** POST /v1/clusters: a new cluster, or a restored one when `input.restoreSource` is set. Not idempotent. */
  async create(input: CreateClusterInput): Promise<ObjectIdResult> {
    const action = input.restoreSource
      ? `restoring cache cluster "${input.name}" from backup "${input.restoreSource.backupName}"`
      : `creating cache cluster "${input.name}"`;
    return this.http.objectId({
      operation: input.restoreSource ? "RestoreCluster" : "CreateCluster",
      method: "POST",
      path: "/v1/clusters",
      body: expandCreateCluster(input),
      expect: [200, 201],
      action,
      idempotent: false,
      secrets: [input.user?.password],
    });
  }

  /** POST /v1/clusters with `restoreSource.backupName` (§4.2). */
  async restore(input: Omit<CreateClusterInput, "restoreSource">, backupName: string): Promise<ObjectIdResult> {
    return this.create({ ...input, restoreSource: { backupName } });
  }

  /**
   * PATCH /v1/clusters/{id}: description, parameter group, security groups, backup schedule
   * (null turns backups off). Absolute values, so idempotent.
   */
  async update(id: string, input: UpdateClusterInput): Promise<ObjectIdResult> {
    const action = `updating cache cluster "${id}"`;
    rejectInvalidUpdate(action, input);
    return this.http.objectId(
      {
        operation: "UpdateCluster",
        method: "PATCH",
        path: clusterPath(id, action),
        body: expandUpdate(input),
        action,
        idempotent: true,
      },
      id,
    );
  }

  /** DELETE /v1/clusters/{id}?keepAutomaticBackups=… (the parameter is required when automatic backups exist). */
  async delete(id: string, o: DeleteOptions = {}): Promise<ObjectIdResult> {
    const action = `deleting cache cluster "${id}"`;
    return this.http.objectId(
      {
        operation: "DeleteCluster",
        method: "DELETE",
        path: clusterPath(id, action),
        query: keepBackupsQuery(o),
        action,
        idempotent: true,
      },
      id,
    );
  }

  /**
   * POST /v1/clusters/{id}/parameter-group/apply, no body: applies the cluster's (or instance
   * set's) parameter group again after Error-Sync or Suspended (§3). Not idempotent: each call
   * starts an apply.
   */
  async retryParameterGroupApply(id: string): Promise<ObjectIdResult> {
    const action = `retrying the parameter group apply of cache cluster "${id}"`;
    return this.http.objectId(
      {
        operation: "RetryParameterGroupApply",
        method: "POST",
        path: `${clusterPath(id, action)}/parameter-group/apply`,
        action,
        idempotent: false,
      },
      id,
    );
  }
}

/** The spec's hard rules for updates (§4.2/§4.3: parameterGroupId never empty), enforced before sending. */
export function rejectInvalidUpdate(action: string, input: UpdateClusterInput): void {
  if (input.parameterGroupId !== undefined && input.parameterGroupId.trim() === "") {
    throw new CacheInvalidArgumentError(`${action}: ${formatFailures(validateUpdateInput({ parameterGroupId: input.parameterGroupId }, "cluster"))}`);
  }
}

/** The cluster or instance set, or undefined when it does not exist: Read's "disappears" path. */
export function findClusterById(client: { clusters: ClusterApi }, id: string): Promise<CacheClusterRecord | undefined> {
  return client.clusters.find(id);
}
