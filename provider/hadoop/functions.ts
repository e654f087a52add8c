/** Hadoop lookups: clusters (filters, every page), one cluster, a cluster's VMs. */
import { z } from "zod";
import { rethrowAs, type Settings } from "../../sdk/core";
import { HadoopClient } from "../../sdk/hadoop";
import { lookupFunction, lookupOutput, pickShape, type LookupDefinition } from "../core";
import { vmResult, vmShape } from "./vms";

function client(settings: Settings): HadoopClient {
  return new HadoopClient({ settings });
}

/** A cluster as getClusters lists it; getCluster adds the fields only a get returns. */
const clusterSummaryShape = () => ({
  id: z.string(),
  name: z.string().optional(),
  status: z.string().optional(),
  clusterType: z.string().optional(),
  clusterVersion: z.string().optional(),
  apiKeyStatus: z.string().optional(),
  workerCnt: z.number().optional(),
});

const getClustersArgs = () =>
  z.object({
    name: z.string().optional().describe("Clusters whose names contain this."),
    includeTerminated: z.boolean().optional().describe("Include terminated clusters (default true)."),
  });
const getClustersResult = () => z.object({ clusters: z.array(z.object(clusterSummaryShape())).describe("The clusters, every page.") });
export type GetClustersArgs = z.infer<ReturnType<typeof getClustersArgs>>;
export type GetClustersResult = z.infer<ReturnType<typeof getClustersResult>>;

const getClustersLookup: LookupDefinition<GetClustersArgs, GetClustersResult> = {
  token: "krcloud:hadoop:getClusters",
  description: "Hadoop clusters, every page.",
  args: getClustersArgs,
  result: getClustersResult,
  async run(args, settings) {
    const list = await client(settings).listClusters(args).catch(rethrowAs("getClusters"));
    return { clusters: list.map((c) => pickShape(clusterSummaryShape(), c)) };
  },
};
/** Hadoop clusters, every page. */
export const getClusters = lookupFunction(getClustersLookup);
export const getClustersOutput = lookupOutput(getClustersLookup);

const getClusterArgs = () => z.object({ id: z.string().describe("The cluster's id.") });
const getClusterResult = () =>
  z.object({ ...clusterSummaryShape(), masterCnt: z.number().optional(), componentUrls: z.record(z.string(), z.string()).describe("Web UIs.") });
export type GetClusterArgs = z.infer<ReturnType<typeof getClusterArgs>>;
export type GetClusterResult = z.infer<ReturnType<typeof getClusterResult>>;

const getClusterLookup: LookupDefinition<GetClusterArgs, GetClusterResult> = {
  token: "krcloud:hadoop:getCluster",
  description: "One Hadoop cluster.",
  args: getClusterArgs,
  result: getClusterResult,
  async run(args, settings) {
    const c = await client(settings).getCluster(args.id).catch(rethrowAs("getCluster"));
    return { ...pickShape(clusterSummaryShape(), c), masterCnt: c.masterCnt, componentUrls: c.componentUrl };
  },
};
/** One Hadoop cluster. */
export const getCluster = lookupFunction(getClusterLookup);
export const getClusterOutput = lookupOutput(getClusterLookup);

const getClusterVmsArgs = () => z.object({ clusterId: z.string().describe("The cluster's id.") });
const getClusterVmsResult = () => z.object({ vms: z.array(vmShape()).describe("The VMs, every page.") });
export type GetClusterVmsArgs = z.infer<ReturnType<typeof getClusterVmsArgs>>;
export type GetClusterVmsResult = z.infer<ReturnType<typeof getClusterVmsResult>>;

const getClusterVmsLookup: LookupDefinition<GetClusterVmsArgs, GetClusterVmsResult> = {
  token: "krcloud:hadoop:getClusterVms",
  description: "A Hadoop cluster's VMs, every page.",
  args: getClusterVmsArgs,
  result: getClusterVmsResult,
  async run(args, settings) {
    const vms = await client(settings).listVms(args.clusterId).catch(rethrowAs("getClusterVms"));
    return { vms: vms.map(vmResult) };
  },
};
/** A Hadoop cluster's VMs, every page. */
export const getClusterVms = lookupFunction(getClusterVmsLookup);
export const getClusterVmsOutput = lookupOutput(getClusterVmsLookup);
