export * from "./client";
export * from "./types";
export { DATA_QUERY_SECRETS } from "./secrets";
