/**
 * Instance sets (spec 02 §4.3): create (new, from a backup name, from backup files in object
 * storage), their instances, replicas, promote and high availability. One method per operation;
 * the update and delete they share with clusters are clusters.ts.
 */
import { createWriteStream, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import type { RestoreFiles } from "../engine";
import {
  BackupPolicy,
  HighAvailabilityEnabled,
  InstanceNotFound,
  InvalidInstanceState,
  InvalidState,
  NoReplica,
  NotAnInstanceSet,
  ReplicaLimit,
  Unprocessable,
} from "../errors";
import { SERVICE } from "../lifecycle";
import type { CreateInstanceSetBody, StoredCluster, StoredNode } from "../model";
import { memoryOf, recordOf, type ClusterBackend } from "./clusters";
import { newId, type CacheState } from "./state";

export class InstanceSetBackend {
  constructor(
    private readonly state: CacheState,
    private readonly clusters: ClusterBackend,
  ) {}

  create(projectId: string, b: CreateInstanceSetBody): string {
    this.clusters.checkCreate(projectId, { ...b, name: b.instanceSetName }, false);
    const source = b.restoreSource;
    const restore = source?.files
      ? this.objectFiles(projectId, source.files)
      : source
        ? this.state.redis.backupFiles(
            this.state.backupReady(
              this.state.backups.restorable(projectId, source.backupName, { clusterMode: false, version: b.version, memoryGiB: memoryOf(b.flavorId) }),
            ),
          )
        : undefined;
    const sid = newId("iset");
    const a = b.subnetAssignments[0]!;
    const instances = [this.state.node(a.primary.id, "primary", "instance"), ...a.replicas.map((r) => this.state.node(r.id, "replica", "instance"))];
    this.clusters.add(
      {
        ...recordOf({ ...b, name: b.instanceSetName }, projectId, this.state.iso()),
        id: sid,
        clusterEnabled: false,
        recoveryEnabled: b.recoveryEnabled,
        shards: [{ id: `${sid}-group`, name: "instances", slots: [], nodes: instances, createdAt: this.state.iso() }],
      },
      restore,
    );
    return sid;
  }

  /**
   * Backup files in object storage (variant 3, `bucket/folder/.../file`): each must exist in the
   * project (422 otherwise); their content is copied out when the restore runs.
   */
  private objectFiles(projectId: string, files: string[]): RestoreFiles {
    const sources = files.map((f) => {
      const [bucket = "", ...rest] = f.split("/");
      const stream = this.state.options.readObject?.(projectId, bucket, rest.join("/"));
      if (!stream) throw new Unprocessable(`restoreSource.files: no object "${f}" in this project's object storage.`);
      stream.pause();
      return stream;
    });
    return async () => {
      const dir = this.state.engineForNew.incomingDir();
      if (!dir) {
        for (const s of sources) s.destroy();
        return [];
      }
      const into = mkdtempSync(join(dir, "files-"));
      const out: string[] = [];
      for (const [i, stream] of sources.entries()) {
        const file = join(into, `${i}.rdb`);
        await pipeline(stream, createWriteStream(file));
        out.push(file);
      }
      return out;
    };
  }

  private instanceSet(projectId: string, setId: string): StoredCluster {
    const c = this.state.cluster(projectId, setId);
    if (c.clusterEnabled) throw new NotAnInstanceSet(`"${setId}" is a cluster, not an instance set.`);
    return c;
  }

  instances(projectId: string, setId: string): StoredNode[] {
    return this.instanceSet(projectId, setId).shards[0]!.nodes;
  }

  addReplica(projectId: string, setId: string, subnetId: string): string {
    const c = this.instanceSet(projectId, setId);
    const group = c.shards[0]!;
    if (group.nodes.length - 1 >= 5) throw new ReplicaLimit("An instance set has at most 5 replicas.");
    const n = this.state.node(subnetId, "replica", "instance");
    group.nodes.push(n);
    this.state.modifying(c);
    this.state.engineOf(c).nodeAdded(c, group, n);
    return n.id;
  }

  deleteInstance(projectId: string, setId: string, instanceId: string): string {
    const c = this.instanceSet(projectId, setId);
    const group = c.shards[0]!;
    const n = group.nodes.find((x) => x.id === instanceId);
    if (!n) throw new InstanceNotFound(`No instance "${instanceId}".`);
    const st = this.state.statuses.node(c, n, false);
    if (group.nodes.length === 2 && c.backupSchedule) throw new BackupPolicy("An instance set of 2 nodes with automatic backups keeps both.");
    if (c.recoveryEnabled && (n.role === "primary" || st !== "Running"))
      throw new InvalidInstanceState("With high availability, only a Running replica may be deleted.");
    if (!c.recoveryEnabled && n.role === "primary" && st !== "FAILED" && st !== "Failed")
      throw new InvalidInstanceState("The primary may be deleted only when it has failed.");
    group.nodes = group.nodes.filter((x) => x.id !== n.id);
    this.state.managed.remove(SERVICE, "instance", n.id);
    this.state.modifying(c);
    this.state.engineOf(c).nodeRemoved(c, n);
    return n.id;
  }

  promote(projectId: string, setId: string, primaryId: string): string {
    const c = this.instanceSet(projectId, setId);
    if (c.recoveryEnabled) throw new HighAvailabilityEnabled("Promote needs high availability off.");
    const group = c.shards[0]!;
    const target = group.nodes.find((x) => x.id === primaryId);
    if (!target) throw new InstanceNotFound(`No instance "${primaryId}".`);
    if (this.state.statuses.node(c, target, false) === "FAILED") throw new InvalidInstanceState(`Instance "${primaryId}" has failed: it cannot be promoted.`);
    for (const n of group.nodes) n.role = n.id === primaryId ? "primary" : "replica";
    this.state.modifying(c);
    this.state.engineOf(c).promoted(c, target);
    return c.id;
  }

  setRecovery(projectId: string, setId: string, enabled: boolean): string {
    const c = this.instanceSet(projectId, setId);
    if (this.state.statuses.cluster(c, false) !== "Running") throw new InvalidState("High availability can be set only while the instance set is Running.");
    if (enabled && c.shards[0]!.nodes.length < 2) throw new NoReplica("High availability needs a replica.");
    c.recoveryEnabled = enabled;
    this.state.modifying(c);
    return c.id;
  }
}
