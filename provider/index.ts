/**
 * The service modules, one line each: the package's index.ts re-exports them and the registry
 * (registry.ts) lists them from here, so a new service is its folder plus one line in this file.
 */
export * as objectstorage from "./objectstorage";
export * as cache from "./cache";
export * as dataquery from "./dataquery";
export * as hadoop from "./hadoop";
export * as kms from "./kms";
