/** Readers of Hadoop answers: tolerant of unlisted fields, numbers as strings, either spelling of a field. */
import { jsonBoolean, jsonNumber, jsonObject, jsonString, jsonWithId } from "../core/json";
import { ResponseFormatError } from "./errors";
import type { ClusterSummary, HadoopCluster, RerunRequest, Vm, VolumeInfo } from "./types";

export const obj = jsonObject;
const str = jsonString;
const num = jsonNumber;
const bool = jsonBoolean;
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** The page envelope of C.2 (`content`, `last`, `totalPages`, `number`); a bare array is the only page. */
export function page(v: unknown, action: string): { content: unknown[]; last: boolean } {
  if (Array.isArray(v)) return { content: v, last: true };
  const o = obj(v);
  if (!o || !Array.isArray(o.content)) throw new ResponseFormatError(`${action}: the answer has no content[]`);
  const last = bool(o.last);
  const total = num(o.totalPages);
  const n = num(o.number) ?? num(obj(o.pageable)?.pageNumber);
  return { content: o.content, last: last ?? (total !== undefined && n !== undefined ? n + 1 >= total : true) };
}

function volumes(v: unknown): VolumeInfo[] {
  return Array.isArray(v) ? v.map((x) => ({ flavorId: str(obj(x)?.flavorId), flavorName: str(obj(x)?.flavorName), volumeSize: num(obj(x)?.volumeSize) })) : [];
}

export function clusterDetail(v: unknown, action: string): HadoopCluster {
  const { o, id } = jsonWithId(v, ["id", "clusterId"], action, "cluster id");
  const config = obj(o.config) ?? {};
  const task = obj(o.userTask);
  const urls: Record<string, string> = {};
  for (const [k, u] of Object.entries(obj(o.componentUrl) ?? {})) if (typeof u === "string" && u) urls[k] = u;
  return {
    id,
    name: str(o.name),
    owner: str(o.owner),
    clusterType: str(o.clusterType)?.toLowerCase(),
    clusterVersion: str(o.clusterVersion),
    installComponents: strs(o.installComponents),
    isHa: bool(o.isHa),
    isScalable: bool(o.isScalable),
    status: str(o.status),
    apiKeyStatus: str(o.apiKeyStatus),
    masterCnt: num(o.masterCnt),
    workerCnt: num(o.workerCnt),
    nodeCnt: num(o.nodeCnt),
    vpcId: str(o.vpcId),
    subnetId: str(o.subnetId),
    securityGroupIds: strs(o.securityGroupIds),
    keypairName: str(o.keypairName),
    monitoring: bool(o.monitoring),
    imageName: str(o.imageName),
    createdAt: num(o.createdAt),
    runningAt: num(o.runningAt),
    elapsedTime: num(o.elapsedTime),
    masterInfo: volumes(o.masterInfo),
    workerInfo: volumes(o.workerInfo),
    adminUserId: str(obj(o.adminInfo)?.userId),
    config: {
      hdfsBlockSize: num(config.hdfsBlockSize ?? config.BlockSize),
      hdfsReplication: num(config.hdfsReplication),
      configText: str(config.configText),
      configFileUrl: str(config.configFileUrl ?? config.fileUrl),
    },
    userTask: task
      ? {
          type: str(task.type) as "hive" | "spark" | undefined,
          terminationPolicy: str(task.terminationPolicy) as "never" | "onSuccess" | "always" | undefined,
          fileUrl: str(task.fileUrl),
          hiveQuery: str(task.hiveQuery),
          logBucketName: str(task.logBucketName),
          logUrl: str(task.logUrl),
        }
      : undefined,
    componentUrl: urls,
    statusReason: str(o.statusReason) ?? str(o.reason) ?? str(o.message) ?? str(obj(o.stateChangeReason)?.message),
    raw: o,
  };
}

export function clusterSummary(v: unknown, action: string): ClusterSummary {
  const o = obj(v);
  const id = str(o?.id);
  if (!o || !id) throw new ResponseFormatError(`${action}: a cluster without an id`);
  return {
    id,
    name: str(o.name),
    status: str(o.status),
    clusterType: str(o.clusterType),
    clusterVersion: str(o.clusterVersion),
    apiKeyStatus: str(o.apiKeyStatus),
    workerCnt: num(o.workerCnt),
    raw: o,
  };
}

export function vm(v: unknown): Vm {
  const o = obj(v) ?? {};
  return {
    name: str(o.name),
    instanceId: str(o.instanceId),
    index: num(o.index),
    isMaster: bool(o.isMaster),
    status: str(o.status),
    flavorName: str(o.flavorName),
    ip: str(o.ip),
    floatingIp: str(o.floatingIp),
    createdAt: num(o.createdAt),
  };
}

export function rerunRequest(v: unknown, action: string): RerunRequest {
  const { o, id: requestId } = jsonWithId(v, ["requestId"], action, "requestId");
  return {
    clusterId: str(o.clusterId) ?? "",
    clusterName: str(o.clusterName),
    requestId,
    requestStatus: str(o.requestStatus),
    requestResult: str(o.requestResult),
    raw: o,
  };
}
