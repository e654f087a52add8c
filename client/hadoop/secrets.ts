/**
 * What is secret in the Hadoop cluster API, registered with client/core's redaction when this module is
 * loaded (client.ts imports it): the access key secret and the cluster API key. Admin and metastore
 * passwords travel Base64-encoded in bodies and are redacted per request, in both forms.
 */
import { registerSecrets, type SecretNames } from "../core";

export const HADOOP_SECRETS: SecretNames = Object.freeze({ headers: ["credential-secret", "hadoop-service-api-key"] });

registerSecrets(HADOOP_SECRETS);
