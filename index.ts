/**
 * pulumi-krcloud: Pulumi providers for krcloud (region kr-central-2).
 *
 *   import * as krcloud from "pulumi-krcloud";
 *   const site = new krcloud.objectstorage.Bucket("site", { acl: { public: "read-only" } });
 */
import "./provider/core/node-version";
export * from "./provider";
