/** Hadoop lookups: clusters (filters, every page), one cluster, a cluster's VMs. */
import { z } from "zod";
import { idAndName, pickShape, pickShapes, serviceLookups, type LookupArgs, type LookupResult } from "../core";
import { hadoop } from "./client";
import { vmResult, vmShape } from "./vms";

const lookup = serviceLookups("hadoop", hadoop);

/** A cluster as getClusters lists it; getCluster adds the fields only a get returns. */
const clusterSummaryShape = () => ({
  ...idAndName(),
  status: z.string().optional(),
  clusterType: z.string().optional(),
  clusterVersion: z.string().optional(),
  apiKeyStatus: z.string().optional(),
  workerCnt: z.number().optional(),
});

/** Hadoop clusters, every page. */
export const { getClusters, getClustersOutput } = lookup("getClusters", {
  description: "Hadoop clusters, every page.",
  args: () => ({
    name: z.string().optional().describe("Clusters whose names contain this."),
    includeTerminated: z.boolean().optional().describe("Include terminated clusters (default true)."),
  }),
  result: () => z.object({ clusters: z.array(z.object(clusterSummaryShape())).describe("The clusters, every page.") }),
  run: async (args, c) => ({ clusters: pickShapes(clusterSummaryShape(), await c.listClusters(args)) }),
});
export type GetClustersArgs = LookupArgs<typeof getClusters>;
export type GetClustersResult = LookupResult<typeof getClusters>;

/** One Hadoop cluster. */
export const { getCluster, getClusterOutput } = lookup("getCluster", {
  description: "One Hadoop cluster.",
  args: () => ({ id: z.string().describe("The cluster's id.") }),
  result: () => z.object({ ...clusterSummaryShape(), masterCnt: z.number().optional(), componentUrls: z.record(z.string(), z.string()).describe("Web UIs.") }),
  async run(args, c) {
    const cluster = await c.getCluster(args.id);
    return { ...pickShape(clusterSummaryShape(), cluster), masterCnt: cluster.masterCnt, componentUrls: cluster.componentUrl };
  },
});
export type GetClusterArgs = LookupArgs<typeof getCluster>;
export type GetClusterResult = LookupResult<typeof getCluster>;

/** A Hadoop cluster's VMs, every page. */
export const { getClusterVms, getClusterVmsOutput } = lookup("getClusterVms", {
  description: "A Hadoop cluster's VMs, every page.",
  args: () => ({ clusterId: z.string().describe("The cluster's id.") }),
  result: () => z.object({ vms: z.array(vmShape()).describe("The VMs, every page.") }),
  run: async (args, c) => ({ vms: (await c.listVms(args.clusterId)).map(vmResult) }),
});
export type GetClusterVmsArgs = LookupArgs<typeof getClusterVms>;
export type GetClusterVmsResult = LookupResult<typeof getClusterVms>;
