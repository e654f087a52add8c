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
 * Admin and metastore passwords are secret inputs, Base64-encoded by the client, never read back.
 * Spec: 03-kms-dataquery-hadoop.md sections C.2, C.3, C.4, C.5, C.7, C.8.
 */
import { type CreateHadoopClusterInput, type HadoopClient, type HadoopCluster, type RerunRequest } from "../../client/hadoop";
import { isApiError, rethrowAs, withAction } from "../../client/core";
import {
  markerOf,
  PartialFailure,
  timeoutFor,
  waitWithProgress,
  type Context,
  defineResource,
  noRename,
  reasonFor,
  resourceClass,
  listedByName,
} from "../core";
import { hadoop } from "./client";
import { vmResult } from "./vms";
import { passwordOf } from "../kms/encrypted-input";
import { HADOOP_TIMEOUTS, hadoopClusterInputs, hadoopClusterOutputs, type HadoopClusterInputs, type HadoopClusterOutputs } from "./cluster-schema";
import type { ClusterArgs } from "./args";

export { HADOOP_TIMEOUTS, hadoopClusterInputs, hadoopClusterOutputs, type HadoopClusterInputs, type HadoopClusterOutputs };

const RUNNING = "Running";
const isTerminated = (s: string | undefined) => (s ?? "").toLowerCase().startsWith("terminated");
const isJobCluster = (i: Partial<HadoopClusterInputs>) => i.userTask !== undefined && i.userTask.terminationPolicy !== "never";

export const hadoopCluster = defineResource("krcloud:hadoop:Cluster", hadoopClusterInputs, hadoopClusterOutputs, {
  description:
    "A Hadoop cluster, long-running or a job cluster. Workers scale in place; a terminated job cluster stays in state and re-runs in place through `rerun`; everything else replaces.",
  replaceOn: {
    ...noRename("the Hadoop API", "cluster"),
    ...reasonFor(
      [
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
      "the Hadoop API changes a cluster only by its worker count (and re-runs a terminated job cluster)",
    ),
  },
  replacementLoses:
    "The replacement is a new Hadoop cluster (deleted first: its name is unique): new VMs and addresses, and what is stored on this one's VMs (HDFS, local files) is lost with them; data in object storage stays.",
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
    async markerOf(ctx, id) {
      const cl = await hadoop(ctx)
        .findCluster(id)
        .catch(rethrowAs(`reading Hadoop cluster "${id}"`));
      const text = cl?.config.configText;
      return text === undefined ? undefined : splitOwnerConfig(parseConfigText(text)).marker;
    },
  },
  describe: (id) => `Hadoop cluster "${id}"`,
  // The clusters that still exist: a terminated one is a record of what ran, nothing to manage.
  list: listedByName(["cluster", "clusters"], async (ctx) =>
    (await hadoop(ctx).listClusters()).filter((c) => !/^Terminat/.test(c.status ?? "")).map((c) => ({ id: c.id, name: c.name ?? c.id })),
  ),
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

  readsFromList: { no: "the list's summaries lack what a read reports from the cluster's detail (its component URLs, VMs, script)" },

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
});

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
      configText: configTextOf(i.configurations, markerOf(ctx.createKey)),
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

/**
 * Where a Hadoop cluster carries krcloud's ownership marker (ownership.ts): a `core-site` property,
 * which Hadoop ignores (it is no setting of its own) and the cluster's detail shows back in
 * `config.configText`. The API has no description or tag for a cluster (docs/api-assumptions.md).
 */
export const OWNER_PROPERTY = "krcloud.owner";
const OWNER_CLASSIFICATION = "core-site";

/** The create request's configuration text: the program's configurations and the ownership marker. */
export function configTextOf(configurations: HadoopClusterInputs["configurations"], marker: string | undefined): string | undefined {
  if (marker === undefined) return configurations ? canonicalConfig(configurations) : undefined;
  const all = [...(configurations ?? [])];
  const i = all.findIndex((c) => c.classification === OWNER_CLASSIFICATION);
  if (i >= 0) all[i] = { ...all[i]!, properties: { ...all[i]!.properties, [OWNER_PROPERTY]: marker } };
  else all.push({ classification: OWNER_CLASSIFICATION, properties: { [OWNER_PROPERTY]: marker } });
  return canonicalConfig(all);
}

/** The marker a cluster's detail carries, and its configurations without it (as the program declared them). */
export function splitOwnerConfig(configurations: HadoopClusterInputs["configurations"]): {
  configurations: HadoopClusterInputs["configurations"];
  marker?: string;
} {
  if (configurations === undefined) return { configurations };
  let marker: string | undefined;
  const out: NonNullable<HadoopClusterInputs["configurations"]> = [];
  for (const c of configurations) {
    if (c.classification !== OWNER_CLASSIFICATION || !(OWNER_PROPERTY in c.properties)) {
      out.push(c);
      continue;
    }
    const { [OWNER_PROPERTY]: m, ...rest } = c.properties;
    marker = m;
    if (Object.keys(rest).length > 0) out.push({ ...c, properties: rest });
  }
  return { configurations: out.length > 0 ? out : undefined, marker };
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
 * is upper-cased, as the spec writes it (answers may be lower case).
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
    configurations: cl.config.configText !== undefined ? splitOwnerConfig(parseConfigText(cl.config.configText)).configurations : undefined,
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
export async function waitRerun(ctx: Context, c: HadoopClient, id: string, requestId: string, what: string, timeoutMs: number): Promise<RerunRequest> {
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

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { ClusterArgs } from "./args";
/** A Hadoop cluster. The admin and metastore passwords are always secrets, whatever the program passed. */
export const Cluster = resourceClass<ClusterArgs, HadoopClusterOutputs>(hadoopCluster);
export type Cluster = InstanceType<typeof Cluster>;
