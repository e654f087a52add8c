import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const sharedAssets = krcloud.objectstorage.getBucket({
    name: "shared-assets",
});
export const sharedAssetsObjects = sharedAssets.then(sharedAssets => sharedAssets.objectCount);
export const sharedAssetsPublic = sharedAssets.then(sharedAssets => sharedAssets.acl?.["public"]);
