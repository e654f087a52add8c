/**
 * What is secret in the data query API, registered with client/core's redaction when this module is
 * loaded (client.ts imports it): the access key secret. Data source passwords travel Base64-encoded
 * in bodies and are redacted from errors per request (in both forms).
 */
import { registerSecrets, type SecretNames } from "../core";

export const DATA_QUERY_SECRETS: SecretNames = Object.freeze({ headers: ["credential-secret"] });

registerSecrets(DATA_QUERY_SECRETS);
