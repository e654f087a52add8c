/** The client: shared mechanics (`core`, also re-exported flat) and one namespace per service. */

export * from "./core";
export * as core from "./core";
export * as objectstorage from "./objectstorage";
export { ObjectStorageClient } from "./objectstorage";
export * as cache from "./cache";
export { CacheClient } from "./cache";
export * as kms from "./kms";
export { KmsClient } from "./kms";
export * as dataquery from "./dataquery";
export { DataQueryClient } from "./dataquery";
export * as hadoop from "./hadoop";
export { HadoopClient } from "./hadoop";
