/**
 * The inputs and outputs of krcloud:hadoop:Cluster (cluster.ts): the create request's fields with
 * the spec's ranges, the rules across fields `check` enforces, and the outputs a read reports.
 * Spec: 03-kms-dataquery-hadoop.md sections C.2, C.4, C.5, C.8.
 */
import { z } from "zod";
import { CLUSTER_TYPES, CLUSTER_VERSION, HADOOP_LIMITS } from "../../client/hadoop";
import { timeoutsInput, nonEmpty } from "../core";
import { vmShape } from "./vms";
import { kmsEncrypted, oneOf } from "../kms/encrypted-input";

/** Create 75 minutes (EMR: bootstrap scripts outlive 40), update 60, delete 30. */
export const HADOOP_TIMEOUTS = Object.freeze({ create: 75 * 60_000, update: 60 * 60_000, delete: 30 * 60_000 });

const range = ([lo, hi]: readonly number[], what: string) =>
  z.number().int(`must be a whole number`).min(lo!, `must be from ${lo} to ${hi} ${what}`).max(hi!, `must be from ${lo} to ${hi} ${what}`);
const dbId = () => range(HADOOP_LIMITS.redisDbId, "(Redis database ids)");

function userTask() {
  return z.strictObject({
    type: z.enum(["hive", "spark"]).describe("`hive` or `spark`."),
    terminationPolicy: z
      .enum(["never", "onSuccess", "always"])
      .describe("`never`: the cluster keeps running; `onSuccess`: it terminates when the job succeeds; `always`: it terminates when the job ends."),
    hiveQuery: z.string().optional().describe("Hive: the query."),
    fileUrl: z.string().optional().describe("Hive query file or Spark JAR URL."),
    deployMode: z.enum(["cluster", "client"]).optional().describe("Spark: `cluster` or `client`."),
    execOpts: z.string().optional().describe("Hive or Spark options."),
    execParams: z.string().optional().describe("Spark application parameters."),
    logBucketName: z.string().optional().describe("Bucket where the job's logs are saved (under a service folder and the cluster name)."),
  });
}

/** One instance group of a re-run. */
function instanceSpec() {
  return z.strictObject({
    type: z.enum(["MASTER", "WORKER", "TASK"]).describe("`MASTER`, `WORKER` or `TASK`."),
    nodeCnt: range(HADOOP_LIMITS.rerunNodes, "nodes").optional().describe("Nodes, 1 to 1000."),
    volumeSize: range(HADOOP_LIMITS.volumeGb, "GB").optional().describe("GB, 100 to 16384."),
  });
}

function rerun() {
  return rerunBody().extend({ trigger: nonEmpty().describe("Any value; changing it re-runs the terminated job cluster in place.") });
}

/** What a re-run request changes of the cluster it runs on (the `rerun` input, and the rerunCluster function's arguments). */
export function rerunBody() {
  return z.strictObject({
    instanceSpecs: z.array(instanceSpec()).optional().describe("Instance groups for the re-run."),
    config: z
      .strictObject({
        hdfsBlockSize: range(HADOOP_LIMITS.blockSizeMb, "MB").optional().describe("MB, 1 to 1024."),
        hdfsReplication: range(HADOOP_LIMITS.replication, "").optional().describe("1 to 500."),
      })
      .optional()
      .describe("HDFS settings for the re-run."),
    userTaskInfo: z
      .strictObject({
        deployMode: z.enum(["client", "cluster"]).optional().describe("Spark: `client` or `cluster`."),
        execOpts: z.string().optional().describe("Hive or Spark options."),
        execParams: z.string().optional().describe("Spark application parameters."),
      })
      .optional()
      .describe("Task options for the re-run."),
    securityGroupIds: z.array(nonEmpty()).optional().describe("Security groups for the re-run."),
  });
}

function hadoopShape() {
  return z.strictObject({
    name: z
      .string()
      .regex(/^[A-Za-z][A-Za-z0-9-]{0,62}$/, "must be 1 to 63 letters, digits or `-`, starting with a letter")
      .describe("Cluster name, unique in the project. When omitted: the logical name plus a random suffix. Changing it replaces the cluster."),
    clusterVersion: z
      .string()
      .regex(CLUSTER_VERSION, "must look like HDE-2.0.0 (<PREFIX>-X.X.X)")
      .describe("`<PREFIX>-X.X.X`, compared case-insensitively. Changing it replaces the cluster."),
    clusterType: z.enum(CLUSTER_TYPES as unknown as [string, ...string[]]).describe("`hadoop`, `hbase`, `trino`, `dataflow` or `custom`."),
    installComponents: z
      .array(nonEmpty())
      .optional()
      .describe("Only for `custom`: components such as hive, hue, spark, tez (hadoop and zookeeper are always installed)."),
    isHa: z.boolean().default(false).describe("High availability (3 masters)."),
    keypairName: nonEmpty().describe("Key pair for the VMs."),
    masterFlavorName: nonEmpty().describe("Flavor of the master nodes."),
    workerFlavorName: nonEmpty().describe("Flavor of the worker nodes."),
    masterVolumeSize: range(HADOOP_LIMITS.volumeGb, "GB").default(100).describe("GB, 100 to 16384."),
    workerVolumeSize: range(HADOOP_LIMITS.volumeGb, "GB").default(100).describe("GB, 100 to 16384."),
    workerCnt: range(HADOOP_LIMITS.rerunNodes, "workers").describe("Worker nodes, at least hdfsReplication. Scaled in place."),
    monitoring: z.boolean().default(false).describe("Install a monitoring agent."),
    securityGroupIds: z.array(nonEmpty()).optional().describe("Extra security groups (a default group is created)."),
    vpcId: nonEmpty().describe("The VPC."),
    subnetId: nonEmpty().describe("The subnet."),
    adminUserId: nonEmpty().optional().describe("Hue/Superset admin user; default the IAM account."),
    adminPassword: nonEmpty()
      .optional()
      .describe("Hue/Superset admin password. Secret: sent Base64-encoded, never read back. Or give `adminPasswordCiphertext`."),
    adminPasswordCiphertext: kmsEncrypted("The Hue/Superset admin password").optional(),
    hdfsReplication: range(HADOOP_LIMITS.replication, "").default(3).describe("HDFS replication, at most workerCnt."),
    hdfsBlockSize: range(HADOOP_LIMITS.blockSizeMb, "MB").default(128).describe("HDFS block size in MB."),
    configurations: z
      .array(
        z.strictObject({
          classification: nonEmpty().describe("`core-site`, `hive-site`, `hadoop-env`, `spark-defaults`, `user-env:ubuntu`, ..."),
          properties: z.record(z.string(), z.string()).default({}).describe("Property values by name."),
        }),
      )
      .optional()
      .describe(
        "Configuration as data (`core-site`, `hive-site`, `spark-defaults`, `user-env:ubuntu`, ...): canonicalised and Base64-encoded by the provider, so key order never causes a diff.",
      ),
    configFileUrl: nonEmpty().optional().describe("Object storage URL of a configuration JSON."),
    userScript: z
      .string()
      .min(1, "must not be empty: omit userScript for no script")
      .optional()
      .describe("Bash script run when the VMs are created; line endings are normalised (CRLF and LF are the same script)."),
    userTask: userTask().optional().describe("A job run after creation: makes this a job cluster, whose normal end may be `Terminated`."),
    metastore: z
      .strictObject({
        mysql: z
          .strictObject({
            objectId: nonEmpty().describe("The MySQL instance's id."),
            dbName: nonEmpty().describe("The metadata database (it must exist)."),
            userId: nonEmpty().describe("Database user."),
            password: nonEmpty().optional().describe("Database password. Secret: sent Base64-encoded. Or give `passwordCiphertext`."),
            passwordCiphertext: kmsEncrypted("The metastore database password").optional(),
          })
          .optional()
          .describe("A MySQL metastore."),
        dataCatalogId: nonEmpty().optional().describe("A data catalog's id."),
      })
      .optional()
      .describe("Hive metastore: an existing MySQL database, or a data catalog."),
    redis: z
      .strictObject({
        instanceSetId: nonEmpty().describe("A cache instance set (its id)."),
        dbIdSupersetCelery: dbId().default(0).describe("Superset Celery database id, 0 to 15 (default 0)."),
        dbIdSupersetResults: dbId().default(1).describe("Superset results database id, 0 to 15 (default 1)."),
      })
      .optional()
      .describe("Superset's Redis: a cache instance set."),
    rerun: rerun().optional().describe("Re-run the terminated job cluster in place when `trigger` changes (needs krcloud:hadoopApiKey)."),
    timeouts: timeoutsInput(HADOOP_TIMEOUTS),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "If a cluster with this name already exists, manage it instead of creating one (its replace-on properties must match; workers are then scaled in place).",
      ),
  });
}

export function hadoopClusterInputs() {
  return hadoopShape().superRefine((c, ctx) => {
    const fail = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    if (c.installComponents !== undefined && c.clusterType !== "custom") fail(["installComponents"], "applies to clusterType custom only");
    // Spec C.4: installComponents is required "only for custom".
    if (c.clusterType === "custom" && !c.installComponents?.length)
      fail(["installComponents"], "is required for clusterType custom: list at least one component (hadoop and zookeeper are always installed)");
    if (c.workerCnt < c.hdfsReplication) fail(["workerCnt"], `must be at least hdfsReplication (${c.hdfsReplication})`);
    if (c.metastore && (c.metastore.mysql === undefined) === (c.metastore.dataCatalogId === undefined))
      fail(["metastore"], "set exactly one of mysql and dataCatalogId");
    oneOf(ctx, [], c.adminPassword, c.adminPasswordCiphertext, ["adminPassword", "adminPasswordCiphertext"], false);
    if (c.metastore?.mysql)
      oneOf(ctx, ["metastore", "mysql"], c.metastore.mysql.password, c.metastore.mysql.passwordCiphertext, ["password", "passwordCiphertext"], true);
    const task = c.userTask;
    // A hive job runs a query or a query file, not both; deployMode is Spark's (spec C.4).
    if (task?.type === "hive" && (task.hiveQuery === undefined) === (task.fileUrl === undefined))
      fail(["userTask", "hiveQuery"], "a hive task needs exactly one of hiveQuery and fileUrl");
    if (task?.type === "hive" && task.deployMode !== undefined) fail(["userTask", "deployMode"], "applies to spark tasks only");
    if (task?.type === "spark" && task.fileUrl === undefined) fail(["userTask", "fileUrl"], "a spark task needs the JAR's fileUrl");
    if (c.rerun && !task) fail(["rerun"], "applies to job clusters (with a userTask) only");
    if (c.rerun) checkRerun(c, c.rerun, fail);
  });
}

/**
 * A re-run changes the cluster it runs on, within the rules of its create: one entry per instance
 * group, the masters the cluster has (3 with isHa, else 1), at least hdfsReplication workers, and
 * task options its job takes.
 */
function checkRerun(
  c: z.infer<ReturnType<typeof hadoopShape>>,
  r: z.infer<ReturnType<typeof rerun>>,
  fail: (path: (string | number)[], message: string) => void,
): void {
  const masters = c.isHa ? 3 : 1;
  const seen = new Set<string>();
  let workers = c.workerCnt;
  let workerSpec = -1;
  (r.instanceSpecs ?? []).forEach((s, i) => {
    if (seen.has(s.type)) fail(["rerun", "instanceSpecs", i, "type"], `${s.type} is given twice: list each instance group once`);
    seen.add(s.type);
    if (s.type === "MASTER" && s.nodeCnt !== undefined && s.nodeCnt !== masters)
      fail(
        ["rerun", "instanceSpecs", i, "nodeCnt"],
        `must be ${masters}: the cluster has ${masters} master node${masters > 1 ? "s" : ""} (3 with isHa, else 1)`,
      );
    if (s.type === "WORKER" && s.nodeCnt !== undefined) [workers, workerSpec] = [s.nodeCnt, i];
  });
  const replication = r.config?.hdfsReplication ?? c.hdfsReplication;
  if (workers < replication) {
    if (workerSpec >= 0) fail(["rerun", "instanceSpecs", workerSpec, "nodeCnt"], `must be at least hdfsReplication (${replication})`);
    else fail(["rerun", "config", "hdfsReplication"], `must be at most the workers (${workers})`);
  }
  if (c.userTask?.type === "hive" && r.userTaskInfo?.deployMode !== undefined) fail(["rerun", "userTaskInfo", "deployMode"], "applies to spark tasks only");
}
export type HadoopClusterInputs = z.infer<ReturnType<typeof hadoopClusterInputs>>;

export function hadoopClusterOutputs() {
  return hadoopShape().extend({
    status: z.string().describe("`Initializing`, `Running`, `Terminated`, `Terminated(User)`."),
    statusReason: z.string().optional().describe("Why the cluster terminated, when the service says."),
    apiKeyStatus: z.string().optional().describe("`impossible`, `possible`, `applied`."),
    componentUrls: z.record(z.string(), z.string()).describe("Web UIs: nameNodeUrl, resourceManagerUrl, hueUrl, ..."),
    masterCount: z.number().optional(),
    vms: z.array(vmShape()).describe("The cluster's VMs."),
    logUrl: z.string().optional().describe("Where the job's log lies."),
    rerunRequestId: z.string().optional(),
    rerunRequestStatus: z.string().optional(),
    rerunRequestResult: z.string().optional(),
  });
}
export type HadoopClusterOutputs = z.infer<ReturnType<typeof hadoopClusterOutputs>>;
