/**
 * A client create body for the smallest Hadoop cluster the local cloud accepts (two workers, no HA,
 * no monitoring), for the tests and studies that make clusters through the client, below the engine.
 */
import type { CreateHadoopClusterInput } from "../../client/hadoop";

export function smallHadoopClusterInput(name: string, where: { keypairName: string; vpcId: string; subnetId: string }): CreateHadoopClusterInput {
  return {
    name,
    clusterVersion: "HDE-2.0.1",
    clusterType: "hadoop",
    isHa: false,
    keypairName: where.keypairName,
    masterFlavorName: "m2a.xlarge",
    workerFlavorName: "m2a.xlarge",
    masterVolumeSize: 100,
    workerVolumeSize: 100,
    workerCnt: 2,
    monitoring: false,
    vpcId: where.vpcId,
    subnetId: where.subnetId,
    config: { hdfsReplication: 2, hdfsBlockSize: 128 },
  };
}
