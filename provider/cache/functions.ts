/**
 * Cache lookups: engine versions, flavors, parameter groups, clusters and instance sets, instances.
 * They run in the program's process with the stack config's settings.
 */
import { CacheClient, type ParameterGroupSummary } from "../../sdk/cache";
import { rethrowAs } from "../../sdk/core";
import { lookupSettings, outputForm, type LookupOptions } from "../core";

function client(opts: LookupOptions): CacheClient {
  return new CacheClient({ settings: lookupSettings(opts) });
}

export interface GetVersionsResult {
  versions: string[];
}

/** Engine versions the service offers. */
export async function getVersions(_args: Record<string, never> = {}, opts: LookupOptions = {}): Promise<GetVersionsResult> {
  return { versions: await client(opts).catalogue.listVersions().catch(rethrowAs("getVersions")) };
}

export interface GetFlavorsResult {
  flavors: { id: string; name?: string; vcpus?: number; memory?: number }[];
}

/** Node sizes (flavors): vCPUs and memory in GiB. */
export async function getFlavors(_args: Record<string, never> = {}, opts: LookupOptions = {}): Promise<GetFlavorsResult> {
  const flavors = await client(opts).catalogue.listFlavors().catch(rethrowAs("getFlavors"));
  return { flavors: flavors.map((f) => ({ id: f.id, name: f.name, vcpus: f.vcpus, memory: f.memory })) };
}

export interface GetParameterGroupsArgs {
  /** Only groups of this engine version. */
  engineVersion?: string;
  /** `default` or `custom`. */
  parameterGroupType?: "default" | "custom";
  /** `enabled` (clusters) or `disabled` (instance sets); omitted: both. */
  clusterMode?: "enabled" | "disabled";
}
export interface ParameterGroupSummaryResult {
  id: string;
  name?: string;
  engineVersion?: string;
  description?: string;
  isDefault?: boolean;
  defaultParameterGroupId?: string;
  clusterModeEnabled?: boolean;
  clusterSize?: number;
}
export interface GetParameterGroupsResult {
  parameterGroups: ParameterGroupSummaryResult[];
}

/** The summary fields of a group, as both parameter group lookups return them. */
function summaryOf(g: ParameterGroupSummary): ParameterGroupSummaryResult {
  return {
    id: g.id,
    name: g.name,
    engineVersion: g.engineVersion,
    description: g.description,
    isDefault: g.isDefault,
    defaultParameterGroupId: g.defaultParameterGroupId,
    clusterModeEnabled: g.clusterModeEnabled,
    clusterSize: g.clusterSize,
  };
}

/** Parameter groups, filtered. */
export async function getParameterGroups(args: GetParameterGroupsArgs = {}, opts: LookupOptions = {}): Promise<GetParameterGroupsResult> {
  const list = await client(opts).parameterGroups.list(args).catch(rethrowAs("getParameterGroups"));
  return {
    parameterGroups: list.map(summaryOf),
  };
}
export const getParameterGroupsOutput = outputForm(getParameterGroups);

export interface GetParameterGroupArgs {
  /** The group's id or name. */
  idOrName: string;
}
export interface GetParameterGroupResult extends ParameterGroupSummaryResult {
  parameters: {
    key: string;
    value?: string;
    defaultValue?: string;
    dataType?: string;
    editable?: boolean;
    validationValueFormat?: string;
    parameterType?: string;
  }[];
}

/** One parameter group with its parameter catalogue. */
export async function getParameterGroup(args: GetParameterGroupArgs, opts: LookupOptions = {}): Promise<GetParameterGroupResult> {
  const g = await client(opts).parameterGroups.get(args.idOrName).catch(rethrowAs("getParameterGroup"));
  return {
    ...summaryOf(g),
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
}
export const getParameterGroupOutput = outputForm(getParameterGroup);

export interface GetClustersArgs {
  /** Only those using this parameter group (id or name). */
  parameterGroup?: string;
}
export interface ClusterResult {
  id: string;
  name?: string;
  clusterEnabled?: boolean;
  version?: string;
  status?: string;
  shardCount?: number;
  totalNodeCount?: number;
  primaryEndpoint?: string;
  readEndpoint?: string;
  parameterGroupId?: string;
  parameterGroupSyncStatus?: string;
}
export interface GetClustersResult {
  clusters: ClusterResult[];
}

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

/** Clusters and instance sets, optionally only those using a parameter group. */
export async function getClusters(args: GetClustersArgs = {}, opts: LookupOptions = {}): Promise<GetClustersResult> {
  return { clusters: (await client(opts).clusters.list(args).catch(rethrowAs("getClusters"))).map(clusterResult) };
}
export const getClustersOutput = outputForm(getClusters);

export interface GetClusterArgs {
  /** The cluster's or instance set's id. */
  id: string;
}

/** One cluster or instance set. */
export async function getCluster(args: GetClusterArgs, opts: LookupOptions = {}): Promise<ClusterResult> {
  return clusterResult(await client(opts).clusters.get(args.id).catch(rethrowAs("getCluster")));
}
export const getClusterOutput = outputForm(getCluster);

export interface GetInstancesArgs {
  /** The instance set's id. */
  instanceSetId: string;
}
export interface GetInstancesResult {
  instances: { id: string; name?: string; role?: string; status?: string; endpoint?: string; subnetId?: string }[];
}

/** The instances of an instance set. */
export async function getInstances(args: GetInstancesArgs, opts: LookupOptions = {}): Promise<GetInstancesResult> {
  const list = await client(opts).instanceSets.listInstances(args.instanceSetId).catch(rethrowAs("getInstances"));
  return {
    instances: list.instances.map((i) => ({ id: i.id, name: i.instanceName, role: i.role, status: i.status, endpoint: i.endpoint, subnetId: i.subnetId })),
  };
}
export const getInstancesOutput = outputForm(getInstances);
