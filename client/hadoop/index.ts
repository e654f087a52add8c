export * from "./client";
export * from "./types";
export { HADOOP_SECRETS } from "./secrets";
