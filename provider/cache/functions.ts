/**
 * Cache lookups: engine versions, flavors, parameter groups, clusters and instance sets, instances,
 * backups and nodes; and the day-2 operations, functions that change something but never an input
 * of a resource (docs/changing-stateful-resources.md): take a backup, retry a parameter group's
 * apply, roll back or reset a parameter group. They run in the program's process with the stack
 * config's settings (or in the native plugin's, for an invoke and `pulumi do`); in a preview a
 * function that changes something does nothing and says so (`dryRun: true`).
 */
import { z } from "zod";
import { APPLY_MODES, type ApplyMode, type CacheBackup, type CacheClient, type CacheClusterRecord } from "../../client/cache";
import { isConflict, systemClock, withAction, type Settings } from "../../client/core";
import { idAndName, parseDuration, pickShape, pickShapes, serviceLookups, type Context, type LookupArgs, type LookupResult } from "../core";
import { AVAILABLE, backupOnce, waitBackupAvailable } from "./backups";
import { cache } from "./client";
import { instanceResult, instanceShape } from "./nodes";
import { CACHE_TIMEOUTS, waitClusterSynced, waitGroupInSync } from "./waiters";
import { groupOrBackupName } from "./validation";

const lookup = serviceLookups("cache", cache);

/** Engine versions the service offers. */
export const { getVersions, getVersionsOutput } = lookup("getVersions", {
  description: "Engine versions the cache service offers.",
  result: () => z.object({ versions: z.array(z.string()).describe("Engine versions.") }),
  run: async (_args, c) => ({ versions: await c.catalogue.listVersions() }),
});
export type GetVersionsResult = LookupResult<typeof getVersions>;

const flavorShape = () => ({ ...idAndName(), vcpus: z.number().optional(), memory: z.number().optional().describe("GiB.") });

/** Node sizes (flavors): vCPUs and memory in GiB. */
export const { getFlavors, getFlavorsOutput } = lookup("getFlavors", {
  description: "Cache node sizes (flavors).",
  result: () => z.object({ flavors: z.array(z.object(flavorShape())).describe("Node sizes.") }),
  run: async (_args, c) => ({ flavors: pickShapes(flavorShape(), await c.catalogue.listFlavors()) }),
});
export type GetFlavorsResult = LookupResult<typeof getFlavors>;

const pgSummary = () => ({
  ...idAndName(),
  engineVersion: z.string().optional(),
  description: z.string().optional(),
  isDefault: z.boolean().optional(),
  defaultParameterGroupId: z.string().optional().describe("The default group a custom group is based on."),
  clusterModeEnabled: z.boolean().optional(),
  clusterSize: z.number().optional().describe("Clusters using the group."),
});
export type ParameterGroupSummaryResult = z.infer<z.ZodObject<ReturnType<typeof pgSummary>>>;

/** Parameter groups, filtered. */
export const { getParameterGroups, getParameterGroupsOutput } = lookup("getParameterGroups", {
  description: "Cache parameter groups, filtered.",
  args: () => ({
    engineVersion: z.string().optional().describe("Only groups of this engine version."),
    parameterGroupType: z.enum(["default", "custom"]).optional().describe("`default` or `custom`."),
    clusterMode: z.enum(["enabled", "disabled"]).optional().describe("`enabled` (clusters) or `disabled` (instance sets); omitted: both."),
  }),
  result: () => z.object({ parameterGroups: z.array(z.object(pgSummary())).describe("The groups found.") }),
  run: async (args, c) => ({ parameterGroups: pickShapes(pgSummary(), await c.parameterGroups.list(args)) }),
});
export type GetParameterGroupsArgs = LookupArgs<typeof getParameterGroups>;
export type GetParameterGroupsResult = LookupResult<typeof getParameterGroups>;

/** What the catalogue tells of a parameter besides its key and values, under the client record's names. */
const parameterFacts = () => ({
  dataType: z.string().optional(),
  editable: z.boolean().optional(),
  validationValueFormat: z.string().optional(),
  parameterType: z.string().optional(),
});

/** A parameter of the catalogue as getParameterGroup shows it: its key, its values, and the facts. */
const parameterShape = () =>
  z.object({
    key: z.string(),
    value: z.string().optional(),
    defaultValue: z.string().optional(),
    ...parameterFacts(),
  });

/** One parameter group with its parameter catalogue. */
export const { getParameterGroup, getParameterGroupOutput } = lookup("getParameterGroup", {
  description: "One cache parameter group with its parameter catalogue.",
  args: () => ({ idOrName: z.string().describe("The group's id or name.") }),
  result: () => z.object({ ...pgSummary(), parameters: z.array(parameterShape()).describe("The parameter catalogue with current values.") }),
  async run(args, c) {
    const g = await c.parameterGroups.get(args.idOrName);
    const facts = parameterFacts();
    return {
      ...pickShape(pgSummary(), g),
      parameters: g.parameters.map((p) => ({
        key: p.parameterKey,
        value: p.parameterValue,
        defaultValue: p.defaultParameterValue,
        ...pickShape(facts, p),
      })),
    };
  },
});
export type GetParameterGroupArgs = LookupArgs<typeof getParameterGroup>;
export type GetParameterGroupResult = LookupResult<typeof getParameterGroup>;

/** A cluster or instance set as both cluster lookups show it: the record, its endpoints among its fields. */
const clusterResultShape = () =>
  z.object({
    ...idAndName(),
    clusterEnabled: z.boolean().optional().describe("true for a cluster, false for an instance set."),
    version: z.string().optional(),
    status: z.string().optional(),
    shardCount: z.number().optional(),
    totalNodeCount: z.number().optional(),
    primaryEndpoint: z.string().optional(),
    readEndpoint: z.string().optional(),
    parameterGroupId: z.string().optional(),
    parameterGroupSyncStatus: z.string().optional(),
  });
export type ClusterResult = z.infer<ReturnType<typeof clusterResultShape>>;

function clusterResult(r: CacheClusterRecord): ClusterResult {
  return pickShape(clusterResultShape().shape, { ...r, ...r.endpoints });
}

/** Clusters and instance sets, optionally only those using a parameter group. */
export const { getClusters, getClustersOutput } = lookup("getClusters", {
  description: "Cache clusters and instance sets.",
  args: () => ({ parameterGroup: z.string().optional().describe("Only those using this parameter group (id or name).") }),
  result: () => z.object({ clusters: z.array(clusterResultShape()).describe("Clusters and instance sets.") }),
  run: async (args, c) => ({ clusters: (await c.clusters.list(args)).map(clusterResult) }),
});
export type GetClustersArgs = LookupArgs<typeof getClusters>;
export type GetClustersResult = LookupResult<typeof getClusters>;

/** One cluster or instance set. */
export const { getCluster, getClusterOutput } = lookup("getCluster", {
  description: "One cache cluster or instance set.",
  args: () => ({ id: z.string().describe("The cluster's or instance set's id.") }),
  result: clusterResultShape,
  run: async (args, c) => clusterResult(await c.clusters.get(args.id)),
});
export type GetClusterArgs = LookupArgs<typeof getCluster>;

/** The instances of an instance set. */
export const { getInstances, getInstancesOutput } = lookup("getInstances", {
  description: "The instances of a cache instance set.",
  args: () => ({ instanceSetId: z.string().describe("The instance set's id.") }),
  result: () => z.object({ instances: z.array(instanceShape()).describe("The instances.") }),
  run: async (args, c) => ({ instances: (await c.instanceSets.listInstances(args.instanceSetId)).instances.map(instanceResult) }),
});
export type GetInstancesArgs = LookupArgs<typeof getInstances>;
export type GetInstancesResult = LookupResult<typeof getInstances>;

// ---------------------------------------------------------------------------------------------
// Backups and nodes

const backupShape = () => ({
  ...idAndName(),
  clusterId: z.string().optional().describe("The cluster or instance set it was taken of."),
  clusterName: z.string().optional(),
  clusterEnabled: z.boolean().optional().describe("true: a cluster's; false: an instance set's."),
  version: z.string().optional(),
  shardCount: z.number().optional(),
  kind: z.string().optional().describe("`automatic` (a backup schedule's) or `manual` (on demand)."),
  status: z.string().optional().describe("`Creating`, `Available`, `Failed`, ..."),
  sizeBytes: z.number().optional().describe("Its size as the cloud reports it."),
  createdAt: z.string().optional(),
  expiresAt: z.string().optional(),
});
export type BackupResult = z.infer<z.ZodObject<ReturnType<typeof backupShape>>>;

function backupResult(b: CacheBackup): BackupResult {
  return pickShape(backupShape(), { ...b, kind: b.kind === undefined ? undefined : String(b.kind) });
}

/** Backups, automatic and on demand, of one cluster or instance set or of all. */
export const { getBackups, getBackupsOutput } = lookup("getBackups", {
  description: "Cache backups, automatic and on demand, of one cluster or instance set (by name) or of all of them.",
  args: () => ({ clusterName: z.string().optional().describe("Only the backups of the cluster or instance set of this name.") }),
  result: () => z.object({ backups: z.array(z.object(backupShape())).describe("The backups, in the service's order.") }),
  run: async (args, c) => ({ backups: (await c.backups.list(args)).map(backupResult) }),
});
export type GetBackupsArgs = LookupArgs<typeof getBackups>;
export type GetBackupsResult = LookupResult<typeof getBackups>;

const clusterNodeShape = () => instanceShape().extend({ shardId: z.string().optional().describe("The shard it serves (clusters).") });

/** Every node of a cluster (by shard) or instance of an instance set, with its role. */
export const { getClusterNodes, getClusterNodesOutput } = lookup("getClusterNodes", {
  description: "Every node of a cache cluster (shard by shard) or instance of an instance set, with its role (`primary` or `replica`), status and endpoint.",
  args: () => ({ clusterId: z.string().describe("The cluster's or instance set's id.") }),
  result: () =>
    z.object({
      clusterEnabled: z.boolean().describe("true: a cluster (nodes by shard); false: an instance set."),
      nodes: z.array(clusterNodeShape()).describe("The nodes, primaries first within each shard."),
    }),
  async run(args, c) {
    const record = await c.clusters.get(args.clusterId);
    if (record.clusterEnabled === false) {
      return { clusterEnabled: false, nodes: (await c.instanceSets.listInstances(args.clusterId)).instances.map(instanceResult) };
    }
    const topology = await c.clusterTopology(args.clusterId);
    const nodes = topology.shards.flatMap((sh) =>
      [...(sh.primary ? [sh.primary] : []), ...sh.replicas].map((n) => ({ ...pickShape(instanceShape().shape, { ...n, name: n.name }), shardId: sh.id })),
    );
    return { clusterEnabled: true, nodes };
  },
});
export type GetClusterNodesArgs = LookupArgs<typeof getClusterNodes>;
export type GetClusterNodesResult = LookupResult<typeof getClusterNodes>;

// ---------------------------------------------------------------------------------------------
// Day-2 operations: functions that change something, never an input of a resource

const DRY_RUN =
  "true in a preview: nothing was done (a function that changes something acts only in `pulumi up`, `pulumi do` or a call outside a program's preview).";
const timeoutArg = () =>
  z
    .string()
    .refine((t) => parseDuration(t) !== undefined, 'must be a duration such as "30m" or "90s"')
    .optional()
    .describe(`How long to wait (default ${CACHE_TIMEOUTS.create / 60_000} minutes).`);

/** A function's context for its waits: no progress lines (its caller prints its result), the system clock. */
function functionContext(settings: Settings): Context {
  return { settings, progress: () => undefined, clock: systemClock };
}
const waitFor = (timeout: string | undefined): number => (timeout === undefined ? undefined : parseDuration(timeout)) ?? CACHE_TIMEOUTS.create;

/** `<cluster name>-<YYYYMMDDhhmmss UTC>`: a default backup name. */
function stampedName(clusterName: string): string {
  return `${clusterName}-${new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14)}`;
}

/** Takes a backup of a cluster or instance set now. */
export const { takeBackup, takeBackupOutput } = lookup("takeBackup", {
  description:
    "Takes an on-demand backup of a cache cluster or instance set now and waits until it is available. A backup of that name that exists already is returned instead of taking another (give `name` to make a program's call take one backup, not one per `up`). Changes no resource's inputs. In a preview it does nothing (`dryRun: true`).",
  args: () => ({
    clusterId: z.string().describe("The cluster's or instance set's id."),
    name: groupOrBackupName().optional().describe("The backup's name; default: the cache's name and the time (UTC)."),
    timeout: timeoutArg(),
  }),
  result: () =>
    z.object({
      dryRun: z.boolean().describe(DRY_RUN),
      clusterId: z.string(),
      backup: z.object(backupShape()).optional().describe("The backup, available (absent in a preview)."),
    }),
  mutates: { what: "a backup of the cache exists (no resource of any stack)", preview: (args) => ({ dryRun: true, clusterId: args.clusterId }) },
  async run(args, c, settings) {
    const ctx = functionContext(settings);
    const record = await c.clusters.get(args.clusterId);
    const clusterName = record.name ?? record.id;
    const name = args.name ?? stampedName(clusterName);
    const id = await backupOnce(ctx, c, { clusterId: record.id, clusterName, name });
    const b = await waitBackupAvailable(ctx, c, id, `backup "${name}" of cache cluster "${clusterName}"`, waitFor(args.timeout));
    return { dryRun: false, clusterId: record.id, backup: backupResult({ ...b, status: b.status ?? AVAILABLE }) };
  },
});
export type TakeBackupArgs = LookupArgs<typeof takeBackup>;
export type TakeBackupResult = LookupResult<typeof takeBackup>;

/** Applies a cluster's parameter group again after Error-Sync or Suspended. */
export const { retryParameterGroupApply, retryParameterGroupApplyOutput } = lookup("retryParameterGroupApply", {
  description:
    "Applies a cache cluster's (or instance set's) parameter group again when its sync status is not In-Sync (Error-Sync, Suspended), and waits until it is In-Sync; an In-Sync cluster is left as it is. What it changes is the cluster's `parameterGroupSyncStatus`, an output. In a preview it does nothing (`dryRun: true`).",
  args: () => ({ clusterId: z.string().describe("The cluster's or instance set's id."), timeout: timeoutArg() }),
  result: () =>
    z.object({
      dryRun: z.boolean().describe(DRY_RUN),
      clusterId: z.string(),
      retried: z.boolean().describe("Whether an apply was started (false: it was In-Sync already)."),
      syncStatus: z.string().optional().describe("The sync status after it (`In-Sync`)."),
    }),
  mutates: { what: "the cluster's parameterGroupSyncStatus (an output)", preview: (args) => ({ dryRun: true, clusterId: args.clusterId, retried: false }) },
  async run(args, c, settings) {
    const ctx = functionContext(settings);
    const before = await c.clusters.get(args.clusterId);
    if (before.parameterGroupSyncState === "in-sync" || before.parameterGroupSyncState === undefined)
      return { dryRun: false, clusterId: before.id, retried: false, syncStatus: before.parameterGroupSyncStatus };
    const what = `cache cluster "${before.name ?? before.id}"`;
    let retried = true;
    await c.clusters.retryParameterGroupApply(before.id).catch((e: unknown) => {
      // 409: nothing to retry (it got In-Sync meanwhile).
      if (!isConflict(e)) throw withAction(e, `retrying the parameter group apply of ${what}`);
      retried = false;
    });
    await waitClusterSynced(ctx, c, before.id, what, waitFor(args.timeout));
    return { dryRun: false, clusterId: before.id, retried, syncStatus: (await c.clusters.get(before.id)).parameterGroupSyncStatus };
  },
});
export type RetryParameterGroupApplyArgs = LookupArgs<typeof retryParameterGroupApply>;
export type RetryParameterGroupApplyResult = LookupResult<typeof retryParameterGroupApply>;

const groupChangeResult = () =>
  z.object({
    dryRun: z.boolean().describe(DRY_RUN),
    parameterGroupId: z.string(),
    parameters: z.record(z.string(), z.string()).optional().describe("The values that differ from their defaults afterwards."),
    syncStatus: z.string().optional().describe("`In-Sync` once every cluster using the group has applied it."),
  });
const groupArgs = () => ({
  parameterGroupId: z.string().describe("The group's id or name."),
  applyMode: z.enum(APPLY_MODES).optional().describe("`sequential` or `parallel`: how the clusters using the group get the values."),
  timeout: timeoutArg(),
});

/** Waits until the clusters using the group have applied it, then reads the values that are not defaults. */
async function settledGroup(c: CacheClient, settings: Settings, id: string, timeout: string | undefined) {
  await waitGroupInSync(functionContext(settings), c, id, `cache parameter group "${id}"`, waitFor(timeout));
  const g = await c.parameterGroups.get(id);
  const parameters = Object.fromEntries(
    g.parameters.filter((p) => p.parameterValue !== undefined && p.parameterValue !== p.defaultParameterValue).map((p) => [p.parameterKey, p.parameterValue!]),
  );
  return { dryRun: false, parameterGroupId: g.id, parameters, syncStatus: "In-Sync" };
}

/** The arguments every function that changes a group's values takes. */
type GroupChangeArgs = { parameterGroupId: string; applyMode?: ApplyMode; timeout?: string };

/**
 * A function that changes a group's values (`change`), then waits until the clusters using it are
 * In-Sync and reads the values back; in a preview it does nothing (`dryRun: true`).
 */
function groupChange<A extends GroupChangeArgs>(change: (c: CacheClient, args: A) => Promise<unknown>) {
  return {
    result: groupChangeResult,
    mutates: { what: "the group's parameter values", preview: (args: A) => ({ dryRun: true, parameterGroupId: args.parameterGroupId }) },
    async run(args: A, c: CacheClient, settings: Settings) {
      await change(c, args);
      return settledGroup(c, settings, args.parameterGroupId, args.timeout);
    },
  };
}

/** Returns a parameter group's values to those used before its last change. */
export const { rollbackParameterGroup, rollbackParameterGroupOutput } = lookup("rollbackParameterGroup", {
  description:
    "Returns a custom cache parameter group's values to those used before its last change and waits until the clusters using it are In-Sync. The values are a ParameterGroup's inputs only for the parameters its program declares: a rollback of a change made outside the program leaves no drift; one that changes a declared value is drift, which `pulumi preview --refresh` shows and the next `up` undoes. Not idempotent: a second call rolls back again. In a preview it does nothing (`dryRun: true`).",
  args: groupArgs,
  ...groupChange((c, args) => c.parameterGroups.rollback(args.parameterGroupId, args.applyMode)),
});
export type RollbackParameterGroupArgs = LookupArgs<typeof rollbackParameterGroup>;
export type RollbackParameterGroupResult = LookupResult<typeof rollbackParameterGroup>;

/** Returns a parameter group's values to its default group's. */
export const { resetParameterGroup, resetParameterGroupOutput } = lookup("resetParameterGroup", {
  description:
    "Returns every value of a custom cache parameter group to its default group's and waits until the clusters using it are In-Sync. A reset of a group whose program declares no parameter leaves no drift; declared values come back with the next `up`. In a preview it does nothing (`dryRun: true`).",
  args: () => ({ ...groupArgs(), applyMode: z.enum(APPLY_MODES).default("sequential").describe("`sequential` (the default) or `parallel`.") }),
  ...groupChange((c, args: GroupChangeArgs & { applyMode: ApplyMode }) => c.parameterGroups.reset(args.parameterGroupId, args.applyMode)),
});
export type ResetParameterGroupArgs = LookupArgs<typeof resetParameterGroup>;
export type ResetParameterGroupResult = LookupResult<typeof resetParameterGroup>;
