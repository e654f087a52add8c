import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud/native";

const hadoopClustersVar = krcloud.hadoop.getClusters({
    includeTerminated: true,
});
export const hadoopClusters = hadoopClustersVar.then(hadoopClustersVar => hadoopClustersVar.clusters);
