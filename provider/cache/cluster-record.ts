/**
 * What a Cluster and an InstanceSet share, as they share one record (spec 02 §2.1): the outputs read
 * from it, the one PATCH of their in-place settings, and delete with the delete-time
 * `keepAutomaticBackups` followed by a wait until the record is gone.
 */
import type { BackupSchedule, CacheClient, CacheClusterRecord, UpdateClusterInput } from "../../client/cache";
import { isNotFound, withAction } from "../../client/core";
import {
  containsUnknown,
  nonEmpty,
  noRename,
  reasonFor,
  recordedDescription,
  REPLACING_KEY,
  timeoutFor,
  timeoutsInput,
  type Context,
  type Offered,
  type ResourceDefinition,
  type Timeouts,
} from "../core";
import { cache } from "./client";
import { groupIds } from "./find";
import { alignTo } from "./topology";
import { adoptInput, cacheName, description, keepAutomaticBackups, port, requestDescription, type user } from "./validation";
import { dataOnReplaceInput, deleteReplacementBackup, type ReplacementBackup } from "./keep-data";
import { CACHE_TIMEOUTS, waitClusterGone } from "./waiters";
import { z } from "zod";

/**
 * Which changes replace a Cluster or an InstanceSet and why (spec 02 §4.2, §4.3: their PATCH changes
 * only the description, backup schedule, parameter group and security groups), and what a
 * replacement loses; `what` is `cluster` or `instance set`, `own` the replacing inputs only it has.
 */
export function recordReplacement<I extends RecordInputs & Record<string, unknown>>(
  what: "cluster" | "instance set",
  own: ResourceDefinition<I, Record<string, unknown>>["replaceOn"],
) {
  return {
    replaceOn: {
      ...noRename("the cache API", what),
      version: `the cache API has no engine upgrade of a ${what}`,
      ...reasonFor(
        ["port", "flavorId", "subnetIds", "tlsEnabled"],
        `the cache API's ${what} update (PATCH) changes only the description, backup schedule, parameter group and security groups`,
      ),
      user: `the cache API has no operation that changes a ${what}'s user or password: a new password means a new ${what}`,
      ...own,
    },
    replacementLoses: `The replacement is a new ${what}: new endpoints (clients must be pointed at them) and no data; what this one holds is lost when it is deleted, unless \`dataOnReplace: keep\` moves it through a backup (or the new one is created from a backup of it: ${what === "cluster" ? "restoreFromBackup" : "restoreFrom"}).`,
  } satisfies Pick<ResourceDefinition<RecordInputs & Record<string, unknown>, Record<string, unknown>>, "replaceOn" | "replacementLoses">;
}

/** The settings a Cluster and an InstanceSet change in place with one PATCH. */
interface InPlaceSettings<S> {
  description?: string;
  parameterGroupId: string;
  securityGroupIds: string[];
  backupSchedule?: S;
}

/** The inputs both declare, as `prior` holds them (the program's, or the last recorded). */
interface RecordInputs {
  name?: string;
  description?: string;
  version?: string;
  port?: number;
  flavorId?: string;
  parameterGroupId?: string;
  subnetIds?: string[];
  securityGroupIds?: string[];
  tlsEnabled?: boolean;
  user?: z.infer<ReturnType<typeof user>>;
  keepAutomaticBackups?: boolean;
  timeouts?: Timeouts;
  adopt?: boolean;
  dataOnReplace?: "discard" | "keep";
  /** An output, where `prior` holds outputs. */
  replacementBackup?: ReplacementBackup;
}

/** What the docs of the inputs both declare say, where they say more than which of the two it is. */
const RECORD_INPUT_DOCS = {
  cluster: {
    flavorId: "Node size (see getFlavors). Changing it replaces the cluster.",
    parameterGroupId: "Parameter group applied to the cluster; changed in place (waits until In-Sync).",
    subnetIds: "Subnets the cluster may place nodes in. Changing them replaces the cluster.",
  },
  "instance set": {
    flavorId: "Instance size (see getFlavors). Changing it replaces the instance set.",
    parameterGroupId: "Parameter group (cluster mode disabled); changed in place (waits until In-Sync).",
    subnetIds: "Subnets the instances may be placed in. Changing them replaces the instance set.",
  },
};

/** The inputs both declare first, from the name to the security groups. */
export function recordInputs(what: keyof typeof RECORD_INPUT_DOCS) {
  const docs = RECORD_INPUT_DOCS[what];
  return {
    name: cacheName(what === "cluster" ? "Cluster" : "Instance set"),
    description: description(what === "cluster"),
    version: nonEmpty().describe(`Engine version (see getVersions). Changing it replaces the ${what}.`),
    port: port(),
    flavorId: nonEmpty().describe(docs.flavorId),
    parameterGroupId: nonEmpty().describe(docs.parameterGroupId),
    subnetIds: z.array(nonEmpty()).min(1, "at least one subnet").describe(docs.subnetIds),
    securityGroupIds: z.array(nonEmpty()).min(1, "at least one security group").describe("Security groups; changed in place."),
  };
}

/** The inputs both take that only steer the provider (recordDeclarations' `localInputs`). */
export function steeringInputs(what: "cluster" | "instance set") {
  return {
    keepAutomaticBackups: keepAutomaticBackups(),
    timeouts: timeoutsInput(CACHE_TIMEOUTS),
    adopt: adoptInput(what === "cluster" ? "a cluster" : "an instance set"),
    dataOnReplace: dataOnReplaceInput(what),
  };
}

/** The outputs both read from the record's status, besides their inputs and own outputs; `status` documents the first. */
export function statusOutputs(status: string) {
  return {
    status: z.string().describe(status),
    parameterGroupSyncStatus: z.string().optional().describe("`In-Sync`, `Error-Sync`, `Suspended`, ..."),
  };
}

/**
 * What a Cluster and an InstanceSet declare alike, their cluster mode aside: a unique name (so a
 * replacement deletes first), the inputs that only steer the provider, the secret user, the values
 * the service offers for their flavor, version and parameter group, and the auto-name rule.
 */
export function recordDeclarations<I extends RecordInputs & Record<string, unknown>, O extends Record<string, unknown>>(
  clusterMode: "enabled" | "disabled",
): Pick<ResourceDefinition<I, O>, "deleteBeforeReplace" | "localInputs" | "secretInputs" | "writeOnly" | "offered" | "autoName"> {
  const offered: Record<"flavorId" | "version" | "parameterGroupId", Offered> = {
    flavorId: { list: async (ctx) => (await cache(ctx).catalogue.listFlavors()).map((f) => f.id), lookup: "krcloud.cache.getFlavors" },
    version: { list: (ctx) => cache(ctx).catalogue.listVersions(), lookup: "krcloud.cache.getVersions" },
    parameterGroupId: { list: (ctx) => groupIds(ctx, clusterMode), lookup: "krcloud.cache.getParameterGroups" },
  };
  return {
    // Under the same (unique) name the old one goes first, but not for a replacement that keeps the
    // data: its create deletes the old one itself, after the backup (keep-data.ts), so that the old
    // one stays in state until the new one runs.
    deleteBeforeReplace: (olds, news) =>
      (news as Record<string, unknown>)[REPLACING_KEY] === undefined && (containsUnknown(news.name) || news.name === olds.name),
    localInputs: ["keepAutomaticBackups", "timeouts", "adopt", "dataOnReplace"],
    secretInputs: ["user"],
    // The record names the user, never its password: an import cannot know it.
    writeOnly: { paths: ["user.password", "user.passwordCiphertext"] },
    // Keys of every I here (RecordInputs); TypeScript cannot see that through the generic.
    offered: offered as ResourceDefinition<I, O>["offered"],
    autoName: { property: "name", minLength: 4, maxLength: 20, lowerCase: true },
  };
}

/**
 * The outputs both read from the record: what the cloud has, in the program's order where order
 * does not matter; provider-only inputs from `prior`. The password cannot be read back: the user
 * is compared by name, and the program's password (or its ciphertext) stands.
 */
export function flattenRecord(r: CacheClusterRecord, prior: RecordInputs) {
  return {
    name: r.name ?? prior.name ?? "",
    description: recordedDescription(r.description, prior.description),
    version: r.version ?? prior.version ?? "",
    port: r.port ?? prior.port ?? 6379,
    flavorId: r.flavorId ?? prior.flavorId ?? "",
    parameterGroupId: r.parameterGroupId ?? prior.parameterGroupId ?? "",
    subnetIds: alignTo(
      prior.subnetIds,
      r.subnets.map((x) => x.id),
    ),
    securityGroupIds: alignTo(
      prior.securityGroupIds,
      r.securityGroups.map((x) => x.id),
    ),
    tlsEnabled: r.tlsEnabled ?? prior.tlsEnabled ?? false,
    user: prior.user && r.userName === prior.user.name ? prior.user : r.userName ? { name: r.userName, password: "" } : undefined,
    keepAutomaticBackups: prior.keepAutomaticBackups ?? true,
    timeouts: prior.timeouts,
    adopt: prior.adopt ?? false,
    dataOnReplace: prior.dataOnReplace ?? "discard",
    replacementBackup: prior.replacementBackup,
    status: r.status ?? "unknown",
    parameterGroupSyncStatus: r.parameterGroupSyncStatus,
    primaryEndpoint: r.endpoints.primaryEndpoint,
  };
}

/**
 * The PATCH body for what changed between `current` and `news`, or undefined when nothing did. A
 * new description is sent with the resource's ownership tag (`ctx.createKey`), which it keeps.
 */
export function inPlacePatch<S>(
  ctx: Pick<Context, "createKey">,
  current: InPlaceSettings<S>,
  news: InPlaceSettings<S>,
  schedule: (s: S) => BackupSchedule,
): UpdateClusterInput | undefined {
  const patch: UpdateClusterInput = {};
  if ((current.description ?? "") !== (news.description ?? "")) patch.description = requestDescription(ctx, news.description) ?? "";
  if (current.parameterGroupId !== news.parameterGroupId) patch.parameterGroupId = news.parameterGroupId;
  if ([...current.securityGroupIds].sort().join() !== [...news.securityGroupIds].sort().join())
    patch.securityGroups = news.securityGroupIds.map((s) => ({ id: s }));
  if (JSON.stringify(current.backupSchedule ?? null) !== JSON.stringify(news.backupSchedule ?? null)) {
    patch.backupSchedule = news.backupSchedule ? schedule(news.backupSchedule) : null;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/**
 * Deletes (gone already is success: a replacement that kept the data deleted it itself) and waits
 * until the record is gone; then the backup its own replacement took, if any, goes too.
 */
export async function deleteAndWait(
  ctx: Context,
  c: CacheClient,
  id: string,
  what: string,
  olds: { keepAutomaticBackups?: boolean; timeouts?: Timeouts; replacementBackup?: ReplacementBackup },
  del: (id: string, o: { keepAutomaticBackups: boolean }) => Promise<unknown>,
): Promise<void> {
  try {
    await del(id, { keepAutomaticBackups: olds.keepAutomaticBackups ?? true });
    await waitClusterGone(ctx, c, id, what, timeoutFor(ctx, olds.timeouts, "delete", CACHE_TIMEOUTS));
  } catch (e) {
    if (!isNotFound(e)) throw withAction(e, `deleting ${what}`);
  }
  await deleteReplacementBackup(ctx, c, olds.replacementBackup);
}
