import { join } from "node:path";
import type { CoreContext } from "../core/server";
import { controlledBy, type ServiceDefinition } from "../core/http";
import { ObjectStorageBackend, SERVICE } from "./backend";
import { objectStorageBrowser } from "./browse";
import { ObjectStorageControl } from "./control";
import { objectStorageRoutes } from "./routes";

/** Object storage (spec 01): extension API under /v1_ext, Swift API under /v1, /info. */
export function createObjectStorageService(core: CoreContext): ServiceDefinition {
  const backend = new ObjectStorageBackend(() => core.clock.now(), core.credentials, join(core.dataDir, SERVICE));
  core.objectStore = {
    bucketExists: (projectId, bucket) => backend.state.findBucket(projectId, bucket) !== undefined,
    putObject: (projectId, bucket, key, body, contentType) => {
      const b = backend.state.findBucket(projectId, bucket);
      if (!b) throw new Error(`no bucket "${bucket}" in project ${projectId}`);
      backend.objects.putObject(b, key, { body, contentType, metadata: {} });
    },
    readObject: (projectId, bucket, key) => {
      const b = backend.state.findBucket(projectId, bucket);
      if (!b) return undefined;
      let content;
      try {
        content = backend.objects.getObject(b, key);
      } catch {
        return undefined;
      }
      return backend.objects.readContent(content, 0, content.size - 1);
    },
  };
  const control = new ObjectStorageControl(backend.state);
  return {
    name: SERVICE,
    catalogType: "object-store",
    routes: objectStorageRoutes(backend),
    errorFormat: (path) => (path.startsWith("/v1_ext") || path === "/info" ? "json" : "text"),
    ...controlledBy(control),
    browse: objectStorageBrowser(backend, control),
    onDayBoundary: (boundary) => {
      backend.extension.runLifecycle(boundary);
    },
  };
}
