import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const site = new krcloud.objectstorage.Bucket("site", {forceDestroy: true});
const siteLifecycle = new krcloud.objectstorage.BucketLifecycle("siteLifecycle", {
    bucket: site.name,
    rules: [{
        id: "expire-logs",
        prefix: "logs/",
        status: krcloud.objectstorage.BucketLifecycleRuleStatus.Enabled,
        expirationDays: 30,
    }],
});
