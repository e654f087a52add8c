import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const assets = new krcloud.objectstorage.Bucket("assets", {
    acl: {
        "public": krcloud.objectstorage.BucketAclPublic.Read_only,
        publicReadAllowIpList: ["203.0.113.0/24"],
    },
    metadata: {
        owner: "web-team",
    },
    forceDestroy: true,
});
export const assetsName = assets.name;
export const assetsUrl = assets.url;
