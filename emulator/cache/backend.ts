/**
 * The cache service's state and one method per operation (seed 02). Statuses come from managed
 * state (kinds `cluster`, `node`, `instance`, `sync`), so tests choose whether a create settles at
 * once, after N reads, or after a duration on the virtual clock, and can force FAILED or Error-Sync;
 * and from the data plane (engine.ts): with real Redis a node is Running only once its process has
 * joined and the nodes agree, a cluster is Creating/Modifying while its nodes are being changed, and a
 * value the server refuses is Error-Sync. A status is the later of the two.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Backups, type StoredBackup } from "./backups";
import { SimulatedEngine, type CacheEngine, type EngineHooks, type RestoreFiles } from "./engine";
import { RedisEngine } from "./redis/engine";
import { ApiError, BadRequest, Conflict, NotFound } from "../core/errors";
import type { InventoryEntry } from "../core/http";
import type { ManagedState } from "../core/managed-state";
import { defaultGroupId, FLAVORS, invalidValue, PARAMETERS, VERSIONS } from "./catalogue";
import type { StoredCluster, StoredNode, StoredParameterGroup, StoredShard } from "./model";

export const SERVICE = "cache";

/** 422: syntactically valid, but the service cannot do it (an unknown version or flavor, a mismatched group). */
export class Unprocessable extends ApiError {
  constructor(message: string) {
    super(422, "Unprocessable", message);
  }
}

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
  private readonly simulated = new SimulatedEngine();
  private readonly redis: RedisEngine;
  private ipSeq = 1;

  constructor(
    private readonly now: () => number,
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
    this.clear();
  }

  /** The data plane of an existing cluster or instance set (each keeps the one it was created on). */
  private engineOf(c: StoredCluster): CacheEngine {
    return c.engine === "redis" ? this.redis : this.simulated;
  }

  /** The data plane new clusters and instance sets get. */
  private get fresh(): CacheEngine {
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

  /** The state as on a new local cloud (the default parameter groups only). */
  private clear(): void {
    this.groups.clear();
    this.clusters.clear();
    this.stickySyncErrors.clear();
    this.backups.reset();
    for (const v of VERSIONS) {
      for (const clusterMode of [true, false]) {
        const gid = defaultGroupId(v, clusterMode);
        this.groups.set(gid, {
          id: gid,
          projectId: "",
          name: gid,
          description: `Default parameters for Redis ${v} (${clusterMode ? "cluster mode" : "instance sets"})`,
          engineVersion: v,
          clusterMode,
          isDefault: true,
          defaultParameterGroupId: "",
          values: Object.fromEntries(PARAMETERS.map((p) => [p.parameterKey, p.defaultParameterValue])),
          events: [],
          createdAt: new Date(0).toISOString(),
        });
      }
    }
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
    if (!g || (!g.isDefault && g.projectId !== projectId)) throw new NotFound(`No parameter group "${idOrName}".`, "ParameterGroupNotFound");
    return g;
  }

  createGroup(projectId: string, body: { parameterGroupId: string; name: string; description?: string }): string {
    const base = this.group(projectId, body.parameterGroupId);
    if (!base.isDefault) throw new BadRequest("parameterGroupId: must name a default parameter group.", "InvalidParameterGroup");
    if ([...this.groups.values()].some((g) => g.name === body.name && (g.isDefault || g.projectId === projectId)))
      throw new Conflict(`A parameter group named "${body.name}" exists.`, "DuplicateName");
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

  usersOf(g: StoredParameterGroup): StoredCluster[] {
    return [...this.clusters.values()].filter((c) => c.parameterGroupId === g.id);
  }

  modifyGroup(
    projectId: string,
    idOrName: string,
    body: { description?: string; parameters?: { parameterKey: string; parameterValue: string }[]; applyMode?: string },
  ): string {
    const g = this.group(projectId, idOrName);
    if (g.isDefault) throw new BadRequest("A default parameter group cannot be modified.", "DefaultParameterGroup");
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
      if (bad.length) throw new BadRequest(`parameters: ${bad.join("; ")}`, "InvalidParameterValue");
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
    if (!g.previous) throw new Conflict("Nothing to roll back to.", "RollbackUnavailable");
    if (applyMode !== undefined && applyMode !== "sequential" && applyMode !== "parallel") throw new BadRequest("applyMode: sequential or parallel.");
    [g.values, g.previous] = [g.previous, undefined];
    g.events.push({ eventName: "Update Parameter", message: "rolled back to the previous values", createdAt: this.iso() });
    this.apply(g, applyMode ?? "parallel");
    return g.id;
  }

  deleteGroup(projectId: string, idOrName: string): string {
    const g = this.group(projectId, idOrName);
    if (g.isDefault) throw new BadRequest("A default parameter group cannot be deleted.", "DefaultParameterGroup");
    const users = this.usersOf(g);
    if (users.length) throw new Conflict(`Parameter group "${g.name}" is used by ${users.map((u) => u.name).join(", ")}.`, "ParameterGroupInUse");
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

  /** A managed status: a read the API serves counts towards `reads` progressions, a look by the local cloud itself does not. */
  private managed(kind: "cluster" | "node" | "instance" | "sync", id: string, countRead: boolean): string | undefined {
    return countRead ? this.state.read(SERVICE, kind, id) : this.state.peek(SERVICE, kind, id);
  }

  /** The sync status the API shows: the data plane's while it applies or after it failed, else the managed one. */
  private syncStatus(c: StoredCluster, countRead: boolean): string {
    const managed = this.managed("sync", c.id, countRead) ?? "In-Sync";
    return this.engineOf(c).sync(c) ?? managed;
  }

  /** A node's or instance's status: FAILED when its process is gone, not Running before it has joined and synced. */
  private nodeStatus(c: StoredCluster, n: StoredNode, countRead: boolean): string {
    const kind = c.clusterEnabled ? "node" : "instance";
    const managed = this.managed(kind, n.id, countRead) ?? "Running";
    const health = this.engineOf(c).health(c, n);
    if (health.state === "failed") return "FAILED";
    if (health.state === "pending" && managed === "Running") return health.joining ? "PROVISIONING" : "Modifying";
    return managed;
  }

  /** The cluster's status: Creating/Modifying while its nodes are being changed, else the managed one. */
  private clusterStatus(c: StoredCluster, countRead: boolean): string {
    const managed = this.managed("cluster", c.id, countRead) ?? "Running";
    return this.engineOf(c).busy(c) ?? managed;
  }

  retryApply(projectId: string, clusterId: string): string {
    const c = this.cluster(projectId, clusterId);
    const sync = this.syncStatus(c, false);
    if (sync === "In-Sync") throw new Conflict("The parameter group is in sync; nothing to retry.", "NothingToRetry");
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

  cluster(projectId: string, clusterId: string): StoredCluster {
    const c = this.clusters.get(clusterId);
    if (!c || c.projectId !== projectId) throw new NotFound(`No cluster or instance set "${clusterId}".`, "ClusterNotFound");
    return c;
  }

  private checkCommon(projectId: string, b: { name: string; version: string; flavorId: string; parameterGroupId: string }, clusterMode: boolean): void {
    if ([...this.clusters.values()].some((c) => c.projectId === projectId && c.name === b.name))
      throw new Conflict(`A cluster or instance set named "${b.name}" exists.`, "DuplicateName");
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
      const backup = this.restorable(projectId, b.restoreSource.backupName, true, b.version);
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
    this.fresh.created(c, restore);
    return cid;
  }

  createInstanceSet(projectId: string, b: CreateInstanceSetBody): string {
    this.checkCommon(projectId, { ...b, name: b.instanceSetName }, false);
    const source = b.restoreSource;
    const restore = source?.files
      ? this.objectFiles(projectId, source.files)
      : source
        ? this.redis.backupFiles(this.restorable(projectId, source.backupName, false, b.version))
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
    this.fresh.created(c, restore);
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
      const dir = this.fresh.incomingDir();
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

  /** The backup a create restores, after the seed's rules: same cluster mode, engine version equal or newer. */
  private restorable(projectId: string, name: string | undefined, clusterMode: boolean, version: string) {
    if (name === undefined) throw new Unprocessable("restoreSource: a backupName is required.");
    const backup = this.backups.find(projectId, name);
    if (!backup) throw new Unprocessable(`restoreSource: no backup named "${name}" in this project.`);
    if (backup.clusterMode !== clusterMode)
      throw new Unprocessable(`restoreSource: "${name}" is a backup of ${backup.clusterMode ? "a cluster" : "an instance set"}; restore it as one.`);
    if (compareVersions(version, backup.version) < 0) throw new Unprocessable(`version: a restore of "${name}" needs engine ${backup.version} or newer.`);
    return backup;
  }

  /** Description, parameter group, security groups, backup schedule (empty cron: off). */
  update(
    projectId: string,
    clusterId: string,
    b: { description?: string; parameterGroupId?: string; securityGroups?: { id: string }[]; backupSchedule?: { cron: string; retentionLimit?: number } },
  ): string {
    const c = this.cluster(projectId, clusterId);
    if (b.parameterGroupId !== undefined) {
      const g = this.group(projectId, b.parameterGroupId);
      if (g.clusterMode !== c.clusterEnabled) throw new BadRequest(`parameterGroupId: ${g.name} is for ${g.clusterMode ? "clusters" : "instance sets"}.`);
      c.parameterGroupId = g.id;
      this.beginSync(c, "parallel");
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

  private remove(c: StoredCluster): void {
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
    if (!c.clusterEnabled) throw new BadRequest(`"${clusterId}" is an instance set: it has no shards.`, "NotACluster");
    return c;
  }

  shard(projectId: string, clusterId: string, shardId: string): StoredShard {
    const s = this.clusterOnly(projectId, clusterId).shards.find((x) => x.id === shardId);
    if (!s) throw new NotFound(`No shard "${shardId}" in cluster "${clusterId}".`, "ShardNotFound");
    return s;
  }

  addShard(projectId: string, clusterId: string, b: { nodeCount: number; subnetAssignment: { primary: { id: string }; replicas: { id: string }[] } }): string {
    const c = this.clusterOnly(projectId, clusterId);
    if (c.shards.length >= 12) throw new BadRequest("A cluster has at most 12 shards.", "ShardLimit");
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
    if (engine.leaving(c, s)) throw new Conflict(`Shard "${shardId}" is being deleted.`, "ShardDeleting");
    if (c.shards.filter((x) => !engine.leaving(c, x)).length === 1) throw new BadRequest("The last shard of a cluster cannot be deleted.", "LastShard");
    for (const n of s.nodes) this.state.remove(SERVICE, "node", n.id);
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    // Its slots move to the other shards first; the shard is listed until then.
    engine.shardRemoved(c, s);
    return s.id;
  }

  addReplica(projectId: string, clusterId: string, shardId: string, subnetId: string): string {
    const s = this.shard(projectId, clusterId, shardId);
    const c = this.clusters.get(clusterId)!;
    if (this.engineOf(c).leaving(c, s)) throw new Conflict(`Shard "${shardId}" is being deleted.`, "ShardDeleting");
    if (s.nodes.length >= 6) throw new BadRequest("A shard has at most 5 replicas.", "ReplicaLimit");
    const n = this.node(subnetId, "replica", "node");
    s.nodes.push(n);
    this.state.begin(SERVICE, "cluster", clusterId, "Modifying", "Running");
    this.engineOf(c).nodeAdded(c, s, n);
    return n.id;
  }

  deleteNode(projectId: string, clusterId: string, shardId: string, nodeId: string): string {
    const s = this.shard(projectId, clusterId, shardId);
    const n = s.nodes.find((x) => x.id === nodeId);
    if (!n) throw new NotFound(`No node "${nodeId}".`, "NodeNotFound");
    if (n.role === "primary") throw new BadRequest("A primary node cannot be deleted.", "PrimaryNode");
    const c = this.clusters.get(clusterId)!;
    if (this.engineOf(c).leaving(c, s)) throw new Conflict(`Shard "${shardId}" is being deleted.`, "ShardDeleting");
    s.nodes = s.nodes.filter((x) => x.id !== nodeId);
    this.state.remove(SERVICE, "node", nodeId);
    this.state.begin(SERVICE, "cluster", clusterId, "Modifying", "Running");
    this.engineOf(c).nodeRemoved(c, n);
    return nodeId;
  }

  // ---- instance set operations ------------------------------------------------------------------------

  private instanceSet(projectId: string, setId: string): StoredCluster {
    const c = this.cluster(projectId, setId);
    if (c.clusterEnabled) throw new BadRequest(`"${setId}" is a cluster, not an instance set.`, "NotAnInstanceSet");
    return c;
  }

  instances(projectId: string, setId: string): StoredNode[] {
    return this.instanceSet(projectId, setId).shards[0]!.nodes;
  }

  addInstanceReplica(projectId: string, setId: string, subnetId: string): string {
    const c = this.instanceSet(projectId, setId);
    const group = c.shards[0]!;
    if (group.nodes.length - 1 >= 5) throw new BadRequest("An instance set has at most 5 replicas.", "ReplicaLimit");
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
    if (!n) throw new NotFound(`No instance "${instanceId}".`, "InstanceNotFound");
    const st = this.nodeStatus(c, n, false);
    if (group.nodes.length === 2 && c.backupSchedule) throw new BadRequest("An instance set of 2 nodes with automatic backups keeps both.", "BackupPolicy");
    if (c.recoveryEnabled && (n.role === "primary" || st !== "Running"))
      throw new BadRequest("With high availability, only a Running replica may be deleted.", "InvalidInstanceState");
    if (!c.recoveryEnabled && n.role === "primary" && st !== "FAILED" && st !== "Failed")
      throw new BadRequest("The primary may be deleted only when it has failed.", "InvalidInstanceState");
    group.nodes = group.nodes.filter((x) => x.id !== n.id);
    this.state.remove(SERVICE, "instance", n.id);
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    this.engineOf(c).nodeRemoved(c, n);
    return n.id;
  }

  promote(projectId: string, setId: string, primaryId: string): string {
    const c = this.instanceSet(projectId, setId);
    if (c.recoveryEnabled) throw new BadRequest("Promote needs high availability off.", "HighAvailabilityEnabled");
    const group = c.shards[0]!;
    const target = group.nodes.find((x) => x.id === primaryId);
    if (!target) throw new NotFound(`No instance "${primaryId}".`, "InstanceNotFound");
    if (this.nodeStatus(c, target, false) === "FAILED")
      throw new BadRequest(`Instance "${primaryId}" has failed: it cannot be promoted.`, "InvalidInstanceState");
    for (const n of group.nodes) n.role = n.id === primaryId ? "primary" : "replica";
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    this.engineOf(c).promoted(c, target);
    return c.id;
  }

  setRecovery(projectId: string, setId: string, enabled: boolean): string {
    const c = this.instanceSet(projectId, setId);
    if (this.clusterStatus(c, false) !== "Running")
      throw new BadRequest("High availability can be set only while the instance set is Running.", "InvalidState");
    if (enabled && c.shards[0]!.nodes.length < 2) throw new BadRequest("High availability needs a replica.", "NoReplica");
    c.recoveryEnabled = enabled;
    this.state.begin(SERVICE, "cluster", c.id, "Modifying", "Running");
    return c.id;
  }

  // ---- views --------------------------------------------------------------------------------------------

  /** The record of §2.1; statuses are reads (they count towards `reads` progressions). */
  record(c: StoredCluster): Record<string, unknown> {
    const flavor = FLAVORS.find((f) => f.id === c.flavorId);
    const g = this.groups.get(c.parameterGroupId);
    const nodes = c.shards.reduce((n, s) => n + s.nodes.length, 0);
    const primary = c.shards[0]?.nodes.find((n) => n.role === "primary");
    return {
      projectId: c.projectId,
      objectId: c.id,
      name: c.name,
      description: c.description,
      version: c.version,
      port: c.port,
      clusterEnabled: c.clusterEnabled,
      recoveryEnabled: c.recoveryEnabled,
      shardCount: c.clusterEnabled ? c.shards.length : 0,
      totalNodeCount: nodes,
      flavorId: c.flavorId,
      vcpu: flavor?.vcpus,
      memory: flavor?.memory,
      endpoints: this.engineOf(c).endpoints(c),
      userName: c.userName || "-",
      subnets: c.subnets.map((s) => ({ id: s })),
      subnetAssignments: c.clusterEnabled
        ? c.shards.map((s) => ({
            primary: { id: s.nodes.find((n) => n.role === "primary")?.subnetId ?? "" },
            replicas: s.nodes.filter((n) => n.role === "replica").map((n) => ({ id: n.subnetId })),
          }))
        : [{ primary: { id: primary?.subnetId ?? "" }, replicas: c.shards[0]!.nodes.filter((n) => n.role === "replica").map((n) => ({ id: n.subnetId })) }],
      securityGroups: c.securityGroups.map((s) => ({ id: s })),
      backupSchedule: c.backupSchedule,
      tlsEnabled: c.tlsEnabled,
      creator: c.projectId,
      license: "BSD-3-Clause",
      status: this.clusterStatus(c, true),
      parameterGroupId: c.parameterGroupId,
      parameterGroupName: g?.name ?? "",
      parameterGroupSyncStatus: this.syncStatus(c, true),
      createdAt: c.createdAt,
    };
  }

  shardView(c: StoredCluster, s: StoredShard): Record<string, unknown> {
    const nodes = s.nodes.map((n) => this.nodeView(c, n));
    return {
      id: s.id,
      name: s.name,
      slots: s.slots.map(([a, b]) => `${a}-${b}`).join(","),
      nodes,
      status: nodes.every((n) => n.status === "Running") ? "Running" : "Modifying",
      createdAt: s.createdAt,
    };
  }

  nodeView(c: StoredCluster, n: StoredNode): Record<string, unknown> & { status: string } {
    return {
      id: n.id,
      name: n.name,
      subnet: { id: n.subnetId },
      endpoint: n.endpoint,
      role: n.role,
      status: this.nodeStatus(c, n, true),
      createdAt: n.createdAt,
    };
  }

  instanceView(c: StoredCluster, n: StoredNode): Record<string, unknown> {
    return {
      instanceName: n.name,
      description: c.description,
      projectId: c.projectId,
      role: n.role,
      flavorId: c.flavorId,
      version: c.version,
      port: c.port,
      subnet: { id: n.subnetId },
      creator: c.projectId,
      objectId: n.id,
      endpoint: n.endpoint,
      license: "BSD-3-Clause",
      createdAt: n.createdAt,
      status: this.nodeStatus(c, n, true),
    };
  }

  groupView(g: StoredParameterGroup, detail: boolean): Record<string, unknown> {
    const users = this.usersOf(g);
    const summary = {
      id: g.id,
      engineVersion: g.engineVersion,
      name: g.name,
      description: g.description,
      isDefault: g.isDefault,
      defaultParameterGroupId: g.defaultParameterGroupId,
      rollbackAvailable: g.previous !== undefined,
      clusterModeEnabled: g.clusterMode,
      existErrorSync: users.some((u) => this.syncStatus(u, false) === "Error-Sync"),
      clusterSize: users.length,
      createdAt: g.createdAt,
    };
    if (!detail) return summary;
    return { ...summary, parameters: PARAMETERS.map((p) => ({ ...p, parameterValue: g.values[p.parameterKey] ?? p.defaultParameterValue })) };
  }

  inventory(): InventoryEntry[] {
    this.tick();
    const out: InventoryEntry[] = this.backups.list().map((b) => ({ service: SERVICE, kind: "backup", id: b.name, projectId: b.projectId }));
    for (const g of this.groups.values()) if (!g.isDefault) out.push({ service: SERVICE, kind: "parameter-group", id: g.id, projectId: g.projectId });
    for (const c of this.clusters.values())
      out.push({ service: SERVICE, kind: c.clusterEnabled ? "cluster" : "instance-set", id: c.id, projectId: c.projectId });
    return out;
  }

  /** Control API: drift and failures. */
  patch(kind: string, rid: string, patch: Record<string, unknown>): unknown {
    if (kind === "parameter-group") {
      const g = this.groups.get(rid);
      if (!g || g.isDefault) throw new NotFound(`No custom parameter group "${rid}".`, "NoSuchResource");
      const values = (patch.values ?? {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(values)) if (typeof v === "string") g.values[k] = v;
      if (typeof patch.description === "string") g.description = patch.description;
      return this.groupView(g, true);
    }
    if (kind === "node" || kind === "instance") {
      if (typeof patch.status !== "string") throw new BadRequest("status: a string is required.");
      this.state.set(SERVICE, kind, rid, patch.status);
      // A real node really fails: its process is killed (a cluster fails over by itself, an instance set with high availability is failed over).
      if (/^failed$/i.test(patch.status)) {
        const c = [...this.clusters.values()].find((x) => x.shards.some((s) => s.nodes.some((n) => n.id === rid)));
        const n = c?.shards.flatMap((s) => s.nodes).find((x) => x.id === rid);
        if (c && n) this.engineOf(c).failNode(c, n);
      }
      return { id: rid, status: patch.status };
    }
    const c = this.clusters.get(rid);
    if (!c) throw new NotFound(`No cluster or instance set "${rid}".`, "NoSuchResource");
    if (typeof patch.status === "string") this.state.set(SERVICE, "cluster", c.id, patch.status);
    if (typeof patch.parameterGroupSyncStatus === "string") this.state.set(SERVICE, "sync", c.id, patch.parameterGroupSyncStatus);
    if (patch.stickySyncError === true) this.stickySyncErrors.add(c.id);
    if (patch.stickySyncError === false) this.stickySyncErrors.delete(c.id);
    if (typeof patch.description === "string") c.description = patch.description;
    // A backup now, as if the schedule had fired.
    if (patch.backupNow === true) return { ...this.record(c), backup: this.backups.take(c, this.now()).name };
    return this.record(c);
  }

  deleteResource(kind: string, rid: string): void {
    if (kind === "backup") {
      const b = this.backups.list().find((x) => x.name === rid);
      if (!b) throw new NotFound(`No backup "${rid}".`, "NoSuchResource");
      this.backups.delete(b.projectId, b.name);
      return;
    }
    if (kind === "parameter-group") {
      if (!this.groups.delete(rid)) throw new NotFound(`No parameter group "${rid}".`, "NoSuchResource");
      return;
    }
    const c = this.clusters.get(rid);
    if (!c) throw new NotFound(`No cluster or instance set "${rid}".`, "NoSuchResource");
    this.remove(c);
  }

  snapshot(): unknown {
    return { groups: [...this.groups.values()], clusters: [...this.clusters.values()], sticky: [...this.stickySyncErrors], backups: this.backups.snapshot() };
  }

  restore(data: unknown): void {
    const d = data as { groups?: StoredParameterGroup[]; clusters?: StoredCluster[]; sticky?: string[]; backups?: StoredBackup[] } | undefined;
    this.clear();
    for (const g of d?.groups ?? []) this.groups.set(g.id, g);
    for (const c of d?.clusters ?? []) this.clusters.set(c.id, c);
    for (const s of d?.sticky ?? []) this.stickySyncErrors.add(s);
    this.backups.restore(d?.backups);
    this.redis.restored([...this.clusters.values()]);
  }
}

export interface CommonBody {
  name: string;
  description?: string;
  version: string;
  port: number;
  flavorId: string;
  parameterGroupId: string;
  subnets: { id: string }[];
  subnetAssignments: { primary: { id: string }; replicas: { id: string }[] }[];
  securityGroups: { id: string }[];
  tlsEnabled?: boolean;
  backupSchedule?: { cron: string; retentionLimit?: number };
  user?: { name: string; password: string };
  /** The seed spells it backupName and backupNames (either is read into backupName); files for instance sets. */
  restoreSource?: { backupName?: string; files?: string[] };
}
export type CreateClusterBody = CommonBody & { shardCount: number; nodeCountPerShard: number };
export type CreateInstanceSetBody = Omit<CommonBody, "name"> & { instanceSetName: string; replicas: number; recoveryEnabled: boolean };

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
    parameterGroupId: b.parameterGroupId,
    createdAt: now,
  };
}

/** `7.0.15` vs `7.2.4`, numerically part by part. */
function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}
