/** Tolerant readers of the cache API's answers, per noun (readers.ts says how tolerant). */
export { flattenObjectId } from "./readers";
export { clusterRecordSchema, flattenClusterList, flattenClusterRecord } from "./clusters";
export { flattenInstance, flattenInstanceList, flattenNode, flattenNodeList, flattenShard, flattenShardList } from "./shards";
export { flattenFlavors, flattenVersions } from "./catalogue";
export {
  flattenParameterDefinition,
  flattenParameterGroup,
  flattenParameterGroupEvents,
  flattenParameterGroupList,
  flattenParameterGroupSummary,
  parameterValueKind,
} from "./parameter-groups";
export { backupKind, flattenBackup, flattenBackupList } from "./backups";
