/**
 * The data query service's part of the control API (`/_control/resources/data-query/{kind}/{id}`).
 * Kinds: `instance` (database instances data sources name: made here, the spec shows no API),
 * `data-source` (id = its name, or `{projectId}/{name}` where two projects use the name) and
 * `query`. Bodies are parsed whole before anything changes. Documented in docs/local-cloud.md.
 */
import { z } from "zod";
import { AmbiguousId, NoSuchResource } from "../core/errors";
import { isValidProjectId } from "../core/credentials";
import { parseWith } from "../core/input";
import { KindControl, type ControlledKind, type InventoryEntry } from "../core/http";
import type { DataQueryBackend } from "./backend";
import { SERVICE, type DataSource, type Instance, type Query } from "./model";
import { NAME } from "./validate";
import { checkServerUrl } from "./real-server";

const instancePatch = z
  .strictObject({
    projectId: z.string().refine(isValidProjectId, "a project id (1-32 letters, digits, - and _)"),
    engine: z.enum(["mysql", "postgresql"]),
    databases: z
      .record(z.string().regex(NAME, "a database name is 3 to 72 lower-case letters, digits or _"), z.string().max(1_000_000))
      .refine((d) => Object.keys(d).length <= 100, "at most 100 databases")
      .optional(),
    url: z.string().max(2048).optional(),
  })
  .superRefine((p, ctx) => {
    const bad = p.url === undefined ? undefined : checkServerUrl(p.engine, p.url);
    if (bad) ctx.addIssue({ code: "custom", path: ["url"], message: bad.replace(/^url: /, "") });
  });
const dataSourcePatch = z.strictObject({ description: z.string().max(1000).nullable() });
const queryPatch = z.strictObject({ fail: z.string().min(1).max(10_000) });

export class DataQueryControl extends KindControl {
  constructor(private readonly backend: DataQueryBackend) {
    super();
  }

  /** Data sources, by name with their project. */
  inventory(): InventoryEntry[] {
    return [...this.backend.sources.values()].map((s) => ({ service: SERVICE, kind: "data-source", id: s.name, projectId: s.projectId }));
  }

  protected readonly kinds = {
    instance: {
      get: (id: string) => this.instance(id),
      /** An instance answers once its seed SQL ran (on a real server, once the server has its databases). */
      patch: (id: string, patch: unknown) => {
        const p = parseWith(instancePatch, patch);
        return this.backend.putInstance(id, {
          projectId: p.projectId,
          engine: p.engine,
          databases: p.databases ?? {},
          ...(p.url !== undefined ? { url: p.url } : {}),
        });
      },
      delete: (id: string) => {
        this.instance(id);
        this.backend.instances.delete(id);
      },
    },
    "data-source": {
      get: (id: string) => this.source(id),
      patch: (id: string, patch: unknown) => {
        const s = this.source(id);
        const p = parseWith(dataSourcePatch, patch);
        if (p.description === null) delete s.description;
        else s.description = p.description;
        return s;
      },
      delete: (id: string) => void this.backend.removeSource(this.source(id)).catch(() => undefined),
    },
    query: {
      get: (id: string) => this.query(id),
      patch: (id: string, patch: unknown) => {
        const p = parseWith(queryPatch, patch);
        this.backend.failures.set(id, p.fail);
        return { queryId: id, fail: p.fail };
      },
      delete: (id: string) => this.backend.removeQuery(this.query(id)),
    },
  } satisfies Record<string, ControlledKind>;

  reset(): void {
    this.backend.reset();
  }

  /** Instances and data sources; queries are not kept. */
  snapshot(): unknown {
    return this.backend.snapshot();
  }

  restore(data: unknown): void {
    void this.backend.restore(data);
  }

  private instance(id: string): Instance {
    const found = this.backend.instances.get(id);
    if (!found) throw new NoSuchResource(`No instance "${id.slice(0, 200)}".`);
    return found;
  }

  private query(id: string): Query {
    const found = this.backend.queries.get(id);
    if (!found) throw new NoSuchResource(`No query "${id.slice(0, 200)}".`);
    return found;
  }

  /** By `{projectId}/{name}`, or by name where one project only has a data source of that name. */
  private source(id: string): DataSource {
    const slash = id.indexOf("/");
    const all = [...this.backend.sources.values()];
    const found = slash < 0 ? all.filter((s) => s.name === id) : all.filter((s) => s.projectId === id.slice(0, slash) && s.name === id.slice(slash + 1));
    if (found.length === 0) throw new NoSuchResource(`No data source "${id.slice(0, 200)}".`);
    if (found.length > 1)
      throw new AmbiguousId(`Projects ${found.map((s) => s.projectId).join(", ")} each have a data source "${id}": name it {projectId}/${id}.`);
    return found[0]!;
  }
}
