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
const sessions = new krcloud.cache.Cluster("sessions", {
    version: "7.0.15",
    flavorId: "redis.small",
    parameterGroupId: sessionsParams.id,
    subnetIds: [
        "sn-a",
        "sn-b",
    ],
    securityGroupIds: ["sg-default"],
    shards: [
        {
            primarySubnetId: "sn-a",
            replicaSubnetIds: ["sn-b"],
        },
        {
            primarySubnetId: "sn-b",
            replicaSubnetIds: ["sn-a"],
        },
    ],
    backupSchedule: {
        cron: "* 3 * * *",
        retentionDays: 7,
    },
});
export const sessionsEndpoint = sessions.primaryEndpoint;
