import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const clusterDefaults = krcloud.cache.getParameterGroup({
    idOrName: "default.redis7.0.cluster",
});
export const clusterDefaultParameters = clusterDefaults.then(clusterDefaults => clusterDefaults.parameters);
