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
  "krcloud:cache:ParameterGroup": () => require("./cache/parameter-group").parameterGroup,
  "krcloud:cache:Cluster": () => require("./cache/cluster").cluster,
  "krcloud:cache:Shard": () => require("./cache/shard").shard,
  "krcloud:cache:InstanceSet": () => require("./cache/instance-set").instanceSet,
  "krcloud:dataquery:DataSource": () => require("./dataquery/data-source").dataSource,
  "krcloud:dataquery:Query": () => require("./dataquery/query").query,
  "krcloud:hadoop:Cluster": () => require("./hadoop/cluster").hadoopCluster,
  "krcloud:kms:Ciphertext": () => require("./kms/ciphertext").ciphertext,
  "krcloud:kms:DataKey": () => require("./kms/data-key").dataKey,
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
  "krcloud:cache:getVersions": () => ({ run: require("./cache/functions").getVersions }),
  "krcloud:cache:getFlavors": () => ({ run: require("./cache/functions").getFlavors }),
  "krcloud:cache:getParameterGroups": () => ({ run: require("./cache/functions").getParameterGroups }),
  "krcloud:cache:getParameterGroup": () => ({ run: require("./cache/functions").getParameterGroup }),
  "krcloud:cache:getClusters": () => ({ run: require("./cache/functions").getClusters }),
  "krcloud:cache:getCluster": () => ({ run: require("./cache/functions").getCluster }),
  "krcloud:cache:getInstances": () => ({ run: require("./cache/functions").getInstances }),
  "krcloud:dataquery:getDataSources": () => ({ run: require("./dataquery/functions").getDataSources }),
  "krcloud:dataquery:getQueryResult": () => ({ run: require("./dataquery/functions").getQueryResult }),
  "krcloud:hadoop:getClusters": () => ({ run: require("./hadoop/functions").getClusters }),
  "krcloud:hadoop:getCluster": () => ({ run: require("./hadoop/functions").getCluster }),
  "krcloud:hadoop:getClusterVms": () => ({ run: require("./hadoop/functions").getClusterVms }),
  // A decrypted plaintext and an HMAC are secrets, as the TypeScript Output forms make them.
  "krcloud:kms:decrypt": () => ({ run: require("./kms/functions").decrypt, secretResults: ["plaintext"] }),
  "krcloud:kms:sign": () => ({ run: require("./kms/functions").sign }),
  "krcloud:kms:verifySignature": () => ({ run: require("./kms/functions").verifySignature }),
  "krcloud:kms:createHmac": () => ({ run: require("./kms/functions").createHmac, secretResults: ["hmac"] }),
  "krcloud:kms:verifyHmac": () => ({ run: require("./kms/functions").verifyHmac }),
};
