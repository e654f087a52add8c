import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const queue = new krcloud.cache.InstanceSet("queue", {
    version: "7.0.15",
    flavorId: "redis.small",
    parameterGroupId: "default.redis7.0.standalone",
    subnetIds: [
        "sn-a",
        "sn-b",
        "sn-c",
    ],
    securityGroupIds: ["sg-default"],
    primarySubnetId: "sn-a",
    replicaSubnetIds: [
        "sn-b",
        "sn-c",
    ],
    highAvailability: true,
    backupSchedule: {
        hour: 3,
        retentionDays: 7,
    },
});
const queueInstancesVar = krcloud.cache.getInstancesOutput({
    instanceSetId: queue.id,
});
export const queueInstances = queueInstancesVar.apply(queueInstancesVar => queueInstancesVar.instances);
