/**
 * Credential headers per seeds: `X-Auth-Token` for object storage, cache and key management;
 * `Credential-ID` / `Credential-Secret` for data query and Hadoop; `Hadoop-Service-Api-Key` where a
 * Hadoop operation requires it. Missing credentials fail before any request is sent.
 */

import { AUTH_SCHEME, type ServiceName, type Settings } from "./settings";

export type AuthScheme = (typeof AUTH_SCHEME)[ServiceName];

export class MissingCredentialsError extends Error {
  readonly code = "KRCLOUD_MISSING_CREDENTIALS";
  override readonly name = "MissingCredentialsError";
}

export function authHeaders(service: ServiceName, s: Settings): Record<string, string> {
  if (AUTH_SCHEME[service] === "token") {
    if (!s.authToken) {
      throw new MissingCredentialsError(`no auth token for ${service}: set stack config krcloud:authToken (as a secret) or KRCLOUD_AUTH_TOKEN`);
    }
    return { "x-auth-token": s.authToken };
  }
  if (!s.credentialId || !s.credentialSecret) {
    throw new MissingCredentialsError(
      `no access key for ${service}: set krcloud:credentialId and krcloud:credentialSecret (as a secret), or KRCLOUD_CREDENTIAL_ID and KRCLOUD_CREDENTIAL_SECRET`,
    );
  }
  return { "credential-id": s.credentialId, "credential-secret": s.credentialSecret };
}

/** `Hadoop-Service-Api-Key` for the operations that need it. */
export function hadoopApiKeyHeader(s: Settings): Record<string, string> {
  if (!s.hadoopApiKey) {
    throw new MissingCredentialsError("no Hadoop API key: set krcloud:hadoopApiKey (as a secret) or KRCLOUD_HADOOP_API_KEY");
  }
  return { "hadoop-service-api-key": s.hadoopApiKey };
}
