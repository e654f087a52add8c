/**
 * The cache service's part of the control API (`/_control/resources/cache/{kind}/{id}`) and its
 * snapshot. Kinds: `cluster`, `instance-set`, `shard` (`{clusterId}/{shardId}` or the shard id),
 * `node`, `instance`, `parameter-group`, `backup` (by id or name). A patch is parsed and checked whole (the group
 * it names exists, values fit their parameters) before anything changes; deletes of shards, nodes
 * and instances go through the service's own rules (the last shard, a primary stay). Documented
 * in docs/local-cloud.md.
 */
import { z } from "zod";
import { BadRequest, NoSuchResource } from "../core/errors";
import { KindControl, type ControlledKind, type InventoryEntry } from "../core/http";
import { parseWith } from "../core/input";
import type { CacheBackend } from "./backend";
import { invalidValue, PARAMETERS } from "./catalogue";
import { SERVICE } from "./lifecycle";
import type { StoredBackup, StoredCluster, StoredNode, StoredParameterGroup, StoredShard } from "./model";
import type { CacheViews } from "./views";

/** Statuses the spec lists are examples ("the full list: not shown"): any short printable word goes. */
const status = z.string().regex(/^[\x21-\x7e][\x20-\x7e]{0,39}$/, "a status of 1 to 40 printable characters");
const CRON = /^\S+( \S+){4}$/;

const clusterPatch = z.strictObject({
  status: status.optional(),
  parameterGroupSyncStatus: status.optional(),
  stickySyncError: z.boolean().optional(),
  description: z.string().max(100).optional(),
  backupSchedule: z
    .strictObject({
      cron: z.string().trim().regex(CRON, "a 5-field cron expression"),
      retentionLimit: z.number().int().min(1).max(35).optional(),
    })
    .nullable()
    .optional(),
  parameterGroupId: z.string().min(1).max(128).optional(),
  securityGroupIds: z.array(z.string().min(1).max(128)).max(20).optional(),
  recoveryEnabled: z.boolean().optional(),
  backupNow: z.literal(true).optional(),
});
const nodePatch = z.strictObject({ status });
/** What the cloud reports of a backup, forced: its size (bytes: the 60% restore rule without gigabytes of data) or status. */
const backupPatch = z.strictObject({
  size: z
    .number()
    .int()
    .min(0)
    .max(2 ** 50)
    .optional(),
  status: status.optional(),
  name: z.string().min(1).max(255).optional(),
});
const groupPatch = z.strictObject({
  description: z.string().max(100).optional(),
  values: z.record(z.string(), z.string().max(1024)).optional(),
});

export class CacheControl extends KindControl {
  constructor(
    private readonly be: CacheBackend,
    private readonly views: CacheViews,
  ) {
    super();
  }

  inventory(): InventoryEntry[] {
    this.be.tick();
    const out: InventoryEntry[] = this.be.state.backups.list().map((b) => ({ service: SERVICE, kind: "backup", id: b.id, projectId: b.projectId }));
    for (const g of this.be.state.groups.values()) if (!g.isDefault) out.push({ service: SERVICE, kind: "parameter-group", id: g.id, projectId: g.projectId });
    for (const c of this.be.state.clusters.values())
      out.push({ service: SERVICE, kind: c.clusterEnabled ? "cluster" : "instance-set", id: c.id, projectId: c.projectId });
    return out;
  }

  protected readonly kinds = {
    cluster: this.clusterKind("cluster"),
    "instance-set": this.clusterKind("instance-set"),
    shard: {
      get: (id: string) => {
        const { c, shard } = this.shard(id);
        return { clusterId: c.id, ...this.views.shard(c, shard, false) };
      },
      patch: (id: string) => this.nothingToPatch("shard", id),
      /** By the service's own rules: the last shard stays. */
      delete: (id: string) => {
        const { c, shard } = this.shard(id);
        this.be.shards.delete(c.projectId, c.id, shard.id);
      },
    },
    node: {
      ...this.nodeKind("node"),
      /** By the service's own rules: a primary stays. */
      delete: (id: string) => {
        const { c, node } = this.node("node", id);
        const shard = c.shards.find((s) => s.nodes.includes(node))!;
        this.be.shards.deleteNode(c.projectId, c.id, shard.id, node.id);
      },
    },
    instance: {
      ...this.nodeKind("instance"),
      delete: (id: string) => {
        const { c, node } = this.node("instance", id);
        this.be.instanceSets.deleteInstance(c.projectId, c.id, node.id);
      },
    },
    "parameter-group": {
      get: (id: string) => this.views.group(this.group(id, true), true),
      patch: (id: string, patch: unknown) => this.patchGroup(this.group(id, false), parseWith(groupPatch, patch ?? {})),
      delete: (id: string) => void this.be.state.groups.delete(this.group(id, false).id),
    },
    backup: {
      get: (id: string) => {
        const b = this.backup(id);
        return { ...this.views.backup(b, false), kind: b.kind, projectId: b.projectId, sourceId: b.sourceId, clusterMode: b.clusterMode };
      },
      patch: (id: string, patch: unknown) => {
        const b = this.backup(id);
        const p = parseWith(backupPatch, patch ?? {});
        if (p.size !== undefined) b.size = p.size;
        if (p.name !== undefined) this.be.state.backups.rename(b, p.name);
        if (p.status !== undefined) this.be.forceBackupStatus(b, p.status);
        return this.views.backup(b, false);
      },
      delete: (id: string) => {
        const b = this.backup(id);
        this.be.state.backups.delete(b.projectId, b.name);
      },
    },
  } satisfies Record<string, ControlledKind>;

  /** Kinds `cluster` and `instance-set`: patches are drift and failures, the record after the change. */
  private clusterKind(kind: "cluster" | "instance-set"): ControlledKind {
    return {
      get: (id) => {
        const c = this.cluster(kind, id);
        // What a client of a TLS cluster trusts: the local cloud's self-signed certificate.
        const certificate = this.be.engineOf(c).tlsCertificate(c);
        return { ...this.views.cluster(c, false), ...(certificate ? { tlsCertificate: certificate } : {}) };
      },
      patch: (id, patch) => this.patchCluster(this.cluster(kind, id), parseWith(clusterPatch, patch ?? {})),
      delete: (id) => this.be.clusters.remove(this.cluster(kind, id)),
    };
  }

  /** Kinds `node` and `instance`, but for their deletes (by different rules). */
  private nodeKind(kind: "node" | "instance"): Omit<ControlledKind, "delete"> {
    return {
      get: (id) => {
        const { c, node } = this.node(kind, id);
        return { clusterId: c.id, ...(kind === "node" ? this.views.node(c, node, false) : this.views.instance(c, node, false)) };
      },
      patch: (id, patch) => {
        const { c, node } = this.node(kind, id);
        const p = parseWith(nodePatch, patch ?? {});
        this.be.forceNodeStatus(c, node, p.status);
        return { id: node.id, status: p.status };
      },
    };
  }

  /** A shard has nothing to patch: once it is known to exist, the answer says what to do instead. */
  private nothingToPatch(kind: "shard", id: string): never {
    this.kinds[kind].get(id);
    throw new BadRequest(`A ${kind} has nothing to patch: DELETE it, or PATCH or DELETE its nodes.`);
  }

  /** Everything goes, real nodes and their data included. */
  reset(): void {
    this.be.reset();
  }

  snapshot(): unknown {
    const st = this.be.state;
    return { groups: [...st.groups.values()], clusters: [...st.clusters.values()], sticky: [...st.stickySyncErrors], backups: st.backups.snapshot() };
  }

  restore(data: unknown): void {
    const d = data as { groups?: StoredParameterGroup[]; clusters?: StoredCluster[]; sticky?: string[]; backups?: StoredBackup[] } | undefined;
    const st = this.be.state;
    st.clear();
    for (const g of d?.groups ?? []) st.groups.set(g.id, g);
    for (const c of d?.clusters ?? []) st.clusters.set(c.id, c);
    for (const s of d?.sticky ?? []) st.stickySyncErrors.add(s);
    st.backups.restore(d?.backups);
    this.be.restored();
  }

  private patchGroup(g: StoredParameterGroup, p: z.infer<typeof groupPatch>): unknown {
    const bad = Object.entries(p.values ?? {}).flatMap(([key, value]) => {
      const def = PARAMETERS.find((d) => d.parameterKey === key);
      const why = def ? invalidValue(def, value) : "unknown parameter";
      return why ? [`values.${key}: ${why}`] : [];
    });
    if (bad.length) throw new BadRequest(bad.join("; "));
    Object.assign(g.values, p.values);
    if (p.description !== undefined) g.description = p.description;
    return this.views.group(g, true);
  }

  private patchCluster(c: StoredCluster, p: z.infer<typeof clusterPatch>): unknown {
    if (p.recoveryEnabled !== undefined && c.clusterEnabled) throw new BadRequest("recoveryEnabled: only instance sets have it.");
    if (p.recoveryEnabled && c.shards[0]!.nodes.length < 2) throw new BadRequest("recoveryEnabled: high availability needs a replica.");
    const group = p.parameterGroupId === undefined ? undefined : this.be.parameterGroups.group(c.projectId, p.parameterGroupId);
    if (group && group.clusterMode !== c.clusterEnabled)
      throw new BadRequest(`parameterGroupId: ${group.name} is for ${group.clusterMode ? "clusters" : "instance sets"}.`);
    // Everything is checked: now it applies.
    if (p.status !== undefined) this.be.forceStatus(c, "cluster", p.status);
    if (p.parameterGroupSyncStatus !== undefined) this.be.forceStatus(c, "sync", p.parameterGroupSyncStatus);
    if (p.stickySyncError === true) this.be.state.stickySyncErrors.add(c.id);
    if (p.stickySyncError === false) this.be.state.stickySyncErrors.delete(c.id);
    if (p.description !== undefined) c.description = p.description;
    if (p.backupSchedule !== undefined) c.backupSchedule = p.backupSchedule;
    if (p.securityGroupIds !== undefined) c.securityGroups = [...p.securityGroupIds];
    if (p.recoveryEnabled !== undefined) c.recoveryEnabled = p.recoveryEnabled;
    // The nodes get the group's values, as after UpdateCluster.
    if (group && group.id !== c.parameterGroupId) this.be.parameterGroups.switchGroup(c, group);
    // A backup now, as if the schedule had fired.
    if (p.backupNow) return { ...this.views.cluster(c, false), backup: this.be.state.backups.take(c, this.be.state.now()).name };
    return this.views.cluster(c, false);
  }

  /** By its id (what the inventory lists) or its name. */
  private backup(idOrName: string): StoredBackup {
    this.be.tick();
    const b = this.be.state.backups.list().find((x) => x.id === idOrName || x.name === idOrName);
    if (!b) throw new NoSuchResource(`No backup "${idOrName.slice(0, 200)}".`);
    return b;
  }

  /** A custom group by id (`orDefault`: a default one too). */
  private group(id: string, orDefault: boolean): StoredParameterGroup {
    const g = this.be.state.groups.get(id);
    if (!g || (g.isDefault && !orDefault)) throw new NoSuchResource(`No ${orDefault ? "" : "custom "}parameter group "${id.slice(0, 200)}".`);
    return g;
  }

  /** Kinds `cluster` and `instance-set` name either (ids are distinct; the inventory tells which it is). */
  private cluster(kind: "cluster" | "instance-set", id: string): StoredCluster {
    const c = this.be.state.clusters.get(id);
    if (!c) throw new NoSuchResource(`No ${kind} "${id.slice(0, 200)}".`);
    return c;
  }

  /** `{clusterId}/{shardId}` (a Shard resource's id) or the shard id alone. */
  private shard(id: string): { c: StoredCluster; shard: StoredShard } {
    const shardId = id.slice(id.indexOf("/") + 1);
    for (const c of this.be.state.clusters.values()) {
      const shard = c.clusterEnabled ? c.shards.find((s) => s.id === shardId) : undefined;
      if (shard && (!id.includes("/") || id.startsWith(`${c.id}/`))) return { c, shard };
    }
    throw new NoSuchResource(`No shard "${id.slice(0, 200)}".`);
  }

  private node(kind: "node" | "instance", id: string): { c: StoredCluster; node: StoredNode } {
    for (const c of this.be.state.clusters.values()) {
      if (c.clusterEnabled !== (kind === "node")) continue;
      const node = c.shards.flatMap((s) => s.nodes).find((n) => n.id === id);
      if (node) return { c, node };
    }
    throw new NoSuchResource(`No ${kind} "${id.slice(0, 200)}".`);
  }
}
