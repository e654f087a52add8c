import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const clustersVar = krcloud.cache.getClusters({});
export const clusters = clustersVar.then(clustersVar => clustersVar.clusters);
