/**
 * The cache API's JSON views (spec 02 §2): cluster and instance set records, shards, nodes,
 * instances and parameter groups. Statuses in them are reads the API serves (they count towards
 * `reads` progressions), except where a view only summarises other resources or `countRead` is
 * false (the control API and the console look without moving a transition on).
 */
import type { CacheBackend } from "./backend";
import { FLAVORS, PARAMETERS } from "./catalogue";
import type { StoredBackup, StoredCluster, StoredNode, StoredParameterGroup, StoredShard } from "./model";

export class CacheViews {
  constructor(private readonly be: CacheBackend) {}

  /** The record of §2.1, for clusters and instance sets alike. */
  cluster(c: StoredCluster, countRead = true): Record<string, unknown> {
    const flavor = FLAVORS.find((f) => f.id === c.flavorId);
    const g = this.be.state.groups.get(c.parameterGroupId);
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
      endpoints: this.be.engineOf(c).endpoints(c),
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
      status: this.be.state.statuses.cluster(c, countRead),
      parameterGroupId: c.parameterGroupId,
      parameterGroupName: g?.name ?? "",
      parameterGroupSyncStatus: this.be.state.statuses.sync(c, countRead),
      createdAt: c.createdAt,
    };
  }

  shard(c: StoredCluster, s: StoredShard, countRead = true): Record<string, unknown> {
    const nodes = s.nodes.map((n) => this.node(c, n, countRead));
    return {
      id: s.id,
      name: s.name,
      slots: s.slots.map(([a, b]) => `${a}-${b}`).join(","),
      nodes,
      status: nodes.every((n) => n.status === "Running") ? "Running" : "Modifying",
      createdAt: s.createdAt,
    };
  }

  node(c: StoredCluster, n: StoredNode, countRead = true): Record<string, unknown> & { status: string } {
    return {
      id: n.id,
      name: n.name,
      subnet: { id: n.subnetId },
      endpoint: n.endpoint,
      role: n.role,
      status: this.be.state.statuses.node(c, n, countRead),
      createdAt: n.createdAt,
    };
  }

  instance(c: StoredCluster, n: StoredNode, countRead = true): Record<string, unknown> {
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
      status: this.be.state.statuses.node(c, n, countRead),
    };
  }

  /** A group's summary (lists), or with every parameter's value (`detail`). */
  group(g: StoredParameterGroup, detail: boolean): Record<string, unknown> {
    const users = this.be.state.usersOf(g);
    const summary = {
      id: g.id,
      engineVersion: g.engineVersion,
      name: g.name,
      description: g.description,
      isDefault: g.isDefault,
      defaultParameterGroupId: g.defaultParameterGroupId,
      rollbackAvailable: g.previous !== undefined,
      clusterModeEnabled: g.clusterMode,
      existErrorSync: users.some((u) => this.be.state.statuses.sync(u, false) === "Error-Sync"),
      clusterSize: users.length,
      createdAt: g.createdAt,
    };
    if (!detail) return summary;
    return { ...summary, parameters: PARAMETERS.map((p) => ({ ...p, parameterValue: g.values[p.parameterKey] ?? p.defaultParameterValue })) };
  }

  /**
   * A backup record as the public API documentation's listing shows it, completed by guesses
   * (docs/api-assumptions.md): its id, name, source, kind, status and `size` in bytes.
   */
  backup(b: StoredBackup, countRead = true): Record<string, unknown> {
    return {
      objectId: b.id,
      name: b.name,
      clusterId: b.sourceId,
      clusterName: b.clusterName,
      clusterEnabled: b.clusterMode,
      version: b.version,
      shardCount: b.shardCount,
      type: b.kind,
      status: this.be.backups.status(b, countRead),
      size: b.size ?? 0,
      createdAt: new Date(b.createdAt).toISOString(),
      expiresAt: b.expiresAt === undefined ? null : new Date(b.expiresAt).toISOString(),
    };
  }
}
