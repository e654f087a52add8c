import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const sessionsCache = new krcloud.cache.CacheWithParameters("sessionsCache", {
    baseParameterGroupId: "default.redis7.0.cluster",
    parameters: {
        "maxmemory-policy": "allkeys-lru",
        timeout: "300",
    },
    cluster: {
        version: "7.0.15",
        flavorId: "redis.small",
        subnetIds: [
            "sn-a",
            "sn-b",
        ],
        securityGroupIds: ["sg-default"],
        shards: [{
            primarySubnetId: "sn-a",
            replicaSubnetIds: ["sn-b"],
        }],
    },
});
export const sessionsCacheEndpoint = sessionsCache.primaryEndpoint;
export const sessionsCacheSync = sessionsCache.syncStatus;
