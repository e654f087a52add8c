/**
 * Every resource type token and where its definition lives; a new service adds its lines here.
 * Loaded lazily so one resource's operation does not load every service.
 */
import type { AnyDefinition } from "./core/resource";

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
