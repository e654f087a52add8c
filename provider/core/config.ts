/**
 * Stack configuration handed to `configure()` by the dynamic provider host, kept for this provider
 * process only (a process-global slot, never module state captured by serialization). Secrets
 * arrive decrypted here and are read inside each method; they never enter state or logs.
 */
import { checkedUrl, resolveSettings, SERVICES, endpointKeys, type Settings } from "../../client/core";
import { withRotation } from "./rotation";

export const CONFIG_KEYS = [
  "region",
  "projectId",
  "authToken",
  "credentialId",
  "credentialSecret",
  "identityEndpoint",
  "tokenCommand",
  "hadoopApiKey",
  "localCloudUrl",
  ...SERVICES.map((s) => endpointKeys(s)[0]),
] as const;

const SLOT = Symbol.for("krcloud.provider.config");

interface ConfigLike {
  get(key: string): string | undefined;
}

/** Called from `configure()`: copies the `krcloud:*` keys out of the stack config. */
export function setStackConfig(config: ConfigLike): void {
  const values: Record<string, string> = {};
  for (const k of CONFIG_KEYS) {
    const v = config.get(`krcloud:${k}`);
    if (v !== undefined && v !== "") values[k] = v;
  }
  (globalThis as unknown as Record<symbol, unknown>)[SLOT] = values;
}

export function stackConfig(): Readonly<Record<string, string>> {
  return ((globalThis as unknown as Record<symbol, unknown>)[SLOT] as Record<string, string> | undefined) ?? {};
}

/** The settings as configured: stack config (or an explicit provider's inputs), then environment. */
export function configuredSettings(): Settings {
  const cfg = stackConfig();
  return resolveSettings({}, (k) => cfg[k], process.env);
}

/**
 * Settings for one provider call: as configured, with the environment's credentials in place of an
 * access key the identity service refused, where credential-guard.ts decided so (rotation.ts).
 */
export function currentSettings(): Settings {
  const cfg = stackConfig();
  return withRotation(configuredSettings(), (k) => cfg[k], process.env);
}

const IDENTITY = Symbol.for("krcloud.provider.identity");

/**
 * The native plugin's stack identity: the id the engine gave the provider resource this process
 * serves (ConfigureRequest), unique per stack and kept in its state (unknown in the preview of a
 * new stack). Part of every create key (identity.ts), so a twin stack in another backend
 * derives other names and ownership markers.
 */
export function setProviderIdentity(id: string | undefined): void {
  (globalThis as unknown as Record<symbol, unknown>)[IDENTITY] = id;
}

export function providerIdentity(): string | undefined {
  return (globalThis as unknown as Record<symbol, unknown>)[IDENTITY] as string | undefined;
}

/** Keys the engine adds to a provider's configuration itself. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

const URL_KEYS = new Set(["identityEndpoint", "localCloudUrl", ...SERVICES.map((s) => endpointKeys(s)[0])]);
/** The project is a path segment of object storage (`/v1/{account}`). */
const PROJECT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const REGION = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * What is wrong with a provider configuration (native plugin `CheckConfig`), without a request:
 * one failure per key, naming it and the values it takes. Unknown values (a preview's outputs) and
 * keys the engine adds pass.
 */
export function configFailures(config: Readonly<Record<string, unknown>>, unknown: string): { key: string; reason: string }[] {
  const failures: { key: string; reason: string }[] = [];
  const fail = (key: string, reason: string) => failures.push({ key, reason: `krcloud:${key}: ${reason}` });
  const known = new Set<string>(CONFIG_KEYS);
  const given = (k: string) => config[k] !== undefined && config[k] !== null && config[k] !== "";
  for (const [key, value] of Object.entries(config)) {
    // A blank value is no value: the settings skip it (config.get returns it, resolveSettings drops it).
    if (ENGINE_KEYS.has(key) || key.startsWith("__") || value === undefined || value === null || value === "" || value === unknown) continue;
    if (!known.has(key)) {
      fail(key, `is not a krcloud setting; the settings are ${[...CONFIG_KEYS].sort().join(", ")}`);
      continue;
    }
    if (typeof value !== "string") {
      fail(key, `must be a string, not ${Array.isArray(value) ? "a list" : typeof value}`);
      continue;
    }
    if (URL_KEYS.has(key)) {
      try {
        checkedUrl(value, "the URL", "");
      } catch {
        fail(key, `must be an https:// URL, or http:// to this machine (127.0.0.0/8, ::1, localhost); got "${value}"`);
      }
    } else if (key === "region" && !REGION.test(value)) {
      fail(key, `must be a region name of lower-case letters, digits and "-" (kr-central-2); got "${value}"`);
    } else if (key === "projectId" && !PROJECT_ID.test(value)) {
      fail(key, `must be a project ID of letters, digits, ".", "_" and "-", at most 128; got "${value}"`);
    } else if (value.trim() === "") {
      fail(key, "must not be only spaces");
    }
  }
  // Half an access key is a mistake in either of its uses (a token's source, data query and Hadoop).
  const pair = ["credentialId", "credentialSecret"] as const;
  for (const [a, b] of [pair, [pair[1], pair[0]]] as const) {
    if (given(a) && !given(b)) fail(b, "is missing: the access key needs both krcloud:credentialId and krcloud:credentialSecret");
  }
  return failures;
}
