// The Hadoop service: one line per resource (its class and args), then the lookups.
export { Cluster, type ClusterArgs } from "./cluster";
export * from "./functions";
