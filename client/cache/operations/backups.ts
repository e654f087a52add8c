/**
 * Backups on demand: not in the spec (02 shows backups only as a restore's source and a schedule);
 * from the cloud's public API documentation, which shows `POST /v1/backups {clusterId, name}` ->
 * `201 {objectId}` and `GET /v1/backups?clusterName=…`. Get and delete by id are guesses (the
 * API's other nouns have them), recorded in docs/api-assumptions.md with the record's fields.
 */

import { orUndefined } from "../../core";
import { seg, type CacheHttp } from "./context";
import { flattenBackup, flattenBackupList } from "../parse";
import type { CacheBackup, CreateBackupInput, ListBackupsOptions, ObjectIdResult } from "../types";

function backupPath(id: string, action: string): string {
  return `/v1/backups/${seg(id, "backup id", action)}`;
}

export class BackupApi {
  constructor(private readonly http: CacheHttp) {}

  /** POST /v1/backups: takes a backup of a cluster or instance set now. Not idempotent: each call takes one (a name taken is 409). */
  async create(input: CreateBackupInput): Promise<ObjectIdResult> {
    const action = `taking backup "${input.name}" of cache cluster "${input.clusterId}"`;
    seg(input.clusterId, "cluster id", action);
    seg(input.name, "backup name", action);
    return this.http.objectId({
      operation: "CreateBackup",
      method: "POST",
      path: "/v1/backups",
      body: { clusterId: input.clusterId, name: input.name },
      expect: [200, 201],
      action,
      idempotent: false,
    });
  }

  /** GET /v1/backups[?clusterName=…]: automatic and on-demand backups, all of the project's without a name. */
  async list(o: ListBackupsOptions = {}): Promise<CacheBackup[]> {
    const action = o.clusterName === undefined ? "listing cache backups" : `listing the backups of cache cluster "${o.clusterName}"`;
    return this.http.read(
      { operation: "ListBackups", method: "GET", path: "/v1/backups", query: { clusterName: o.clusterName }, action, idempotent: true },
      flattenBackupList,
    );
  }

  /** GET /v1/backups/{id} (guessed). */
  async get(id: string): Promise<CacheBackup> {
    const action = `reading cache backup "${id}"`;
    return this.http.read({ operation: "GetBackup", method: "GET", path: backupPath(id, action), action, idempotent: true }, flattenBackup);
  }

  /** The backup, or undefined on 404. */
  async find(id: string): Promise<CacheBackup | undefined> {
    return orUndefined(this.get(id));
  }

  /**
   * The backup named `name` of the cluster (or instance set) named `clusterName`, when there is one:
   * the list by cluster name, and the whole list when the service's filter misses it (a backup
   * outlives its cluster, whose name a service may then no longer match).
   */
  async findByName(clusterName: string, name: string): Promise<CacheBackup | undefined> {
    const mine = await this.list({ clusterName });
    return mine.find((b) => b.name === name) ?? (await this.list()).find((b) => b.name === name);
  }

  /** DELETE /v1/backups/{id} (guessed). Idempotent: a repeat finds it gone. */
  async delete(id: string): Promise<ObjectIdResult> {
    const action = `deleting cache backup "${id}"`;
    return this.http.objectId({ operation: "DeleteBackup", method: "DELETE", path: backupPath(id, action), action, idempotent: true }, id);
  }
}
