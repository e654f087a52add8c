/**
 * Hadoop cluster service (seed 03 C). Lifecycle by managed state (kind `cluster`):
 * Initializing -> Running; a job cluster (`userTask`) then runs its job (kind `job`) and ends by its
 * termination policy (`onSuccess`: Terminated on success, Running on failure; `always`: Terminated;
 * `never`: Running), writing the job's log into `logBucketName` under `hadoop-service/<cluster>/`.
 * Delete and scale, "not shown" in the seed, are DELETE and PATCH `{workerCnt}` on the cluster's path
 * (docs/api-assumptions.md). Re-runs need the cluster's API key (issued through the control API) and
 * a Terminated cluster; each has a request (kind `rerun`: Processing -> Success).
 */
import { randomUUID } from 'node:crypto';
import { ApiError, BadRequest, Conflict, NotFound } from '../core/errors';
import type { InventoryEntry } from '../core/http';
import type { ManagedState } from '../core/managed-state';
import type { ObjectStoreBridge } from '../core/server';

export const SERVICE = 'hadoop';
export const LOG_FOLDER = 'hadoop-service';

export interface StoredCluster {
  id: string;
  projectId: string;
  owner: string;
  body: Record<string, unknown>;
  name: string;
  clusterType: string;
  clusterVersion: string;
  isHa: boolean;
  workerCnt: number;
  createdAt: number;
  runningAt?: number;
  apiKey?: string;
  jobStarted: boolean;
  jobDone: boolean;
  logUrl?: string;
  reason?: string;
  requests: Map<string, { id: string; createdAt: number }>;
}

export class Forbidden extends ApiError {
  constructor(message: string) {
    super(403, 'Forbidden', message);
  }
}

export class HadoopBackend {
  clusters = new Map<string, StoredCluster>();
  /** Cluster names whose create fails (control API), with the reason. */
  failCreate = new Map<string, string>();
  /** Clusters whose next job fails (control API). */
  failJob = new Set<string>();

  constructor(
    private readonly now: () => number,
    private readonly state: ManagedState,
    private readonly objects: () => ObjectStoreBridge | undefined,
  ) {}

  reset(): void {
    this.clusters.clear();
    this.failCreate.clear();
    this.failJob.clear();
  }

  create(projectId: string, owner: string, b: Record<string, unknown>): StoredCluster {
    const name = b.name as string;
    if ([...this.clusters.values()].some((c) => c.projectId === projectId && c.name === name && !this.terminated(c))) throw new Conflict(`A cluster named "${name}" exists.`, 'DuplicateName');
    const c: StoredCluster = {
      id: randomUUID(),
      projectId,
      owner,
      body: b,
      name,
      clusterType: b.clusterType as string,
      clusterVersion: (b.clusterVersion as string).toLowerCase(),
      isHa: b.isHa === true,
      workerCnt: b.workerCnt as number,
      createdAt: this.now(),
      jobStarted: false,
      jobDone: false,
      requests: new Map(),
    };
    this.clusters.set(c.id, c);
    const failure = this.failCreate.get(name);
    if (failure !== undefined) c.reason = failure;
    this.state.begin(SERVICE, 'cluster', c.id, 'Initializing', failure !== undefined ? 'Terminated' : 'Running');
    return c;
  }

  cluster(projectId: string, id: string): StoredCluster {
    const c = this.clusters.get(id);
    if (!c || c.projectId !== projectId) throw new NotFound(`No cluster "${id}".`, 'ClusterNotFound');
    return c;
  }

  private terminated(c: StoredCluster): boolean {
    return (this.state.peek(SERVICE, 'cluster', c.id) ?? '').startsWith('Terminated');
  }

  /** The status as served; it also moves the job along (started on Running, ended by its transition). */
  status(c: StoredCluster): string {
    let st = this.state.read(SERVICE, 'cluster', c.id) ?? 'Running';
    if (st === 'Running' && c.runningAt === undefined) c.runningAt = this.now();
    const task = c.body.userTask as { terminationPolicy?: string; logBucketName?: string } | undefined;
    if (task && st === 'Running' && !c.jobStarted) {
      c.jobStarted = true;
      this.state.begin(SERVICE, 'job', c.id, 'RUNNING', 'DONE');
    }
    if (task && c.jobStarted && !c.jobDone && this.state.read(SERVICE, 'job', c.id) === 'DONE') {
      c.jobDone = true;
      const ok = !this.failJob.has(c.id);
      this.writeLog(c, ok, task.logBucketName);
      const policy = task.terminationPolicy ?? 'never';
      if (policy === 'always' || (policy === 'onSuccess' && ok)) {
        this.state.set(SERVICE, 'cluster', c.id, 'Terminated');
        st = 'Terminated';
      }
      if (!ok) c.reason = 'The job failed.';
    }
    return st;
  }

  private writeLog(c: StoredCluster, ok: boolean, bucket: string | undefined): void {
    if (!bucket) return;
    const objects = this.objects();
    if (!objects?.bucketExists(c.projectId, bucket)) return;
    const key = `${LOG_FOLDER}/${c.name}/${new Date(this.now()).toISOString().replace(/[:.]/g, '-')}.log`;
    objects.putObject(c.projectId, bucket, key, Buffer.from(`cluster ${c.name} (${c.id}): job ${ok ? 'succeeded' : 'failed'}\n`), 'text/plain');
    c.logUrl = `${bucket}/${key}`;
  }

  delete(c: StoredCluster): void {
    if (!this.terminated(c)) this.state.set(SERVICE, 'cluster', c.id, 'Terminated(User)');
  }

  scale(c: StoredCluster, workerCnt: number): void {
    if (this.status(c) !== 'Running') throw new Conflict(`Cluster "${c.name}" is ${this.status(c)}; it scales only while Running.`, 'InvalidState');
    if (workerCnt < ((c.body.config as { hdfsReplication?: number })?.hdfsReplication ?? 1)) throw new BadRequest('workerCnt: at least config.hdfsReplication.');
    c.workerCnt = workerCnt;
    this.state.begin(SERVICE, 'cluster', c.id, 'Updating', 'Running');
  }

  rerun(c: StoredCluster, apiKey: string | undefined): { clusterId: string; clusterName: string; requestId: string } {
    if (!c.apiKey || apiKey !== c.apiKey) throw new Forbidden('Hadoop-Service-Api-Key: not this cluster\'s API key.');
    if (!this.terminated(c)) throw new Conflict(`Cluster "${c.name}" is ${this.status(c)}; only a Terminated cluster can be re-run.`, 'InvalidState');
    const id = randomUUID();
    c.requests.set(id, { id, createdAt: this.now() });
    c.jobStarted = false;
    c.jobDone = false;
    c.reason = undefined;
    this.state.begin(SERVICE, 'rerun', id, 'Processing', 'Success');
    this.state.begin(SERVICE, 'cluster', c.id, 'Initializing', 'Running');
    return { clusterId: c.id, clusterName: c.name, requestId: id };
  }

  request(c: StoredCluster, id: string, apiKey: string | undefined): Record<string, unknown> {
    if (!c.apiKey || apiKey !== c.apiKey) throw new Forbidden('Hadoop-Service-Api-Key: not this cluster\'s API key.');
    if (!c.requests.has(id)) throw new NotFound(`No request "${id}".`, 'RequestNotFound');
    const st = this.state.read(SERVICE, 'rerun', id) ?? 'Success';
    return { clusterId: c.id, clusterName: c.name, requestId: id, requestStatus: st, requestResult: st === 'Success' ? 'The cluster was re-run.' : '' };
  }

  apiKeyStatus(c: StoredCluster): string {
    return c.apiKey ? 'applied' : c.body.userTask ? 'possible' : 'impossible';
  }

  vms(c: StoredCluster): Record<string, unknown>[] {
    if (this.terminated(c)) return [];
    const masters = c.isHa ? 3 : 1;
    const out: Record<string, unknown>[] = [];
    const subnet = parseInt(c.id.slice(0, 2), 16) % 200;
    for (let i = 0; i < masters; i++) out.push({ name: `HadoopMST-${c.name}-${i + 1}`, instanceId: `${c.id.slice(0, 8)}-m${i}`, index: i, isMaster: true, status: 'Running', flavorName: c.body.masterFlavorName, ip: `10.${subnet}.0.${10 + i}`, floatingIp: '', createdAt: c.createdAt });
    for (let i = 0; i < c.workerCnt; i++) out.push({ name: `HadoopWRK-${c.name}-${i + 1}`, instanceId: `${c.id.slice(0, 8)}-w${i}`, index: i, isMaster: false, status: 'Running', flavorName: c.body.workerFlavorName, ip: `10.${subnet}.1.${10 + i}`, floatingIp: '', createdAt: c.createdAt });
    return out;
  }

  detail(c: StoredCluster): Record<string, unknown> {
    const b = c.body;
    const config = (b.config ?? {}) as Record<string, unknown>;
    const status = this.status(c);
    const masters = c.isHa ? 3 : 1;
    return {
      id: c.id,
      name: c.name,
      owner: c.owner,
      clusterType: c.clusterType,
      clusterVersion: c.clusterVersion,
      installComponents: b.installComponents ?? [],
      isHa: c.isHa,
      isScalable: !b.userTask,
      status,
      apiKeyStatus: this.apiKeyStatus(c),
      masterCnt: masters,
      workerCnt: c.workerCnt,
      nodeCnt: masters + c.workerCnt,
      vpcId: b.vpcId,
      subnetId: b.subnetId,
      securityGroupIds: b.securityGroupIds ?? [],
      keypairName: b.keypairName,
      monitoring: b.monitoring,
      imageName: `hde-${c.clusterVersion}`,
      createdAt: c.createdAt,
      runningAt: c.runningAt,
      elapsedTime: this.now() - c.createdAt,
      masterInfo: [{ flavorId: b.masterFlavorName, flavorName: b.masterFlavorName, volumeSize: b.masterVolumeSize }],
      workerInfo: [{ flavorId: b.workerFlavorName, flavorName: b.workerFlavorName, volumeSize: b.workerVolumeSize }],
      adminInfo: { userId: (b.adminInfo as { userId?: string } | undefined)?.userId ?? c.owner },
      config: { hdfsBlockSize: config.hdfsBlockSize ?? config.BlockSize, hdfsReplication: config.hdfsReplication, configText: config.configText, configFileUrl: config.fileUrl ?? config.configFileUrl },
      ...(b.userTask ? { userTask: { ...(b.userTask as object), ...(c.logUrl ? { logUrl: c.logUrl } : {}) } } : {}),
      componentUrl: status === 'Running' ? { nameNodeUrl: `http://${c.name}.hadoop.local:9870`, resourceManagerUrl: `http://${c.name}.hadoop.local:8088`, hueUrl: `http://${c.name}.hadoop.local:8888` } : {},
      ...(c.reason ? { statusReason: c.reason } : {}),
    };
  }

  summary(c: StoredCluster): Record<string, unknown> {
    const d = this.detail(c);
    const pick = ['id', 'name', 'status', 'owner', 'clusterType', 'clusterVersion', 'isScalable', 'apiKeyStatus', 'masterCnt', 'workerCnt', 'nodeCnt', 'createdAt', 'runningAt', 'elapsedTime'];
    return Object.fromEntries(pick.map((k) => [k, d[k]]));
  }

  inventory(): InventoryEntry[] {
    return [...this.clusters.values()].filter((c) => !this.terminated(c)).map((c) => ({ service: SERVICE, kind: 'cluster', id: c.id, projectId: c.projectId }));
  }
}
