/**
 * Instance sets (cluster mode disabled, spec 02 §4.3): one primary plus replicas, optional high
 * availability. An instance set is read through `/v1/clusters/{id}` (ClusterApi.get).
 */

import { keepBackupsQuery, rejectInvalidUpdate } from "./clusters";
import { CacheInvalidArgumentError } from "../errors";
import { expandCreateInstanceSet, expandUpdate } from "../expand";
import { changePart, seg, type CacheHttp } from "./context";
import { flattenInstanceList } from "../parse";
import type { CreateInstanceSetInput, DeleteOptions, InstanceList, ObjectIdResult, Ref, UpdateInstanceSetInput } from "../types";

function setPath(id: string, action: string): string {
  return `/v1/instance-sets/${seg(id, "instance set id", action)}`;
}

export class InstanceSetApi {
  constructor(
    private readonly http: CacheHttp,
    /** The client's project, used when the input has none (the body requires `projectId`). */
    private readonly defaultProjectId: string | undefined,
  ) {}

  /**
   * POST /v1/instance-sets, the three variants of §4.3 in one body: new (no `restoreSource`),
   * from a backup name, from backup files in object storage. Not idempotent.
   */
  async create(input: CreateInstanceSetInput): Promise<ObjectIdResult> {
    const rs = input.restoreSource;
    const action =
      rs && "backupName" in rs
        ? `restoring cache instance set "${input.instanceSetName}" from backup "${rs.backupName}"`
        : rs && "files" in rs
          ? `restoring cache instance set "${input.instanceSetName}" from ${rs.files.length} backup file(s)`
          : `creating cache instance set "${input.instanceSetName}"`;
    const projectId = input.projectId ?? this.defaultProjectId;
    if (!projectId) throw new CacheInvalidArgumentError(`${action}: no project ID: set projectId, krcloud:projectId or KRCLOUD_PROJECT_ID`);
    return this.http.objectId({
      operation: rs ? "RestoreInstanceSet" : "CreateInstanceSet",
      method: "POST",
      path: "/v1/instance-sets",
      body: expandCreateInstanceSet({ ...input, projectId }),
      expect: [200, 201],
      action,
      idempotent: false,
      secrets: [input.user?.password],
    });
  }

  /** Variant 2: restore from an existing backup name. */
  restoreFromBackup(input: Omit<CreateInstanceSetInput, "restoreSource">, backupName: string): Promise<ObjectIdResult> {
    return this.create({ ...input, restoreSource: { backupName } });
  }

  /** Variant 3: restore from backup files in object storage (`bucket/folder/.../file`). */
  restoreFromFiles(input: Omit<CreateInstanceSetInput, "restoreSource">, files: string[]): Promise<ObjectIdResult> {
    return this.create({ ...input, restoreSource: { files } });
  }

  /** PATCH /v1/instance-sets/{id}: absolute values (null schedule turns backups off); idempotent. */
  async update(id: string, input: UpdateInstanceSetInput): Promise<ObjectIdResult> {
    const action = `updating cache instance set "${id}"`;
    rejectInvalidUpdate(action, input);
    return this.http.objectId(
      {
        operation: "UpdateInstanceSet",
        method: "PATCH",
        path: setPath(id, action),
        body: expandUpdate(input),
        action,
        idempotent: true,
      },
      id,
    );
  }

  /** DELETE /v1/instance-sets/{id}?keepAutomaticBackups=… */
  async delete(id: string, o: DeleteOptions = {}): Promise<ObjectIdResult> {
    const action = `deleting cache instance set "${id}"`;
    return this.http.objectId(
      {
        operation: "DeleteInstanceSet",
        method: "DELETE",
        path: setPath(id, action),
        query: keepBackupsQuery(o),
        action,
        idempotent: true,
      },
      id,
    );
  }

  /** GET /v1/instance-sets/{id}/instances: `{size, data}`. */
  async listInstances(id: string): Promise<InstanceList> {
    const action = `listing the instances of cache instance set "${id}"`;
    return this.http.read(
      { operation: "ListInstances", method: "GET", path: `${setPath(id, action)}/instances`, action, idempotent: true },
      flattenInstanceList,
    );
  }

  /** DELETE /v1/instance-sets/{id}/instances/{instance}; the rules of §3 apply (HA, primary, backups). */
  async deleteInstance(id: string, instanceId: string): Promise<ObjectIdResult> {
    const action = `deleting instance "${instanceId}" of cache instance set "${id}"`;
    return this.http.objectId(
      {
        operation: "DeleteInstance",
        method: "DELETE",
        path: `${setPath(id, action)}/instances/${seg(instanceId, "instance id", action)}`,
        action,
        idempotent: true,
      },
      instanceId,
    );
  }

  /**
   * PATCH /v1/instance-sets/{id}/primary `{primaryId}`: promote a replica (HA must be off, §3).
   * Declared not idempotent: a repeat after a lost answer would fail over again.
   */
  async promote(id: string, primaryId: string): Promise<ObjectIdResult> {
    const action = `promoting instance "${primaryId}" of cache instance set "${id}" to primary`;
    return changePart(this.http, "PATCH", setPath(id, action), "primary", id, { operation: "PromoteReplica", body: { primaryId }, action, idempotent: false });
  }

  /** PATCH /v1/instance-sets/{id}/replicas `{subnet: {id}}`: one more replica (at most 5). Not idempotent. */
  async addReplica(id: string, input: { subnet: Ref }): Promise<ObjectIdResult> {
    const action = `adding a replica to cache instance set "${id}"`;
    return changePart(this.http, "PATCH", setPath(id, action), "replicas", id, {
      operation: "AddReplicaInstance",
      body: { subnet: { id: input.subnet.id } },
      expect: [200, 201],
      action,
      idempotent: false,
    });
  }

  /** PATCH /v1/instance-sets/{id}/recovery `{enabled}`: set high availability (set must be Running). Idempotent. */
  async setHighAvailability(id: string, enabled: boolean): Promise<ObjectIdResult> {
    const action = `${enabled ? "enabling" : "disabling"} high availability of cache instance set "${id}"`;
    return changePart(this.http, "PATCH", setPath(id, action), "recovery", id, {
      operation: "SetHighAvailability",
      body: { enabled },
      action,
      idempotent: true,
    });
  }
}
