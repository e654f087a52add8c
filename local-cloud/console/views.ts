/**
 * What the console's page reads (`/_console/api/...`): the projects, a project's resources as a
 * tree per service (from each service's `browse`, or its inventory and control records), a page of
 * a long list of children, and a page of a content. Lists and records are cut to a size a page can
 * show: children 100 at a time, strings, arrays and objects in records past a limit, contents by
 * preview pages.
 */
import { PREVIEW_LIMIT, group, type BrowseNode, type Preview } from "../core/browse";
import type { LocalCloudControl } from "../core/control";
import { isValidProjectId } from "../core/credentials";
import { BadRequest, NoSuchService, apiErrorClass, apiErrorCode } from "../core/errors";
import type { LocalCloudServer } from "../core/server";
import type { SentNode } from "../core/wire";

export const NoSuchProject = apiErrorCode(404, "NoSuchProject");
const NoSuchNode = apiErrorClass(404, "NoSuchNode", (what: string) => `Nothing at ${what} in this project (deleted since?).`);

/** Children shown at once; the page asks for the next ones. */
export const PAGE = 100;
const LIMITS = { string: 2000, array: 100, keys: 200, depth: 12 };

export interface ServiceTree {
  name: string;
  nodes: BrowseNode[];
}

export class ConsoleViews {
  constructor(
    private readonly server: LocalCloudServer,
    private readonly control: LocalCloudControl,
  ) {}

  overview(): Record<string, unknown> {
    return {
      url: this.server.url,
      controlUrl: `${this.server.url}/_control`,
      consoleUrl: `${this.server.url}/_console/`,
      services: [...this.server.services.values()].map(({ definition }) => ({
        name: definition.name,
        operations: [...new Set(definition.routes.flatMap((r) => (typeof r.operation === "string" ? [r.operation] : [])))].sort(),
        transitions: definition.browse?.transitions ?? [],
      })),
      projects: this.projects(),
    };
  }

  /** Projects that hold a credential or a resource, with how many resources the inventory lists. */
  projects(): Array<{ id: string; resources: number; credentials: number }> {
    const counts = new Map<string, { resources: number; credentials: number }>();
    const entry = (id: string) => counts.get(id) ?? counts.set(id, { resources: 0, credentials: 0 }).get(id)!;
    for (const c of this.server.credentials.list()) entry(c.projectId).credentials++;
    for (const r of this.control.inventory()) entry(r.projectId).resources++;
    return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([id, n]) => ({ id, ...n }));
  }

  project(projectId: string): { projectId: string; services: ServiceTree[] } {
    this.checkProject(projectId);
    this.server.tick();
    return { projectId, services: this.trees(projectId).map((t) => ({ name: t.name, nodes: t.nodes.map(sent) })) };
  }

  /** Children `offset` on of the node at `path` (its `kind:id` steps from the service's top). */
  children(projectId: string, service: string, path: string[], offset: number): { nodes: SentNode[]; offset: number; total: number } {
    this.checkProject(projectId);
    const tree = this.trees(projectId).find((t) => t.name === service);
    if (!tree) throw new NoSuchService(service);
    let nodes = tree.nodes;
    for (const step of path) {
      const found = nodes.find((n) => `${n.kind}:${n.id}` === step);
      if (!found) throw new NoSuchNode(`${service}/${path.join("/")}`.slice(0, 300));
      nodes = found.children ?? [];
    }
    return { nodes: nodes.slice(offset, offset + PAGE).map(sent), offset, total: nodes.length };
  }

  async preview(projectId: string, service: string, kind: string, id: string, offset: number): Promise<Preview> {
    this.checkProject(projectId);
    const browse = this.service(service).browse;
    const found = await browse?.preview?.(projectId, kind, id, { offset, limit: kind === "query" ? PREVIEW_LIMIT.rows : PREVIEW_LIMIT.bytes });
    if (!found) throw new NoSuchNode(`${service}/${kind}/${id}`.slice(0, 300));
    return found;
  }

  private service(name: string) {
    const mounted = this.server.services.get(name);
    if (!mounted) throw new NoSuchService(name);
    return mounted.definition;
  }

  private checkProject(projectId: string): void {
    if (!isValidProjectId(projectId)) throw new BadRequest('A project id is 1-32 letters, digits, "-" and "_", starting with a letter or digit.');
    const known = this.projects();
    if (!known.some((p) => p.id === projectId)) {
      const list =
        known.length === 0
          ? "it has none yet"
          : `its projects: ${known
              .slice(0, 10)
              .map((p) => p.id)
              .join(", ")}${known.length > 10 ? ", …" : ""}`;
      throw new NoSuchProject(`The local cloud has no project "${projectId}" (no credential, no resource); ${list}.`);
    }
  }

  /** Each service's tree: its own `browse`, or its inventory grouped by kind with the control records. */
  private trees(projectId: string): ServiceTree[] {
    const out: ServiceTree[] = [];
    for (const { definition } of this.server.services.values()) {
      if (definition.browse) {
        out.push({ name: definition.name, nodes: definition.browse.tree(projectId) });
        continue;
      }
      const entries = definition.inventory().filter((e) => e.projectId === projectId);
      if (entries.length === 0) continue;
      const kinds = [...new Set(entries.map((e) => e.kind))];
      const nodes = kinds.map((kind) =>
        group(
          kind,
          kind,
          entries
            .filter((e) => e.kind === kind)
            .map((e) => {
              const record = definition.getResource(kind, e.id);
              const status = (record as { status?: unknown } | null)?.status;
              return { kind, id: e.id, label: e.id, ...(typeof status === "string" ? { status } : {}), record, control: { kind, id: e.id } };
            }),
        ),
      );
      out.push({ name: definition.name, nodes });
    }
    return out;
  }
}

/** A node as the page receives it: children cut to a page, records cut to what a page shows. */
function sent(node: BrowseNode): SentNode {
  const { children, record, ...rest } = node;
  return {
    ...rest,
    ...(record !== undefined ? { record: clip(record, 0) } : {}),
    ...(children ? { children: children.slice(0, PAGE).map(sent), total: children.length } : {}),
  };
}

/** A record cut to what a page shows: long strings, long lists, many keys and deep nesting, each saying what was left out. */
export function clip(value: unknown, depth: number): unknown {
  if (typeof value === "string")
    return value.length > LIMITS.string ? `${value.slice(0, LIMITS.string)}… (${value.length - LIMITS.string} more characters)` : value;
  if (value === null || typeof value !== "object") return value;
  if (depth >= LIMITS.depth) return "… (nested deeper than the console shows)";
  if (Array.isArray(value)) {
    const items = value.slice(0, LIMITS.array).map((v) => clip(v, depth + 1));
    return value.length > LIMITS.array ? [...items, `… (${value.length - LIMITS.array} more items)`] : items;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const kept = Object.fromEntries(entries.slice(0, LIMITS.keys).map(([k, v]) => [k, clip(v, depth + 1)]));
  if (entries.length > LIMITS.keys) kept["…"] = `${entries.length - LIMITS.keys} more keys`;
  return kept;
}
