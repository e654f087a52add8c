// The cache service: one line per resource (its class and args), then the lookups. The order is
// the one krcloud-drift --unmanaged lists them in.
export { Cluster, type ClusterArgs } from "./cluster";
export { Shard, type ShardArgs } from "./shard";
export { InstanceSet, type InstanceSetArgs } from "./instance-set";
export { ParameterGroup, type ParameterGroupArgs } from "./parameter-group";
export { Backup, type BackupArgs } from "./backup";
export * from "./functions";
// Components: one line each (their class and args).
export { CacheWithParameters, type CacheWithParametersArgs } from "./cache-with-parameters";
