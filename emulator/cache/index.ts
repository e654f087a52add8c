import { NotFound } from "../core/errors";
import { findRedisServer } from "./redis/server";
import type { ServiceDefinition } from "../core/http";
import type { CoreContext } from "../core/server";
import { CacheBackend, SERVICE } from "./backend";
import { cacheRoutes } from "./routes";

/**
 * Managed cache (seed 02): parameter groups, clusters with shards and nodes, instance sets; each node
 * a real redis-server on 127.0.0.1 where one is installed (or with `cacheEngine: "redis"`), else
 * simulated.
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
  return {
    name: SERVICE,
    routes: cacheRoutes(backend),
    errorFormat: () => "json",
    inventory: () => backend.inventory(),
    getResource: (kind, id) => {
      if (kind === "backup") {
        backend.tick();
        const b = backend.backups.list().find((x) => x.name === id);
        if (!b) throw new NotFound(`No backup "${id}".`, "NoSuchResource");
        return { ...b, createdAt: new Date(b.createdAt).toISOString(), expiresAt: new Date(b.expiresAt).toISOString() };
      }
      if (kind === "parameter-group") return backend.groupView(backend.groups.get(id) ?? backend.group("", id), true);
      const c = backend.clusters.get(id);
      if (!c) throw new NotFound(`No ${kind} "${id}".`, "NoSuchResource");
      return backend.record(c);
    },
    patchResource: (kind, id, patch) => backend.patch(kind, id, (patch ?? {}) as Record<string, unknown>),
    deleteResource: (kind, id) => backend.deleteResource(kind, id),
    reset: () => backend.reset(),
    snapshot: () => backend.snapshot(),
    restore: (data) => backend.restore(data),
    close: () => backend.close(),
  };
}

export { CacheBackend } from "./backend";
