import { BadRequest, NotFound } from "../core/errors";
import type { ServiceDefinition } from "../core/http";
import type { CoreContext } from "../core/server";
import { DataQueryBackend, SERVICE } from "./backend";
import { SqlEngine } from "./engine";
import { dataQueryRoutes } from "./routes";

/**
 * Data query (seed 03 B) over an in-process DuckDB. Control API:
 * `PATCH /_control/resources/data-query/instance/{id}` with `{projectId, engine: 'mysql'|'postgresql',
 * databases: {<name>: '<seed SQL>'}}` makes a database instance that data sources can name;
 * `PATCH /_control/resources/data-query/query/{queryId}` with `{fail: '<message>'}` makes a query
 * fail when it runs. Transitions: `PUT /_control/transitions {service: 'data-query', kind: 'query', ...}`.
 */
export function createDataQueryService(core: CoreContext): ServiceDefinition {
  const engine = new SqlEngine();
  const backend = new DataQueryBackend(
    () => core.clock.now(),
    core.state,
    engine,
    () => core.objectStore,
  );
  return {
    name: SERVICE,
    routes: dataQueryRoutes(backend),
    errorFormat: () => "json",
    inventory: () => backend.inventory(),
    getResource: (kind, id) => {
      const found =
        kind === "instance" ? backend.instances.get(id) : kind === "query" ? backend.queries.get(id) : [...backend.sources.values()].find((s) => s.name === id);
      if (!found) throw new NotFound(`No ${kind} "${id}".`, "NoSuchResource");
      return found;
    },
    patchResource: (kind, id, patch) => {
      const p = (patch ?? {}) as Record<string, unknown>;
      if (kind === "instance") return backend.putInstance(id, p);
      if (kind === "query") {
        if (typeof p.fail !== "string") throw new BadRequest("fail: the failure message.");
        backend.failures.set(id, p.fail);
        return { queryId: id, fail: p.fail };
      }
      throw new BadRequest(`Kinds: instance, query (got ${kind}).`);
    },
    deleteResource: (kind, id) => {
      const s = [...backend.sources.values()].find((x) => x.name === id);
      if (kind !== "data-source" || !s) throw new NotFound(`No ${kind} "${id}".`, "NoSuchResource");
      void backend.deleteSource(s.projectId, id);
    },
    reset: () => backend.reset(),
    snapshot: () => backend.snapshot(),
    restore: (data) => void backend.restore(data),
  };
}
