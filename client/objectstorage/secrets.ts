/**
 * What is secret in the object storage API, registered with client/core's redaction when this module
 * is loaded (client.ts imports it): the token headers, the temp-URL keys (secret metadata),
 * the temp-URL signature in URLs, and user metadata values, which stay out of debug lines.
 */
import { registerSecrets, type SecretNames } from "../core";

export const OBJECT_STORAGE_SECRETS: SecretNames = Object.freeze({
  headers: [
    "x-auth-token",
    "x-storage-token",
    "x-auth-key",
    "x-account-meta-temp-url-key",
    "x-account-meta-temp-url-key-2",
    "x-container-meta-temp-url-key",
    "x-container-meta-temp-url-key-2",
    "x-container-sync-key",
  ],
  queryKeys: ["temp_url_sig"],
  privateHeaderPrefixes: ["x-object-meta-", "x-container-meta-", "x-account-meta-"],
});

registerSecrets(OBJECT_STORAGE_SECRETS);
