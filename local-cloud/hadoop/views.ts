/** What the API answers for clusters, VMs and re-run requests (spec 03 C.2 and C.4). */
import { COMPONENT_URLS, apiKeyStatus, type InstanceGroup, type StoredCluster, type StoredVm } from "./model";

export const CLUSTER_SORT_FIELDS = [
  "id",
  "name",
  "status",
  "owner",
  "clusterType",
  "clusterVersion",
  "apiKeyStatus",
  "masterCnt",
  "workerCnt",
  "createdAt",
  "runningAt",
  "elapsedTime",
] as const;
export const VM_SORT_FIELDS = ["name", "instanceId", "isMaster", "flavorName", "ip", "floatingIp", "createdAt"] as const;

const volume = (g: InstanceGroup) => ({ flavorId: g.flavorId, flavorName: g.flavorName, volumeSize: g.volumeSize });

function componentUrl(c: StoredCluster, status: string): Record<string, string | null> {
  const master = c.vms.find((v) => v.group === "MASTER");
  const live = master !== undefined && (status === "Running" || status === "Updating");
  return Object.fromEntries(
    COMPONENT_URLS.map(([key, component, port]) => [
      key,
      live && c.installComponents.includes(component) ? `http://${master.floatingIp ?? master.ip}:${port}` : null,
    ]),
  );
}

function nodeCount(c: StoredCluster): number {
  return c.master.nodeCnt + c.worker.nodeCnt + (c.task?.nodeCnt ?? 0);
}

function elapsed(c: StoredCluster, now: number): number {
  return Math.max(0, (c.terminatedAt ?? now) - c.createdAt);
}

function totalVmUptime(c: StoredCluster, now: number): number {
  return c.retiredVmUptime + c.vms.reduce((sum, vm) => sum + Math.max(0, now - vm.createdAt), 0);
}

/** The members `keys` of `o`, an absent one as null: the API shows a field it has no value for as null rather than leaving it out. */
export function orNull<T extends object, const K extends keyof T>(o: T, keys: readonly K[]): { [P in K]: Exclude<T[P], undefined> | null } {
  return Object.fromEntries(keys.map((k) => [k, o[k] ?? null])) as { [P in K]: Exclude<T[P], undefined> | null };
}

/** The job as the API shows it; `extra` adds the fields only some views carry. */
function userTaskView(c: StoredCluster, extra: Record<string, string | null>): Record<string, unknown> | null {
  const t = c.userTask;
  if (!t) return null;
  return {
    type: t.type,
    terminationPolicy: t.terminationPolicy,
    ...orNull(t, ["fileUrl", "hiveQuery", "deployMode", "execOpts", "execParams"]),
    ...extra,
  };
}

export function securityGroups(c: StoredCluster): string[] {
  return [...c.securityGroupIds, c.defaultSecurityGroupId, ...(c.apiKeySecurityGroupId ? [c.apiKeySecurityGroupId] : [])];
}

export function clusterDetail(c: StoredCluster, status: string, now: number): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    owner: c.owner,
    clusterType: c.clusterType,
    clusterVersion: c.clusterVersion,
    installComponents: [...c.installComponents],
    isHa: c.isHa,
    isScalable: c.isScalable,
    status,
    ...(c.statusReason !== undefined ? { statusReason: c.statusReason } : {}),
    apiKeyStatus: apiKeyStatus(c),
    masterCnt: c.master.nodeCnt,
    workerCnt: c.worker.nodeCnt,
    nodeCnt: nodeCount(c),
    vpcId: c.vpcId,
    subnetId: c.subnetId,
    securityGroupIds: securityGroups(c),
    keypairName: c.keypairName,
    monitoring: c.monitoring,
    imageName: c.imageName,
    createdAt: c.createdAt,
    runningAt: c.runningAt ?? null,
    elapsedTime: elapsed(c, now),
    totalVmUptime: totalVmUptime(c, now),
    masterInfo: [volume(c.master)],
    workerInfo: [volume(c.worker)],
    adminInfo: { userId: c.adminUserId },
    config: {
      hdfsBlockSize: c.config.hdfsBlockSize,
      hdfsReplication: c.config.hdfsReplication,
      ...orNull(c.config, ["configText", "configFileUrl"]),
    },
    userTask: userTaskView(c, { logBucketName: c.userTask?.logBucketName ?? null, logUrl: c.logUrl ?? null }),
    hiveMetastoreInfo: c.hiveMetastoreInfo ?? null,
    redisInfo: c.redisInfo ?? null,
    componentUrl: componentUrl(c, status),
  };
}

export function clusterSummary(c: StoredCluster, status: string, now: number): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    status,
    owner: c.owner,
    clusterType: c.clusterType,
    clusterVersion: c.clusterVersion,
    isScalable: c.isScalable,
    apiKeyStatus: apiKeyStatus(c),
    masterCnt: c.master.nodeCnt,
    workerCnt: c.worker.nodeCnt,
    nodeCnt: nodeCount(c),
    createdAt: c.createdAt,
    runningAt: c.runningAt ?? null,
    elapsedTime: elapsed(c, now),
  };
}

export function vmView(vm: StoredVm, status: string): Record<string, unknown> {
  return {
    name: vm.name,
    instanceId: vm.instanceId,
    index: vm.index,
    isMaster: vm.group === "MASTER",
    status,
    flavorName: vm.flavorName,
    ip: vm.ip,
    floatingIp: vm.floatingIp,
    createdAt: vm.createdAt,
  };
}

/** The cluster's settings for one run, as the verbose request status shows them. */
export function runSettings(c: StoredCluster): Record<string, unknown> {
  const group = (g: InstanceGroup) => ({ ...g });
  return {
    clusterType: c.clusterType,
    clusterVersion: c.clusterVersion,
    isHa: c.isHa,
    installComponents: [...c.installComponents],
    masterInfo: [group(c.master)],
    workerInfo: [group(c.worker)],
    taskInfo: c.task ? [group(c.task)] : [],
    imageName: c.imageName,
    securityGroupIds: securityGroups(c),
    keypairName: c.keypairName,
    owner: c.owner,
    config: {
      hdfsBlockSize: c.config.hdfsBlockSize,
      hdfsReplication: c.config.hdfsReplication,
      ...orNull(c.config, ["configText", "userScript"]),
    },
    userTask: userTaskView(c, { logUrl: null }),
  };
}
