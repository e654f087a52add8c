/**
 * Cache lookups: engine versions, flavors, parameter groups, clusters and instance sets, instances.
 * They run in the program's process with the stack config's settings.
 */
import { z } from "zod";
import type { CacheClusterRecord } from "../../client/cache";
import { idAndName, pickShape, pickShapes, serviceLookups, type LookupArgs, type LookupResult } from "../core";
import { cache } from "./client";
import { instanceResult, instanceShape } from "./nodes";

const lookup = serviceLookups("cache", cache);

/** Engine versions the service offers. */
export const { getVersions, getVersionsOutput } = lookup("getVersions", {
  description: "Engine versions the cache service offers.",
  result: () => z.object({ versions: z.array(z.string()).describe("Engine versions.") }),
  run: async (_args, c) => ({ versions: await c.catalogue.listVersions() }),
});
export type GetVersionsResult = LookupResult<typeof getVersions>;

const flavorShape = () => ({ ...idAndName(), vcpus: z.number().optional(), memory: z.number().optional().describe("GiB.") });

/** Node sizes (flavors): vCPUs and memory in GiB. */
export const { getFlavors, getFlavorsOutput } = lookup("getFlavors", {
  description: "Cache node sizes (flavors).",
  result: () => z.object({ flavors: z.array(z.object(flavorShape())).describe("Node sizes.") }),
  run: async (_args, c) => ({ flavors: pickShapes(flavorShape(), await c.catalogue.listFlavors()) }),
});
export type GetFlavorsResult = LookupResult<typeof getFlavors>;

const pgSummary = () => ({
  ...idAndName(),
  engineVersion: z.string().optional(),
  description: z.string().optional(),
  isDefault: z.boolean().optional(),
  defaultParameterGroupId: z.string().optional().describe("The default group a custom group is based on."),
  clusterModeEnabled: z.boolean().optional(),
  clusterSize: z.number().optional().describe("Clusters using the group."),
});
export type ParameterGroupSummaryResult = z.infer<z.ZodObject<ReturnType<typeof pgSummary>>>;

/** Parameter groups, filtered. */
export const { getParameterGroups, getParameterGroupsOutput } = lookup("getParameterGroups", {
  description: "Cache parameter groups, filtered.",
  args: () => ({
    engineVersion: z.string().optional().describe("Only groups of this engine version."),
    parameterGroupType: z.enum(["default", "custom"]).optional().describe("`default` or `custom`."),
    clusterMode: z.enum(["enabled", "disabled"]).optional().describe("`enabled` (clusters) or `disabled` (instance sets); omitted: both."),
  }),
  result: () => z.object({ parameterGroups: z.array(z.object(pgSummary())).describe("The groups found.") }),
  run: async (args, c) => ({ parameterGroups: pickShapes(pgSummary(), await c.parameterGroups.list(args)) }),
});
export type GetParameterGroupsArgs = LookupArgs<typeof getParameterGroups>;
export type GetParameterGroupsResult = LookupResult<typeof getParameterGroups>;

/** What the catalogue tells of a parameter besides its key and values, under the client record's names. */
const parameterFacts = () => ({
  dataType: z.string().optional(),
  editable: z.boolean().optional(),
  validationValueFormat: z.string().optional(),
  parameterType: z.string().optional(),
});

/** A parameter of the catalogue as getParameterGroup shows it: its key, its values, and the facts. */
const parameterShape = () =>
  z.object({
    key: z.string(),
    value: z.string().optional(),
    defaultValue: z.string().optional(),
    ...parameterFacts(),
  });

/** One parameter group with its parameter catalogue. */
export const { getParameterGroup, getParameterGroupOutput } = lookup("getParameterGroup", {
  description: "One cache parameter group with its parameter catalogue.",
  args: () => ({ idOrName: z.string().describe("The group's id or name.") }),
  result: () => z.object({ ...pgSummary(), parameters: z.array(parameterShape()).describe("The parameter catalogue with current values.") }),
  async run(args, c) {
    const g = await c.parameterGroups.get(args.idOrName);
    const facts = parameterFacts();
    return {
      ...pickShape(pgSummary(), g),
      parameters: g.parameters.map((p) => ({
        key: p.parameterKey,
        value: p.parameterValue,
        defaultValue: p.defaultParameterValue,
        ...pickShape(facts, p),
      })),
    };
  },
});
export type GetParameterGroupArgs = LookupArgs<typeof getParameterGroup>;
export type GetParameterGroupResult = LookupResult<typeof getParameterGroup>;

/** A cluster or instance set as both cluster lookups show it: the record, its endpoints among its fields. */
const clusterResultShape = () =>
  z.object({
    ...idAndName(),
    clusterEnabled: z.boolean().optional().describe("true for a cluster, false for an instance set."),
    version: z.string().optional(),
    status: z.string().optional(),
    shardCount: z.number().optional(),
    totalNodeCount: z.number().optional(),
    primaryEndpoint: z.string().optional(),
    readEndpoint: z.string().optional(),
    parameterGroupId: z.string().optional(),
    parameterGroupSyncStatus: z.string().optional(),
  });
export type ClusterResult = z.infer<ReturnType<typeof clusterResultShape>>;

function clusterResult(r: CacheClusterRecord): ClusterResult {
  return pickShape(clusterResultShape().shape, { ...r, ...r.endpoints });
}

/** Clusters and instance sets, optionally only those using a parameter group. */
export const { getClusters, getClustersOutput } = lookup("getClusters", {
  description: "Cache clusters and instance sets.",
  args: () => ({ parameterGroup: z.string().optional().describe("Only those using this parameter group (id or name).") }),
  result: () => z.object({ clusters: z.array(clusterResultShape()).describe("Clusters and instance sets.") }),
  run: async (args, c) => ({ clusters: (await c.clusters.list(args)).map(clusterResult) }),
});
export type GetClustersArgs = LookupArgs<typeof getClusters>;
export type GetClustersResult = LookupResult<typeof getClusters>;

/** One cluster or instance set. */
export const { getCluster, getClusterOutput } = lookup("getCluster", {
  description: "One cache cluster or instance set.",
  args: () => ({ id: z.string().describe("The cluster's or instance set's id.") }),
  result: clusterResultShape,
  run: async (args, c) => clusterResult(await c.clusters.get(args.id)),
});
export type GetClusterArgs = LookupArgs<typeof getCluster>;

/** The instances of an instance set. */
export const { getInstances, getInstancesOutput } = lookup("getInstances", {
  description: "The instances of a cache instance set.",
  args: () => ({ instanceSetId: z.string().describe("The instance set's id.") }),
  result: () => z.object({ instances: z.array(instanceShape()).describe("The instances.") }),
  run: async (args, c) => ({ instances: (await c.instanceSets.listInstances(args.instanceSetId)).instances.map(instanceResult) }),
});
export type GetInstancesArgs = LookupArgs<typeof getInstances>;
export type GetInstancesResult = LookupResult<typeof getInstances>;
