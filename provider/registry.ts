/**
 * Every resource type token and lookup function token, and where each lives; a new service adds
 * its lines here. Loaded lazily so one resource's operation does not load every service.
 */
import type { AnyDefinition } from "./core/resource";
import type { Settings } from "../sdk/core";

export const REGISTRY: Readonly<Record<string, () => AnyDefinition>> = {
  "krcloud:objectstorage:Bucket": () => require("./objectstorage/bucket").bucket,
  "krcloud:objectstorage:BucketCors": () => require("./objectstorage/bucket-cors").bucketCors,
  "krcloud:objectstorage:BucketLifecycle": () => require("./objectstorage/bucket-lifecycle").bucketLifecycle,
  "krcloud:objectstorage:BucketObject": () => require("./objectstorage/bucket-object").bucketObject,
};

/** A lookup as the native plugin's `invoke` runs it: the TS function plus the result keys that are secrets. */
export interface Lookup {
  run(args: Record<string, unknown>, opts: { settings: Settings }): Promise<unknown>;
  /** Top-level result keys returned as secrets. */
  secretResults?: readonly string[];
}

/** Lookup functions by the token schema.json gives them (TS programs call the functions directly). */
export const LOOKUPS: Readonly<Record<string, () => Lookup>> = {
  "krcloud:objectstorage:getBucket": () => ({ run: require("./objectstorage/functions").getBucket }),
  "krcloud:objectstorage:getBuckets": () => ({ run: require("./objectstorage/functions").getBuckets }),
  "krcloud:objectstorage:getObjectStorageInfo": () => ({ run: require("./objectstorage/functions").getObjectStorageInfo }),
  // The URL carries a signature that grants access.
  "krcloud:objectstorage:getTempUrl": () => ({ run: require("./objectstorage/functions").getTempUrl, secretResults: ["url"] }),
};
