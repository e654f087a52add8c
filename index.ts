/**
 * pulumi-krcloud: Pulumi providers for krcloud (region kr-central-2).
 *
 *   import * as krcloud from "pulumi-krcloud";
 *   const site = new krcloud.objectstorage.Bucket("site", { acl: { public: "read-only" } });
 */
import "./provider/core/node-version";
export * as objectstorage from "./provider/objectstorage";
export * as cache from "./provider/cache";
export * as dataquery from "./provider/dataquery";
export * as hadoop from "./provider/hadoop";
export * as kms from "./provider/kms";
