/**
 * How a cluster moves (spec 03 C.3 plus the readings in docs/local-cloud-hadoop.md). Statuses come
 * from managed state and move lazily: every look at a cluster settles it, applying what the
 * completed transitions imply (VMs up or gone, the job started or ended, the termination policy).
 */
import { randomUUID } from "node:crypto";
import type { ManagedState } from "../core/managed-state";
import type { ObjectStoreBridge } from "../core/server";
import {
  JOB_DONE,
  KIND,
  LOG_FOLDER,
  SERVICE,
  STATUS,
  completedAt,
  isTerminated,
  type Group,
  type StatusKind,
  type StoredCluster,
  type StoredVm,
} from "./model";

const STATUS_KINDS: readonly StatusKind[] = [KIND.cluster, KIND.scale, KIND.terminate];

const VM_PREFIX: Record<Group, string> = { MASTER: "HadoopMST", WORKER: "HadoopWRK", TASK: "HadoopTSK" };

export class Lifecycle {
  constructor(
    private readonly now: () => number,
    private readonly state: ManagedState,
    private readonly objects: () => ObjectStoreBridge | undefined,
  ) {}

  /** Starts a phase: the cluster's status moves `from` -> `to` under `kind`'s progression. */
  begin(c: StoredCluster, kind: StatusKind, from: string, to: string): void {
    for (const k of STATUS_KINDS) if (k !== kind) this.state.remove(SERVICE, k, c.id);
    c.statusKind = kind;
    c.phaseStartedAt = this.now();
    c.phaseProgression = this.state.progression(SERVICE, kind);
    this.state.begin(SERVICE, kind, c.id, from, to);
  }

  /** Provisioning of a create or a re-run: fresh VMs, the job waiting for Running. */
  provision(c: StoredCluster): void {
    c.phase = "provisioning";
    c.provisionFailure = c.failCreate;
    delete c.failCreate;
    delete c.statusReason;
    delete c.runningAt;
    delete c.terminatedAt;
    delete c.logUrl;
    c.vms = [];
    this.addVms(c, "MASTER", c.master.nodeCnt, "active");
    this.addVms(c, "WORKER", c.worker.nodeCnt, "active");
    if (c.task) this.addVms(c, "TASK", c.task.nodeCnt, "active");
    if (c.userTask) c.job = { run: (c.job?.run ?? 0) + 1, phase: "waiting" };
    this.begin(c, KIND.cluster, STATUS.initializing, c.provisionFailure !== undefined ? STATUS.terminated : STATUS.running);
  }

  /** Forces a status (control API drift); the phase follows it, with no transition pending. */
  force(c: StoredCluster, status: string): void {
    for (const k of STATUS_KINDS) this.state.remove(SERVICE, k, c.id);
    c.statusKind = KIND.cluster;
    this.state.set(SERVICE, KIND.cluster, c.id, status);
    if (isTerminated(status)) {
      if (c.phase !== "terminated") this.enterTerminated(c, this.now(), c.statusReason);
    } else if (status === STATUS.running) {
      if (c.phase === "provisioning") this.enterRunning(c, this.now());
      else if (c.phase === "scaling") this.finishScale(c);
      c.phase = "running";
    }
  }

  /** The cluster's status after applying every completed transition; `count` makes it a status read. */
  settle(c: StoredCluster, count: boolean): string {
    const look = (kind: string, id: string, counted: boolean): string | undefined =>
      counted ? this.state.read(SERVICE, kind, id) : this.state.peek(SERVICE, kind, id);
    let status = look(c.statusKind, c.id, count) ?? (c.phase === "terminated" ? STATUS.terminated : STATUS.running);
    let jobJustBegun = false;
    const at = (): number => completedAt(c.phaseStartedAt, c.phaseProgression, this.now());
    if (c.phase === "provisioning") {
      if (status === STATUS.running) jobJustBegun = this.enterRunning(c, at());
      else if (isTerminated(status)) this.enterTerminated(c, at(), c.provisionFailure ?? "The cluster could not be created.");
    } else if (c.phase === "scaling" && status === STATUS.running) {
      this.finishScale(c);
      c.phase = "running";
    } else if (c.phase === "terminating" && isTerminated(status)) {
      this.enterTerminated(c, at(), "Terminated by the user.");
    }
    const job = c.job;
    if (job?.phase === "running" && (c.phase === "running" || c.phase === "scaling")) {
      const jobStatus = look(KIND.job, c.id, count && !jobJustBegun);
      if (jobStatus === JOB_DONE) status = this.finishJob(c, completedAt(job.startedAt ?? this.now(), job.progression, this.now())) ?? status;
    }
    return status;
  }

  /** Returns whether a job began. */
  private enterRunning(c: StoredCluster, at: number): boolean {
    c.phase = "running";
    c.runningAt = at;
    if (!c.userTask || c.job?.phase !== "waiting") return false;
    c.job.phase = "running";
    c.job.startedAt = at;
    c.job.progression = this.state.progression(SERVICE, KIND.job);
    this.state.begin(SERVICE, KIND.job, c.id, STATUS.running, JOB_DONE);
    return true;
  }

  private enterTerminated(c: StoredCluster, at: number, reason: string | undefined): void {
    c.phase = "terminated";
    c.terminatedAt = at;
    if (reason !== undefined) c.statusReason = reason;
    for (const vm of c.vms) c.retiredVmUptime += Math.max(0, at - vm.createdAt);
    c.vms = [];
    this.cancelJob(c);
  }

  cancelJob(c: StoredCluster): void {
    if (c.job && (c.job.phase === "running" || c.job.phase === "waiting")) {
      c.job.phase = "cancelled";
      c.job.endedAt = this.now();
    }
    this.state.remove(SERVICE, KIND.job, c.id);
  }

  /** Ends the job; returns the cluster's new status when the termination policy ends it. */
  private finishJob(c: StoredCluster, at: number): string | undefined {
    const job = c.job!;
    const task = c.userTask!;
    job.phase = "done";
    job.endedAt = at;
    job.outcome = c.failJob === undefined ? "succeeded" : "failed";
    this.state.remove(SERVICE, KIND.job, c.id);
    this.writeLog(c, at);
    const ends = task.terminationPolicy === "always" || (task.terminationPolicy === "onSuccess" && job.outcome === "succeeded");
    if (!ends) return undefined;
    for (const k of STATUS_KINDS) this.state.remove(SERVICE, k, c.id);
    c.statusKind = KIND.cluster;
    this.state.set(SERVICE, KIND.cluster, c.id, STATUS.terminated);
    const reason =
      job.outcome === "succeeded"
        ? `The job succeeded; terminated by the termination policy ${task.terminationPolicy}.`
        : `The job failed: ${c.failJob}; terminated by the termination policy ${task.terminationPolicy}.`;
    this.enterTerminated(c, at, reason);
    return STATUS.terminated;
  }

  /** `<logBucketName>/hadoop-service/<cluster name>/<end time>.log`; skipped when the bucket is missing. */
  private writeLog(c: StoredCluster, at: number): void {
    const bucket = c.userTask?.logBucketName;
    const objects = this.objects();
    if (!bucket || !objects || !objects.bucketExists(c.projectId, bucket)) return;
    const job = c.job!;
    const task = c.userTask!;
    const key = `${LOG_FOLDER}/${c.name}/${new Date(at).toISOString().replace(/[:.]/g, "-")}.log`;
    const lines = [
      `cluster: ${c.name} (${c.id})`,
      `run: ${job.run}`,
      `job: ${task.type}${task.deployMode ? ` (deployMode ${task.deployMode})` : ""}`,
      task.hiveQuery !== undefined ? `hiveQuery: ${task.hiveQuery}` : `fileUrl: ${task.fileUrl ?? ""}`,
      ...(task.execOpts ? [`execOpts: ${task.execOpts}`] : []),
      ...(task.execParams ? [`execParams: ${task.execParams}`] : []),
      `started: ${new Date(job.startedAt ?? at).toISOString()}`,
      `ended: ${new Date(at).toISOString()}`,
      job.outcome === "succeeded" ? "result: job succeeded" : `result: job failed: ${c.failJob ?? ""}`,
    ];
    objects.putObject(c.projectId, bucket, key, Buffer.from(`${lines.join("\n")}\n`), "text/plain; charset=utf-8");
    c.logUrl = `${bucket}/${key}`;
  }

  /** Scale to `workerCnt`: new workers are added, the highest-numbered ones removed, once Running again. */
  startScale(c: StoredCluster, workerCnt: number): void {
    const workers = c.vms.filter((v) => v.group === "WORKER");
    if (workerCnt > workers.length) this.addVms(c, "WORKER", workerCnt - workers.length, "adding");
    else for (const vm of workers.sort((a, b) => b.index - a.index).slice(0, workers.length - workerCnt)) vm.change = "removing";
    c.worker.nodeCnt = workerCnt;
    c.phase = "scaling";
    this.begin(c, KIND.scale, STATUS.updating, STATUS.running);
  }

  private finishScale(c: StoredCluster): void {
    const now = this.now();
    for (const vm of c.vms) if (vm.change === "removing") c.retiredVmUptime += Math.max(0, now - vm.createdAt);
    c.vms = c.vms.filter((v) => v.change !== "removing");
    for (const vm of c.vms) vm.change = "active";
  }

  /** Worker-count drift (control API): VMs follow at once, with no transition. */
  driftWorkers(c: StoredCluster, workerCnt: number): void {
    if (c.phase === "terminated") {
      c.worker.nodeCnt = workerCnt;
      return;
    }
    const workers = c.vms.filter((v) => v.group === "WORKER").sort((a, b) => a.index - b.index);
    if (workerCnt > workers.length) this.addVms(c, "WORKER", workerCnt - workers.length, "active");
    else {
      const gone = new Set(workers.slice(workerCnt));
      c.vms = c.vms.filter((v) => !gone.has(v));
    }
    c.worker.nodeCnt = workerCnt;
  }

  private addVms(c: StoredCluster, group: Group, count: number, change: StoredVm["change"]): void {
    const taken = c.vms.filter((v) => v.group === group).map((v) => v.index);
    let index = taken.length === 0 ? 0 : Math.max(...taken) + 1;
    const now = this.now();
    for (let i = 0; i < count; i++, index++) {
      const host = c.nextVmHost++;
      c.vms.push({
        name: `${VM_PREFIX[group]}-${c.name}-${index + 1}`,
        instanceId: randomUUID(),
        index,
        group,
        flavorName: group === "MASTER" ? c.master.flavorName : group === "WORKER" ? c.worker.flavorName : c.task!.flavorName,
        ip: `10.${c.seq % 256}.${Math.floor(host / 250)}.${(host % 250) + 4}`,
        floatingIp: group === "MASTER" ? `198.18.${c.seq % 256}.${(host % 250) + 4}` : null,
        createdAt: now,
        change,
      });
    }
  }

  /** A VM's status as listed: it follows the cluster's phase and any scale in flight. */
  vmStatus(c: StoredCluster, vm: StoredVm): string {
    if (c.phase === "provisioning" || vm.change === "adding") return STATUS.initializing;
    if (c.phase === "terminating" || vm.change === "removing") return STATUS.terminating;
    return STATUS.running;
  }

  newRequestId(): string {
    return randomUUID();
  }
}
