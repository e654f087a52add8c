import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const sessionsParams = new krcloud.cache.ParameterGroup("sessionsParams", {
    baseParameterGroupId: "default.redis7.0.cluster",
    description: "sessions, least recently used keys evicted first",
    parameters: {
        "maxmemory-policy": "allkeys-lru",
        timeout: "300",
    },
});
export const sessionsParamsSync = sessionsParams.syncStatus;
