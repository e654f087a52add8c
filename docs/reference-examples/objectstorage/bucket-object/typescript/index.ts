import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const site = new krcloud.objectstorage.Bucket("site", {forceDestroy: true});
const index = new krcloud.objectstorage.BucketObject("index", {
    bucket: site.name,
    key: "index.html",
    content: "<h1>Hello from krcloud</h1>",
    contentType: "text/html",
});
const assetsFolder = new krcloud.objectstorage.BucketObject("assetsFolder", {
    bucket: site.name,
    key: "assets",
    folder: true,
});
export const indexUrl = index.url;
