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
  /** The node of control API resource `kind` `id`: its line (`shown`) drawn from its record, which it carries. */
  const resourceNode = (kind: string, id: string, shown: (record: Fields) => Pick<BrowseNode, "label" | "status" | "facts" | "children">): BrowseNode => {
    const record = get(kind, id);
    const { label, children, ...line } = shown(record);
    return { kind, id, label, ...line, record, control: { kind, id }, ...(children ? { children } : {}) };
  };
  const node = (kind: "node" | "instance", id: string): BrowseNode =>
    resourceNode(kind, id, (record) => ({
      label: text(record.name) || text(record.instanceName) || id,
      status: String(record.status),
      facts: { role: text(record.role), endpoint: text(record.endpoint) },
    }));
  const clusterNode = (c: StoredCluster): BrowseNode => {
    const children = c.clusterEnabled
      ? c.shards.map((s) =>
          resourceNode("shard", `${c.id}/${s.id}`, (shard) => ({
            label: s.name,
            status: String(shard.status),
            facts: { slots: String(shard.slots), nodes: s.nodes.length },
            children: s.nodes.map((n) => node("node", n.id)),
          })),
        )
      : c.shards.flatMap((s) => s.nodes.map((n) => node("instance", n.id)));
    return resourceNode(c.clusterEnabled ? "cluster" : "instance-set", c.id, (record) => ({
      label: c.name,
      status: String(record.status),
      facts: { version: String(record.version), nodes: Number(record.totalNodeCount), parameters: String(record.parameterGroupSyncStatus) },
      children,
    }));
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
          groups.map((g) => resourceNode("parameter-group", g.id, () => ({ label: g.name, facts: { engine: g.engineVersion } }))),
        ),
        group("clusters", "clusters", clusters.filter((c) => c.clusterEnabled).map(clusterNode)),
        group("instance-sets", "instance sets", clusters.filter((c) => !c.clusterEnabled).map(clusterNode)),
        group(
          "backups",
          "backups",
          backups.map((b) =>
            resourceNode("backup", b.id, (record) => ({
              label: b.name,
              status: String(record.status),
              facts: { shards: b.shardCount, type: b.kind, bytes: b.size ?? 0 },
            })),
          ),
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
