/**
 * A small long-running cluster of three workers: the inputs every Hadoop test starts from, spread
 * with what it changes (cluster.ts's `valid` and fault-matrix row, and the engine test programs, which
 * read it from the fixtures.json each copy of a program gets: tests/harness/engine/sandbox.ts).
 */
export const smallCluster = {
  clusterVersion: "HDE-2.0.1",
  clusterType: "hadoop",
  keypairName: "kp",
  masterFlavorName: "m2a.xlarge",
  workerFlavorName: "m2a.xlarge",
  workerCnt: 3,
  vpcId: "vpc-1",
  subnetId: "sn-1",
};
