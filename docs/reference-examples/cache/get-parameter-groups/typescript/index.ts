import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const defaultGroupsVar = krcloud.cache.getParameterGroups({
    parameterGroupType: krcloud.cache.GetParameterGroupsParameterGroupType.Default,
    clusterMode: krcloud.cache.GetParameterGroupsClusterMode.Enabled,
    engineVersion: "7.0.15",
});
export const defaultGroups = defaultGroupsVar.then(defaultGroupsVar => defaultGroupsVar.parameterGroups);
