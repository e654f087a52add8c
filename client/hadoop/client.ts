/**
 * Hadoop cluster client (spec 03 section C): create, get, list (all pages), list VMs (all pages),
 * re-run a terminated job cluster and read the re-run request, plus delete and scale, whose method
 * and path the spec does not show (HADOOP_ROUTES, docs/api-assumptions.md). Access-key auth;
 * re-run operations add `Hadoop-Service-Api-Key`. Passwords, configuration text and scripts are
 * Base64-encoded here; passwords are redacted from errors in both forms.
 */
import { hadoopApiKeyHeader, isApiError, type ClientOptions, type Settings, ServiceClient, idSegment } from "../core";
import { InvalidArgumentError } from "./errors";
import { clusterDetail, clusterSummary, page, rerunRequest, vm, obj } from "./parse";
import { parseJson } from "../core/json";
import "./secrets";
import type {
  ClusterRef,
  ClusterSummary,
  CreateHadoopClusterInput,
  HadoopCluster,
  ListClustersOptions,
  ListVmsOptions,
  RerunInput,
  RerunRequest,
  Vm,
} from "./types";

const BASE = "/v2/hadoop-service/clusters";
const JSON_TYPE = "application/json";

/**
 * The readings chosen where the spec says "not shown" (C.4: delete and scale are "supported").
 * Scale tries the first and, on 404 or 405 (a service that routes it elsewhere), the second.
 */
export const HADOOP_ROUTES = Object.freeze({
  delete: (id: string) => ({ method: "DELETE", path: `${BASE}/${id}` }),
  scale: [(id: string) => ({ method: "PATCH", path: `${BASE}/${id}` }), (id: string) => ({ method: "PUT", path: `${BASE}/${id}/scale` })],
});

/** Spec section 8 and C.4. */
export const HADOOP_LIMITS = Object.freeze({
  rerunNodes: [1, 1000],
  volumeGb: [100, 16384],
  blockSizeMb: [1, 1024],
  replication: [1, 500],
  redisDbId: [0, 15],
  pageSize: 20,
});

/** `<PREFIX>-X.X.X` with a three-letter prefix, compared case-insensitively. */
export const CLUSTER_VERSION = /^[A-Za-z]{3}-\d+\.\d+\.\d+$/;

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

export class HadoopClient extends ServiceClient {
  private readonly settings: Settings;

  constructor(opts: ClientOptions) {
    super("hadoop", opts);
    this.settings = opts.settings;
  }

  /** Creates a cluster; 409 when the name exists. Not idempotent. */
  async createCluster(input: CreateHadoopClusterInput): Promise<ClusterRef> {
    const action = `creating Hadoop cluster "${input.name}"`;
    if (!CLUSTER_VERSION.test(input.clusterVersion)) throw new InvalidArgumentError(`${action}: clusterVersion must look like HDE-2.0.0 (<PREFIX>-X.X.X)`);
    const { body, secrets } = expandCreate(input);
    const res = await this.send({
      operation: "CreateCluster",
      method: "POST",
      path: BASE,
      headers: { "content-type": JSON_TYPE },
      body: JSON.stringify(body),
      expect: [200, 201, 202],
      action,
      idempotent: false,
      secrets,
    });
    const o = obj(parseJson(res.body, action)) ?? {};
    const id = o.id ?? o.clusterId;
    if (typeof id !== "string" || !id) throw new InvalidArgumentError(`${action}: the answer has no cluster id`);
    return { id, name: typeof o.name === "string" ? o.name : undefined, status: typeof o.status === "string" ? o.status : undefined };
  }

  async getCluster(id: string, retainMetadata?: boolean): Promise<HadoopCluster> {
    const action = `reading Hadoop cluster "${id}"`;
    const res = await this.send({
      operation: "GetCluster",
      method: "GET",
      path: `${BASE}/${idSegment(id, action)}`,
      query: { retainMetadata: retainMetadata === undefined ? undefined : String(retainMetadata) },
      action,
      idempotent: true,
    });
    return clusterDetail(parseJson(res.body, action), action);
  }

  /** The cluster, or undefined on 404. */
  async findCluster(id: string): Promise<HadoopCluster | undefined> {
    try {
      return await this.getCluster(id);
    } catch (e) {
      if (isApiError(e) && e.status === 404) return undefined;
      throw e;
    }
  }

  /** Every cluster matching the filters, all pages. */
  async listClusters(o: ListClustersOptions = {}): Promise<ClusterSummary[]> {
    const q = new URLSearchParams();
    if (o.name) q.set("name", o.name);
    if (o.includeTerminated !== undefined) q.set("includeTerminated", String(o.includeTerminated));
    if (o.apiKeyStatus) q.set("apiKeyStatus", o.apiKeyStatus);
    return this.allPages("ListClusters", BASE, q, o.sort, o.size, "listing Hadoop clusters", clusterSummary);
  }

  /** Every VM of the cluster, all pages. */
  async listVms(id: string, o: ListVmsOptions = {}): Promise<Vm[]> {
    const action = `listing the VMs of Hadoop cluster "${id}"`;
    const q = new URLSearchParams();
    if (o.ip) q.set("ip", o.ip);
    if (o.name) q.set("name", o.name);
    if (o.instanceId) q.set("instanceId", o.instanceId);
    return this.allPages("ListClusterVms", `${BASE}/${idSegment(id, action)}/vms`, q, o.sort, o.size, action, vm);
  }

  /** Terminates the cluster (HADOOP_ROUTES.delete). Idempotent: a terminated cluster stays terminated. */
  async deleteCluster(id: string): Promise<void> {
    const action = `deleting Hadoop cluster "${id}"`;
    const r = HADOOP_ROUTES.delete(idSegment(id, action));
    await this.send({ operation: "DeleteCluster", method: r.method, path: r.path, action, idempotent: true });
  }

  /** Sets the worker count (HADOOP_ROUTES.scale, the second reading on 404/405). Idempotent: an absolute count. */
  async scaleCluster(id: string, workerCnt: number): Promise<void> {
    const action = `scaling Hadoop cluster "${id}" to ${workerCnt} workers`;
    if (!Number.isInteger(workerCnt) || workerCnt < 1) throw new InvalidArgumentError(`${action}: workerCnt must be a whole number of at least 1`);
    const [first, second] = HADOOP_ROUTES.scale.map((f) => f(idSegment(id, action)));
    const spec = { operation: "ScaleCluster", headers: { "content-type": JSON_TYPE }, body: JSON.stringify({ workerCnt }), action, idempotent: true };
    try {
      await this.send({ ...spec, ...first! });
    } catch (e) {
      if (!(isApiError(e) && (e.status === 404 || e.status === 405) && (await this.findCluster(id)))) throw e;
      await this.send({ ...spec, ...second! });
    }
  }

  /** Re-runs a terminated job cluster with its API key (settings.hadoopApiKey). Not idempotent. */
  async rerunCluster(id: string, input: RerunInput = {}): Promise<RerunRequest> {
    const action = `re-running Hadoop cluster "${id}"`;
    checkRerun(input, action);
    const res = await this.send({
      operation: "RerunCluster",
      method: "POST",
      path: `${BASE}/${idSegment(id, action)}`,
      headers: { "content-type": JSON_TYPE, ...hadoopApiKeyHeader(this.settings) },
      body: JSON.stringify(input),
      expect: [200, 202],
      action,
      idempotent: false,
    });
    return rerunRequest(parseJson(res.body, action), action);
  }

  async getRerunRequest(id: string, requestId: string, verbose = false): Promise<RerunRequest> {
    const action = `reading re-run request "${requestId}" of Hadoop cluster "${id}"`;
    const res = await this.send({
      operation: "GetRerunRequest",
      method: "GET",
      path: `${BASE}/${idSegment(id, action)}/requests/${idSegment(requestId, action)}`,
      query: { verbose: String(verbose) },
      headers: { "content-type": JSON_TYPE, ...hadoopApiKeyHeader(this.settings) },
      action,
      idempotent: true,
    });
    return rerunRequest(parseJson(res.body, action), action);
  }

  private async allPages<T>(
    operation: string,
    path: string,
    q: URLSearchParams,
    sort: readonly string[] | undefined,
    size: number | undefined,
    action: string,
    item: (v: unknown, action: string) => T,
  ): Promise<T[]> {
    for (const s of sort ?? [])
      if (!/^[A-Za-z]+,(asc|desc)$/.test(s)) throw new InvalidArgumentError(`${action}: sort must be "field,asc" or "field,desc" (got "${s}")`);
    const out: T[] = [];
    for (let n = 0; n < 10_000; n++) {
      const p = new URLSearchParams(q);
      for (const s of sort ?? []) p.append("sort", s);
      p.set("size", String(size ?? HADOOP_LIMITS.pageSize));
      p.set("page", String(n));
      const res = await this.send({ operation, method: "GET", path: `${path}?${p.toString()}`, action, idempotent: true });
      const pg = page(parseJson(res.body, action), action);
      out.push(...pg.content.map((c) => item(c, action)));
      if (pg.last || pg.content.length === 0) break;
    }
    return out;
  }
}

function inRange(v: number | undefined, [lo, hi]: readonly number[], name: string, action: string): void {
  if (v !== undefined && (!Number.isInteger(v) || v < lo! || v > hi!))
    throw new InvalidArgumentError(`${action}: ${name} must be a whole number from ${lo} to ${hi}`);
}

function checkRerun(r: RerunInput, action: string): void {
  for (const [i, s] of (r.instanceSpecs ?? []).entries()) {
    inRange(s.nodeCnt, HADOOP_LIMITS.rerunNodes, `instanceSpecs[${i}].nodeCnt`, action);
    inRange(s.volumeSize, HADOOP_LIMITS.volumeGb, `instanceSpecs[${i}].volumeSize`, action);
  }
  inRange(r.config?.hdfsBlockSize, HADOOP_LIMITS.blockSizeMb, "config.hdfsBlockSize", action);
  inRange(r.config?.hdfsReplication, HADOOP_LIMITS.replication, "config.hdfsReplication", action);
}

/**
 * The create body (C.4). Where the spec spells a field two ways, both spellings are sent with the
 * same value, so a service reading either sees the same intent: `hdfsBlockSize`/`BlockSize`,
 * `fileUrl`/`configFileUrl`, `dataCatalogInfo`/`dataCatalog` (docs/api-assumptions.md).
 */
export function expandCreate(input: CreateHadoopClusterInput): { body: Record<string, unknown>; secrets: string[] } {
  const secrets: string[] = [];
  const secret = (s: string) => {
    const e = b64(s);
    secrets.push(s, e);
    return e;
  };
  const config: Record<string, unknown> = {
    hdfsReplication: input.config.hdfsReplication,
    hdfsBlockSize: input.config.hdfsBlockSize,
    BlockSize: input.config.hdfsBlockSize,
  };
  if (input.config.configText !== undefined) config.configText = b64(input.config.configText);
  if (input.config.fileUrl !== undefined) {
    config.fileUrl = input.config.fileUrl;
    config.configFileUrl = input.config.fileUrl;
  }
  if (input.config.userScript !== undefined) config.userScript = b64(input.config.userScript);
  const body: Record<string, unknown> = {
    name: input.name,
    clusterVersion: input.clusterVersion,
    clusterType: input.clusterType,
    isHa: input.isHa,
    keypairName: input.keypairName,
    masterFlavorName: input.masterFlavorName,
    workerFlavorName: input.workerFlavorName,
    masterVolumeSize: input.masterVolumeSize,
    workerVolumeSize: input.workerVolumeSize,
    workerCnt: input.workerCnt,
    monitoring: input.monitoring,
    vpcId: input.vpcId,
    subnetId: input.subnetId,
    config,
  };
  if (input.installComponents) body.installComponents = input.installComponents;
  if (input.securityGroupIds) body.securityGroupIds = input.securityGroupIds;
  if (input.adminInfo)
    body.adminInfo = {
      ...(input.adminInfo.userId !== undefined ? { userId: input.adminInfo.userId } : {}),
      ...(input.adminInfo.userPw !== undefined ? { userPw: secret(input.adminInfo.userPw) } : {}),
    };
  if (input.userTask) body.userTask = { ...input.userTask };
  const m = input.hiveMetastoreInfo;
  if (m && "mySqlInfo" in m) body.hiveMetastoreInfo = { mySqlInfo: { ...m.mySqlInfo, userPw: secret(m.mySqlInfo.userPw) } };
  if (m && "dataCatalogInfo" in m) body.hiveMetastoreInfo = { dataCatalogInfo: { ...m.dataCatalogInfo }, dataCatalog: { ...m.dataCatalogInfo } };
  if (input.redisInfo) body.redisInfo = { ...input.redisInfo };
  return { body, secrets };
}
