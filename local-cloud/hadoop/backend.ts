/**
 * Hadoop cluster service state (spec 03 C): one method per API operation. Routes have already
 * authenticated the caller and parsed the body; statuses move through managed state (lifecycle.ts).
 */
import { randomUUID } from "node:crypto";
import type { ManagedState } from "../core/managed-state";
import type { ObjectStoreBridge } from "../core/server";
import {
  ApiKeyRequired,
  ClusterNameExists,
  ClusterNotFound,
  ClusterNotRunning,
  ClusterNotScalable,
  ClusterNotTerminated,
  InvalidApiKey,
  InvalidParameter,
  RequestNotFound,
} from "./errors";
import { Lifecycle } from "./lifecycle";
import {
  BUNDLE_COMPONENTS,
  CUSTOM_ALWAYS,
  KIND,
  REQUEST,
  REQUEST_OK_RESULT,
  SERVICE,
  STATUS,
  isTerminated,
  masterCount,
  type StoredCluster,
  type StoredRequest,
} from "./model";
import { likeMatch, pageEnvelope, sortItems, type PageRequest } from "./paging";
import type { CreateClusterInput, RerunInput } from "./validate";
import { clusterDetail, clusterSummary, runSettings, vmView } from "./views";

export interface Caller {
  projectId: string;
  owner: string;
}

export interface ListClustersFilter {
  name: string | null;
  includeTerminated: boolean;
  apiKeyStatus: string | null;
}

export interface ListVmsFilter {
  ip: string | null;
  name: string | null;
  instanceId: string | null;
}

const shortId = (id: string): string => id.replace(/-/g, "").slice(0, 12);

export class HadoopBackend {
  readonly clusters = new Map<string, StoredCluster>();
  /** Control API: cluster names whose creates end Terminated, with the reason. */
  readonly createFailures = new Map<string, string>();
  readonly lifecycle: Lifecycle;
  /** Creation counter (IP ranges per cluster). */
  sequence = 0;

  constructor(
    readonly now: () => number,
    readonly state: ManagedState,
    objects: () => ObjectStoreBridge | undefined,
  ) {
    this.lifecycle = new Lifecycle(now, state, objects);
  }

  reset(): void {
    this.clusters.clear();
    this.createFailures.clear();
    this.sequence = 0;
  }

  /** A cluster of this project; another project's is as invisible as a missing one. */
  cluster(projectId: string, id: string): StoredCluster {
    const c = this.clusters.get(id);
    if (!c || c.projectId !== projectId) throw new ClusterNotFound(id);
    return c;
  }

  status(c: StoredCluster, count = false): string {
    return this.lifecycle.settle(c, count);
  }

  private reference(c: StoredCluster): { id: string; name: string; status: string } {
    return { id: c.id, name: c.name, status: this.status(c) };
  }

  createCluster(caller: Caller, input: CreateClusterInput): { id: string; name: string; status: string } {
    const clash = [...this.clusters.values()].some((c) => c.projectId === caller.projectId && c.name === input.name && !isTerminated(this.status(c)));
    if (clash) throw new ClusterNameExists(input.name);
    const id = randomUUID();
    const now = this.now();
    const components =
      input.clusterType === "custom"
        ? [...new Set([...(input.installComponents ?? []).map((x) => x.toLowerCase()), ...CUSTOM_ALWAYS])].sort()
        : [...BUNDLE_COMPONENTS[input.clusterType]];
    const version = input.clusterVersion.toLowerCase();
    const c: StoredCluster = {
      id,
      projectId: caller.projectId,
      owner: caller.owner,
      seq: this.sequence++,
      name: input.name,
      clusterType: input.clusterType,
      clusterVersion: version,
      installComponents: components,
      isHa: input.isHa,
      isScalable: input.userTask === undefined,
      keypairName: input.keypairName,
      monitoring: input.monitoring,
      vpcId: input.vpcId,
      subnetId: input.subnetId,
      securityGroupIds: input.securityGroupIds,
      defaultSecurityGroupId: `sg-hadoop-${shortId(id)}`,
      imageName: `${version}-ubuntu-22.04`,
      master: {
        instanceGroupId: randomUUID(),
        flavorId: `flavor-${input.masterFlavorName}`,
        flavorName: input.masterFlavorName,
        volumeSize: input.masterVolumeSize,
        nodeCnt: masterCount(input.isHa),
      },
      worker: {
        instanceGroupId: randomUUID(),
        flavorId: `flavor-${input.workerFlavorName}`,
        flavorName: input.workerFlavorName,
        volumeSize: input.workerVolumeSize,
        nodeCnt: input.workerCnt,
      },
      adminUserId: input.adminUserId ?? caller.owner,
      config: input.config,
      ...(input.userTask ? { userTask: input.userTask } : {}),
      ...(input.mySql || input.dataCatalogId ? { hiveMetastoreInfo: metastore(input) } : {}),
      ...(input.redis ? { redisInfo: redis(input) } : {}),
      createdAt: now,
      phase: "provisioning",
      statusKind: KIND.cluster,
      phaseStartedAt: now,
      phaseProgression: { mode: "immediate" },
      vms: [],
      retiredVmUptime: 0,
      nextVmHost: 0,
      requests: [],
    };
    const failure = this.createFailures.get(input.name);
    if (failure !== undefined) c.failCreate = failure;
    this.clusters.set(id, c);
    this.lifecycle.provision(c);
    return this.reference(c);
  }

  getCluster(caller: Caller, id: string): Record<string, unknown> {
    const c = this.cluster(caller.projectId, id);
    return clusterDetail(c, this.status(c, true), this.now());
  }

  listClusters(caller: Caller, filter: ListClustersFilter, request: PageRequest): Record<string, unknown> {
    const now = this.now();
    const items = [...this.clusters.values()]
      .filter((c) => c.projectId === caller.projectId && likeMatch(c.name, filter.name))
      .sort((a, b) => b.createdAt - a.createdAt || b.seq - a.seq)
      .map((c) => clusterSummary(c, this.status(c, true), now))
      .filter((s) => (filter.includeTerminated || !isTerminated(String(s.status))) && (filter.apiKeyStatus === null || s.apiKeyStatus === filter.apiKeyStatus));
    return pageEnvelope(sortItems(items, request.sort), request);
  }

  listVms(caller: Caller, id: string, filter: ListVmsFilter, request: PageRequest): Record<string, unknown> {
    const c = this.cluster(caller.projectId, id);
    this.status(c, true);
    const order = { MASTER: 0, WORKER: 1, TASK: 2 } as const;
    const items = [...c.vms]
      .sort((a, b) => order[a.group] - order[b.group] || a.index - b.index)
      .filter((vm) => likeMatch(vm.ip, filter.ip) && likeMatch(vm.name, filter.name) && likeMatch(vm.instanceId, filter.instanceId))
      .map((vm) => vmView(vm, this.lifecycle.vmStatus(c, vm)));
    return pageEnvelope(sortItems(items, request.sort), request);
  }

  /** Terminated(User) through the `terminate` transition; a terminated or terminating cluster is left as it is. */
  deleteCluster(caller: Caller, id: string): { id: string; name: string; status: string } {
    const c = this.cluster(caller.projectId, id);
    const status = this.status(c);
    if (!isTerminated(status) && c.phase !== "terminating") {
      this.lifecycle.cancelJob(c);
      c.phase = "terminating";
      this.lifecycle.begin(c, KIND.terminate, STATUS.terminating, STATUS.terminatedUser);
    }
    return this.reference(c);
  }

  scaleCluster(caller: Caller, id: string, workerCnt: number): { id: string; name: string; status: string } {
    const c = this.cluster(caller.projectId, id);
    const status = this.status(c);
    if (status !== STATUS.running || c.phase !== "running") throw new ClusterNotRunning(c.name, status);
    if (!c.isScalable) throw new ClusterNotScalable(c.name);
    if (workerCnt < c.config.hdfsReplication) throw new InvalidParameter("workerCnt", `must be at least config.hdfsReplication (${c.config.hdfsReplication})`);
    this.lifecycle.startScale(c, workerCnt);
    return this.reference(c);
  }

  private checkApiKey(c: StoredCluster, apiKey: string | undefined): void {
    if (apiKey === undefined || apiKey === "") throw new ApiKeyRequired();
    if (c.apiKey === undefined || apiKey !== c.apiKey) throw new InvalidApiKey(c.name);
  }

  rerunCluster(caller: Caller, id: string, apiKey: string | undefined, input: RerunInput): { clusterId: string; clusterName: string; requestId: string } {
    const c = this.cluster(caller.projectId, id);
    this.checkApiKey(c, apiKey);
    const status = this.status(c);
    if (status !== STATUS.terminated || c.phase !== "terminated") throw new ClusterNotTerminated(c.name, status);
    applyRerun(c, input);
    this.lifecycle.provision(c);
    const request: StoredRequest = { requestId: this.lifecycle.newRequestId(), createdAt: this.now(), settings: runSettings(c) };
    if (c.provisionFailure !== undefined) request.failure = c.provisionFailure;
    c.requests.push(request);
    this.state.begin(SERVICE, KIND.rerun, request.requestId, REQUEST.processing, request.failure === undefined ? REQUEST.success : REQUEST.failure);
    this.status(c);
    return { clusterId: c.id, clusterName: c.name, requestId: request.requestId };
  }

  getRerunRequest(caller: Caller, id: string, requestId: string, apiKey: string | undefined, verbose: boolean): Record<string, unknown> {
    const c = this.cluster(caller.projectId, id);
    this.checkApiKey(c, apiKey);
    const request = c.requests.find((r) => r.requestId === requestId);
    if (!request) throw new RequestNotFound(requestId);
    this.status(c);
    const requestStatus = this.state.read(SERVICE, KIND.rerun, requestId) ?? REQUEST.success;
    const requestResult =
      requestStatus === REQUEST.success
        ? REQUEST_OK_RESULT
        : requestStatus === REQUEST.failure
          ? `The re-run failed: ${request.failure ?? "unknown reason"}`
          : "";
    const base = { clusterId: c.id, clusterName: c.name, requestId, requestStatus, requestResult };
    if (!verbose) return base;
    const latest = c.requests[c.requests.length - 1] === request;
    const settings = structuredClone(request.settings);
    const task = settings.userTask as { logUrl?: string | null } | null;
    if (task && latest) task.logUrl = c.logUrl ?? null;
    return { ...base, ...settings };
  }
}

function metastore(input: CreateClusterInput): Record<string, unknown> {
  if (input.mySql) {
    const m = input.mySql;
    return {
      mySqlInfo: {
        objectId: m.objectId,
        subnetId: input.subnetId,
        name: `mysql-${shortId(m.objectId)}`,
        host: `${m.objectId}.mysql.kr-central-2.local`,
        port: 3306,
        dbName: m.dbName,
        userId: m.userId,
      },
    };
  }
  const catalogId = input.dataCatalogId!;
  return {
    dataCatalogInfo: {
      metastoreUri: `thrift://${catalogId}.catalog.kr-central-2.local:9083`,
      catalogId,
      catalogName: `catalog-${shortId(catalogId)}`,
      vpcId: input.vpcId,
      vpcName: `vpc-${shortId(input.vpcId)}`,
      subnetId: input.subnetId,
      subnetName: `subnet-${shortId(input.subnetId)}`,
    },
  };
}

function redis(input: CreateClusterInput): Record<string, unknown> {
  const r = input.redis!;
  const host = `${r.objectId}.redis.kr-central-2.local`;
  return {
    objectId: r.objectId,
    name: `redis-${shortId(r.objectId)}`,
    subnetId: input.subnetId,
    primaryEndpoint: `primary.${host}`,
    readEndpoint: `read.${host}`,
    clusterEnabled: false,
    port: 6379,
    dbIdSupersetCelery: r.dbIdSupersetCelery,
    dbIdSupersetResults: r.dbIdSupersetResults,
  };
}

/** The re-run body's overrides (spec C.4), checked against the cluster they apply to. */
function applyRerun(c: StoredCluster, input: RerunInput): void {
  const replication = input.config?.hdfsReplication ?? c.config.hdfsReplication;
  let workers = c.worker.nodeCnt;
  input.instanceSpecs.forEach((spec, i) => {
    if (spec.type === "MASTER" && spec.nodeCnt !== undefined && spec.nodeCnt !== masterCount(c.isHa)) {
      throw new InvalidParameter(`instanceSpecs[${i}].nodeCnt`, `a ${c.isHa ? "HA " : ""}cluster has ${masterCount(c.isHa)} master node(s)`);
    }
    if (spec.type === "WORKER" && spec.nodeCnt !== undefined) workers = spec.nodeCnt;
  });
  if (workers < replication) throw new InvalidParameter("instanceSpecs.WORKER.nodeCnt", `must be at least config.hdfsReplication (${replication})`);
  if (c.userTask?.type === "hive" && input.userTaskInfo?.deployMode !== undefined)
    throw new InvalidParameter("userTaskInfo.deployMode", "applies to spark jobs only");
  for (const spec of input.instanceSpecs) {
    if (spec.type === "MASTER" && spec.volumeSize !== undefined) c.master.volumeSize = spec.volumeSize;
    if (spec.type === "WORKER") {
      if (spec.nodeCnt !== undefined) c.worker.nodeCnt = spec.nodeCnt;
      if (spec.volumeSize !== undefined) c.worker.volumeSize = spec.volumeSize;
    }
    if (spec.type === "TASK") {
      c.task ??= { instanceGroupId: randomUUID(), flavorId: c.worker.flavorId, flavorName: c.worker.flavorName, volumeSize: c.worker.volumeSize, nodeCnt: 1 };
      if (spec.nodeCnt !== undefined) c.task.nodeCnt = spec.nodeCnt;
      if (spec.volumeSize !== undefined) c.task.volumeSize = spec.volumeSize;
    }
  }
  if (input.config?.hdfsBlockSize !== undefined) c.config.hdfsBlockSize = input.config.hdfsBlockSize;
  c.config.hdfsReplication = replication;
  if (c.userTask && input.userTaskInfo) {
    const t = input.userTaskInfo;
    if (t.deployMode !== undefined) c.userTask.deployMode = t.deployMode;
    if (t.execOpts !== undefined) c.userTask.execOpts = t.execOpts;
    if (t.execParams !== undefined) c.userTask.execParams = t.execParams;
  }
  if (input.securityGroupIds) c.securityGroupIds = [...input.securityGroupIds];
}
