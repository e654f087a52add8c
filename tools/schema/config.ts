/** The provider's configuration variables in schema.json: every setting, its description, default and environment variable. */
import { CONFIG_KEYS } from "../../provider/core/config";
import { DEFAULT_REGION, LOCAL_CLOUD_PREFIX, SECRET_SETTINGS, SERVICES, endpointKeys, type ServiceName } from "../../client/core/settings";
import type { PropertySpec } from "./types";

/** Descriptions of the provider settings; each `<service>Endpoint` is described by `endpointDoc`. */
const CONFIG_DOCS: Record<string, string> = {
  region: "Region.",
  projectId:
    "Project (account) ID; object storage paths need it. Optional with a token that names its project (an access key's, a token command's): taken from it; when both are set and differ, nothing is done.",
  authToken:
    "A static `X-Auth-Token` for object storage, cache and key management: the first source of tokens. It cannot be renewed; prefer an access key (`credentialId`, `credentialSecret`, `identityEndpoint`).",
  tokenCommand:
    'A command (run with the shell) whose standard output is `{"token": ..., "expiresAt": ..., "projectId": ...}`: the second source of tokens, run again near expiry and after a 401.',
  credentialId:
    "Access key ID: `Credential-ID` of data query and Hadoop, and the application credential the identity service issues tokens for (the third source of tokens).",
  credentialSecret: "Access key secret: `Credential-Secret` of data query and Hadoop, and the secret of the application credential.",
  identityEndpoint:
    "Endpoint of the identity service (Keystone v3) that issues tokens for the access key; its catalog gives every service endpoint not set. Default: `{localCloudUrl}/identity` when `localCloudUrl` is set.",
  hadoopApiKey: "`Hadoop-Service-Api-Key`, for Hadoop re-runs.",
  localCloudUrl:
    "Base URL of a local cloud (e.g. `http://127.0.0.1:8790`); every service without an endpoint goes to it, under the service's prefix. Never implied: without it or an endpoint, a service's resources fail naming the missing setting.",
};
const CONFIG_DEFAULTS: Record<string, string> = {
  region: DEFAULT_REGION,
};

/** `projectId` -> `KRCLOUD_PROJECT_ID` (the settings module's naming rule). */
export function configEnvVar(key: string): string {
  const service = SERVICES.find((s) => endpointKeys(s)[0] === key);
  if (service) return endpointKeys(service)[1];
  return `KRCLOUD_${key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase()}`;
}

function endpointDoc(service: ServiceName): string {
  return `Endpoint of the ${service} service (https://, or http:// on loopback only). Default: \`{localCloudUrl}${LOCAL_CLOUD_PREFIX[service]}\` when \`localCloudUrl\` is set; otherwise required.`;
}

export function configVariables(): Record<string, PropertySpec> {
  const secrets = new Set<string>(SECRET_SETTINGS);
  const out: Record<string, PropertySpec> = {};
  for (const key of CONFIG_KEYS) {
    const service = SERVICES.find((s) => endpointKeys(s)[0] === key);
    const description = service ? endpointDoc(service) : CONFIG_DOCS[key];
    if (!description) throw new Error(`config key "${key}" has no description: add it to CONFIG_DOCS in tools/gen-schema.ts`);
    const p: PropertySpec = { type: "string", description, defaultInfo: { environment: [configEnvVar(key)] } };
    if (CONFIG_DEFAULTS[key] !== undefined) p.default = CONFIG_DEFAULTS[key];
    if (secrets.has(key)) p.secret = true;
    out[key] = p;
  }
  return out;
}
