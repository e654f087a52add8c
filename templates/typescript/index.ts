import * as krcloud from "pulumi-krcloud";

// A private bucket (no public reads: the default ACL), and a lifecycle rule that deletes what is
// put under tmp/ after 7 days. The name is derived from "data" and the stack.
const data = new krcloud.objectstorage.Bucket("data", {
  metadata: { project: "${PROJECT}" },
});

new krcloud.objectstorage.BucketLifecycle("data-lifecycle", {
  bucket: data.name,
  rules: [{ id: "expire-tmp", prefix: "tmp/", expirationDays: 7 }],
});

export const bucketName = data.name;
export const bucketUrl = data.url;
