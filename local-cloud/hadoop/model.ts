/**
 * Hadoop cluster service (spec 03 C): stored records, constants and the spec's limits. Readings of
 * the spec are listed in docs/local-cloud-hadoop.md.
 */
import type { Progression } from "../core/managed-state";

export const SERVICE = "hadoop";
/** Fixed service folder of job logs inside `userTask.logBucketName` (spec C.4 "a fixed service folder"). */
export const LOG_FOLDER = "hadoop-service";

/**
 * Managed-state kinds. The cluster's status lives under the kind of its current phase, so each
 * phase has its own progression: `cluster` (Initializing -> Running, or -> Terminated when the create
 * is made to fail), `scale` (Updating -> Running), `terminate` (Terminating -> Terminated(User)).
 * `job` is the job run (Running -> Done), `rerun` a re-run request (Processing -> Success | Failure).
 */
export const KIND = { cluster: "cluster", scale: "scale", terminate: "terminate", job: "job", rerun: "rerun" } as const;
export type StatusKind = typeof KIND.cluster | typeof KIND.scale | typeof KIND.terminate;

export const STATUS = {
  initializing: "Initializing",
  running: "Running",
  updating: "Updating",
  terminating: "Terminating",
  terminated: "Terminated",
  terminatedUser: "Terminated(User)",
} as const;

export const JOB_DONE = "Done";
export const REQUEST = { processing: "Processing", success: "Success", failure: "Failure" } as const;
export const REQUEST_OK_RESULT = "The cluster was re-run.";

/** Spec section 8 plus the create limits read from it (docs/local-cloud-hadoop.md). */
export const LIMITS = {
  nodeCnt: [1, 1000],
  volumeSize: [100, 16384],
  hdfsBlockSize: [1, 1024],
  hdfsReplication: [1, 500],
  redisDbId: [0, 15],
  pageSizeDefault: 20,
  pageSizeMax: 1000,
} as const;

export const CLUSTER_TYPES = ["hadoop", "hbase", "trino", "dataflow", "custom"] as const;
export type ClusterType = (typeof CLUSTER_TYPES)[number];
export const TERMINATION_POLICIES = ["never", "onSuccess", "always"] as const;
export type TerminationPolicy = (typeof TERMINATION_POLICIES)[number];
export const API_KEY_STATUSES = ["possible", "impossible", "applied"] as const;

/** `<PREFIX>-X.X.X` with a three-letter prefix; compared case-insensitively, answered in lower case. */
export const CLUSTER_VERSION = /^[A-Za-z]{3}-\d+\.\d+\.\d+$/;

/** Components each bundle installs; `custom` installs the listed ones plus hadoop and zookeeper. */
export const BUNDLE_COMPONENTS: Readonly<Record<Exclude<ClusterType, "custom">, readonly string[]>> = {
  hadoop: ["hadoop", "hive", "hue", "oozie", "spark", "tez", "zookeeper"],
  hbase: ["hadoop", "hbase", "hue", "zookeeper"],
  trino: ["hadoop", "hive", "hue", "trino", "zookeeper"],
  dataflow: ["hadoop", "druid", "kafka", "superset", "zookeeper"],
};
export const CUSTOM_ALWAYS = ["hadoop", "zookeeper"] as const;

/** componentUrl keys, the component that serves each, and its port. */
export const COMPONENT_URLS: ReadonlyArray<readonly [key: string, component: string, port: number]> = [
  ["druidUrl", "druid", 8888],
  ["nameNodeUrl", "hadoop", 9870],
  ["resourceManagerUrl", "hadoop", 8088],
  ["jobHistoryServerUrl", "hadoop", 19888],
  ["timelineServerUrl", "hadoop", 8188],
  ["hiveServerUrl", "hive", 10002],
  ["hueUrl", "hue", 8888],
  ["oozieUrl", "oozie", 11000],
  ["sparkHistoryServerUrl", "spark", 18082],
  ["supersetUrl", "superset", 4000],
  ["tezUIUrl", "tez", 9999],
  ["trinoUrl", "trino", 8780],
  ["zeppelinUrl", "zeppelin", 8180],
  ["hMasterUrl", "hbase", 16010],
];

export type Group = "MASTER" | "WORKER" | "TASK";

export interface InstanceGroup {
  instanceGroupId: string;
  flavorId: string;
  flavorName: string;
  volumeSize: number;
  nodeCnt: number;
}

export interface StoredVm {
  name: string;
  instanceId: string;
  index: number;
  group: Group;
  flavorName: string;
  ip: string;
  floatingIp: string | null;
  createdAt: number;
  /** `adding`/`removing` while a scale is in flight; `active` otherwise. */
  change: "active" | "adding" | "removing";
}

export interface UserTask {
  type: "hive" | "spark";
  terminationPolicy: TerminationPolicy;
  fileUrl?: string;
  hiveQuery?: string;
  deployMode?: "cluster" | "client";
  execOpts?: string;
  execParams?: string;
  logBucketName?: string;
}

export interface ClusterConfig {
  hdfsBlockSize: number;
  hdfsReplication: number;
  /** Base64 as sent. */
  configText?: string;
  configFileUrl?: string;
  /** Base64 as sent. */
  userScript?: string;
  userScriptFileUrl?: string;
}

export interface JobRun {
  run: number;
  phase: "waiting" | "running" | "done" | "cancelled";
  outcome?: "succeeded" | "failed";
  startedAt?: number;
  endedAt?: number;
  /** Progression captured when the run began (to date its end on the virtual clock). */
  progression?: Progression;
}

export interface StoredRequest {
  requestId: string;
  createdAt: number;
  /** What the request will end as (decided when it is made: a re-run made to fail ends Failure). */
  failure?: string;
  /** The cluster's settings for this run, as `verbose=true` shows them. */
  settings: Record<string, unknown>;
}

export type Phase = "provisioning" | "running" | "scaling" | "terminating" | "terminated";

export interface StoredCluster {
  id: string;
  projectId: string;
  owner: string;
  seq: number;
  name: string;
  clusterType: ClusterType;
  clusterVersion: string;
  installComponents: string[];
  isHa: boolean;
  isScalable: boolean;
  keypairName: string;
  monitoring: boolean;
  vpcId: string;
  subnetId: string;
  securityGroupIds: string[];
  defaultSecurityGroupId: string;
  imageName: string;
  master: InstanceGroup;
  worker: InstanceGroup;
  task?: InstanceGroup;
  adminUserId: string;
  config: ClusterConfig;
  userTask?: UserTask;
  logUrl?: string;
  hiveMetastoreInfo?: Record<string, unknown>;
  redisInfo?: Record<string, unknown>;
  createdAt: number;
  runningAt?: number;
  terminatedAt?: number;
  phase: Phase;
  statusKind: StatusKind;
  phaseStartedAt: number;
  phaseProgression: Progression;
  statusReason?: string;
  vms: StoredVm[];
  /** Uptime of VMs already removed (ms), for totalVmUptime. */
  retiredVmUptime: number;
  nextVmHost: number;
  job?: JobRun;
  apiKey?: string;
  apiKeySecurityGroupId?: string;
  /** Control API: the job fails with this message (until cleared). */
  failJob?: string;
  /** Control API: the next provisioning (create or re-run) ends Terminated with this reason. */
  failCreate?: string;
  /** Why the provisioning in flight will end Terminated (taken from failCreate when it began). */
  provisionFailure?: string;
  requests: StoredRequest[];
}

export const isTerminated = (status: string): boolean => status.startsWith(STATUS.terminated);

/** When a transition begun at `startedAt` completed, as well as the local cloud can tell. */
export function completedAt(startedAt: number, progression: Progression | undefined, now: number): number {
  return progression?.mode === "duration" ? Math.min(now, startedAt + progression.ms) : now;
}

export function apiKeyStatus(c: StoredCluster): string {
  if (c.apiKey !== undefined) return "applied";
  return c.userTask ? "possible" : "impossible";
}

export function masterCount(isHa: boolean): number {
  return isHa ? 3 : 1;
}
