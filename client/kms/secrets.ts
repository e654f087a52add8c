/**
 * What is secret in the key management API, registered with client/core's redaction when this module
 * is loaded (client.ts imports it): the token header. Plaintexts and data keys travel in bodies,
 * which the client never logs; error messages are redacted of the settings' secrets.
 */
import { registerSecrets, type SecretNames } from "../core";

export const KMS_SECRETS: SecretNames = Object.freeze({ headers: ["x-auth-token"] });

registerSecrets(KMS_SECRETS);
