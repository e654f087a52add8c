/**
 * Settings: region, one endpoint per service, credentials.
 *
 * Sources, highest precedence first: explicit options, stack config (`krcloud:*`), environment
 * (`KRCLOUD_*`). Nothing here is cached at module level: settings are resolved inside each provider
 * method from what `configure()` received and the environment at that moment.
 */

import type { RetryOptions } from "./retry";

/**
 * Every service, one line each: the path under a local cloud's URL where it is mounted, and how it
 * authenticates (seeds: `X-Auth-Token`, or the `Credential-ID`/`Credential-Secret` access key).
 */
const SERVICE_TABLE = {
  objectstorage: { localCloudPrefix: "/object-storage", auth: "token" },
  cache: { localCloudPrefix: "/cache", auth: "token" },
  kms: { localCloudPrefix: "/kms", auth: "token" },
  dataquery: { localCloudPrefix: "/data-query", auth: "access-key" },
  hadoop: { localCloudPrefix: "/hadoop", auth: "access-key" },
} as const satisfies Record<string, { localCloudPrefix: string; auth: "token" | "access-key" }>;

export type ServiceName = keyof typeof SERVICE_TABLE;
export const SERVICES = Object.keys(SERVICE_TABLE) as readonly ServiceName[];
/** Path under the local cloud's URL where each service is mounted. */
export const LOCAL_CLOUD_PREFIX: Readonly<Record<ServiceName, string>> = Object.fromEntries(
  SERVICES.map((s) => [s, SERVICE_TABLE[s].localCloudPrefix]),
) as Record<ServiceName, string>;
/** How each service authenticates. */
export const AUTH_SCHEME: Readonly<Record<ServiceName, "token" | "access-key">> = Object.fromEntries(SERVICES.map((s) => [s, SERVICE_TABLE[s].auth])) as Record<
  ServiceName,
  "token" | "access-key"
>;

export const DEFAULT_REGION = "kr-central-2";

export interface TimeoutOptions {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<TimeoutOptions> = Object.freeze({
  connectMs: 10_000,
  headersMs: 60_000,
  bodyMs: 300_000,
});

export interface Settings {
  region: string;
  /** Per service; absent when neither an endpoint nor a local cloud is configured (see `endpointOf`). */
  endpoints: Partial<Record<ServiceName, string>>;
  /** The project (account) ID; object storage paths need it. */
  projectId?: string;
  /** `X-Auth-Token`: object storage, cache, key management. */
  authToken?: string;
  /** `Credential-ID` / `Credential-Secret`: data query, Hadoop. */
  credentialId?: string;
  credentialSecret?: string;
  /** `Hadoop-Service-Api-Key`: Hadoop re-run. */
  hadoopApiKey?: string;
  retry?: Partial<RetryOptions>;
  timeouts?: Partial<TimeoutOptions>;
}

export type SettingsInput = Partial<Omit<Settings, "endpoints">> & {
  endpoints?: Partial<Record<ServiceName, string>>;
  /** Base URL of a local cloud; each service endpoint defaults to it plus the service's prefix. */
  localCloudUrl?: string;
};

/** Reads one stack config key (without the `krcloud:` namespace); undefined when unset. */
export type ConfigSource = (key: string) => string | undefined;

/** Setting name -> stack config key and environment variable. */
const KEYS = {
  region: ["region", "KRCLOUD_REGION"],
  projectId: ["projectId", "KRCLOUD_PROJECT_ID"],
  authToken: ["authToken", "KRCLOUD_AUTH_TOKEN"],
  credentialId: ["credentialId", "KRCLOUD_CREDENTIAL_ID"],
  credentialSecret: ["credentialSecret", "KRCLOUD_CREDENTIAL_SECRET"],
  hadoopApiKey: ["hadoopApiKey", "KRCLOUD_HADOOP_API_KEY"],
  localCloudUrl: ["localCloudUrl", "KRCLOUD_LOCAL_CLOUD_URL"],
} as const;

/** Stack config key and environment variable of each service endpoint. */
export function endpointKeys(service: ServiceName): [string, string] {
  return [`${service}Endpoint`, `KRCLOUD_${service.toUpperCase()}_ENDPOINT`];
}

/** Names of the settings that hold secrets: never logged, never put in state. */
export const SECRET_SETTINGS = ["authToken", "credentialSecret", "hadoopApiKey"] as const;

export function resolveSettings(explicit: SettingsInput = {}, config: ConfigSource = () => undefined, env: NodeJS.ProcessEnv = process.env): Settings {
  const pick = (name: keyof typeof KEYS): string | undefined => {
    const e = (explicit as Record<string, unknown>)[name];
    if (typeof e === "string" && e !== "") return e;
    const [cfgKey, envKey] = KEYS[name];
    const c = config(cfgKey);
    if (c !== undefined && c !== "") return c;
    const v = env[envKey];
    return v !== undefined && v !== "" ? v : undefined;
  };
  const localUrl = pick("localCloudUrl");
  const local = localUrl === undefined ? undefined : trimSlash(localUrl);
  const endpoints: Partial<Record<ServiceName, string>> = {};
  for (const svc of SERVICES) {
    const [cfgKey, envKey] = endpointKeys(svc);
    const chosen = explicit.endpoints?.[svc] || config(cfgKey) || env[envKey] || (local === undefined ? undefined : `${local}${LOCAL_CLOUD_PREFIX[svc]}`);
    if (chosen) endpoints[svc] = trimSlash(chosen);
  }
  return {
    region: pick("region") ?? DEFAULT_REGION,
    endpoints,
    projectId: pick("projectId"),
    authToken: pick("authToken"),
    credentialId: pick("credentialId"),
    credentialSecret: pick("credentialSecret"),
    hadoopApiKey: pick("hadoopApiKey"),
    retry: explicit.retry,
    timeouts: explicit.timeouts,
  };
}

/** A setting that is missing or unsafe; the message names the stack config key and environment variable. */
export class ConfigurationError extends Error {
  readonly code = "KRCLOUD_CONFIGURATION";
  override readonly name = "ConfigurationError";
}

/**
 * The endpoint of `service`, checked: configured explicitly or through a local cloud URL (never
 * implied), and never plain `http://` to a host off this machine, where the credential headers
 * would cross the network in clear text.
 */
export function endpointOf(s: Pick<Settings, "endpoints">, service: ServiceName): string {
  const url = s.endpoints[service];
  const [cfgKey, envKey] = endpointKeys(service);
  if (url === undefined) {
    throw new ConfigurationError(
      `no endpoint for the ${service} service: set krcloud:${cfgKey} (or ${envKey}); to use a local cloud, set krcloud:localCloudUrl (or KRCLOUD_LOCAL_CLOUD_URL)`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigurationError(`the ${service} endpoint "${url}" is not a URL (krcloud:${cfgKey} / ${envKey}, or krcloud:localCloudUrl)`);
  }
  if (parsed.protocol === "http:" && !isLoopbackHost(parsed.hostname)) {
    throw new ConfigurationError(
      `the ${service} endpoint ${parsed.origin} uses plain http:// to a host that is not this machine: credentials would cross the network unencrypted; use https:// (krcloud:${cfgKey} / ${envKey}, or krcloud:localCloudUrl)`,
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigurationError(`the ${service} endpoint "${url}" must be an http(s) URL (krcloud:${cfgKey} / ${envKey})`);
  }
  return url;
}

/** 127.0.0.0/8, ::1 and localhost: the only hosts plain http:// may be used with. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The secret values of a settings object, for redaction. */
export function secretValues(s: Partial<Settings>): string[] {
  return SECRET_SETTINGS.map((k) => s[k]).filter((v): v is string => typeof v === "string" && v !== "");
}

function trimSlash(u: string): string {
  return u.replace(/\/+$/, "");
}
