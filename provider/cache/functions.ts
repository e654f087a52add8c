/**
 * Cache lookups: engine versions, flavors, parameter groups, clusters and instance sets, instances.
 * They run in the program's process with the stack config's settings.
 */
import { z } from "zod";
import { CacheClient } from "../../sdk/cache";
import { rethrowAs, type Settings } from "../../sdk/core";
import { lookupFunction, lookupOutput, pickShape, type LookupDefinition } from "../core";
import { instanceResult, instanceShape } from "./nodes";

function client(settings: Settings): CacheClient {
  return new CacheClient({ settings });
}

const getVersionsResult = () => z.object({ versions: z.array(z.string()).describe("Engine versions.") });
export type GetVersionsResult = z.infer<ReturnType<typeof getVersionsResult>>;

const getVersionsLookup: LookupDefinition<Record<string, never>, GetVersionsResult> = {
  token: "krcloud:cache:getVersions",
  description: "Engine versions the cache service offers.",
  result: getVersionsResult,
  run: async (_args, settings) => ({ versions: await client(settings).catalogue.listVersions().catch(rethrowAs("getVersions")) }),
};
/** Engine versions the service offers. */
export const getVersions = lookupFunction(getVersionsLookup);
export const getVersionsOutput = lookupOutput(getVersionsLookup);

const getFlavorsResult = () =>
  z.object({
    flavors: z
      .array(z.object({ id: z.string(), name: z.string().optional(), vcpus: z.number().optional(), memory: z.number().optional().describe("GiB.") }))
      .describe("Node sizes."),
  });
export type GetFlavorsResult = z.infer<ReturnType<typeof getFlavorsResult>>;

const getFlavorsLookup: LookupDefinition<Record<string, never>, GetFlavorsResult> = {
  token: "krcloud:cache:getFlavors",
  description: "Cache node sizes (flavors).",
  result: getFlavorsResult,
  async run(_args, settings) {
    const flavors = await client(settings).catalogue.listFlavors().catch(rethrowAs("getFlavors"));
    return { flavors: flavors.map((f) => ({ id: f.id, name: f.name, vcpus: f.vcpus, memory: f.memory })) };
  },
};
/** Node sizes (flavors): vCPUs and memory in GiB. */
export const getFlavors = lookupFunction(getFlavorsLookup);
export const getFlavorsOutput = lookupOutput(getFlavorsLookup);

const pgSummary = () => ({
  id: z.string(),
  name: z.string().optional(),
  engineVersion: z.string().optional(),
  description: z.string().optional(),
  isDefault: z.boolean().optional(),
  defaultParameterGroupId: z.string().optional().describe("The default group a custom group is based on."),
  clusterModeEnabled: z.boolean().optional(),
  clusterSize: z.number().optional().describe("Clusters using the group."),
});
export type ParameterGroupSummaryResult = z.infer<z.ZodObject<ReturnType<typeof pgSummary>>>;

const getParameterGroupsArgs = () =>
  z.object({
    engineVersion: z.string().optional().describe("Only groups of this engine version."),
    parameterGroupType: z.enum(["default", "custom"]).optional().describe("`default` or `custom`."),
    clusterMode: z.enum(["enabled", "disabled"]).optional().describe("`enabled` (clusters) or `disabled` (instance sets); omitted: both."),
  });
const getParameterGroupsResult = () => z.object({ parameterGroups: z.array(z.object(pgSummary())).describe("The groups found.") });
export type GetParameterGroupsArgs = z.infer<ReturnType<typeof getParameterGroupsArgs>>;
export type GetParameterGroupsResult = z.infer<ReturnType<typeof getParameterGroupsResult>>;

const getParameterGroupsLookup: LookupDefinition<GetParameterGroupsArgs, GetParameterGroupsResult> = {
  token: "krcloud:cache:getParameterGroups",
  description: "Cache parameter groups, filtered.",
  args: getParameterGroupsArgs,
  result: getParameterGroupsResult,
  async run(args, settings) {
    const list = await client(settings).parameterGroups.list(args).catch(rethrowAs("getParameterGroups"));
    return { parameterGroups: list.map((g) => pickShape(pgSummary(), g)) };
  },
};
/** Parameter groups, filtered. */
export const getParameterGroups = lookupFunction(getParameterGroupsLookup);
export const getParameterGroupsOutput = lookupOutput(getParameterGroupsLookup);

const getParameterGroupArgs = () => z.object({ idOrName: z.string().describe("The group's id or name.") });
const getParameterGroupResult = () =>
  z.object({
    ...pgSummary(),
    parameters: z
      .array(
        z.object({
          key: z.string(),
          value: z.string().optional(),
          defaultValue: z.string().optional(),
          dataType: z.string().optional(),
          editable: z.boolean().optional(),
          validationValueFormat: z.string().optional(),
          parameterType: z.string().optional(),
        }),
      )
      .describe("The parameter catalogue with current values."),
  });
export type GetParameterGroupArgs = z.infer<ReturnType<typeof getParameterGroupArgs>>;
export type GetParameterGroupResult = z.infer<ReturnType<typeof getParameterGroupResult>>;

const getParameterGroupLookup: LookupDefinition<GetParameterGroupArgs, GetParameterGroupResult> = {
  token: "krcloud:cache:getParameterGroup",
  description: "One cache parameter group with its parameter catalogue.",
  args: getParameterGroupArgs,
  result: getParameterGroupResult,
  async run(args, settings) {
    const g = await client(settings).parameterGroups.get(args.idOrName).catch(rethrowAs("getParameterGroup"));
    return {
      ...pickShape(pgSummary(), g),
      parameters: g.parameters.map((p) => ({
        key: p.parameterKey,
        value: p.parameterValue,
        defaultValue: p.defaultParameterValue,
        dataType: p.dataType,
        editable: p.editable,
        validationValueFormat: p.validationValueFormat,
        parameterType: p.parameterType,
      })),
    };
  },
};
/** One parameter group with its parameter catalogue. */
export const getParameterGroup = lookupFunction(getParameterGroupLookup);
export const getParameterGroupOutput = lookupOutput(getParameterGroupLookup);

const clusterResultShape = () =>
  z.object({
    id: z.string(),
    name: z.string().optional(),
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

function clusterResult(r: Awaited<ReturnType<CacheClient["clusters"]["get"]>>): ClusterResult {
  return {
    id: r.id,
    name: r.name,
    clusterEnabled: r.clusterEnabled,
    version: r.version,
    status: r.status,
    shardCount: r.shardCount,
    totalNodeCount: r.totalNodeCount,
    primaryEndpoint: r.endpoints.primaryEndpoint,
    readEndpoint: r.endpoints.readEndpoint,
    parameterGroupId: r.parameterGroupId,
    parameterGroupSyncStatus: r.parameterGroupSyncStatus,
  };
}

const getClustersArgs = () => z.object({ parameterGroup: z.string().optional().describe("Only those using this parameter group (id or name).") });
const getClustersResult = () => z.object({ clusters: z.array(clusterResultShape()).describe("Clusters and instance sets.") });
export type GetClustersArgs = z.infer<ReturnType<typeof getClustersArgs>>;
export type GetClustersResult = z.infer<ReturnType<typeof getClustersResult>>;

const getClustersLookup: LookupDefinition<GetClustersArgs, GetClustersResult> = {
  token: "krcloud:cache:getClusters",
  description: "Cache clusters and instance sets.",
  args: getClustersArgs,
  result: getClustersResult,
  run: async (args, settings) => ({ clusters: (await client(settings).clusters.list(args).catch(rethrowAs("getClusters"))).map(clusterResult) }),
};
/** Clusters and instance sets, optionally only those using a parameter group. */
export const getClusters = lookupFunction(getClustersLookup);
export const getClustersOutput = lookupOutput(getClustersLookup);

const getClusterArgs = () => z.object({ id: z.string().describe("The cluster's or instance set's id.") });
export type GetClusterArgs = z.infer<ReturnType<typeof getClusterArgs>>;

const getClusterLookup: LookupDefinition<GetClusterArgs, ClusterResult> = {
  token: "krcloud:cache:getCluster",
  description: "One cache cluster or instance set.",
  args: getClusterArgs,
  result: clusterResultShape,
  run: async (args, settings) => clusterResult(await client(settings).clusters.get(args.id).catch(rethrowAs("getCluster"))),
};
/** One cluster or instance set. */
export const getCluster = lookupFunction(getClusterLookup);
export const getClusterOutput = lookupOutput(getClusterLookup);

const getInstancesArgs = () => z.object({ instanceSetId: z.string().describe("The instance set's id.") });
const getInstancesResult = () => z.object({ instances: z.array(instanceShape()).describe("The instances.") });
export type GetInstancesArgs = z.infer<ReturnType<typeof getInstancesArgs>>;
export type GetInstancesResult = z.infer<ReturnType<typeof getInstancesResult>>;

const getInstancesLookup: LookupDefinition<GetInstancesArgs, GetInstancesResult> = {
  token: "krcloud:cache:getInstances",
  description: "The instances of a cache instance set.",
  args: getInstancesArgs,
  result: getInstancesResult,
  async run(args, settings) {
    const list = await client(settings).instanceSets.listInstances(args.instanceSetId).catch(rethrowAs("getInstances"));
    return { instances: list.instances.map(instanceResult) };
  },
};
/** The instances of an instance set. */
export const getInstances = lookupFunction(getInstancesLookup);
export const getInstancesOutput = lookupOutput(getInstancesLookup);
