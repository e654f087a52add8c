/**
 * Managed cache whose changes never destroy data: a 2-shard Redis cluster and an instance set with
 * `dataOnReplace: "keep"`. The engine version, the flavor and the user's password are stack config;
 * changing any of them replaces the caches (the cache API changes none of them in place), and each
 * replacement is made from a backup of the cache it replaces: the preview says so, with the backup
 * and the data's size, and refuses a change the restore rules forbid (an older version, a flavor too
 * small for the data). docs/changing-stateful-resources.md says how, and what it costs.
 *
 * Settings (stack config): krcloud:projectId, krcloud:authToken (secret), and for the local cloud
 * krcloud:localCloudUrl. Program settings: version (default: the oldest the service offers, so a
 * newer one is there to move to), flavorId (default: the smallest), password (secret; default: no
 * user), subnets (default sn-a,sn-b), securityGroup (default sg-default).
 */
import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud";

const config = new pulumi.Config();
const subnets = (config.get("subnets") ?? "sn-a,sn-b").split(",").map((s) => s.trim());
const securityGroup = config.get("securityGroup") ?? "sg-default";
const password = config.getSecret("password");

/** The engine version and flavor: the program's, else the oldest version and the smallest flavor offered. */
const catalogue = pulumi.output(Promise.all([krcloud.cache.getVersions(), krcloud.cache.getFlavors()])).apply(([v, f]) => ({
  version: config.get("version") ?? [...v.versions].sort((a, b) => a.localeCompare(b, "en", { numeric: true }))[0],
  flavorId: config.get("flavorId") ?? [...f.flavors].sort((a, b) => (a.memory ?? 0) - (b.memory ?? 0))[0].id,
}));
/** The default parameter group of the engine version: a new version brings its own. */
const defaultGroup = (clusterMode: "enabled" | "disabled") =>
  catalogue.version.apply(async (engineVersion) => {
    const { parameterGroups } = await krcloud.cache.getParameterGroups({ parameterGroupType: "default", clusterMode, engineVersion });
    if (parameterGroups.length === 0) throw new Error(`no default parameter group for engine ${engineVersion}`);
    return parameterGroups[0].id;
  });

const common = {
  version: catalogue.version,
  flavorId: catalogue.flavorId,
  subnetIds: subnets,
  securityGroupIds: [securityGroup],
  ...(password ? { user: { name: "app", password } } : {}),
  // A replacement takes a backup of this cache, restores the new one from it and waits until it
  // runs before this one is deleted.
  dataOnReplace: "keep" as const,
};

const sessions = new krcloud.cache.Cluster("sessions", {
  ...common,
  description: "web sessions",
  parameterGroupId: defaultGroup("enabled"),
  shards: subnets.map((s, i) => ({ primarySubnetId: s, replicaSubnetIds: [subnets[(i + 1) % subnets.length]] })),
});

const queue = new krcloud.cache.InstanceSet("jobs-queue", {
  ...common,
  description: "job queue",
  parameterGroupId: defaultGroup("disabled"),
  primarySubnetId: subnets[0],
  replicaSubnetIds: [],
});

export const clusterId = sessions.id;
export const clusterEndpoint = sessions.primaryEndpoint;
export const queueEndpoint = queue.primaryEndpoint;
/** The backup the last replacement of each cache took (kept while it exists, deleted with it). */
export const clusterReplacementBackup = sessions.replacementBackup;
export const queueReplacementBackup = queue.replacementBackup;
