/**
 * krcloud:hadoop:Cluster — a Hadoop cluster (hadoop, hbase, trino, dataflow or custom), long-running
 * or a job cluster (`userTask`). What `aws_emr_cluster` users suffer is designed out:
 * - a job cluster that ended `Terminated` reached its normal final state: it stays in state and is
 *   not recreated (only a long-running cluster found terminated is gone);
 * - configuration is structured data, canonicalised (sorted keys, LF line endings) before it is
 *   Base64-encoded, so key order or line endings never cause a diff; the server's echo is never
 *   compared;
 * - waits take a `timeouts` input (create 75 minutes by default, as EMR learned) and print progress;
 * - the worker count scales in place and waits until the cluster runs again; a terminated job
 *   cluster is re-run in place through `rerun` (the cluster's API key from config or environment,
 *   never from state), and everything else replaces.
 * Admin and metastore passwords are secret inputs, Base64-encoded by the SDK, never read back.
 * Seed: 03-kms-dataquery-hadoop.md sections C.2, C.3, C.4, C.5, C.7, C.8.
 */
import { z } from "zod";
import {
  CLUSTER_TYPES,
  CLUSTER_VERSION,
  HADOOP_LIMITS,
  type CreateHadoopClusterInput,
  type HadoopClient,
  type HadoopCluster,
  type RerunRequest,
} from "../../sdk/hadoop";
import { isApiError, rethrowAs, withAction } from "../../sdk/core";
import {
  PartialFailure,
  timeoutFor,
  timeoutsInput,
  waitWithProgress,
  type Context,
  type ResourceDefinition,
  resourceClass,
  type InputArgs,
  type AutoNamed,
} from "../core";
import { hadoop } from "./client";
import { vmResult, vmShape } from "./vms";
import { kmsEncrypted, oneOf, passwordOf } from "../kms/encrypted-input";

/** Create 75 minutes (EMR: bootstrap scripts outlive 40), update 60, delete 30. */
export const HADOOP_TIMEOUTS = Object.freeze({ create: 75 * 60_000, update: 60 * 60_000, delete: 30 * 60_000 });

const nonEmpty = () => z.string().min(1, "must not be empty");
const range = ([lo, hi]: readonly number[], what: string) =>
  z.number().int(`must be a whole number`).min(lo!, `must be from ${lo} to ${hi} ${what}`).max(hi!, `must be from ${lo} to ${hi} ${what}`);
const dbId = () => range(HADOOP_LIMITS.redisDbId, "(Redis database ids)");

function userTask() {
  return z
    .object({
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
    })
    .strict();
}

function rerun() {
  return z
    .object({
      trigger: nonEmpty().describe("Any value; changing it re-runs the terminated job cluster in place."),
      instanceSpecs: z
        .array(
          z
            .object({
              type: z.enum(["MASTER", "WORKER", "TASK"]).describe("`MASTER`, `WORKER` or `TASK`."),
              nodeCnt: range(HADOOP_LIMITS.rerunNodes, "nodes").optional().describe("Nodes, 1 to 1000."),
              volumeSize: range(HADOOP_LIMITS.volumeGb, "GB").optional().describe("GB, 100 to 16384."),
            })
            .strict(),
        )
        .optional()
        .describe("Instance groups for the re-run."),
      config: z
        .object({
          hdfsBlockSize: range(HADOOP_LIMITS.blockSizeMb, "MB").optional().describe("MB, 1 to 1024."),
          hdfsReplication: range(HADOOP_LIMITS.replication, "").optional().describe("1 to 500."),
        })
        .strict()
        .optional()
        .describe("HDFS settings for the re-run."),
      userTaskInfo: z
        .object({
          deployMode: z.enum(["client", "cluster"]).optional().describe("Spark: `client` or `cluster`."),
          execOpts: z.string().optional().describe("Hive or Spark options."),
          execParams: z.string().optional().describe("Spark application parameters."),
        })
        .strict()
        .optional()
        .describe("Task options for the re-run."),
      securityGroupIds: z.array(nonEmpty()).optional().describe("Security groups for the re-run."),
    })
    .strict();
}

function hadoopShape() {
  return z
    .object({
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
          z
            .object({
              classification: nonEmpty().describe("`core-site`, `hive-site`, `hadoop-env`, `spark-defaults`, `user-env:ubuntu`, ..."),
              properties: z.record(z.string(), z.string()).default({}).describe("Property values by name."),
            })
            .strict(),
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
        .object({
          mysql: z
            .object({
              objectId: nonEmpty().describe("The MySQL instance's id."),
              dbName: nonEmpty().describe("The metadata database (it must exist)."),
              userId: nonEmpty().describe("Database user."),
              password: nonEmpty().optional().describe("Database password. Secret: sent Base64-encoded. Or give `passwordCiphertext`."),
              passwordCiphertext: kmsEncrypted("The metastore database password").optional(),
            })
            .strict()
            .optional()
            .describe("A MySQL metastore."),
          dataCatalogId: nonEmpty().optional().describe("A data catalog's id."),
        })
        .strict()
        .optional()
        .describe("Hive metastore: an existing MySQL database, or a data catalog."),
      redis: z
        .object({
          instanceSetId: nonEmpty().describe("A cache instance set (its id)."),
          dbIdSupersetCelery: dbId().default(0).describe("Superset Celery database id, 0 to 15 (default 0)."),
          dbIdSupersetResults: dbId().default(1).describe("Superset results database id, 0 to 15 (default 1)."),
        })
        .strict()
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
    })
    .strict();
}

export function hadoopClusterInputs() {
  return hadoopShape().superRefine((c, ctx) => {
    const fail = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    if (c.installComponents !== undefined && c.clusterType !== "custom") fail(["installComponents"], "applies to clusterType custom only");
    // Seed C.4: installComponents is required "only for custom".
    if (c.clusterType === "custom" && !c.installComponents?.length)
      fail(["installComponents"], "is required for clusterType custom: list at least one component (hadoop and zookeeper are always installed)");
    if (c.workerCnt < c.hdfsReplication) fail(["workerCnt"], `must be at least hdfsReplication (${c.hdfsReplication})`);
    if (c.metastore && (c.metastore.mysql === undefined) === (c.metastore.dataCatalogId === undefined))
      fail(["metastore"], "set exactly one of mysql and dataCatalogId");
    oneOf(ctx, [], c.adminPassword, c.adminPasswordCiphertext, ["adminPassword", "adminPasswordCiphertext"], false);
    if (c.metastore?.mysql)
      oneOf(ctx, ["metastore", "mysql"], c.metastore.mysql.password, c.metastore.mysql.passwordCiphertext, ["password", "passwordCiphertext"], true);
    const task = c.userTask;
    // A hive job runs a query or a query file, not both; deployMode is Spark's (seed C.4).
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

const RUNNING = "Running";
const isTerminated = (s: string | undefined) => (s ?? "").toLowerCase().startsWith("terminated");
const isJobCluster = (i: Partial<HadoopClusterInputs>) => i.userTask !== undefined && i.userTask.terminationPolicy !== "never";

export const hadoopCluster: ResourceDefinition<HadoopClusterInputs, HadoopClusterOutputs> = {
  token: "krcloud:hadoop:Cluster",
  description:
    "A Hadoop cluster, long-running or a job cluster. Workers scale in place; a terminated job cluster stays in state and re-runs in place through `rerun`; everything else replaces.",
  inputs: hadoopClusterInputs,
  outputs: hadoopClusterOutputs,
  replaceOn: [
    "name",
    "clusterVersion",
    "clusterType",
    "installComponents",
    "isHa",
    "keypairName",
    "masterFlavorName",
    "workerFlavorName",
    "masterVolumeSize",
    "workerVolumeSize",
    "monitoring",
    "securityGroupIds",
    "vpcId",
    "subnetId",
    "adminUserId",
    "adminPassword",
    "adminPasswordCiphertext",
    "hdfsReplication",
    "hdfsBlockSize",
    "configurations",
    "configFileUrl",
    "userScript",
    "userTask",
    "metastore",
    "redis",
  ],
  deleteBeforeReplace: true,
  localInputs: ["timeouts", "adopt"],
  secretInputs: ["adminPassword", "metastore"],
  // Not in the detail (declaredInputs): an import cannot know them.
  writeOnly: {
    paths: ["adminPassword", "adminPasswordCiphertext", "metastore.mysql.password", "metastore.mysql.passwordCiphertext", "userScript", "securityGroupIds"],
  },
  importId: "the cluster id",
  autoName: { property: "name", minLength: 4, maxLength: 40, lowerCase: true },
  recovery: {
    async find(ctx, inputs) {
      const list = await hadoop(ctx)
        .listClusters({ name: inputs.name, includeTerminated: isJobCluster(inputs) })
        .catch(rethrowAs(`looking for Hadoop cluster "${inputs.name}"`));
      // The name filter matches names that contain it; a long-running cluster that terminated is gone.
      return list.find((cl) => cl.name === inputs.name && (isJobCluster(inputs) || !isTerminated(cl.status)))?.id;
    },
  },
  describe: (id) => `Hadoop cluster "${id}"`,
  derive: [{ from: ["userScript"], to: "userScript", compute: (i) => (i.userScript === undefined ? undefined : i.userScript.replace(/\r\n?/g, "\n")) }],

  async create(ctx, inputs) {
    const c = hadoop(ctx);
    const { id } = await c.createCluster(await expand(ctx, inputs)).catch(rethrowAs(`creating Hadoop cluster "${inputs.name}"`));
    const what = `Hadoop cluster "${inputs.name}" (${id})`;
    try {
      const cl = await waitSettled(ctx, c, id, what, inputs, timeoutFor(ctx, inputs.timeouts, "create", HADOOP_TIMEOUTS));
      return { id, outs: await flatten(c, cl, inputs) };
    } catch (e) {
      const cl = await c.findCluster(id).catch(() => undefined);
      // A long-running cluster that ended terminated is gone (read says so too): recorded, it would
      // only stand in the way until a refresh; unrecorded, the next up creates it again.
      if (cl && isTerminated(cl.status) && !isJobCluster(inputs)) throw e;
      throw new PartialFailure(
        id,
        cl ? await flatten(c, cl, inputs).catch(() => ({ ...inputs, ...minimal(cl) })) : { ...inputs, status: "unknown", componentUrls: {}, vms: [] },
        e,
      );
    }
  },

  async read(ctx, id, olds) {
    const c = hadoop(ctx);
    const cl = await c.findCluster(id).catch(rethrowAs(`reading Hadoop cluster "${id}"`));
    if (!cl) return undefined;
    // Read from the id alone (an import: no prior inputs), the inputs come from what the cluster's
    // detail shows; a refresh keeps the program's values.
    const prior = olds.clusterType === undefined ? { ...olds, ...declaredInputs(cl, ctx.settings.credentialId) } : olds;
    // A long-running cluster found terminated is gone (the next up creates it again); a job
    // cluster's Terminated is its normal end and stays.
    if (isTerminated(cl.status) && !isJobCluster(prior)) return undefined;
    return flatten(c, cl, prior);
  },

  async update(ctx, id, current, news) {
    const c = hadoop(ctx);
    const what = `Hadoop cluster "${news.name}" (${id})`;
    const timeoutMs = timeoutFor(ctx, news.timeouts, "update", HADOOP_TIMEOUTS);
    try {
      let cl = await c.getCluster(id);
      // Still settling (a create resumed after a timeout, or taken over after a lost answer): wait first.
      if (!isTerminated(cl.status) && cl.status !== RUNNING) cl = await waitSettled(ctx, c, id, what, news, timeoutMs);
      let request: RerunRequest | undefined;
      if (news.workerCnt !== current.workerCnt) {
        if (isTerminated(cl.status)) throw new Error(`${what}: cannot scale a terminated cluster`);
        ctx.progress(`${what}: scaling from ${cl.workerCnt ?? current.workerCnt} to ${news.workerCnt} workers`);
        await c.scaleCluster(id, news.workerCnt).catch(rethrowAs(`scaling ${what}`));
        cl = await waitStatus(ctx, c, id, what, [RUNNING], timeoutMs);
      }
      if (news.rerun && news.rerun.trigger !== current.rerun?.trigger) {
        if (!isTerminated(cl.status))
          throw new Error(`${what}: a re-run needs a terminated job cluster; it is ${cl.status} (wait for the job to end, or change the trigger later)`);
        const { trigger: _t, ...body } = news.rerun;
        request = await c.rerunCluster(id, body).catch(rethrowAs(`re-running ${what}`));
        ctx.progress(`${what}: re-run requested (${request.requestId})`);
        request = await waitRerun(ctx, c, id, request.requestId, what, timeoutMs);
        cl = await waitSettled(ctx, c, id, what, news, timeoutMs);
      }
      const outs = await flatten(c, cl, news);
      return request
        ? { ...outs, rerunRequestId: request.requestId, rerunRequestStatus: request.requestStatus, rerunRequestResult: request.requestResult }
        : { ...outs, rerunRequestId: current.rerunRequestId, rerunRequestStatus: current.rerunRequestStatus, rerunRequestResult: current.rerunRequestResult };
    } catch (e) {
      throw new PartialFailure(id, current, e);
    }
  },

  async delete(ctx, id, olds) {
    const c = hadoop(ctx);
    const what = `Hadoop cluster "${olds.name}" (${id})`;
    const cl = await c.findCluster(id).catch(rethrowAs(`reading ${what}`));
    if (!cl) return;
    if (!isTerminated(cl.status)) {
      try {
        await c.deleteCluster(id);
      } catch (e) {
        if (isApiError(e) && e.status === 404) return;
        throw withAction(e, `deleting ${what}`);
      }
    }
    // Terminated (or no longer listed) is gone.
    await waitWithProgress<{ status?: string }>(ctx, {
      resource: what,
      status: async () => (await c.findCluster(id)) ?? { status: "Terminated" },
      stateOf: (x) => (isTerminated(x.status) ? "Terminated" : (x.status ?? "unknown")),
      target: ["Terminated"],
      timeoutMs: timeoutFor(ctx, olds.timeouts, "delete", HADOOP_TIMEOUTS),
    });
  },
};

/**
 * The create request: configuration canonicalised (sorted keys) as the JSON text the API takes;
 * passwords given as KMS ciphertexts decrypted for this request only.
 */
async function expand(ctx: Context, i: HadoopClusterInputs): Promise<CreateHadoopClusterInput> {
  const what = `Hadoop cluster "${i.name}"`;
  const adminPassword = await passwordOf(ctx.settings, i.adminPassword, i.adminPasswordCiphertext, `the admin password of ${what}`);
  const mysql = i.metastore?.mysql;
  const metastorePassword = mysql ? await passwordOf(ctx.settings, mysql.password, mysql.passwordCiphertext, `the metastore password of ${what}`) : undefined;
  return {
    name: i.name,
    clusterVersion: i.clusterVersion,
    clusterType: i.clusterType as CreateHadoopClusterInput["clusterType"],
    installComponents: i.installComponents,
    isHa: i.isHa,
    keypairName: i.keypairName,
    masterFlavorName: i.masterFlavorName,
    workerFlavorName: i.workerFlavorName,
    masterVolumeSize: i.masterVolumeSize,
    workerVolumeSize: i.workerVolumeSize,
    workerCnt: i.workerCnt,
    monitoring: i.monitoring,
    securityGroupIds: i.securityGroupIds,
    vpcId: i.vpcId,
    subnetId: i.subnetId,
    adminInfo: i.adminUserId !== undefined || adminPassword !== undefined ? { userId: i.adminUserId, userPw: adminPassword } : undefined,
    config: {
      hdfsReplication: i.hdfsReplication,
      hdfsBlockSize: i.hdfsBlockSize,
      configText: i.configurations ? canonicalConfig(i.configurations) : undefined,
      fileUrl: i.configFileUrl,
      userScript: i.userScript,
    },
    userTask: i.userTask,
    hiveMetastoreInfo: i.metastore?.mysql
      ? {
          mySqlInfo: {
            objectId: i.metastore.mysql.objectId,
            dbName: i.metastore.mysql.dbName,
            userId: i.metastore.mysql.userId,
            userPw: metastorePassword ?? "",
          },
        }
      : i.metastore?.dataCatalogId
        ? { dataCatalogInfo: { catalogId: i.metastore.dataCatalogId } }
        : undefined,
    redisInfo: i.redis
      ? { objectId: i.redis.instanceSetId, dbIdSupersetCelery: i.redis.dbIdSupersetCelery, dbIdSupersetResults: i.redis.dbIdSupersetResults }
      : undefined,
  };
}

/** `{configurations: [...]}` with sorted property keys, compact: the same data is the same text. */
export function canonicalConfig(configurations: NonNullable<HadoopClusterInputs["configurations"]>): string {
  return JSON.stringify({
    configurations: configurations.map((c) => ({
      classification: c.classification,
      properties: Object.fromEntries(Object.entries(c.properties).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    })),
  });
}

/**
 * The inputs a program declares for `cl`, from its detail: what an import records and generates
 * code with, so that a program declaring the values the cluster was made with shows no change. Not
 * answered, so left out: the admin and metastore passwords, the user script, extra security groups
 * (the detail lists them mixed with the group the service made for the cluster). The admin user is
 * the caller's account when none was given, so that one is left out too; and the version's prefix
 * is upper-cased, as the seed writes it (answers may be lower case).
 */
function declaredInputs(cl: HadoopCluster, callerId: string | undefined): Partial<HadoopClusterInputs> {
  const raw = cl.raw;
  const obj = (v: unknown): Record<string, unknown> | undefined =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
  const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
  const task = obj(raw.userTask);
  const mysql = obj(obj(raw.hiveMetastoreInfo)?.mySqlInfo);
  const catalog = obj(obj(raw.hiveMetastoreInfo)?.dataCatalogInfo);
  const redis = obj(raw.redisInfo);
  const custom = cl.clusterType === "custom";
  return {
    name: cl.name,
    clusterVersion: cl.clusterVersion?.replace(/^[A-Za-z]+/, (p) => p.toUpperCase()),
    clusterType: cl.clusterType,
    // hadoop and zookeeper are always installed: a program lists the others.
    installComponents: custom ? cl.installComponents.filter((x) => x !== "hadoop" && x !== "zookeeper") : undefined,
    keypairName: cl.keypairName,
    masterFlavorName: cl.masterInfo[0]?.flavorName,
    workerFlavorName: cl.workerInfo[0]?.flavorName,
    masterVolumeSize: cl.masterInfo[0]?.volumeSize,
    workerVolumeSize: cl.workerInfo[0]?.volumeSize,
    monitoring: cl.monitoring,
    vpcId: cl.vpcId,
    subnetId: cl.subnetId,
    adminUserId: cl.adminUserId !== undefined && cl.adminUserId !== callerId ? cl.adminUserId : undefined,
    hdfsReplication: cl.config.hdfsReplication,
    hdfsBlockSize: cl.config.hdfsBlockSize,
    configurations: cl.config.configText !== undefined ? parseConfigText(cl.config.configText) : undefined,
    configFileUrl: cl.config.configFileUrl,
    userTask:
      task && cl.userTask?.type && cl.userTask.terminationPolicy
        ? (Object.fromEntries(
            Object.entries({
              type: cl.userTask.type,
              terminationPolicy: cl.userTask.terminationPolicy,
              hiveQuery: str(task.hiveQuery),
              fileUrl: str(task.fileUrl),
              deployMode: str(task.deployMode),
              execOpts: str(task.execOpts),
              execParams: str(task.execParams),
              logBucketName: str(task.logBucketName),
            }).filter(([, v]) => v !== undefined),
          ) as HadoopClusterInputs["userTask"])
        : undefined,
    metastore: mysql
      ? { mysql: { objectId: str(mysql.objectId) ?? "", dbName: str(mysql.dbName) ?? "", userId: str(mysql.userId) ?? "", password: "" } }
      : str(catalog?.catalogId) !== undefined
        ? { dataCatalogId: str(catalog?.catalogId) }
        : undefined,
    redis: redis
      ? {
          instanceSetId: str(redis.objectId) ?? "",
          dbIdSupersetCelery: num(redis.dbIdSupersetCelery) ?? 0,
          dbIdSupersetResults: num(redis.dbIdSupersetResults) ?? 1,
        }
      : undefined,
  };
}

/** `configText` as answered (the JSON text, or its Base64 as sent) back to structured configurations. */
function parseConfigText(text: string): HadoopClusterInputs["configurations"] {
  for (const candidate of [text, Buffer.from(text, "base64").toString("utf8")]) {
    try {
      const parsed = JSON.parse(candidate) as { configurations?: { classification?: unknown; properties?: unknown }[] };
      if (!Array.isArray(parsed.configurations)) continue;
      return parsed.configurations.map((c) => ({
        classification: typeof c.classification === "string" ? c.classification : "",
        properties: Object.fromEntries(Object.entries((c.properties ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)])),
      }));
    } catch {
      // not this form
    }
  }
  return undefined;
}

function minimal(cl: HadoopCluster) {
  return { status: cl.status ?? "unknown", statusReason: cl.statusReason, componentUrls: cl.componentUrl, vms: [] };
}

/** Outputs: the program's inputs (the server's echo of config is never compared), the cluster's state. */
async function flatten(c: HadoopClient, cl: HadoopCluster, prior: Partial<HadoopClusterInputs>): Promise<HadoopClusterOutputs> {
  const vms = isTerminated(cl.status) ? [] : await c.listVms(cl.id).catch(() => []);
  return {
    ...(prior as HadoopClusterInputs),
    name: cl.name ?? prior.name ?? "",
    // Responses may spell the version in lower case: the program's spelling stands when they agree.
    clusterVersion:
      prior.clusterVersion && cl.clusterVersion?.toLowerCase() === prior.clusterVersion.toLowerCase()
        ? prior.clusterVersion
        : (cl.clusterVersion ?? prior.clusterVersion ?? ""),
    workerCnt: cl.workerCnt ?? prior.workerCnt ?? 0,
    isHa: cl.isHa ?? prior.isHa ?? false,
    status: cl.status ?? "unknown",
    statusReason: cl.statusReason,
    apiKeyStatus: cl.apiKeyStatus,
    componentUrls: cl.componentUrl,
    masterCount: cl.masterCnt,
    vms: vms.map(vmResult),
    logUrl: cl.userTask?.logUrl,
  };
}

/**
 * Until the cluster's settled state: `Running` for a long-running cluster (or a job cluster that
 * keeps running); `Terminated` for a job cluster that terminates (its normal end). A terminated
 * long-running cluster, or `Terminated(User)`, is a failure with the service's reason.
 */
async function waitSettled(
  ctx: Context,
  c: HadoopClient,
  id: string,
  what: string,
  i: Partial<HadoopClusterInputs>,
  timeoutMs: number,
): Promise<HadoopCluster> {
  return isJobCluster(i) ? waitStatus(ctx, c, id, what, ["Terminated"], timeoutMs) : waitStatus(ctx, c, id, what, [RUNNING], timeoutMs);
}

async function waitStatus(ctx: Context, c: HadoopClient, id: string, what: string, target: string[], timeoutMs: number): Promise<HadoopCluster> {
  const cl = await waitWithProgress<HadoopCluster>(ctx, {
    resource: what,
    status: () => c.findCluster(id),
    stateOf: (x) => x.status ?? "unknown",
    target,
    failure: (x, s) => (isTerminated(s) && !target.includes(s) ? `ended ${s}${x.statusReason ? `: ${x.statusReason}` : ""}` : undefined),
    timeoutMs,
    minDelayMs: 2_000,
    maxDelayMs: 30_000,
  });
  return cl!;
}

const REQUEST_DONE = /^(success|succeeded|completed?|done|finished|failed|failure|error)$/i;
const REQUEST_FAILED = /fail|error/i;

/** Until the re-run request reports a result; a failed result fails with it. */
async function waitRerun(ctx: Context, c: HadoopClient, id: string, requestId: string, what: string, timeoutMs: number): Promise<RerunRequest> {
  const r = await waitWithProgress<RerunRequest>(ctx, {
    resource: `${what}, re-run request ${requestId}`,
    status: () => c.getRerunRequest(id, requestId),
    stateOf: (x) => {
      const s = x.requestStatus ?? "";
      if (REQUEST_DONE.test(s) || (x.requestResult !== undefined && x.requestResult !== "")) {
        return REQUEST_FAILED.test(s) || REQUEST_FAILED.test(x.requestResult ?? "") ? `failed (${s})` : "done";
      }
      return s || "pending";
    },
    target: ["done"],
    failure: (x, s) => (s.startsWith("failed") ? `ended ${x.requestStatus ?? ""}: ${x.requestResult ?? ""}` : undefined),
    timeoutMs,
  });
  return r!;
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

export type ClusterArgs = InputArgs<AutoNamed<z.input<ReturnType<typeof hadoopClusterInputs>>>>;
/** A Hadoop cluster. The admin and metastore passwords are always secrets, whatever the program passed. */
export const Cluster = resourceClass<ClusterArgs, HadoopClusterOutputs>(hadoopCluster);
export type Cluster = InstanceType<typeof Cluster>;
