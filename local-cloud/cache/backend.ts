/**
 * The cache service's state and one method per API operation (spec 02): parameter groups, clusters
 * with shards and nodes, instance sets. Routes have authenticated the caller and parsed the body;
 * statuses come from lifecycle.ts, JSON views from views.ts, the control API is control.ts. After
 * each change of the stored state the cluster's data plane (engine.ts) is told.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Backups } from "./backups";
import { SimulatedEngine, type CacheEngine, type EngineHooks, type RestoreFiles } from "./engine";
import { RedisEngine } from "./redis/engine";
import { aclPasswordHash, newAdminPassword } from "./redis/security";
import { BadRequest } from "../core/errors";
import {
  BackupPolicy,
  ClusterNotFound,
  DefaultParameterGroup,
  DuplicateName,
  HighAvailabilityEnabled,
  InstanceNotFound,
  InvalidInstanceState,
  InvalidParameterGroup,
  InvalidParameterValue,
  InvalidState,
  LastShard,
  NodeNotFound,
  NoReplica,
  NotACluster,
  NotAnInstanceSet,
  NothingToRetry,
  ParameterGroupInUse,
  ParameterGroupNotFound,
  PrimaryNode,
  ReplicaLimit,
  RollbackUnavailable,
  ShardDeleting,
  ShardLimit,
  ShardNotFound,
  Unprocessable,
} from "./errors";
import type { ManagedState } from "../core/managed-state";
import { defaultParameterGroups, FLAVORS, invalidValue, PARAMETERS, VERSIONS } from "./catalogue";
import { CacheStatuses, SERVICE } from "./lifecycle";
import type { CommonBody, CreateClusterBody, CreateInstanceSetBody, StoredCluster, StoredNode, StoredParameterGroup, StoredShard, UpdateBody } from "./model";

export { SERVICE };

const id = (prefix: string): string => `${prefix}-${randomBytes(6).toString("hex")}`;

export interface CacheBackendOptions {
  /** Where real nodes keep their data (node directories, backups). */
  dataDir: string;
  /** New clusters and instance sets on real redis-server processes (else simulated). */
  realRedis: boolean;
  /** A persisted local cloud: real nodes save their data when it stops. */
  persistent: boolean;
  /** State changed outside a request (the data plane's work): persist it. */
  changed: () => void;
  warn: (message: string) => void;
  /** An object's content in object storage (restores from files), undefined when there is none. */
  readObject?: (projectId: string, bucket: string, key: string) => Readable | undefined;
}

export class CacheBackend {
  groups = new Map<string, StoredParameterGroup>();
  clusters = new Map<string, StoredCluster>();
  /** Clusters whose next sync stays Error-Sync even after a retry (control API). */
  stickySyncErrors = new Set<string>();
  readonly backups: Backups;
  readonly statuses: CacheStatuses;
  private readonly simulated = new SimulatedEngine();
  private readonly redis: RedisEngine;
  private ipSeq = 1;

  constructor(
    readonly now: () => number,
    private readonly state: ManagedState,
    private readonly options: CacheBackendOptions,
  ) {
    const hooks: EngineHooks = {
      runtimeParameters: (c) => {
        const g = this.groups.get(c.parameterGroupId);
        return Object.fromEntries(
          PARAMETERS.filter((p) => p.parameterType === "DYNAMIC").map((p) => [p.parameterKey, g?.values[p.parameterKey] ?? p.defaultParameterValue]),
        );
      },
      parameterEvent: (c, message) => this.groups.get(c.parameterGroupId)?.events.push({ eventName: "Apply Parameter", message, createdAt: this.iso() }),
      changed: options.changed,
      warn: options.warn,
    };
    this.redis = new RedisEngine(join(options.dataDir, "cache"), options.persistent, hooks);
    this.backups = new Backups({ taken: (c, b) => this.engineOf(c).backupTaken(c, b), dropped: (b) => this.redis.backupDropped(b) });
    this.statuses = new CacheStatuses(state, (c) => this.engineOf(c));
    this.clear();
  }

  /** The data plane of an existing cluster or instance set (each keeps the one it was created on). */
  engineOf(c: StoredCluster): CacheEngine {
    return c.engine === "redis" ? this.redis : this.simulated;
  }

  /** The data plane new clusters and instance sets get. */
  private get engineForNew(): CacheEngine {
    return this.options.realRedis ? this.redis : this.simulated;
  }

  /** Stops the real nodes (saving their data when the local cloud persists). */
  close(): Promise<void> {
    return this.redis.close();
  }

  private iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Time-driven work (automatic backups); every request and the control API's inventory run it first. */
  tick(): void {
    this.backups.run(this.clusters.values(), this.now());
  }

  /** Control API: everything goes, real nodes and their data included. */
  reset(): void {
    this.redis.reset();
    this.clear();
  }

  /** The state as on a new local cloud (the default parameter groups only); nodes are not touched. */
  clear(): void {
    this.groups.clear();
    this.clusters.clear();
    this.stickySyncErrors.clear();
    this.backups.reset();
    for (const g of defaultParameterGroups()) this.groups.set(g.id, g);
  }

  // ---- catalogue -------------------------------------------------------------------------------

  versions(): string[] {
    return [...VERSIONS];
  }

  flavors(): object[] {
    return FLAVORS.map((f) => ({ ...f }));
  }

  // ---- parameter groups --------------------------------------------------------------------------

  group(projectId: string, idOrName: string): StoredParameterGroup {
    const g = this.groups.get(idOrName) ?? [...this.groups.values()].find((x) => x.name === idOrName && (x.isDefault || x.projectId === projectId));
    if (!g || (!g.isDefault && g.projectId !== projectId)) throw new ParameterGroupNotFound(`No parameter group "${idOrName}".`);
    return g;
  }

  createGroup(projectId: string, body: { parameterGroupId: string; name: string; description?: string }): string {
    const base = this.group(projectId, body.parameterGroupId);
    if (!base.isDefault) throw new InvalidParameterGroup("parameterGroupId: must name a default parameter group.");
    if ([...this.groups.values()].some((g) => g.name === body.name && (g.isDefault || g.projectId === projectId)))
      throw new DuplicateName(`A parameter group named "${body.name}" exists.`);
    const gid = id("pg");
    this.groups.set(gid, {
      ...base,
      id: gid,
      projectId,
      name: body.name,
      description: body.description ?? "",
      isDefault: false,
      defaultParameterGroupId: base.id,
      values: { ...base.values },
      previous: undefined,
      events: [],
      createdAt: this.iso(),
    });
    return gid;
  }

  /** The project's custom groups and every default group, filtered as ListParameterGroups filters them. */
  listGroups(projectId: string, filter: { engineVersion: string | null; isDefault?: boolean; clusterMode?: boolean }): StoredParameterGroup[] {
    const version = filter.engineVersion;
    return [...this.groups.values()].filter(
      (g) =>
        (g.isDefault || g.projectId === projectId) &&
        (!version || g.engineVersion === version || g.engineVersion.startsWith(`${version}.`)) &&
        (filter.isDefault === undefined || filter.isDefault === g.isDefault) &&
        (filter.clusterMode === undefined || filter.clusterMode === g.clusterMode),
    );
  }

  usersOf(g: StoredParameterGroup): StoredCluster[] {
    return [...this.clusters.values()].filter((c) => c.parameterGroupId === g.id);
  }

  modifyGroup(
    projectId: string,
    idOrName: string,
    body: { description?: string; parameters?: { parameterKey: string; parameterValue: string }[]; applyMode?: string },
  ): string {
    const g = this.group(projectId, idOrName);
    if (g.isDefault) throw new DefaultParameterGroup("A default parameter group cannot be modified.");
    if (body.description !== undefined) g.description = body.description;
    if (body.parameters && body.parameters.length > 0) {
      if (body.applyMode !== "sequential" && body.applyMode !== "parallel")
        throw new BadRequest("applyMode: required with parameters, sequential or parallel.");
      const bad: string[] = [];
      for (const p of body.parameters) {
        const def = PARAMETERS.find((d) => d.parameterKey === p.parameterKey);
        if (!def) bad.push(`${p.parameterKey}: unknown parameter`);
        else if (!def.editable && p.parameterValue !== g.values[p.parameterKey]) bad.push(`${p.parameterKey}: not editable`);
        else {
          const why = invalidValue(def, String(p.parameterValue));
          if (why) bad.push(`${p.parameterKey}: ${why}`);
        }
      }
      if (bad.length) throw new InvalidParameterValue(`parameters: ${bad.join("; ")}`);
      g.previous = { ...g.values };
      for (const p of body.parameters) g.values[p.parameterKey] = String(p.parameterValue);
      g.events.push({
        eventName: "Update Parameter",
        message: body.parameters.map((p) => `${p.parameterKey}=${p.parameterValue}`).join(", "),
        createdAt: this.iso(),
      });
      this.apply(g, body.applyMode);
    }
    return g.id;
  }

  resetGroup(projectId: string, idOrName: string, applyMode: unknown): string {
    const g = this.group(projectId, idOrName);
    if (applyMode !== "sequential" && applyMode !== "parallel") throw new BadRequest("applyMode: required, sequential or parallel.");
    g.previous = { ...g.values };
    g.values = Object.fromEntries(PARAMETERS.map((p) => [p.parameterKey, p.defaultParameterValue]));
    g.events.push({ eventName: "Update Parameter", message: "reset to the default values", createdAt: this.iso() });
    this.apply(g, applyMode);
    return g.id;
  }

  rollbackGroup(projectId: string, idOrName: string, applyMode: unknown): string {
    const g = this.group(projectId, idOrName);
    if (!g.previous) throw new RollbackUnavailable("Nothing to roll back to.");
    if (applyMode !== undefined && applyMode !== "sequential" && applyMode !== "parallel") throw new BadRequest("applyMode: sequential or parallel.");
    [g.values, g.previous] = [g.previous, undefined];
    g.events.push({ eventName: "Update Parameter", message: "rolled back to the previous values", createdAt: this.iso() });
    this.apply(g, applyMode ?? "parallel");
    return g.id;
  }

  deleteGroup(projectId: string, idOrName: string): string {
    const g = this.group(projectId, idOrName);
    if (g.isDefault) throw new DefaultParameterGroup("A default parameter group cannot be deleted.");
    const users = this.usersOf(g);
    if (users.length) throw new ParameterGroupInUse(`Parameter group "${g.name}" is used by ${users.map((u) => u.name).join(", ")}.`);
    this.groups.delete(g.id);
    return g.id;
  }

  /** The group's values reach the clusters using it: their sync goes Applying -> In-Sync (or Error-Sync where a node refuses a value). */
  private apply(g: StoredParameterGroup, mode: unknown): void {
    const users = this.usersOf(g);
    if (users.length)
      g.events.push({ eventName: "Apply Parameter", message: `applying to ${users.length} cluster(s) (${String(mode)})`, createdAt: this.iso() });
    for (const c of users) this.beginSync(c, mode === "sequential" ? "sequential" : "parallel");
  }

  private beginSync(c: StoredCluster, mode: "sequential" | "parallel"): void {
    if (this.stickySyncErrors.has(c.id)) this.state.set(SERVICE, "sync", c.id, "Error-Sync");
    else this.state.begin(SERVICE, "sync", c.id, "Applying", "In-Sync");
    this.engineOf(c).applyParameters(c, mode);
  }

  retryApply(projectId: string, clusterId: string): string {
    const c = this.cluster(projectId, clusterId);
    const sync = this.statuses.sync(c, false);
    if (sync === "In-Sync") throw new NothingToRetry("The parameter group is in sync; nothing to retry.");
    const g = this.groups.get(c.parameterGroupId);
    g?.events.push({
      eventName: "Apply Parameter",
      message: `retry on ${c.name}${this.stickySyncErrors.has(c.id) ? ": failed (value refused by the engine)" : ""}`,
      createdAt: this.iso(),
    });
    this.beginSync(c, "parallel");
    return c.id;
  }

  // ---- clusters and instance sets -------------------------------------------------------------------

  /** The project's clusters and instance sets, those using a parameter group (id or name) only when one is given. */
  listClusters(projectId: string, parameterGroup: string | null): StoredCluster[] {
    const g = parameterGroup ? this.group(projectId, parameterGroup) : undefined;
    return [...this.clusters.values()].filter((c) => c.projectId === projectId && (!g || c.parameterGroupId === g.id));
  }

  cluster(projectId: string, clusterId: string): StoredCluster {
    const c = this.clusters.get(clusterId);
    if (!c || c.projectId !== projectId) throw new ClusterNotFound(`No cluster or instance set "${clusterId}".`);
    return c;
  }

  private checkCommon(projectId: string, b: { name: string; version: string; flavorId: string; parameterGroupId: string }, clusterMode: boolean): void {
    if ([...this.clusters.values()].some((c) => c.projectId === projectId && c.name === b.name))
      throw new DuplicateName(`A cluster or instance set named "${b.name}" exists.`);
    if (!(VERSIONS as readonly string[]).includes(b.version)) throw new Unprocessable(`version: ${b.version} is not offered (${VERSIONS.join(", ")}).`);
    if (!FLAVORS.some((f) => f.id === b.flavorId)) throw new Unprocessable(`flavorId: ${b.flavorId} is not offered.`);
    const g = this.group(projectId, b.parameterGroupId);
    if (g.clusterMode !== clusterMode) throw new Unprocessable(`parameterGroupId: ${g.name} is for ${g.clusterMode ? "clusters" : "instance sets"}.`);
    if (g.engineVersion.split(".").slice(0, 2).join(".") !== b.version.split(".").slice(0, 2).join("."))
      throw new Unprocessable(`parameterGroupId: ${g.name} is for engine ${g.engineVersion}.`);
  }

  private node(subnetId: string, role: "primary" | "replica", kind: "node" | "instance"): StoredNode {
    const n: StoredNode = {
      id: id(kind === "node" ? "node" : "inst"),
      name: "",
      subnetId,
      endpoint: `10.0.${(this.ipSeq >> 8) & 255}.${this.ipSeq++ & 255}`,
      role,
      createdAt: this.iso(),
    };
    n.name = n.id;
    this.state.begin(SERVICE, kind, n.id, "PROVISIONING", "Running");
    return n;
  }

  createCluster(projectId: string, b: CreateClusterBody): string {
    this.checkCommon(projectId, b, true);
    let restore: RestoreFiles | undefined;
    if (b.restoreSource) {
      if (b.restoreSource.files) throw new Unprocessable("restoreSource.files: a cluster restores from a backup name only.");
      const backup = this.backups.restorable(projectId, b.restoreSource.backupName, true, b.version);
      if (b.shardCount !== backup.shardCount) throw new Unprocessable(`shardCount: a restore of "${backup.name}" needs its shard count, ${backup.shardCount}.`);
      restore = this.redis.backupFiles(backup);
    }
    const cid = id("cluster");
    const shards: StoredShard[] = b.subnetAssignments.map((a, i) => ({
      id: `${cid}-shard-${String(i + 1).padStart(4, "0")}`,
      name: `shard-${i + 1}`,
      slots: [],
      nodes: [this.node(a.primary.id, "primary", "node"), ...a.replicas.map((r) => this.node(r.id, "replica", "node"))],
      createdAt: this.iso(),
    }));
    const c: StoredCluster = { ...base(b, projectId, this.iso()), id: cid, clusterEnabled: true, recoveryEnabled: true, shards };
    this.clusters.set(cid, c);
    this.state.begin(SERVICE, "cluster", cid, "Creating", "Running");
    this.state.set(SERVICE, "sync", cid, "In-Sync");
    this.engineForNew.created(c, restore);
    return cid;
  }

  createInstanceSet(projectId: string, b: CreateInstanceSetBody): string {
    this.checkCommon(projectId, { ...b, name: b.instanceSetName }, false);
    const source = b.restoreSource;
    const restore = source?.files
      ? this.objectFiles(projectId, source.files)
      : source
        ? this.redis.backupFiles(this.backups.restorable(projectId, source.backupName, false, b.version))
        : undefined;
    const sid = id("iset");
    const a = b.subnetAssignments[0]!;
    const instances = [this.node(a.primary.id, "primary", "instance"), ...a.replicas.map((r) => this.node(r.id, "replica", "instance"))];
    const c: StoredCluster = {
      ...base({ ...b, name: b.instanceSetName }, projectId, this.iso()),
      id: sid,
      clusterEnabled: false,
      recoveryEnabled: b.recoveryEnabled,
      shards: [{ id: `${sid}-group`, name: "instances", slots: [], nodes: instances, createdAt: this.iso() }],
    };
    this.clusters.set(sid, c);
    this.state.begin(SERVICE, "cluster", sid, "Creating", "Running");
    this.state.set(SERVICE, "sync", sid, "In-Sync");
    this.engineForNew.created(c, restore);
    return sid;
  }

  /**
   * Backup files in object storage (variant 3, `bucket/folder/.../file`): each must exist in the
   * project (422 otherwise); their content is copied out when the restore runs.
   */
  private objectFiles(projectId: string, files: string[]): RestoreFiles {
    const sources = files.map((f) => {
      const [bucket = "", ...rest] = f.split("/");
      const stream = this.options.readObject?.(projectId, bucket, rest.join("/"));
      if (!stream) throw new Unprocessable(`restoreSource.files: no object "${f}" in this project's object storage.`);
      stream.pause();
      return stream;
    });
    return async () => {
      const dir = this.engineForNew.incomingDir();
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

  /** Description, parameter group, security groups, backup schedule (empty cron: off). */
  update(projectId: string, clusterId: string, b: UpdateBody): string {
    const c = this.cluster(projectId, clusterId);
    if (b.parameterGroupId !== undefined) {
      const g = this.group(projectId, b.parameterGroupId);
      if (g.clusterMode !== c.clusterEnabled) throw new BadRequest(`parameterGroupId: ${g.name} is for ${g.clusterMode ? "clusters" : "instance sets"}.`);
      this.switchGroup(c, g);
    }
    if (b.description !== undefined) c.description = b.description;
    if (b.securityGroups !== undefined) c.securityGroups = b.securityGroups.map((s) => s.id);
    if (b.backupSchedule !== undefined) c.backupSchedule = b.backupSchedule.cron === "" ? null : { ...b.backupSchedule };
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    return c.id;
  }

  delete(projectId: string, clusterId: string, keepAutomaticBackups: string | null): string {
    const c = this.cluster(projectId, clusterId);
    if (c.backupSchedule && keepAutomaticBackups === null) throw new BadRequest("keepAutomaticBackups: required when automatic backups exist.");
    // true keeps them until they expire; false deletes them with the cluster.
    if (keepAutomaticBackups === "false") this.backups.dropOf(c.id);
    this.remove(c);
    return c.id;
  }

  /** A cluster or instance set goes with its nodes, whatever it holds. */
  remove(c: StoredCluster): void {
    this.engineOf(c).removed(c);
    for (const s of c.shards) for (const n of s.nodes) this.state.remove(SERVICE, c.clusterEnabled ? "node" : "instance", n.id);
    this.state.remove(SERVICE, "cluster", c.id);
    this.state.remove(SERVICE, "sync", c.id);
    this.stickySyncErrors.delete(c.id);
    this.clusters.delete(c.id);
  }

  // ---- shards and nodes -----------------------------------------------------------------------------

  private clusterOnly(projectId: string, clusterId: string): StoredCluster {
    const c = this.cluster(projectId, clusterId);
    if (!c.clusterEnabled) throw new NotACluster(`"${clusterId}" is an instance set: it has no shards.`);
    return c;
  }

  shard(projectId: string, clusterId: string, shardId: string): StoredShard {
    const s = this.clusterOnly(projectId, clusterId).shards.find((x) => x.id === shardId);
    if (!s) throw new ShardNotFound(`No shard "${shardId}" in cluster "${clusterId}".`);
    return s;
  }

  addShard(projectId: string, clusterId: string, b: { nodeCount: number; subnetAssignment: { primary: { id: string }; replicas: { id: string }[] } }): string {
    const c = this.clusterOnly(projectId, clusterId);
    if (c.shards.length >= 12) throw new ShardLimit("A cluster has at most 12 shards.");
    if (b.subnetAssignment.replicas.length + 1 !== b.nodeCount)
      throw new BadRequest("nodeCount: must equal the primary plus the replicas of subnetAssignment.");
    const last = Math.max(0, ...c.shards.map((s) => Number(s.id.slice(-4))));
    const shard: StoredShard = {
      id: `${c.id}-shard-${String(last + 1).padStart(4, "0")}`,
      name: `shard-${last + 1}`,
      slots: [],
      nodes: [this.node(b.subnetAssignment.primary.id, "primary", "node"), ...b.subnetAssignment.replicas.map((r) => this.node(r.id, "replica", "node"))],
      createdAt: this.iso(),
    };
    c.shards.push(shard);
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    this.engineOf(c).shardAdded(c, shard);
    return shard.id;
  }

  deleteShard(projectId: string, clusterId: string, shardId: string): string {
    const c = this.clusterOnly(projectId, clusterId);
    const s = this.shard(projectId, clusterId, shardId);
    const engine = this.engineOf(c);
    if (engine.leaving(c, s)) throw new ShardDeleting(`Shard "${shardId}" is being deleted.`);
    if (c.shards.filter((x) => !engine.leaving(c, x)).length === 1) throw new LastShard("The last shard of a cluster cannot be deleted.");
    for (const n of s.nodes) this.state.remove(SERVICE, "node", n.id);
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    // Its slots move to the other shards first; the shard is listed until then.
    engine.shardRemoved(c, s);
    return s.id;
  }

  addReplica(projectId: string, clusterId: string, shardId: string, subnetId: string): string {
    const s = this.shard(projectId, clusterId, shardId);
    const c = this.clusters.get(clusterId)!;
    if (this.engineOf(c).leaving(c, s)) throw new ShardDeleting(`Shard "${shardId}" is being deleted.`);
    if (s.nodes.length >= 6) throw new ReplicaLimit("A shard has at most 5 replicas.");
    const n = this.node(subnetId, "replica", "node");
    s.nodes.push(n);
    this.state.begin(SERVICE, "cluster", clusterId, "Modifying", "Running");
    this.engineOf(c).nodeAdded(c, s, n);
    return n.id;
  }

  deleteNode(projectId: string, clusterId: string, shardId: string, nodeId: string): string {
    const s = this.shard(projectId, clusterId, shardId);
    const n = s.nodes.find((x) => x.id === nodeId);
    if (!n) throw new NodeNotFound(`No node "${nodeId}".`);
    if (n.role === "primary") throw new PrimaryNode("A primary node cannot be deleted.");
    const c = this.clusters.get(clusterId)!;
    if (this.engineOf(c).leaving(c, s)) throw new ShardDeleting(`Shard "${shardId}" is being deleted.`);
    s.nodes = s.nodes.filter((x) => x.id !== nodeId);
    this.state.remove(SERVICE, "node", nodeId);
    this.state.begin(SERVICE, "cluster", clusterId, "Modifying", "Running");
    this.engineOf(c).nodeRemoved(c, n);
    return nodeId;
  }

  // ---- instance set operations ------------------------------------------------------------------------

  private instanceSet(projectId: string, setId: string): StoredCluster {
    const c = this.cluster(projectId, setId);
    if (c.clusterEnabled) throw new NotAnInstanceSet(`"${setId}" is a cluster, not an instance set.`);
    return c;
  }

  instances(projectId: string, setId: string): StoredNode[] {
    return this.instanceSet(projectId, setId).shards[0]!.nodes;
  }

  addInstanceReplica(projectId: string, setId: string, subnetId: string): string {
    const c = this.instanceSet(projectId, setId);
    const group = c.shards[0]!;
    if (group.nodes.length - 1 >= 5) throw new ReplicaLimit("An instance set has at most 5 replicas.");
    const n = this.node(subnetId, "replica", "instance");
    group.nodes.push(n);
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    this.engineOf(c).nodeAdded(c, group, n);
    return n.id;
  }

  deleteInstance(projectId: string, setId: string, instanceId: string): string {
    const c = this.instanceSet(projectId, setId);
    const group = c.shards[0]!;
    const n = group.nodes.find((x) => x.id === instanceId);
    if (!n) throw new InstanceNotFound(`No instance "${instanceId}".`);
    const st = this.statuses.node(c, n, false);
    if (group.nodes.length === 2 && c.backupSchedule) throw new BackupPolicy("An instance set of 2 nodes with automatic backups keeps both.");
    if (c.recoveryEnabled && (n.role === "primary" || st !== "Running"))
      throw new InvalidInstanceState("With high availability, only a Running replica may be deleted.");
    if (!c.recoveryEnabled && n.role === "primary" && st !== "FAILED" && st !== "Failed")
      throw new InvalidInstanceState("The primary may be deleted only when it has failed.");
    group.nodes = group.nodes.filter((x) => x.id !== n.id);
    this.state.remove(SERVICE, "instance", n.id);
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    this.engineOf(c).nodeRemoved(c, n);
    return n.id;
  }

  promote(projectId: string, setId: string, primaryId: string): string {
    const c = this.instanceSet(projectId, setId);
    if (c.recoveryEnabled) throw new HighAvailabilityEnabled("Promote needs high availability off.");
    const group = c.shards[0]!;
    const target = group.nodes.find((x) => x.id === primaryId);
    if (!target) throw new InstanceNotFound(`No instance "${primaryId}".`);
    if (this.statuses.node(c, target, false) === "FAILED") throw new InvalidInstanceState(`Instance "${primaryId}" has failed: it cannot be promoted.`);
    for (const n of group.nodes) n.role = n.id === primaryId ? "primary" : "replica";
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    this.engineOf(c).promoted(c, target);
    return c.id;
  }

  setRecovery(projectId: string, setId: string, enabled: boolean): string {
    const c = this.instanceSet(projectId, setId);
    if (this.statuses.cluster(c, false) !== "Running") throw new InvalidState("High availability can be set only while the instance set is Running.");
    if (enabled && c.shards[0]!.nodes.length < 2) throw new NoReplica("High availability needs a replica.");
    c.recoveryEnabled = enabled;
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    return c.id;
  }

  // ---- behind the API (control API) ---------------------------------------------------------------

  /** The cluster uses group `g` from now on: its nodes get the group's values. */
  switchGroup(c: StoredCluster, g: StoredParameterGroup): void {
    c.parameterGroupId = g.id;
    this.beginSync(c, "parallel");
  }

  /** A cluster's (or its sync's) managed status, forced: drift, or a failure. */
  forceStatus(c: StoredCluster, kind: "cluster" | "sync", status: string): void {
    this.state.set(SERVICE, kind, c.id, status);
  }

  /** A node or instance's managed status, forced; `FAILED` kills a real node's process (a cluster fails over by itself, an HA instance set is failed over). */
  forceNodeStatus(c: StoredCluster, n: StoredNode, status: string): void {
    this.state.set(SERVICE, c.clusterEnabled ? "node" : "instance", n.id, status);
    if (/^failed$/i.test(status)) this.engineOf(c).failNode(c, n);
  }

  /** After a restore: the real nodes the loaded state describes are found again or restarted. */
  restored(): void {
    this.redis.restored([...this.clusters.values()]);
  }
}

function base(b: CommonBody, projectId: string, now: string): Omit<StoredCluster, "id" | "clusterEnabled" | "recoveryEnabled" | "shards"> {
  return {
    projectId,
    name: b.name,
    description: b.description ?? "",
    version: b.version,
    port: b.port,
    flavorId: b.flavorId,
    subnets: b.subnets.map((s) => s.id),
    subnetAssignments: b.subnetAssignments,
    securityGroups: b.securityGroups.map((s) => s.id),
    backupSchedule: b.backupSchedule ?? null,
    tlsEnabled: b.tlsEnabled ?? false,
    userName: b.user?.name ?? "",
    ...(b.user ? { userPasswordHash: b.user.password === "" ? "nopass" : aclPasswordHash(b.user.password) } : {}),
    ...(b.user || b.tlsEnabled ? { adminPassword: newAdminPassword() } : {}),
    parameterGroupId: b.parameterGroupId,
    createdAt: now,
  };
}
