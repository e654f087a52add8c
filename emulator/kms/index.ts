import { NotFound } from "../core/errors";
import type { ServiceDefinition } from "../core/http";
import type { CoreContext } from "../core/server";
import { KmsBackend, SERVICE } from "./backend";
import { kmsRoutes } from "./routes";

/**
 * Key management (seed 03 A). Keys are made through the control API:
 * `PATCH /_control/resources/kms/key/{keyId}` with `{projectId, type}` creates one
 * (`symmetric`, `asymmetric` or `mac`), `{state: 'Deactivated'|'Active'}` sets its default version's
 * state, `{rotate: true}` adds a version and makes it the default.
 */
export function createKmsService(_core: CoreContext): ServiceDefinition {
  const backend = new KmsBackend();
  return {
    name: SERVICE,
    routes: kmsRoutes(backend),
    errorFormat: () => "json",
    inventory: () => backend.inventory(),
    getResource: (_kind, id) => {
      const k = backend.find(id);
      if (!k) throw new NotFound(`No key "${id}".`, "NoSuchResource");
      return backend.view(k);
    },
    patchResource: (_kind, id, patch) => backend.upsert(id, (patch ?? {}) as Record<string, unknown>),
    deleteResource: (_kind, id) => backend.remove(id),
    reset: () => backend.reset(),
    snapshot: () => backend.snapshot(),
    restore: (data) => backend.restore(data),
  };
}
