export * from "./client";
export * from "./types";
export { parseEnvelope } from "./envelope";
export { KMS_SECRETS } from "./secrets";
