/**
 * A one-node instance set on the local cloud's default standalone parameter group: the inputs the
 * engine test programs declare it with (they read it from the fixtures.json each copy of a program
 * gets: tests/harness/engine/sandbox.ts), spread with what each changes.
 */
export const smallInstanceSet = {
  version: "7.0.15",
  flavorId: "redis.small",
  parameterGroupId: "default.redis7.0.standalone",
  subnetIds: ["sn-a", "sn-b", "sn-c"],
  securityGroupIds: ["sg-1"],
  primarySubnetId: "sn-a",
  replicaSubnetIds: [] as string[],
};
