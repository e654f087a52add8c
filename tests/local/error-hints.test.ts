/**
 * Errors that say what to do: a value the service does not offer (a flavor, an engine version, a
 * parameter group, a KMS key, a database instance) is refused with the values that would work, or
 * the lookup that lists them, or where to look.
 */
import { clusterArgs } from "../support/cache";
import { rejection, type TestCloud } from "../support/local-cloud";
import { testCloudForFile } from "../support/local-cloud/per-file";

let tc: TestCloud;
testCloudForFile({ service: "cache", cacheEngine: "simulated", reset: true }, (c) => (tc = c));

test("cache Cluster: a flavor or an engine version not offered names the offered ones and the lookup", async () => {
  const cluster = await tc.resource("krcloud:cache:Cluster");
  const flavor = await rejection(cluster.up(clusterArgs({ flavorId: "redis.m.large" })));
  expect(flavor.message).toMatch(/flavorId "redis\.m\.large" is not among the values offered: .*redis\.small.* \(krcloud\.cache\.getFlavors lists them\)/);
  const version = await rejection(cluster.up(clusterArgs({ version: "6.0.0" })));
  expect(version.message).toMatch(/version "6\.0\.0" is not among the values offered: .*7\.0\.15.* \(krcloud\.cache\.getVersions lists them\)/);
  const group = await rejection(cluster.up(clusterArgs({ parameterGroupId: "default.redis7.cluster.nope" })));
  expect(group.message).toMatch(
    /parameterGroupId "default\.redis7\.cluster\.nope" is not among the values offered: .*\(krcloud\.cache\.getParameterGroups lists them\)/,
  );
});

test("KMS: a key the project does not have says where to look", async () => {
  const cipher = await tc.resource("krcloud:kms:Ciphertext");
  const err = await rejection(cipher.up({ keyId: "no-such-key", plaintext: "x" }));
  expect(err.message).toMatch(/keyId "no-such-key": no such KMS key in this project/);
});
