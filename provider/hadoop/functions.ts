/** Hadoop lookups: clusters (filters, every page), one cluster, a cluster's VMs. */
import { rethrowAs } from "../../sdk/core";
import { HadoopClient } from "../../sdk/hadoop";
import { lookupSettings, outputForm, type LookupOptions } from "../core";

function client(opts: LookupOptions): HadoopClient {
  return new HadoopClient({ settings: lookupSettings(opts) });
}

export interface GetClustersArgs {
  /** Clusters whose names contain this. */
  name?: string;
  /** Include terminated clusters (default true). */
  includeTerminated?: boolean;
}
export interface GetClustersResult {
  clusters: { id: string; name?: string; status?: string; clusterType?: string; clusterVersion?: string; apiKeyStatus?: string; workerCnt?: number }[];
}

export async function getClusters(args: GetClustersArgs = {}, opts: LookupOptions = {}): Promise<GetClustersResult> {
  const list = await client(opts).listClusters(args).catch(rethrowAs("getClusters"));
  return {
    clusters: list.map((c) => ({
      id: c.id,
      name: c.name,
      status: c.status,
      clusterType: c.clusterType,
      clusterVersion: c.clusterVersion,
      apiKeyStatus: c.apiKeyStatus,
      workerCnt: c.workerCnt,
    })),
  };
}
export const getClustersOutput = outputForm(getClusters);

export interface GetClusterArgs {
  id: string;
}
export interface GetClusterResult {
  id: string;
  name?: string;
  status?: string;
  clusterType?: string;
  clusterVersion?: string;
  workerCnt?: number;
  masterCnt?: number;
  apiKeyStatus?: string;
  componentUrls: Record<string, string>;
}

export async function getCluster(args: GetClusterArgs, opts: LookupOptions = {}): Promise<GetClusterResult> {
  const c = await client(opts).getCluster(args.id).catch(rethrowAs("getCluster"));
  return {
    id: c.id,
    name: c.name,
    status: c.status,
    clusterType: c.clusterType,
    clusterVersion: c.clusterVersion,
    workerCnt: c.workerCnt,
    masterCnt: c.masterCnt,
    apiKeyStatus: c.apiKeyStatus,
    componentUrls: c.componentUrl,
  };
}
export const getClusterOutput = outputForm(getCluster);

export interface GetClusterVmsArgs {
  clusterId: string;
}
export interface GetClusterVmsResult {
  vms: { name?: string; instanceId?: string; isMaster?: boolean; index?: number; ip?: string; floatingIp?: string; status?: string; flavorName?: string }[];
}

export async function getClusterVms(args: GetClusterVmsArgs, opts: LookupOptions = {}): Promise<GetClusterVmsResult> {
  const vms = await client(opts).listVms(args.clusterId).catch(rethrowAs("getClusterVms"));
  return {
    vms: vms.map((v) => ({
      name: v.name,
      instanceId: v.instanceId,
      isMaster: v.isMaster,
      index: v.index,
      ip: v.ip,
      floatingIp: v.floatingIp,
      status: v.status,
      flavorName: v.flavorName,
    })),
  };
}
export const getClusterVmsOutput = outputForm(getClusterVms);
