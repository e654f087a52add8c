/**
 * A Redis cluster with a parameter group of its own, from the CacheWithParameters component: the
 * parameters are a plain map; changing one (config `maxmemoryPolicy`) updates the group, which the
 * service applies to the cluster, and never replaces the cluster.
 *
 * The engine version and flavor are looked up, so the program runs as is against any region or the
 * local cloud. Settings (stack config): krcloud:projectId, krcloud:authToken (secret), and for the
 * local cloud krcloud:localCloudUrl. Program settings: subnets (default sn-a,sn-b), securityGroup
 * (default sg-default), maxmemoryPolicy (default allkeys-lru).
 */
import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud";

const config = new pulumi.Config();
const subnets = (config.get("subnets") ?? "sn-a,sn-b").split(",").map((s) => s.trim());
const securityGroup = config.get("securityGroup") ?? "sg-default";
const maxmemoryPolicy = config.get("maxmemoryPolicy") ?? "allkeys-lru";

/** The newest engine version the service offers, the smallest flavor, and the engine's default cluster group. */
const catalogue = pulumi.output(Promise.all([krcloud.cache.getVersions(), krcloud.cache.getFlavors()])).apply(async ([v, f]) => {
  const version = [...v.versions].sort((a, b) => a.localeCompare(b, "en", { numeric: true })).at(-1)!;
  const { parameterGroups } = await krcloud.cache.getParameterGroups({ parameterGroupType: "default", clusterMode: "enabled", engineVersion: version });
  if (parameterGroups.length === 0) throw new Error(`no default cluster parameter group for engine ${version}`);
  return { version, flavorId: [...f.flavors].sort((a, b) => (a.memory ?? 0) - (b.memory ?? 0))[0].id, baseGroup: parameterGroups[0].id };
});

const sessions = new krcloud.cache.CacheWithParameters("sessions", {
  baseParameterGroupId: catalogue.baseGroup,
  parameters: { "maxmemory-policy": maxmemoryPolicy, timeout: "300" },
  cluster: {
    description: "web sessions",
    version: catalogue.version,
    flavorId: catalogue.flavorId,
    subnetIds: subnets,
    securityGroupIds: [securityGroup],
    shards: [{ primarySubnetId: subnets[0], replicaSubnetIds: subnets.slice(1, 2) }],
  },
});

export const endpoint = sessions.primaryEndpoint;
export const parameterGroupId = sessions.parameterGroupId;
export const parameters = sessions.parameters;
export const syncStatus = sessions.syncStatus;
