import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const site = new krcloud.objectstorage.Bucket("site", {forceDestroy: true});
const siteCors = new krcloud.objectstorage.BucketCors("siteCors", {
    bucket: site.name,
    rules: [{
        allowedOrigins: ["https://www.example.com"],
        allowedMethods: [krcloud.objectstorage.BucketCorsRuleAllowedMethod.GET],
        allowedHeaders: ["*"],
        exposeHeaders: ["ETag"],
        maxAgeSeconds: 3600,
    }],
});
