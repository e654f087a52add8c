/**
 * Managed cache: a custom parameter group, a 3-shard Redis cluster (one replica per shard) that uses
 * it, and a high-availability instance set (a primary and two replicas).
 *
 * The engine version, flavor and base parameter groups are looked up, so the program runs as is
 * against any region or the local cloud. Settings (stack config): krcloud:projectId,
 * krcloud:authToken (secret), and for the local cloud krcloud:localCloudUrl. Program settings:
 * subnets (default sn-a,sn-b,sn-c), securityGroup (default sg-default), shards (default 3),
 * replicasPerShard (default 1), maxmemoryPolicy (default allkeys-lru).
 */
import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud";

const config = new pulumi.Config();
const subnets = (config.get("subnets") ?? "sn-a,sn-b,sn-c").split(",").map((s) => s.trim());
const securityGroup = config.get("securityGroup") ?? "sg-default";
const shardCount = config.getNumber("shards") ?? 3;
const replicasPerShard = config.getNumber("replicasPerShard") ?? 1;
const maxmemoryPolicy = config.get("maxmemoryPolicy") ?? "allkeys-lru";

/** The newest engine version the service offers, and the smallest flavor. */
const catalogue = pulumi.output(Promise.all([krcloud.cache.getVersions(), krcloud.cache.getFlavors()])).apply(([v, f]) => ({
  version: [...v.versions].sort((a, b) => a.localeCompare(b, "en", { numeric: true })).at(-1)!,
  flavorId: [...f.flavors].sort((a, b) => (a.memory ?? 0) - (b.memory ?? 0))[0].id,
}));
const defaultGroup = (clusterMode: "enabled" | "disabled") =>
  catalogue.version.apply(async (engineVersion) => {
    const { parameterGroups } = await krcloud.cache.getParameterGroups({ parameterGroupType: "default", clusterMode, engineVersion });
    if (parameterGroups.length === 0)
      throw new Error(`no default ${clusterMode === "enabled" ? "cluster" : "instance set"} parameter group for engine ${engineVersion}`);
    return parameterGroups[0].id;
  });

// Placement: shard i's primary in subnet i, its replicas in the following subnets (round robin).
const placement = (i: number) => ({
  primarySubnetId: subnets[i % subnets.length],
  replicaSubnetIds: Array.from({ length: replicasPerShard }, (_, r) => subnets[(i + r + 1) % subnets.length]),
});

const params = new krcloud.cache.ParameterGroup("sessions-params", {
  baseParameterGroupId: defaultGroup("enabled"),
  description: "sessions: evict least recently used keys",
  parameters: { "maxmemory-policy": maxmemoryPolicy, timeout: "300" },
});

const sessions = new krcloud.cache.Cluster("sessions", {
  description: "web sessions",
  version: catalogue.version,
  flavorId: catalogue.flavorId,
  parameterGroupId: params.id,
  subnetIds: subnets,
  securityGroupIds: [securityGroup],
  shards: Array.from({ length: shardCount }, (_, i) => placement(i)),
});

const queue = new krcloud.cache.InstanceSet("jobs-queue", {
  description: "job queue, high availability",
  version: catalogue.version,
  flavorId: catalogue.flavorId,
  parameterGroupId: defaultGroup("disabled"),
  subnetIds: subnets,
  securityGroupIds: [securityGroup],
  primarySubnetId: subnets[0],
  replicaSubnetIds: [subnets[1 % subnets.length], subnets[2 % subnets.length]],
  highAvailability: true,
  backupSchedule: { hour: 3, retentionDays: 7 },
});

export const parameterGroupId = params.id;
export const parameterGroupSync = params.syncStatus;
export const clusterEndpoint = sessions.primaryEndpoint;
export const clusterShards = sessions.shardDetails.apply((shards) => shards.map((s) => `${s.id}: slots ${s.slots}, ${s.nodes.length} nodes`));
export const queueEndpoint = queue.primaryEndpoint;
export const queueReadEndpoint = queue.readEndpoint;
