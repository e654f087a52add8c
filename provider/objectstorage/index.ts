export {
  Bucket,
  BucketCors,
  BucketLifecycle,
  BucketObject,
  type BucketArgs,
  type BucketCorsArgs,
  type BucketLifecycleArgs,
  type BucketObjectArgs,
} from "./resources";
export * from "./functions";
