import { findRedisServer } from "./redis/server";
import { controlledBy, type ServiceDefinition } from "../core/http";
import type { CoreContext } from "../core/server";
import { CacheBackend, SERVICE } from "./backend";
import { cacheBrowser } from "./browse";
import { CacheControl } from "./control";
import { cacheRoutes } from "./routes";
import { CacheViews } from "./views";

/**
 * Managed cache (spec 02): parameter groups, clusters with shards and nodes, instance sets; each node
 * a real redis-server on 127.0.0.1 where one is installed (or with `cacheEngine: "redis"`), else
 * simulated. Routes parse and validate (routes.ts), the backend holds the state with one method per
 * operation and noun (backend/), statuses (lifecycle.ts), views (views.ts), control API (control.ts).
 */
export function createCacheService(core: CoreContext): ServiceDefinition {
  const backend = new CacheBackend(() => core.clock.now(), core.state, {
    dataDir: core.dataDir,
    realRedis: core.cacheEngine === "redis" || (core.cacheEngine === "auto" && findRedisServer() !== undefined),
    persistent: core.persistent,
    changed: () => core.changed(),
    warn: (m) => core.warn(`local cloud: ${m}`),
    // Read at use: object storage is mounted first, but a restore runs later.
    readObject: (projectId, bucket, key) => core.objectStore?.readObject(projectId, bucket, key),
  });
  const views = new CacheViews(backend);
  const control = new CacheControl(backend, views);
  return {
    name: SERVICE,
    catalogType: "cache",
    routes: cacheRoutes(backend, views),
    ...controlledBy(control),
    browse: cacheBrowser(backend, control),
    close: () => backend.close(),
  };
}
