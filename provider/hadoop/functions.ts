/** Hadoop lookups: clusters (filters, every page), one cluster, a cluster's VMs. */
import { z } from "zod";
import { rethrowAs, type Settings } from "../../sdk/core";
import { HadoopClient } from "../../sdk/hadoop";
import { lookupFunction, lookupOutput, pickShape, type LookupArgs, type LookupResult } from "../core";
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

/** Hadoop clusters, every page. */
export const getClusters = lookupFunction({
  token: "krcloud:hadoop:getClusters",
  description: "Hadoop clusters, every page.",
  args: () =>
    z.object({
      name: z.string().optional().describe("Clusters whose names contain this."),
      includeTerminated: z.boolean().optional().describe("Include terminated clusters (default true)."),
    }),
  result: () => z.object({ clusters: z.array(z.object(clusterSummaryShape())).describe("The clusters, every page.") }),
  async run(args, settings) {
    const list = await client(settings).listClusters(args).catch(rethrowAs("getClusters"));
    return { clusters: list.map((c) => pickShape(clusterSummaryShape(), c)) };
  },
});
export const getClustersOutput = lookupOutput(getClusters.lookup);
export type GetClustersArgs = LookupArgs<typeof getClusters>;
export type GetClustersResult = LookupResult<typeof getClusters>;

/** One Hadoop cluster. */
export const getCluster = lookupFunction({
  token: "krcloud:hadoop:getCluster",
  description: "One Hadoop cluster.",
  args: () => z.object({ id: z.string().describe("The cluster's id.") }),
  result: () => z.object({ ...clusterSummaryShape(), masterCnt: z.number().optional(), componentUrls: z.record(z.string(), z.string()).describe("Web UIs.") }),
  async run(args, settings) {
    const c = await client(settings).getCluster(args.id).catch(rethrowAs("getCluster"));
    return { ...pickShape(clusterSummaryShape(), c), masterCnt: c.masterCnt, componentUrls: c.componentUrl };
  },
});
export const getClusterOutput = lookupOutput(getCluster.lookup);
export type GetClusterArgs = LookupArgs<typeof getCluster>;
export type GetClusterResult = LookupResult<typeof getCluster>;

/** A Hadoop cluster's VMs, every page. */
export const getClusterVms = lookupFunction({
  token: "krcloud:hadoop:getClusterVms",
  description: "A Hadoop cluster's VMs, every page.",
  args: () => z.object({ clusterId: z.string().describe("The cluster's id.") }),
  result: () => z.object({ vms: z.array(vmShape()).describe("The VMs, every page.") }),
  async run(args, settings) {
    const vms = await client(settings).listVms(args.clusterId).catch(rethrowAs("getClusterVms"));
    return { vms: vms.map(vmResult) };
  },
});
export const getClusterVmsOutput = lookupOutput(getClusterVms.lookup);
export type GetClusterVmsArgs = LookupArgs<typeof getClusterVms>;
export type GetClusterVmsResult = LookupResult<typeof getClusterVms>;
