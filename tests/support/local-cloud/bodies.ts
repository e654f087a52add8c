/** Valid request bodies for the local cloud's APIs, shared by the tests that start from one. */

/** A Hadoop CreateCluster body (spec 03 C.4) for a small long-running cluster named `etl`; `over` changes fields. */
export const hadoopCreateBody = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: "etl",
  clusterVersion: "HDE-2.0.1",
  clusterType: "hadoop",
  isHa: false,
  keypairName: "kp",
  masterFlavorName: "m2a.xlarge",
  workerFlavorName: "m2a.2xlarge",
  masterVolumeSize: 100,
  workerVolumeSize: 200,
  workerCnt: 2,
  monitoring: false,
  vpcId: "vpc-1",
  subnetId: "subnet-1",
  config: { hdfsReplication: 2, hdfsBlockSize: 128 },
  ...over,
});
