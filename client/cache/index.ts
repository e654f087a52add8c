/** Managed cache (spec 02-cache.md): the client, the pure validators and the topology flatteners. */

export { CacheClient } from "./client";
export * from "./types";
export { ClusterApi, findClusterById, keepBackupsQuery, type ListClustersOptions } from "./operations/clusters";
export { ShardApi } from "./operations/shards";
export { NodeApi } from "./operations/nodes";
export { InstanceSetApi } from "./operations/instance-sets";
export { ParameterGroupApi, PARAMETER_GROUP_CREATE } from "./operations/parameter-groups";
export { CatalogueApi } from "./operations/catalogue";
export { BackupApi } from "./operations/backups";
export { CacheInvalidArgumentError, CacheResponseFormatError, isInvalidArgument, isResponseFormatError, parseCacheErrorBody, refineApiError } from "./errors";
export * from "./parse";
export * from "./topology";
export * from "./validate";
export * from "./parameters";
export { expandCreateCluster, expandCreateInstanceSet, expandUpdate, expandAddShard, expandModifyParameterGroup } from "./expand";
export { CACHE_SECRETS } from "./secrets";
