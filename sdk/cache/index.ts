/** Managed cache (seed 02-cache.md): the client, the pure validators and the topology flatteners. */

export { CacheClient } from "./client";
export * from "./types";
export { ClusterApi, findClusterById, keepBackupsQuery, type ListClustersOptions } from "./clusters";
export { ShardApi } from "./shards";
export { NodeApi } from "./nodes";
export { InstanceSetApi } from "./instance-sets";
export { ParameterGroupApi, PARAMETER_GROUP_CREATE } from "./parameter-groups";
export { CatalogueApi } from "./catalogue";
export { CacheInvalidArgumentError, CacheResponseFormatError, isInvalidArgument, isResponseFormatError, parseCacheErrorBody, refineApiError } from "./errors";
export * from "./records";
export * from "./topology";
export * from "./validate";
export * from "./parameters";
export { expandCreateCluster, expandCreateInstanceSet, expandUpdate, expandAddShard, expandModifyParameterGroup } from "./expand";
export { CACHE_SECRETS } from "./secrets";
