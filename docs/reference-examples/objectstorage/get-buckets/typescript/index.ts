import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const siteBuckets = krcloud.objectstorage.getBuckets({
    prefix: "site-",
});
export const siteBucketNames = siteBuckets.then(siteBuckets => siteBuckets.names);
