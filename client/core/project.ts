/**
 * Whether the auth token belongs to the configured project. Cache and key management take the
 * project from the token alone, so a token of another project would silently create resources in
 * that project. Object storage names the project in its paths (`/v1/{account}`) and refuses a token
 * of another project with 403 (spec 01 §5: the project used as `{account}` is the one the token was
 * issued for): one HEAD of the account, once per process and configuration, tells. A token that
 * names its project (the identity service's, a token command's with `projectId`) was compared with
 * the configured one when it was issued (credentials.ts `authenticated`): no request.
 */
import { createHash } from "node:crypto";
import { tokenSourceOf } from "./auth";
import { currentToken } from "./credentials";
import { isApiError } from "./errors";
import { transportFor } from "./client";
import { ConfigurationError, settingOrigin, type Settings } from "./settings";

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
export async function verifyTokenProject(s: Settings): Promise<void> {
  const endpoint = s.endpoints.objectstorage;
  const source = tokenSourceOf(s);
  if (!source || source.kind === "access-key" || s.tokenProjectId !== undefined || !s.projectId || !endpoint) return;
  const token = (await currentToken(source, { settings: s })).value;
  const key = createHash("sha256").update(`${endpoint}\u0000${s.projectId}\u0000${token}`).digest("hex");
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
      const source = tokenSourceOf(s);
      const which =
        source?.kind === "command" ? `the token printed by the token command (${source.setting})` : `the auth token (${settingOrigin(s, "authToken")})`;
      throw new ConfigurationError(
        `${which} does not belong to project "${projectId}" (${settingOrigin(s, "projectId")}): ` +
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
