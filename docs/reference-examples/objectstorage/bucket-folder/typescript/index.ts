import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const site = new krcloud.objectstorage.Bucket("site", {forceDestroy: true});
const content = new krcloud.objectstorage.BucketFolder("content", {
    bucket: site.name,
    path: "./site",
    prefix: "www/",
    exclude: ["**/*.map"],
    contentTypes: {
        ".webmanifest": "application/manifest+json",
    },
    cacheControl: "max-age=300",
});
export const url = content.url;
export const files = content.fileCount;
