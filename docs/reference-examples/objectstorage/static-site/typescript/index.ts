import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const www = new krcloud.objectstorage.StaticSite("www", {
    path: "./site",
    exclude: ["**/*.map"],
    cacheControl: "max-age=300",
});
export const siteUrl = www.indexUrl;
export const siteLayout = www.layout;
