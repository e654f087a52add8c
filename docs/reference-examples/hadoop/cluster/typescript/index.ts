import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const site = new krcloud.objectstorage.Bucket("site", {forceDestroy: true});
const nightly = new krcloud.hadoop.Cluster("nightly", {
    clusterVersion: "HDE-2.0.1",
    clusterType: krcloud.hadoop.ClusterClusterType.Hadoop,
    keypairName: "my-keypair",
    masterFlavorName: "m2a.xlarge",
    workerFlavorName: "m2a.xlarge",
    workerCnt: 3,
    vpcId: "vpc-main",
    subnetId: "sn-main",
    configurations: [{
        classification: "hive-site",
        properties: {
            "hive.exec.parallel": "true",
        },
    }],
    userTask: {
        type: krcloud.hadoop.ClusterUserTaskType.Hive,
        terminationPolicy: krcloud.hadoop.ClusterUserTaskTerminationPolicy.OnSuccess,
        hiveQuery: "select count(*) from orders",
        logBucketName: site.name,
    },
});
export const nightlyStatus = nightly.status;
export const nightlyLog = nightly.logUrl;
