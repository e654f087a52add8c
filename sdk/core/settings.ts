/**
 * Settings: region, one endpoint per service, credentials.
 *
 * Sources, highest precedence first: explicit options, stack config (`krcloud:*`), environment
 * (`KRCLOUD_*`). Nothing here is cached at module level: settings are resolved inside each provider
 * method from what `configure()` received and the environment at that moment.
 */

import type { RetryOptions } from "./retry";

export const SERVICES = ["objectstorage", "cache", "kms", "dataquery", "hadoop"] as const;
export type ServiceName = (typeof SERVICES)[number];

export const DEFAULT_REGION = "kr-central-2";
/** The local cloud (emulator/) is the embedded default: without configured endpoints, requests go there. */
export const DEFAULT_LOCAL_CLOUD_URL = "http://127.0.0.1:8790";
/** Path under the local cloud's URL where each service is mounted. */
export const LOCAL_CLOUD_PREFIX: Readonly<Record<ServiceName, string>> = {
  objectstorage: "/object-storage",
  cache: "/cache",
  kms: "/kms",
  dataquery: "/data-query",
  hadoop: "/hadoop",
};

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
  endpoints: Record<ServiceName, string>;
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

export function resolveSettings(
  explicit: SettingsInput = {},
  config: ConfigSource = () => undefined,
  env: NodeJS.ProcessEnv = process.env,
): Settings {
  const pick = (name: keyof typeof KEYS): string | undefined => {
    const e = (explicit as Record<string, unknown>)[name];
    if (typeof e === "string" && e !== "") return e;
    const [cfgKey, envKey] = KEYS[name];
    const c = config(cfgKey);
    if (c !== undefined && c !== "") return c;
    const v = env[envKey];
    return v !== undefined && v !== "" ? v : undefined;
  };
  const local = trimSlash(pick("localCloudUrl") ?? DEFAULT_LOCAL_CLOUD_URL);
  const endpoints = {} as Record<ServiceName, string>;
  for (const svc of SERVICES) {
    const [cfgKey, envKey] = endpointKeys(svc);
    const chosen = explicit.endpoints?.[svc] || config(cfgKey) || env[envKey] || `${local}${LOCAL_CLOUD_PREFIX[svc]}`;
    endpoints[svc] = trimSlash(chosen);
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

/** The secret values of a settings object, for redaction. */
export function secretValues(s: Partial<Settings>): string[] {
  return SECRET_SETTINGS.map((k) => s[k]).filter((v): v is string => typeof v === "string" && v !== "");
}

function trimSlash(u: string): string {
  return u.replace(/\/+$/, "");
}
