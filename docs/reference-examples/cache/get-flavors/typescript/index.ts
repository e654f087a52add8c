import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const flavorsVar = krcloud.cache.getFlavors({});
export const flavors = flavorsVar.then(flavorsVar => flavorsVar.flavors);
