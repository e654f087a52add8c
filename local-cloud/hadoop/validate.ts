/**
 * Request bodies of spec 03 C.4, parsed and checked (routes call these; the backend gets typed
 * input). Unknown fields are ignored, as a Spring service does; every 400 names its field.
 */
import { z } from "zod";
import { InvalidParameter } from "./errors";
import { CLUSTER_TYPES, CLUSTER_VERSION, LIMITS, TERMINATION_POLICIES, type ClusterConfig, type Group, type UserTask } from "./model";

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const str = () => z.string({ error: (i) => (i.input === undefined ? "is required" : "must be a string") }).min(1, "must not be empty");
const optStr = () => z.string({ error: "must be a string" }).optional();
const bool = () => z.boolean({ error: (i) => (i.input === undefined ? "is required" : "must be a boolean") });
const int = ([lo, hi]: readonly [number, number]) =>
  z
    .number({ error: (i) => (i.input === undefined ? "is required" : "must be an integer") })
    .int("must be an integer")
    .min(lo, `must be from ${lo} to ${hi}`)
    .max(hi, `must be from ${lo} to ${hi}`);
const base64 = () => z.string({ error: "must be a string" }).min(1, "must not be empty").regex(BASE64, "must be Base64 text");

const userTaskSchema = z.looseObject({
  type: z.enum(["hive", "spark"], { error: "must be hive or spark" }),
  terminationPolicy: z.enum(TERMINATION_POLICIES, { error: "must be never, onSuccess or always" }),
  fileUrl: optStr(),
  hiveQuery: optStr(),
  deployMode: z.enum(["cluster", "client"], { error: "must be cluster or client" }).optional(),
  execOpts: optStr(),
  execParams: optStr(),
  logBucketName: optStr(),
});

/** The create body's fields the backend keeps as they came (the others it reads, checks or renames). */
const asGivenShape = {
  name: str(),
  clusterVersion: str().regex(CLUSTER_VERSION, "must look like HDE-2.0.1 (<PREFIX>-X.X.X)"),
  clusterType: z.enum(CLUSTER_TYPES, { error: `must be one of ${CLUSTER_TYPES.join(", ")}` }),
  installComponents: z.array(str(), { error: "must be an array of strings" }).optional(),
  isHa: bool(),
  keypairName: str(),
  masterFlavorName: str(),
  workerFlavorName: str(),
  masterVolumeSize: int(LIMITS.volumeSize),
  workerVolumeSize: int(LIMITS.volumeSize),
  workerCnt: int(LIMITS.nodeCnt),
  monitoring: bool(),
  vpcId: str(),
  subnetId: str(),
};
const AS_GIVEN = Object.keys(asGivenShape) as (keyof typeof asGivenShape)[];

const createSchema = z.looseObject({
  ...asGivenShape,
  securityGroupIds: z.array(str(), { error: "must be an array of strings" }).optional(),
  securityGroupName: optStr(),
  adminInfo: z.looseObject({ userId: optStr(), userPw: base64().optional() }, { error: "must be an object" }).optional(),
  config: z.looseObject(
    {
      hdfsReplication: int(LIMITS.hdfsReplication),
      hdfsBlockSize: int(LIMITS.hdfsBlockSize).optional(),
      BlockSize: int(LIMITS.hdfsBlockSize).optional(),
      configText: base64().optional(),
      fileUrl: optStr(),
      configFileUrl: optStr(),
      userScript: base64().optional(),
      userScriptFileUrl: optStr(),
    },
    { error: (i) => (i.input === undefined ? "is required" : "must be an object") },
  ),
  userTask: userTaskSchema.optional(),
  hiveMetastoreInfo: z
    .looseObject(
      {
        mySqlInfo: z.looseObject({ objectId: str(), dbName: str(), userId: str(), userPw: base64() }, { error: "must be an object" }).optional(),
        dataCatalogInfo: z.looseObject({ catalogId: str() }, { error: "must be an object" }).optional(),
        dataCatalog: z.looseObject({ catalogId: str() }, { error: "must be an object" }).optional(),
      },
      { error: "must be an object" },
    )
    .optional(),
  redisInfo: z
    .looseObject(
      { objectId: str(), dbIdSupersetCelery: int(LIMITS.redisDbId).optional(), dbIdSupersetResults: int(LIMITS.redisDbId).optional() },
      { error: "must be an object" },
    )
    .optional(),
});

export type CreateClusterInput = Pick<z.infer<typeof createSchema>, (typeof AS_GIVEN)[number]> & {
  securityGroupIds: string[];
  adminUserId?: string;
  config: ClusterConfig;
  userTask?: UserTask;
  mySql?: { objectId: string; dbName: string; userId: string };
  dataCatalogId?: string;
  redis?: { objectId: string; dbIdSupersetCelery: number; dbIdSupersetResults: number };
};

export interface RerunInput {
  instanceSpecs: Array<{ type: Group; nodeCnt?: number; volumeSize?: number }>;
  config?: { hdfsBlockSize?: number; hdfsReplication?: number };
  userTaskInfo?: { deployMode?: "cluster" | "client"; execOpts?: string; execParams?: string };
  securityGroupIds?: string[];
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 5);
  throw new InvalidParameter(issues.map((i) => `${i.path.length ? i.path.map(String).join(".") : "(body)"}: ${i.message}`).join("; "));
}

/** The members `keys` of `o` that are set, as they came: an unset one stays absent rather than undefined. */
function given<T extends object, const K extends keyof T>(o: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) as Pick<T, K>;
}

/** Both spellings of one field (the spec spells it two ways): either, or both when equal. */
function either<T>(a: T | undefined, b: T | undefined, names: string): T | undefined {
  if (a !== undefined && b !== undefined && JSON.stringify(a) !== JSON.stringify(b))
    throw new InvalidParameter(names, "both spellings given with different values");
  return a ?? b;
}

function decodedJson(text: string, field: string): unknown {
  try {
    return JSON.parse(Buffer.from(text, "base64").toString("utf8")) as unknown;
  } catch {
    throw new InvalidParameter(field, "must be Base64 of JSON text");
  }
}

/** `{configurations: [{classification, properties: {...}}]}` (spec C.4). */
function checkConfigurations(value: unknown): void {
  const field = "config.configText";
  const list = (value as { configurations?: unknown } | null)?.configurations;
  if (typeof value !== "object" || value === null || !Array.isArray(list)) throw new InvalidParameter(field, "the JSON must be {configurations: [...]}");
  list.forEach((entry: unknown, i) => {
    const e = entry as { classification?: unknown; properties?: unknown } | null;
    if (typeof e?.classification !== "string" || e.classification === "")
      throw new InvalidParameter(`${field} configurations[${i}].classification`, "must be a non-empty string");
    if (typeof e.properties !== "object" || e.properties === null || Array.isArray(e.properties))
      throw new InvalidParameter(`${field} configurations[${i}].properties`, "must be an object");
  });
}

export function parseCreate(body: unknown): CreateClusterInput {
  const b = parse(createSchema, body);
  const config = b.config;
  const hdfsBlockSize = either(config.hdfsBlockSize, config.BlockSize, "config.hdfsBlockSize/config.BlockSize");
  if (hdfsBlockSize === undefined) throw new InvalidParameter("config.hdfsBlockSize", "is required (also read as config.BlockSize)");
  const configFileUrl = either(config.fileUrl, config.configFileUrl, "config.fileUrl/config.configFileUrl");
  if (config.configText !== undefined) checkConfigurations(decodedJson(config.configText, "config.configText"));
  if (b.workerCnt < config.hdfsReplication) throw new InvalidParameter("workerCnt", `must be at least config.hdfsReplication (${config.hdfsReplication})`);
  const components = b.installComponents ?? [];
  if (b.clusterType === "custom" && components.length === 0) throw new InvalidParameter("installComponents", "is required for clusterType custom");
  if (b.clusterType !== "custom" && components.length > 0) throw new InvalidParameter("installComponents", "is allowed only for clusterType custom");
  const task = b.userTask;
  if (task) {
    if (task.type === "spark" && task.fileUrl === undefined) throw new InvalidParameter("userTask.fileUrl", "is required for a spark job (the JAR URL)");
    if (task.type === "hive" && (task.hiveQuery === undefined) === (task.fileUrl === undefined))
      throw new InvalidParameter("userTask.hiveQuery", "a hive job needs exactly one of hiveQuery and fileUrl");
    if (task.type === "hive" && task.deployMode !== undefined) throw new InvalidParameter("userTask.deployMode", "applies to spark jobs only");
  }
  const meta = b.hiveMetastoreInfo;
  const catalog = either(meta?.dataCatalogInfo, meta?.dataCatalog, "hiveMetastoreInfo.dataCatalogInfo/hiveMetastoreInfo.dataCatalog");
  if (meta && meta.mySqlInfo && catalog) throw new InvalidParameter("hiveMetastoreInfo", "give mySqlInfo or dataCatalogInfo, not both");
  if (meta && !meta.mySqlInfo && !catalog) throw new InvalidParameter("hiveMetastoreInfo", "needs mySqlInfo or dataCatalogInfo");
  const redis = b.redisInfo;
  const userTask: UserTask | undefined = task
    ? given(task, ["type", "terminationPolicy", "fileUrl", "hiveQuery", "deployMode", "execOpts", "execParams", "logBucketName"])
    : undefined;
  return {
    ...given(b, AS_GIVEN),
    securityGroupIds: [...(b.securityGroupIds ?? [])],
    ...(b.adminInfo?.userId !== undefined ? { adminUserId: b.adminInfo.userId } : {}),
    config: {
      hdfsBlockSize,
      ...given(config, ["hdfsReplication", "configText", "userScript", "userScriptFileUrl"]),
      ...(configFileUrl !== undefined ? { configFileUrl } : {}),
    },
    ...(userTask ? { userTask } : {}),
    ...(meta?.mySqlInfo ? { mySql: { objectId: meta.mySqlInfo.objectId, dbName: meta.mySqlInfo.dbName, userId: meta.mySqlInfo.userId } } : {}),
    ...(catalog ? { dataCatalogId: catalog.catalogId } : {}),
    ...(redis
      ? { redis: { objectId: redis.objectId, dbIdSupersetCelery: redis.dbIdSupersetCelery ?? 0, dbIdSupersetResults: redis.dbIdSupersetResults ?? 1 } }
      : {}),
  };
}

const scaleSchema = z.looseObject({ workerCnt: int(LIMITS.nodeCnt) });

export function parseScale(body: unknown): number {
  return parse(scaleSchema, body).workerCnt;
}

const rerunSchema = z.looseObject({
  instanceSpecs: z
    .array(
      z.looseObject({
        type: z.enum(["MASTER", "WORKER", "TASK"], { error: "must be MASTER, WORKER or TASK" }),
        nodeCnt: int(LIMITS.nodeCnt).optional(),
        volumeSize: int(LIMITS.volumeSize).optional(),
      }),
      { error: "must be an array" },
    )
    .optional(),
  config: z
    .looseObject(
      { hdfsBlockSize: int(LIMITS.hdfsBlockSize).optional(), hdfsReplication: int(LIMITS.hdfsReplication).optional() },
      { error: "must be an object" },
    )
    .optional(),
  userTaskInfo: z
    .looseObject(
      { deployMode: z.enum(["cluster", "client"], { error: "must be cluster or client" }).optional(), execOpts: optStr(), execParams: optStr() },
      { error: "must be an object" },
    )
    .optional(),
  securityGroupIds: z.array(str(), { error: "must be an array of strings" }).optional(),
});

export function parseRerun(body: unknown): RerunInput {
  const b = parse(rerunSchema, body);
  const specs = b.instanceSpecs ?? [];
  const seen = new Set<string>();
  specs.forEach((s, i) => {
    if (seen.has(s.type)) throw new InvalidParameter(`instanceSpecs[${i}].type`, `${s.type} is given twice`);
    seen.add(s.type);
  });
  return {
    instanceSpecs: specs.map((s) => ({
      type: s.type,
      ...(s.nodeCnt !== undefined ? { nodeCnt: s.nodeCnt } : {}),
      ...(s.volumeSize !== undefined ? { volumeSize: s.volumeSize } : {}),
    })),
    ...(b.config ? { config: { ...b.config } } : {}),
    ...(b.userTaskInfo ? { userTaskInfo: { ...b.userTaskInfo } } : {}),
    ...(b.securityGroupIds ? { securityGroupIds: [...b.securityGroupIds] } : {}),
  };
}

/** `true`/`false` (any case) or absent. */
export function booleanParam(value: string | null, name: string): boolean | undefined {
  if (value === null) return undefined;
  const v = value.toLowerCase();
  if (v === "true") return true;
  if (v === "false") return false;
  throw new InvalidParameter(name, "must be true or false");
}
