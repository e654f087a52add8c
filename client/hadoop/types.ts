/** Hadoop cluster service (spec 03 section C): requests and answers as the client returns them. */

export type ClusterType = "hadoop" | "hbase" | "trino" | "dataflow" | "custom";
export const CLUSTER_TYPES: readonly ClusterType[] = ["hadoop", "hbase", "trino", "dataflow", "custom"];
export type TerminationPolicy = "never" | "onSuccess" | "always";

export interface UserTask {
  type: "hive" | "spark";
  terminationPolicy: TerminationPolicy;
  hiveQuery?: string;
  /** Hive query file or Spark JAR URL. */
  fileUrl?: string;
  deployMode?: "cluster" | "client";
  execOpts?: string;
  execParams?: string;
  logBucketName?: string;
}

export interface CreateHadoopClusterInput {
  name: string;
  /** `<PREFIX>-X.X.X`. */
  clusterVersion: string;
  clusterType: ClusterType;
  installComponents?: string[];
  isHa: boolean;
  keypairName: string;
  masterFlavorName: string;
  workerFlavorName: string;
  masterVolumeSize: number;
  workerVolumeSize: number;
  workerCnt: number;
  monitoring: boolean;
  securityGroupIds?: string[];
  vpcId: string;
  subnetId: string;
  /** `userPw` plain: the client Base64-encodes it. */
  adminInfo?: { userId?: string; userPw?: string };
  config: {
    hdfsReplication: number;
    /** MB. */
    hdfsBlockSize: number;
    /** Configuration JSON text, plain: the client Base64-encodes it. */
    configText?: string;
    /** Object storage URL of a configuration JSON. */
    fileUrl?: string;
    /** Bash script, plain: the client Base64-encodes it. */
    userScript?: string;
  };
  userTask?: UserTask;
  /** `userPw` plain: the client Base64-encodes it. */
  hiveMetastoreInfo?: { mySqlInfo: { objectId: string; dbName: string; userId: string; userPw: string } } | { dataCatalogInfo: { catalogId: string } };
  redisInfo?: { objectId: string; dbIdSupersetCelery?: number; dbIdSupersetResults?: number };
}

export interface ClusterRef {
  id: string;
  name?: string;
  status?: string;
}

export interface VolumeInfo {
  flavorId?: string;
  flavorName?: string;
  volumeSize?: number;
}

export interface HadoopCluster {
  id: string;
  name?: string;
  owner?: string;
  clusterType?: string;
  /** As received (may be lower case). */
  clusterVersion?: string;
  installComponents: string[];
  isHa?: boolean;
  isScalable?: boolean;
  status?: string;
  apiKeyStatus?: string;
  masterCnt?: number;
  workerCnt?: number;
  nodeCnt?: number;
  vpcId?: string;
  subnetId?: string;
  securityGroupIds: string[];
  keypairName?: string;
  monitoring?: boolean;
  imageName?: string;
  createdAt?: number;
  runningAt?: number;
  elapsedTime?: number;
  masterInfo: VolumeInfo[];
  workerInfo: VolumeInfo[];
  adminUserId?: string;
  config: { hdfsBlockSize?: number; hdfsReplication?: number; configText?: string; configFileUrl?: string };
  userTask?: Partial<UserTask> & { logUrl?: string };
  componentUrl: Record<string, string>;
  /** A reason when the service gives one for a terminated cluster (the spec does not name the field). */
  statusReason?: string;
  raw: Record<string, unknown>;
}

export interface ClusterSummary {
  id: string;
  name?: string;
  status?: string;
  clusterType?: string;
  clusterVersion?: string;
  apiKeyStatus?: string;
  workerCnt?: number;
  raw: Record<string, unknown>;
}

export interface Vm {
  name?: string;
  instanceId?: string;
  index?: number;
  isMaster?: boolean;
  status?: string;
  flavorName?: string;
  ip?: string;
  floatingIp?: string;
  createdAt?: number;
}

export interface ListClustersOptions {
  name?: string;
  includeTerminated?: boolean;
  apiKeyStatus?: "possible" | "impossible" | "applied";
  /** Repeatable, in priority order: `field,asc|desc`. */
  sort?: string[];
  size?: number;
}

export interface ListVmsOptions {
  ip?: string;
  name?: string;
  instanceId?: string;
  sort?: string[];
  size?: number;
}

export interface RerunInput {
  instanceSpecs?: { type: "MASTER" | "WORKER" | "TASK"; nodeCnt?: number; volumeSize?: number }[];
  config?: { hdfsBlockSize?: number; hdfsReplication?: number };
  userTaskInfo?: { deployMode?: "client" | "cluster"; execOpts?: string; execParams?: string };
  securityGroupIds?: string[];
}

export interface RerunRequest {
  clusterId: string;
  clusterName?: string;
  requestId: string;
  requestStatus?: string;
  requestResult?: string;
  raw: Record<string, unknown>;
}
