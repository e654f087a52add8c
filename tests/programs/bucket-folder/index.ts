/** A bucket and a BucketFolder of the folder named by config `folder`, under `site/`. */
import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud";

const config = new pulumi.Config();
const bucket = new krcloud.objectstorage.Bucket("files", { forceDestroy: true });
const content = new krcloud.objectstorage.BucketFolder("content", { bucket: bucket.name, path: config.require("folder"), prefix: "site/" });

export const bucketName = bucket.name;
export const fileCount = content.fileCount;
