import { serviceOver, type ServiceDefinition } from "../core/http";
import type { CoreContext } from "../core/server";
import { HadoopBackend } from "./backend";
import { hadoopBrowser } from "./browse";
import { HadoopControl } from "./control";
import { SERVICE } from "./model";
import { hadoopRoutes } from "./routes";

/**
 * Hadoop cluster service (spec 03 C) under `/hadoop`: `/v2/hadoop-service/clusters...` with
 * access-key auth. Job logs reach object storage through `core.objectStore`, read at use (the object
 * storage service fills it when mounted). Readings and control API: docs/local-cloud-hadoop.md.
 */
export function createHadoopService(core: CoreContext): ServiceDefinition {
  const backend = new HadoopBackend(
    () => core.clock.now(),
    core.state,
    () => core.objectStore,
  );
  return serviceOver(SERVICE, "hadoop", backend, { routes: hadoopRoutes, control: HadoopControl, browse: hadoopBrowser });
}
