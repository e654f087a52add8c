/**
 * Clusters (spec 02 §4.1, §4.2) and what a cluster and an instance set share, as they share one
 * record (§2.1): the list and get, the checks of a create, the update (PATCH) and the delete. One
 * method per operation; shards and nodes are shards.ts, instance sets instance-sets.ts.
 */
import { BadRequest } from "../../core/errors";
import { FLAVORS, VERSIONS } from "../catalogue";
import type { RestoreFiles } from "../engine";
import { DuplicateName, Unprocessable } from "../errors";
import { SERVICE } from "../lifecycle";
import type { CommonBody, CreateClusterBody, StoredCluster, StoredShard, UpdateBody } from "../model";
import { aclPasswordHash, newAdminPassword } from "../redis/security";
import type { ParameterGroupBackend } from "./parameter-groups";
import { newId, type CacheState } from "./state";

export class ClusterBackend {
  constructor(
    private readonly state: CacheState,
    private readonly groups: ParameterGroupBackend,
  ) {}

  /** The project's clusters and instance sets, those using a parameter group (id or name) only when one is given. */
  list(projectId: string, parameterGroup: string | null): StoredCluster[] {
    const g = parameterGroup ? this.groups.group(projectId, parameterGroup) : undefined;
    return [...this.state.clusters.values()].filter((c) => c.projectId === projectId && (!g || c.parameterGroupId === g.id));
  }

  get(projectId: string, clusterId: string): StoredCluster {
    return this.state.cluster(projectId, clusterId);
  }

  /** What a create of either kind is refused for: a name taken, a version or flavor not offered, a group of the other mode or version. */
  checkCreate(projectId: string, b: { name: string; version: string; flavorId: string; parameterGroupId: string }, clusterMode: boolean): void {
    if ([...this.state.clusters.values()].some((c) => c.projectId === projectId && c.name === b.name))
      throw new DuplicateName(`A cluster or instance set named "${b.name}" exists.`);
    if (!(VERSIONS as readonly string[]).includes(b.version)) throw new Unprocessable(`version: ${b.version} is not offered (${VERSIONS.join(", ")}).`);
    if (!FLAVORS.some((f) => f.id === b.flavorId)) throw new Unprocessable(`flavorId: ${b.flavorId} is not offered.`);
    const g = this.groups.group(projectId, b.parameterGroupId);
    if (g.clusterMode !== clusterMode) throw new Unprocessable(`parameterGroupId: ${g.name} is for ${g.clusterMode ? "clusters" : "instance sets"}.`);
    if (g.engineVersion.split(".").slice(0, 2).join(".") !== b.version.split(".").slice(0, 2).join("."))
      throw new Unprocessable(`parameterGroupId: ${g.name} is for engine ${g.engineVersion}.`);
  }

  create(projectId: string, b: CreateClusterBody): string {
    this.checkCreate(projectId, b, true);
    let restore: RestoreFiles | undefined;
    if (b.restoreSource) {
      if (b.restoreSource.files) throw new Unprocessable("restoreSource.files: a cluster restores from a backup name only.");
      const backup = this.state.backupReady(
        this.state.backups.restorable(projectId, b.restoreSource.backupName, { clusterMode: true, version: b.version, memoryGiB: memoryOf(b.flavorId) }),
      );
      if (b.shardCount !== backup.shardCount) throw new Unprocessable(`shardCount: a restore of "${backup.name}" needs its shard count, ${backup.shardCount}.`);
      restore = this.state.redis.backupFiles(backup);
    }
    const cid = newId("cluster");
    const shards: StoredShard[] = b.subnetAssignments.map((a, i) => ({
      id: `${cid}-shard-${String(i + 1).padStart(4, "0")}`,
      name: `shard-${i + 1}`,
      slots: [],
      nodes: [this.state.node(a.primary.id, "primary", "node"), ...a.replicas.map((r) => this.state.node(r.id, "replica", "node"))],
      createdAt: this.state.iso(),
    }));
    this.add({ ...recordOf(b, projectId, this.state.iso()), id: cid, clusterEnabled: true, recoveryEnabled: true, shards }, restore);
    return cid;
  }

  /** A new cluster or instance set joins the state: Creating until its nodes run, In-Sync with its group. */
  add(c: StoredCluster, restore: RestoreFiles | undefined): void {
    this.state.clusters.set(c.id, c);
    this.state.managed.begin(SERVICE, "cluster", c.id, "Creating", "Running");
    this.state.managed.set(SERVICE, "sync", c.id, "In-Sync");
    this.state.engineForNew.created(c, restore);
  }

  /** Description, parameter group, security groups, backup schedule (empty cron: off). */
  update(projectId: string, clusterId: string, b: UpdateBody): string {
    const c = this.get(projectId, clusterId);
    if (b.parameterGroupId !== undefined) {
      const g = this.groups.group(projectId, b.parameterGroupId);
      if (g.clusterMode !== c.clusterEnabled) throw new BadRequest(`parameterGroupId: ${g.name} is for ${g.clusterMode ? "clusters" : "instance sets"}.`);
      this.groups.switchGroup(c, g);
    }
    if (b.description !== undefined) c.description = b.description;
    if (b.securityGroups !== undefined) c.securityGroups = b.securityGroups.map((s) => s.id);
    if (b.backupSchedule !== undefined) c.backupSchedule = b.backupSchedule.cron === "" ? null : { ...b.backupSchedule };
    this.state.modifying(c);
    return c.id;
  }

  delete(projectId: string, clusterId: string, keepAutomaticBackups: string | null): string {
    const c = this.get(projectId, clusterId);
    if (c.backupSchedule && keepAutomaticBackups === null) throw new BadRequest("keepAutomaticBackups: required when automatic backups exist.");
    // true keeps them until they expire; false deletes them with the cluster.
    if (keepAutomaticBackups === "false") this.state.backups.dropOf(c.id);
    this.remove(c);
    return c.id;
  }

  /** A cluster or instance set goes with its nodes, whatever it holds. */
  remove(c: StoredCluster): void {
    this.state.engineOf(c).removed(c);
    for (const s of c.shards) for (const n of s.nodes) this.state.managed.remove(SERVICE, c.clusterEnabled ? "node" : "instance", n.id);
    this.state.managed.remove(SERVICE, "cluster", c.id);
    this.state.managed.remove(SERVICE, "sync", c.id);
    this.state.stickySyncErrors.delete(c.id);
    this.state.clusters.delete(c.id);
  }
}

/** A flavor's memory in GiB (checkCreate has refused a flavor not offered). */
export function memoryOf(flavorId: string): number {
  return FLAVORS.find((f) => f.id === flavorId)?.memory ?? 0;
}

/** The record's fields a create body gives, for a cluster and an instance set alike. */
export function recordOf(b: CommonBody, projectId: string, now: string): Omit<StoredCluster, "id" | "clusterEnabled" | "recoveryEnabled" | "shards"> {
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
