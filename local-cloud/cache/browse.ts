/**
 * The cache service in the console: a project's parameter groups (with their parameters), clusters
 * with their shards and nodes, instance sets with their instances, and backups. Every record is the
 * control API's (GET /_control/resources/cache/...), which looks without counting a status read.
 */
import { group, type BrowseNode, type ServiceBrowser } from "../core/browse";
import type { CacheBackend } from "./backend";
import type { CacheControl } from "./control";
import type { StoredCluster } from "./model";

type Fields = Record<string, unknown>;

export function cacheBrowser(be: CacheBackend, control: CacheControl): ServiceBrowser {
  const get = (kind: string, id: string): Fields => control.getResource(kind, id) as Fields;
  const text = (value: unknown): string => (typeof value === "string" ? value : "");
  const node = (kind: "node" | "instance", id: string): BrowseNode => {
    const record = get(kind, id);
    return {
      kind,
      id,
      label: text(record.name) || text(record.instanceName) || id,
      status: String(record.status),
      facts: { role: text(record.role), endpoint: text(record.endpoint) },
      record,
      control: { kind, id },
    };
  };
  const clusterNode = (c: StoredCluster): BrowseNode => {
    const kind = c.clusterEnabled ? "cluster" : "instance-set";
    const record = get(kind, c.id);
    const children = c.clusterEnabled
      ? c.shards.map((s): BrowseNode => {
          const id = `${c.id}/${s.id}`;
          const shard = get("shard", id);
          return {
            kind: "shard",
            id,
            label: s.name,
            status: String(shard.status),
            facts: { slots: String(shard.slots), nodes: s.nodes.length },
            record: shard,
            control: { kind: "shard", id },
            children: s.nodes.map((n) => node("node", n.id)),
          };
        })
      : c.shards.flatMap((s) => s.nodes.map((n) => node("instance", n.id)));
    return {
      kind,
      id: c.id,
      label: c.name,
      status: String(record.status),
      facts: { version: String(record.version), nodes: Number(record.totalNodeCount), parameters: String(record.parameterGroupSyncStatus) },
      record,
      control: { kind, id: c.id },
      children,
    };
  };
  return {
    tree(projectId) {
      const clusters = [...be.state.clusters.values()].filter((c) => c.projectId === projectId).sort((a, b) => a.name.localeCompare(b.name));
      const groups = [...be.state.groups.values()].filter((g) => !g.isDefault && g.projectId === projectId).sort((a, b) => a.name.localeCompare(b.name));
      const backups = be.state.backups.list().filter((b) => b.projectId === projectId);
      return [
        group(
          "parameter-groups",
          "parameter groups",
          groups.map((g) => {
            const record = get("parameter-group", g.id);
            return {
              kind: "parameter-group",
              id: g.id,
              label: g.name,
              facts: { engine: g.engineVersion },
              record,
              control: { kind: "parameter-group", id: g.id },
            };
          }),
        ),
        group("clusters", "clusters", clusters.filter((c) => c.clusterEnabled).map(clusterNode)),
        group("instance-sets", "instance sets", clusters.filter((c) => !c.clusterEnabled).map(clusterNode)),
        group(
          "backups",
          "backups",
          backups.map((b) => {
            const record = get("backup", b.id);
            return {
              kind: "backup",
              id: b.id,
              label: b.name,
              status: String(record.status),
              facts: { shards: b.shardCount, type: b.kind, bytes: b.size ?? 0 },
              record,
              control: { kind: "backup", id: b.id },
            };
          }),
        ),
      ];
    },
    transitions: [
      { kind: "cluster", moves: "Creating or Modifying -> Running (clusters and instance sets)" },
      { kind: "node", moves: "PROVISIONING -> Running (a cluster's nodes)" },
      { kind: "instance", moves: "PROVISIONING -> Running (an instance set's instances)" },
      { kind: "sync", moves: "Applying -> In-Sync (parameter values on the nodes)" },
      { kind: "backup", moves: "Creating -> Available (a backup, once its data is written)" },
    ],
  };
}
