import type { CoreContext } from '../core/server';
import type { ServiceDefinition } from '../core/http';
import { ObjectStorageBackend, SERVICE } from './backend';
import { objectStorageRoutes } from './routes';

/** Object storage (seed 01): extension API under /v1_ext, Swift API under /v1, /info. */
export function createObjectStorageService(core: CoreContext): ServiceDefinition {
  const backend = new ObjectStorageBackend(() => core.clock.now(), core.credentials);
  core.objectStore = {
    bucketExists: (projectId, bucket) => backend.findBucket(projectId, bucket) !== undefined,
    putObject: (projectId, bucket, key, body, contentType) => {
      const b = backend.findBucket(projectId, bucket);
      if (!b) throw new Error(`no bucket "${bucket}" in project ${projectId}`);
      backend.putObject(b, key, { body, contentType, metadata: {} });
    },
  };
  return {
    name: SERVICE,
    routes: objectStorageRoutes(backend),
    errorFormat: (path) => (path.startsWith('/v1_ext') || path === '/info' ? 'json' : 'text'),
    inventory: () => backend.inventory(),
    getResource: (kind, id) => backend.getResource(kind, id),
    patchResource: (kind, id, patch) => backend.patchResource(kind, id, patch),
    deleteResource: (kind, id) => backend.deleteResource(kind, id),
    reset: () => backend.reset(),
    snapshot: () => backend.snapshot(),
    restore: (data) => backend.restore(data),
    onDayBoundary: (boundary) => {
      backend.runLifecycle(boundary);
    },
  };
}

export { ObjectStorageBackend } from './backend';
