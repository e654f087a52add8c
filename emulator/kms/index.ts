import { z } from "zod";
import { isValidProjectId } from "../core/credentials";
import { NoSuchKind, NoSuchResource } from "../core/errors";
import type { ServiceDefinition } from "../core/http";
import { parseWith } from "../core/input";
import type { CoreContext } from "../core/server";
import { KmsBackend, SERVICE } from "./backend";
import { kmsRoutes } from "./routes";

const keyPatch = z.strictObject({
  projectId: z.string().refine(isValidProjectId, "a project id (1-32 letters, digits, - and _)").optional(),
  type: z.enum(["symmetric", "asymmetric", "mac"]).optional(),
  state: z.enum(["Active", "Deactivated"]).optional(),
  rotate: z.literal(true).optional(),
  version: z.number().int().min(1).max(1_000_000).optional(),
});

/**
 * Key management (seed 03 A). Keys are made through the control API (kind `key`):
 * `PATCH /_control/resources/kms/key/{keyId}` with `{projectId, type}` creates one
 * (`symmetric`, `asymmetric` or `mac`), `{state: 'Deactivated'|'Active'}` sets its default
 * version's state (or version `version`'s), `{rotate: true}` adds a version and makes it the
 * default; `DELETE` removes the key.
 */
export function createKmsService(_core: CoreContext): ServiceDefinition {
  const backend = new KmsBackend();
  const keysOnly = (kind: string): void => {
    if (kind !== "key") throw new NoSuchKind(kind, "key");
  };
  const key = (kind: string, id: string) => {
    keysOnly(kind);
    const k = backend.find(id);
    if (!k) throw new NoSuchResource(`No key "${id.slice(0, 200)}".`);
    return k;
  };
  return {
    name: SERVICE,
    catalogType: "key-manager",
    routes: kmsRoutes(backend),
    errorFormat: () => "json",
    inventory: () => backend.inventory(),
    getResource: (kind, id) => backend.view(key(kind, id)),
    patchResource: (kind, id, patch) => {
      keysOnly(kind);
      return backend.upsert(id, parseWith(keyPatch, patch ?? {}));
    },
    deleteResource: (kind, id) => backend.remove(key(kind, id).id),
    reset: () => backend.reset(),
    snapshot: () => backend.snapshot(),
    restore: (data) => backend.restore(data),
  };
}
