// The object storage service: one line per resource (its class and args), then the lookups.
export { Bucket, type BucketArgs } from "./bucket";
export { BucketCors, type BucketCorsArgs } from "./bucket-cors";
export { BucketFolder, type BucketFolderArgs } from "./bucket-folder";
export { BucketLifecycle, type BucketLifecycleArgs } from "./bucket-lifecycle";
export { BucketObject, type BucketObjectArgs } from "./bucket-object";
export * from "./functions";
// Components: one line each (their class and args).
export { StaticSite, type StaticSiteArgs } from "./static-site";
