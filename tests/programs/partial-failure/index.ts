import * as krcloud from "pulumi-krcloud";

// Public read is set by UpdateBucketAcl after CreateBucket: a failure there fails after the cloud
// accepted the bucket.
const bucket = new krcloud.objectstorage.Bucket("public-site", { acl: { public: "read-only" }, metadata: { purpose: "partial-failure" } });
export const bucketName = bucket.name;
