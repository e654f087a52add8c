/**
 * Whether the auth token belongs to the configured project. Cache and key management take the
 * project from the token alone, so a token of another project would silently create resources in
 * that project. Object storage names the project in its paths (`/v1/{account}`) and refuses a token
 * of another project with 403 (seed 01 §5: the project used as `{account}` is the one the token was
 * issued for): one HEAD of the account, once per process and configuration, tells.
 */
import { createHash } from "node:crypto";
import { isApiError } from "./errors";
import { transportFor } from "./client";
import { ConfigurationError, type Settings } from "./settings";

const CHECKED = Symbol.for("krcloud.project.checked");

function checked(): Map<string, Promise<void>> {
  const g = globalThis as unknown as Record<symbol, Map<string, Promise<void>> | undefined>;
  return (g[CHECKED] ??= new Map());
}

/**
 * Resolves when the token is the project's, or when it cannot be told (no token, project or object
 * storage endpoint; the check itself failed: the operation that follows meets the same problem and
 * reports it); rejects with a ConfigurationError naming both settings when it is another's.
 */
export function verifyTokenProject(s: Settings): Promise<void> {
  const endpoint = s.endpoints.objectstorage;
  if (!s.authToken || !s.projectId || !endpoint) return Promise.resolve();
  const key = createHash("sha256").update(`${endpoint}\u0000${s.projectId}\u0000${s.authToken}`).digest("hex");
  const cache = checked();
  let p = cache.get(key);
  if (!p) {
    p = check(s, s.projectId).catch((e: unknown) => {
      if ((e as { code?: unknown })?.code === "KRCLOUD_CONFIGURATION") throw e;
      // The service cannot tell (an endpoint without the account route): not asked again. The
      // network or a 5xx: the next call tries again.
      if (!(isApiError(e) && e.status < 500)) cache.delete(key);
    });
    cache.set(key, p);
  }
  return p;
}

async function check(s: Settings, projectId: string): Promise<void> {
  try {
    await transportFor("objectstorage", { settings: s }).request({
      operation: "HeadAccount",
      method: "HEAD",
      path: `/v1/${encodeURIComponent(projectId)}`,
      action: `checking that the auth token belongs to project "${projectId}"`,
      idempotent: true,
    });
  } catch (e) {
    if (isApiError(e) && e.status === 403) {
      throw new ConfigurationError(
        `the auth token (krcloud:authToken / KRCLOUD_AUTH_TOKEN) does not belong to project "${projectId}" (krcloud:projectId / KRCLOUD_PROJECT_ID): ` +
          `the service refused it for that project (${e.apiMessage ?? "403"}). Nothing was read or changed; use a token issued for "${projectId}", or set krcloud:projectId to the token's project`,
      );
    }
    throw e;
  }
}

/** Forgets the checks made (tests). */
export function resetProjectChecks(): void {
  checked().clear();
}
