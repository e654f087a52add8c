import { serviceOver, type ServiceDefinition } from "../core/http";
import type { CoreContext } from "../core/server";
import { DataQueryBackend } from "./backend";
import { dataQueryBrowser } from "./browse";
import { DataQueryControl } from "./control";
import { SqlEngine } from "./engine";
import { SERVICE } from "./model";
import { dataQueryRoutes } from "./routes";

/**
 * Data query (spec 03 B) over in-process DuckDB, one sandboxed instance per project (engine.ts).
 * Control API (control.ts): `PATCH /_control/resources/data-query/instance/{id}` with `{projectId,
 * engine: 'mysql'|'postgresql', databases: {<name>: '<seed SQL>'}, url?}` makes a database instance
 * that data sources can name; `PATCH .../data-query/query/{queryId}` with `{fail: '<message>'}`
 * makes a query fail when it runs; `PATCH .../data-source/{name}` `{description}` is drift.
 * Transitions: `PUT /_control/transitions {service: 'data-query', kind: 'query', ...}`.
 */
export function createDataQueryService(core: CoreContext): ServiceDefinition {
  const backend = new DataQueryBackend(
    () => core.clock.now(),
    core.state,
    new SqlEngine(),
    () => core.objectStore,
  );
  return serviceOver(SERVICE, "data-query", backend, {
    routes: dataQueryRoutes,
    control: DataQueryControl,
    browse: (be, control) => dataQueryBrowser(be, control, core.state),
  });
}
