export { Cluster, type ClusterArgs } from "./resources";
export * from "./functions";
