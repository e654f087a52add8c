/**
 * What is secret in the cache API, registered with client/core's redaction when this module is loaded
 * (client.ts imports it): the token header. `user.password` travels in bodies and is redacted from
 * errors per request (operations/context.ts).
 */
import { registerSecrets, type SecretNames } from "../core";

export const CACHE_SECRETS: SecretNames = Object.freeze({ headers: ["x-auth-token"] });

registerSecrets(CACHE_SECRETS);
