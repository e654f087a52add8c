/**
 * Data query in the console: a project's database instances, data sources and queries (their state
 * as the API would show it, looked at without counting a read, so a query in a `reads` transition
 * does not move on), and a query's result rows page by page.
 */
import { group, PREVIEW_LIMIT, type ServiceBrowser } from "../core/browse";
import type { ManagedState } from "../core/managed-state";
import type { DataQueryBackend } from "./backend";
import type { DataQueryControl } from "./control";
import { SERVICE } from "./model";

export function dataQueryBrowser(backend: DataQueryBackend, control: DataQueryControl, state: ManagedState): ServiceBrowser {
  const byName = <T>(items: Iterable<T>, name: (t: T) => string): T[] => [...items].sort((a, b) => name(a).localeCompare(name(b)));
  return {
    tree(projectId) {
      const mine = <T extends { projectId: string }>(items: Iterable<T>): T[] => [...items].filter((i) => i.projectId === projectId);
      const instances = byName(mine(backend.instances.values()), (i) => i.id);
      const sources = byName(backend.listSources(projectId), (s) => s.name);
      const queries = mine(backend.queries.values()).sort((a, b) => a.createdAt - b.createdAt);
      return [
        group(
          "instances",
          "database instances",
          instances.map((i) => ({
            kind: "instance",
            id: i.id,
            label: i.id,
            facts: { engine: i.engine, databases: Object.keys(i.databases).length, server: i.url === undefined ? "embedded" : "real" },
            record: control.getResource("instance", i.id),
            control: { kind: "instance", id: i.id },
          })),
        ),
        group(
          "data-sources",
          "data sources",
          sources.map((s) => ({
            kind: "data-source",
            id: s.name,
            label: s.name,
            facts: { type: s.type, instance: s.instanceId },
            record: control.getResource("data-source", `${projectId}/${s.name}`),
            control: { kind: "data-source", id: `${projectId}/${s.name}` },
          })),
        ),
        group(
          "queries",
          "queries",
          queries.map((q) => ({
            kind: "query",
            id: q.id,
            label: q.sql.length > 80 ? `${q.sql.slice(0, 79)}…` : q.sql,
            status: state.peek(SERVICE, "query", q.id) ?? "FINISHED",
            facts: { rows: q.outcome?.rows.length ?? null, result: q.storageUrl ?? null },
            record: control.getResource("query", q.id),
            control: { kind: "query", id: q.id },
            ...(q.outcome ? { preview: "rows" as const } : {}),
          })),
        ),
      ];
    },
    async preview(projectId, kind, id, page) {
      const q = backend.queries.get(id);
      if (kind !== "query" || !q || q.projectId !== projectId || !q.outcome) return undefined;
      const offset = Math.min(page.offset, q.outcome.rows.length);
      return {
        kind: "rows",
        total: q.outcome.rows.length,
        offset,
        columns: q.outcome.columns.map((c) => c.name),
        rows: q.outcome.rows.slice(offset, offset + Math.min(page.limit, PREVIEW_LIMIT.rows)),
      };
    },
    transitions: [{ kind: "query", moves: "QUEUED -> RUNNING -> FINISHED or FAILED" }],
  };
}
