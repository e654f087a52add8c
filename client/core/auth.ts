/**
 * Which credential each service is called with (specs): `X-Auth-Token` for object storage, cache
 * and key management; `Credential-ID` / `Credential-Secret` (the access key) for data query and
 * Hadoop; `Hadoop-Service-Api-Key` where a Hadoop operation requires it. Missing credentials fail
 * before any request is sent.
 *
 * A token comes from the first of three sources that is configured (the chain): a static
 * `krcloud:authToken`, a `krcloud:tokenCommand`, or the access key, for which the identity service
 * issues tokens (credentials.ts renews the last two).
 */

import { AUTH_SCHEME, settingOrigin, type ServiceName, type Settings } from "./settings";

export type AuthScheme = (typeof AUTH_SCHEME)[ServiceName];

export class MissingCredentialsError extends Error {
  readonly code = "KRCLOUD_MISSING_CREDENTIALS";
  override readonly name = "MissingCredentialsError";
}

/** Where the tokens come from; `setting` names where it was configured, for messages. */
export type TokenSource =
  | { kind: "static"; token: string; setting: string }
  | { kind: "command"; command: string; setting: string }
  | { kind: "access-key"; identityEndpoint: string; credentialId: string; credentialSecret: string; setting: string };

/** The first configured source of tokens, in the chain's order; undefined when none is. */
export function tokenSourceOf(s: Settings): TokenSource | undefined {
  if (s.authToken) return { kind: "static", token: s.authToken, setting: settingOrigin(s, "authToken") };
  if (s.tokenCommand) return { kind: "command", command: s.tokenCommand, setting: settingOrigin(s, "tokenCommand") };
  if (s.credentialId && s.credentialSecret && s.identityEndpoint) {
    return {
      kind: "access-key",
      identityEndpoint: s.identityEndpoint,
      credentialId: s.credentialId,
      credentialSecret: s.credentialSecret,
      setting: accessKeyOrigin(s),
    };
  }
  return undefined;
}

/** The access key's settings as configured: `krcloud:credentialId and krcloud:credentialSecret`. */
export function accessKeyOrigin(s: Settings): string {
  const id = settingOrigin(s, "credentialId");
  const secret = settingOrigin(s, "credentialSecret");
  return `${id} and ${secret}`;
}

const EVERY_TOKEN_SOURCE =
  "krcloud:authToken (a token, as a secret), krcloud:tokenCommand (a command that prints one), or an access key: krcloud:credentialId and " +
  "krcloud:credentialSecret (as a secret) with krcloud:identityEndpoint (the environment: KRCLOUD_AUTH_TOKEN, KRCLOUD_TOKEN_COMMAND, " +
  "KRCLOUD_CREDENTIAL_ID, KRCLOUD_CREDENTIAL_SECRET, KRCLOUD_IDENTITY_ENDPOINT)";

/** Fails, naming what to set, when `service` has no credential to be called with. */
export function assertCredentials(service: ServiceName, s: Settings): void {
  if (AUTH_SCHEME[service] === "access-key") {
    accessKeyHeaders(service, s);
    return;
  }
  if (tokenSourceOf(s)) return;
  if (s.credentialId && s.credentialSecret) {
    throw new MissingCredentialsError(
      `no token for ${service}: an access key is set (${accessKeyOrigin(s)}) but no identity service to issue tokens for it: set krcloud:identityEndpoint (or KRCLOUD_IDENTITY_ENDPOINT)`,
    );
  }
  throw new MissingCredentialsError(`no credentials for ${service}: set one of ${EVERY_TOKEN_SOURCE}`);
}

/** `Credential-ID` / `Credential-Secret` of data query and Hadoop. */
export function accessKeyHeaders(service: ServiceName, s: Settings): Record<string, string> {
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
