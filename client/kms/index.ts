export * from "./client";
export * from "./types";
export { parseEnvelope } from "./parse";
export { KMS_SECRETS } from "./secrets";
