/**
 * Hadoop lookups: clusters (filters, every page), one cluster, a cluster's VMs; and the day-2
 * operation of re-running a terminated job cluster, a function that changes its status (an output),
 * never an input (docs/changing-stateful-resources.md).
 */
import { z } from "zod";
import { systemClock } from "../../client/core";
import { idAndName, parseDuration, pickShape, pickShapes, serviceLookups, type LookupArgs, type LookupResult } from "../core";
import { hadoop } from "./client";
import { waitRerun } from "./cluster";
import { HADOOP_TIMEOUTS, rerunBody } from "./cluster-schema";
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

/** Re-runs a terminated job cluster. */
export const { rerunCluster, rerunClusterOutput } = lookup("rerunCluster", {
  description:
    "Re-runs a terminated Hadoop job cluster (with krcloud:hadoopApiKey) and waits until the re-run request has a result. What it changes is the cluster's status, an output: the Cluster resource's inputs stay as the program declares them (unlike its `rerun.trigger`, which the program changes). Not idempotent: each call re-runs once. In a preview it does nothing (`dryRun: true`).",
  args: () => ({
    clusterId: z.string().describe("The job cluster's id."),
    ...rerunBody().shape,
    timeout: z
      .string()
      .refine((t) => parseDuration(t) !== undefined, 'must be a duration such as "30m" or "90s"')
      .optional()
      .describe(`How long to wait for the request's result (default ${HADOOP_TIMEOUTS.update / 60_000} minutes).`),
  }),
  result: () =>
    z.object({
      dryRun: z.boolean().describe("true in a preview: nothing was done."),
      clusterId: z.string(),
      requestId: z.string().optional().describe("The re-run request."),
      requestStatus: z.string().optional(),
      requestResult: z.string().optional(),
    }),
  mutates: { what: "the cluster's status (an output): it runs its job again", preview: (args) => ({ dryRun: true, clusterId: args.clusterId }) },
  async run(args, c, settings) {
    const { clusterId, timeout, ...body } = args;
    const what = `Hadoop cluster "${clusterId}"`;
    const started = await c.rerunCluster(clusterId, body);
    const ctx = { settings, progress: () => undefined, clock: systemClock };
    const timeoutMs = (timeout === undefined ? undefined : parseDuration(timeout)) ?? HADOOP_TIMEOUTS.update;
    const r = await waitRerun(ctx, c, clusterId, started.requestId, what, timeoutMs);
    return { dryRun: false, clusterId, requestId: r.requestId, requestStatus: r.requestStatus, requestResult: r.requestResult };
  },
});
export type RerunClusterArgs = LookupArgs<typeof rerunCluster>;
export type RerunClusterResult = LookupResult<typeof rerunCluster>;
