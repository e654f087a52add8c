export { Cluster, InstanceSet, ParameterGroup, Shard, type ClusterArgs, type InstanceSetArgs, type ParameterGroupArgs, type ShardArgs } from "./resources";
export * from "./functions";
