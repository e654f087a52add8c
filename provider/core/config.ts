/**
 * Stack configuration handed to `configure()` by the dynamic provider host, kept for this provider
 * process only (a process-global slot, never module state captured by serialization). Secrets
 * arrive decrypted here and are read inside each method; they never enter state or logs.
 */
import { resolveSettings, SERVICES, endpointKeys, type Settings } from "../../sdk/core";

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

/** Settings for one provider call: stack config, then environment. */
export function currentSettings(): Settings {
  const cfg = stackConfig();
  return resolveSettings({}, (k) => cfg[k], process.env);
}
