/**
 * Settings: region, one endpoint per service, credentials.
 *
 * Sources, highest precedence first: explicit options, stack config (`krcloud:*`), environment
 * (`KRCLOUD_*`). Nothing here is cached at module level: settings are resolved inside each provider
 * method from what `configure()` received and the environment at that moment.
 */

import { runtimeSecrets } from "./redact";
import type { RetryOptions } from "./retry";

/**
 * Every service, one line each: what the docs call it (the README's table of services is generated
 * from it), the path under a local cloud's URL where it is mounted, and how it authenticates
 * (specs: `X-Auth-Token`, or the `Credential-ID`/`Credential-Secret` access key).
 */
const SERVICE_TABLE = {
  objectstorage: { title: "object storage", localCloudPrefix: "/object-storage", auth: "token" },
  cache: { title: "cache (Redis-compatible)", localCloudPrefix: "/cache", auth: "token" },
  kms: { title: "key management", localCloudPrefix: "/kms", auth: "token" },
  dataquery: { title: "data query", localCloudPrefix: "/data-query", auth: "access-key" },
  hadoop: { title: "Hadoop", localCloudPrefix: "/hadoop", auth: "access-key" },
} as const satisfies Record<string, { title: string; localCloudPrefix: string; auth: "token" | "access-key" }>;

export type ServiceName = keyof typeof SERVICE_TABLE;
export const SERVICES = Object.keys(SERVICE_TABLE) as readonly ServiceName[];
/** Path under the local cloud's URL where each service is mounted. */
export const LOCAL_CLOUD_PREFIX: Readonly<Record<ServiceName, string>> = Object.fromEntries(
  SERVICES.map((s) => [s, SERVICE_TABLE[s].localCloudPrefix]),
) as Record<ServiceName, string>;
/** What each service is called in the docs (the README's table of services). */
export const SERVICE_TITLE: Readonly<Record<ServiceName, string>> = Object.fromEntries(SERVICES.map((s) => [s, SERVICE_TABLE[s].title])) as Record<
  ServiceName,
  string
>;
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
  /**
   * The project (account) ID; object storage paths need it. Configured, or taken from the token
   * (`authenticated`, credentials.ts); when both are known and differ, nothing is done.
   */
  projectId?: string;
  /** A static `X-Auth-Token` for object storage, cache, key management (the first source of tokens). */
  authToken?: string;
  /** A command printing `{"token", "expiresAt", "projectId"}`: the second source of tokens (credentials.ts). */
  tokenCommand?: string;
  /**
   * The access key: `Credential-ID` / `Credential-Secret` of data query and Hadoop, and the
   * application credential the identity service issues tokens for (the third source of tokens).
   */
  credentialId?: string;
  credentialSecret?: string;
  /** The identity service (Keystone v3) that issues tokens for the access key. */
  identityEndpoint?: string;
  /** The project the current token names (set by `authenticated` once checked against `projectId`). */
  tokenProjectId?: string;
  /** `Hadoop-Service-Api-Key`: Hadoop re-run. */
  hadoopApiKey?: string;
  retry?: Partial<RetryOptions>;
  timeouts?: Partial<TimeoutOptions>;
  /**
   * Where each credential setting came from (`krcloud:authToken`, `KRCLOUD_AUTH_TOKEN`, or the
   * `authToken` option), for messages that must name it; absent when built by hand.
   */
  origins?: Partial<Record<CredentialSetting, string>>;
}

/** The settings whose origin an error about a credential names. */
export type CredentialSetting = "projectId" | "authToken" | "tokenCommand" | "credentialId" | "credentialSecret" | "identityEndpoint";

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
  tokenCommand: ["tokenCommand", "KRCLOUD_TOKEN_COMMAND"],
  identityEndpoint: ["identityEndpoint", "KRCLOUD_IDENTITY_ENDPOINT"],
  hadoopApiKey: ["hadoopApiKey", "KRCLOUD_HADOOP_API_KEY"],
  localCloudUrl: ["localCloudUrl", "KRCLOUD_LOCAL_CLOUD_URL"],
} as const;

/** Stack config key and environment variable of each service endpoint. */
export function endpointKeys(service: ServiceName): [string, string] {
  return [`${service}Endpoint`, `KRCLOUD_${service.toUpperCase()}_ENDPOINT`];
}

/** Names of the settings that hold secrets: never logged, never put in state. */
export const SECRET_SETTINGS = ["authToken", "credentialSecret", "hadoopApiKey"] as const;

/** The path under a local cloud's URL where its identity service is mounted. */
export const LOCAL_CLOUD_IDENTITY_PREFIX = "/identity";

export function resolveSettings(explicit: SettingsInput = {}, config: ConfigSource = () => undefined, env: NodeJS.ProcessEnv = process.env): Settings {
  const origins: Partial<Record<string, string>> = {};
  const pick = (name: keyof typeof KEYS): string | undefined => {
    const [cfgKey, envKey] = KEYS[name];
    const e = (explicit as Record<string, unknown>)[name];
    const c = config(cfgKey);
    const v = env[envKey];
    const [value, origin] =
      typeof e === "string" && e !== ""
        ? [e, `the ${name} option`]
        : c !== undefined && c !== ""
          ? [c, `krcloud:${cfgKey}`]
          : v !== undefined && v !== ""
            ? [v, envKey]
            : [undefined, undefined];
    if (origin !== undefined) origins[name] = origin;
    return value;
  };
  const localUrl = pick("localCloudUrl");
  const local = localUrl === undefined ? undefined : trimSlash(localUrl);
  const endpoints: Partial<Record<ServiceName, string>> = {};
  for (const svc of SERVICES) {
    const [cfgKey, envKey] = endpointKeys(svc);
    const chosen = explicit.endpoints?.[svc] || config(cfgKey) || env[envKey] || (local === undefined ? undefined : `${local}${LOCAL_CLOUD_PREFIX[svc]}`);
    if (chosen) endpoints[svc] = trimSlash(chosen);
  }
  const identity = pick("identityEndpoint") ?? (local === undefined ? undefined : `${local}${LOCAL_CLOUD_IDENTITY_PREFIX}`);
  const settings: Settings = {
    region: pick("region") ?? DEFAULT_REGION,
    endpoints,
    projectId: pick("projectId"),
    authToken: pick("authToken"),
    tokenCommand: pick("tokenCommand"),
    credentialId: pick("credentialId"),
    credentialSecret: pick("credentialSecret"),
    identityEndpoint: identity === undefined ? undefined : trimSlash(identity),
    hadoopApiKey: pick("hadoopApiKey"),
    retry: explicit.retry,
    timeouts: explicit.timeouts,
  };
  if (settings.identityEndpoint !== undefined && origins.identityEndpoint === undefined) origins.identityEndpoint = "krcloud:localCloudUrl";
  settings.origins = origins;
  return settings;
}

/**
 * Where a credential setting came from, for messages: `krcloud:credentialId`, `KRCLOUD_CREDENTIAL_ID`
 * or `the credentialId option`; both names when unknown (settings built by hand).
 */
export function settingOrigin(s: Pick<Settings, "origins">, name: CredentialSetting): string {
  const known = s.origins?.[name];
  if (known !== undefined) return known;
  const [cfgKey, envKey] = KEYS[name];
  return `krcloud:${cfgKey} / ${envKey}`;
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
  return checkedUrl(url, `the ${service} endpoint`, `krcloud:${cfgKey} / ${envKey}, or krcloud:localCloudUrl`);
}

/**
 * `url` when it is an http(s) URL that keeps credentials off the network in clear text: https://,
 * or plain http:// to this machine only. `what` and `where` name it in errors.
 */
export function checkedUrl(url: string, what: string, where: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigurationError(`${what} "${url}" is not a URL (${where})`);
  }
  if (parsed.protocol === "http:" && !isLoopbackHost(parsed.hostname)) {
    throw new ConfigurationError(
      `${what} ${parsed.origin} uses plain http:// to a host that is not this machine: credentials would cross the network unencrypted; use https:// (${where})`,
    );
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigurationError(`${what} "${url}" must be an http(s) URL (${where})`);
  }
  return url;
}

/** 127.0.0.0/8, ::1 and localhost: the only hosts plain http:// may be used with. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The secret values of a settings object, for redaction, and those this process came to know at
 * run time (tokens issued for it, a token command's output: credentials.ts remembers them).
 */
export function secretValues(s: Partial<Settings>): string[] {
  const configured = SECRET_SETTINGS.map((k) => s[k]).filter((v): v is string => typeof v === "string" && v !== "");
  return [...configured, ...runtimeSecrets()];
}

function trimSlash(u: string): string {
  return u.replace(/\/+$/, "");
}
