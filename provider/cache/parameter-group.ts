/**
 * krcloud:cache:ParameterGroup — a custom parameter group created from a default (base) group, with
 * the parameters the program sets. Only those parameters are compared: the hundreds of defaults
 * never make it dirty (terraform-provider-aws #116); a parameter removed from the map goes back to
 * its default value. Every value is checked against the base group's catalogue before any mutating
 * request, and one failure lists every bad parameter with its rule. Changes wait until the clusters
 * using the group are In-Sync; Error-Sync or Suspended gets one retry-apply, then fails with the
 * group's recent events. Spec: 02-cache.md §2.3, §3, §4.1, §4.4.
 */
import { z } from "zod";
import {
  APPLY_MODES,
  validateParameterValues,
  type CacheClient,
  type CacheClusterRecord,
  type ParameterDefinition,
  type ParameterGroup as GroupRecord,
} from "../../client/cache";
import { endpointOf, isNotFound, rethrowAs, withAction } from "../../client/core";
import { listKey, readOnce } from "../core/coalesce";
import { findParameterGroupByName, groupMarker } from "./find";
import {
  PartialFailure,
  recordedDescription,
  timeoutFor,
  timeoutsInput,
  defineResource,
  resourceClass,
  nonEmpty,
  listedByName,
  noRename,
  type Context,
} from "../core";
import { cache } from "./client";
import { groupIds } from "./find";
import { adoptInput, description, groupOrBackupName, requestDescription } from "./validation";
import { CACHE_TIMEOUTS, newestFirst, waitGroupInSync } from "./waiters";
import type { ParameterGroupArgs } from "./args";

export function parameterGroupInputs() {
  return z.strictObject({
    name: groupOrBackupName().describe("Group name. When omitted: the logical name plus a random suffix. Changing it replaces the group."),
    baseParameterGroupId: nonEmpty().describe(
      "The default group this group is created from (its id or name); its catalogue checks every value. Changing it replaces the group.",
    ),
    description: description(),
    parameters: z
      .record(z.string().min(1, "parameter names must not be empty"), z.string())
      .default({})
      .describe("Parameter values by name, as strings. Only these are managed; removing one sets it back to its default."),
    applyMode: z
      .enum(APPLY_MODES)
      .default("sequential")
      .describe("How changed parameters reach the clusters using the group: `sequential` (one at a time, the default) or `parallel`."),
    timeouts: timeoutsInput(CACHE_TIMEOUTS),
    adopt: adoptInput("a custom parameter group"),
  });
}
export type ParameterGroupInputs = z.infer<ReturnType<typeof parameterGroupInputs>>;

const event = () => z.object({ eventName: z.string().optional(), message: z.string().optional(), createdAt: z.string().optional() });

export function parameterGroupOutputs() {
  return parameterGroupInputs().extend({
    engineVersion: z.string().optional().describe("Engine version of the group."),
    clusterModeEnabled: z.boolean().optional().describe("Whether the group is for clusters (true) or instance sets (false)."),
    syncStatus: z
      .string()
      .describe("`In-Sync` when every cluster using the group has applied it; otherwise the first other status (`Applying`, `Error-Sync`, `Suspended`)."),
    clusterIds: z.array(z.string()).describe("Clusters and instance sets using the group."),
    recentEvents: z.array(event()).describe("The group's events of the past 7 days, newest first (at most 10)."),
  });
}
export type ParameterGroupOutputs = z.infer<ReturnType<typeof parameterGroupOutputs>>;

export const parameterGroup = defineResource("krcloud:cache:ParameterGroup", parameterGroupInputs, parameterGroupOutputs, {
  description:
    "A custom cache parameter group created from a default group. Only the parameters the program sets are managed; changes wait until the clusters using the group are In-Sync.",
  replaceOn: {
    ...noRename("the cache API", "parameter group"),
    baseParameterGroupId: "a custom group's base (default) group is fixed when it is created",
  },
  deleteBeforeReplace: true,
  localInputs: ["applyMode", "timeouts", "adopt"],
  importId: "the parameter group id",
  offered: { baseParameterGroupId: { list: (ctx) => groupIds(ctx, undefined, "default"), lookup: "krcloud.cache.getParameterGroups" } },
  autoName: { property: "name", minLength: 4, maxLength: 40, lowerCase: true },
  recovery: { find: (ctx, inputs) => findParameterGroupByName(cache(ctx), inputs.name), markerOf: (ctx, id) => groupMarker(cache(ctx), id) },
  // A bad value fails the preview, not the up after it: the rules are the base group's catalogue,
  // which only the cloud has (one GET of the base group per run, kept for the process).
  checkWithCloud: { from: ["baseParameterGroupId", "parameters"], run: (ctx, inputs) => checkAgainstBase(ctx, inputs) },
  describe: (id) => `cache parameter group "${id}"`,
  // The project's own groups: the service's default groups are no resource of anyone's.
  list: listedByName(["custom parameter group", "custom parameter groups"], async (ctx) =>
    (await cache(ctx).parameterGroups.list({ parameterGroupType: "custom" }))
      .filter((g) => g.isDefault !== true)
      .map((g) => ({ id: g.id, name: g.name ?? g.id })),
  ),

  async create(ctx, inputs) {
    const c = cache(ctx);
    const base = await c.parameterGroups
      .get(inputs.baseParameterGroupId)
      .catch(rethrowAs(`creating cache parameter group "${inputs.name}": reading the base group "${inputs.baseParameterGroupId}"`));
    assertValuesAllowed(inputs.name, base.parameters, inputs.parameters);
    const { id } = await c.parameterGroups
      .create({ parameterGroupId: inputs.baseParameterGroupId, name: inputs.name, description: requestDescription(ctx, inputs.description) })
      .catch(rethrowAs(`creating cache parameter group "${inputs.name}"`));
    // The group exists from here on: a failure below must leave it in state.
    try {
      if (Object.keys(inputs.parameters).length > 0) {
        await c.parameterGroups
          .modify(id, { parameters: inputs.parameters, applyMode: inputs.applyMode })
          .catch(rethrowAs(`setting the parameters of cache parameter group "${inputs.name}"`));
      }
      return { id, outs: (await readGroup(c, id, inputs))! };
    } catch (e) {
      throw new PartialFailure(id, { ...inputs, parameters: {}, syncStatus: "unknown", clusterIds: [], recentEvents: [] }, e);
    }
  },

  readsFromList: { no: "its read needs the group's parameters (its own GET), the clusters using it and its events: the list carries none of them" },

  async read(ctx, id, olds) {
    return readGroup(cache(ctx), id, olds);
  },

  async update(ctx, id, current, news) {
    const c = cache(ctx);
    const group = await c.parameterGroups.get(id).catch(rethrowAs(`updating cache parameter group "${news.name}"`));
    const base = await c.parameterGroups
      .get(news.baseParameterGroupId)
      .catch(rethrowAs(`updating cache parameter group "${news.name}": reading the base group`));
    assertValuesAllowed(news.name, base.parameters, news.parameters);
    const changes = parameterChanges(current.parameters, news.parameters, group.parameters);
    const descriptionChanged = (news.description ?? "") !== (current.description ?? "");
    try {
      if (Object.keys(changes).length > 0 || descriptionChanged) {
        await c.parameterGroups
          .modify(id, {
            ...(descriptionChanged ? { description: requestDescription(ctx, news.description) ?? "" } : {}),
            ...(Object.keys(changes).length > 0 ? { parameters: changes, applyMode: news.applyMode } : {}),
          })
          .catch(rethrowAs(`updating cache parameter group "${news.name}"`));
      }
      if (Object.keys(changes).length > 0) {
        await waitGroupInSync(ctx, c, id, `cache parameter group "${news.name}"`, timeoutFor(ctx, news.timeouts, "update", CACHE_TIMEOUTS));
      }
      return (await readGroup(c, id, news))!;
    } catch (e) {
      throw new PartialFailure(id, current, e);
    }
  },

  async delete(ctx, id, olds) {
    const c = cache(ctx);
    const users = await c.clusters
      .list({ parameterGroup: id })
      .catch(rethrowAs(`deleting cache parameter group "${olds.name}": listing the clusters using it`));
    if (users.length > 0) {
      throw new Error(
        `deleting cache parameter group "${olds.name}": it is used by ${users.map((u) => `"${u.name ?? u.id}" (${u.id})`).join(", ")}; move them to another group first`,
      );
    }
    try {
      await c.parameterGroups.delete(id);
    } catch (e) {
      if (isNotFound(e)) return;
      throw withAction(e, `deleting cache parameter group "${olds.name}"`);
    }
  },
});

// ---------------------------------------------------------------------------------------------
// Update steps

/**
 * What to send: new and changed values, and removed parameters set back to their default value
 * (the service's reset would reset every parameter, including ones others set).
 */
export function parameterChanges(
  current: Record<string, string>,
  desired: Record<string, string>,
  catalogue: readonly ParameterDefinition[],
): Record<string, string> {
  const defaults = new Map(catalogue.map((p) => [p.parameterKey, p.defaultParameterValue]));
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(desired)) if (current[k] !== v) out[k] = v;
  for (const k of Object.keys(current)) {
    if (k in desired) continue;
    const d = defaults.get(k);
    if (d !== undefined) out[k] = d;
  }
  return out;
}

/** check's failures for the values the base group's catalogue refuses (read from the cloud, once per run and base group). */
async function checkAgainstBase(ctx: Context, inputs: ParameterGroupInputs): Promise<{ property: string; reason: string }[]> {
  if (Object.keys(inputs.parameters).length === 0) return [];
  const base = inputs.baseParameterGroupId;
  const st = ctx.settings;
  const key = listKey(`cache.GetParameterGroup\u0000${base}`, endpointOf(st, "cache"), st.projectId, st.authToken);
  let group: GroupRecord;
  try {
    group = await readOnce(key, () => cache(ctx).parameterGroups.get(base));
  } catch (e) {
    if (isNotFound(e))
      return [
        {
          property: "baseParameterGroupId",
          reason: `baseParameterGroupId: there is no parameter group "${base}" (read from the cloud to check the parameters; krcloud.cache.getParameterGroups lists them)`,
        },
      ];
    throw withAction(e, `checking the parameters of cache parameter group "${inputs.name}": this check reads the base group "${base}" from the cloud`);
  }
  return validateParameterValues(group.parameters, inputs.parameters).map((f) => ({
    property: "parameters",
    reason: `${f.property}: ${JSON.stringify(f.value)} ${f.reason} (rule: ${f.rule}; checked against the catalogue of base group "${base}", read from the cloud)`,
  }));
}

function assertValuesAllowed(name: string, catalogue: readonly ParameterDefinition[], desired: Record<string, string>): void {
  const failures = validateParameterValues(catalogue, desired);
  if (failures.length === 0) return;
  throw new Error(
    `cache parameter group "${name}": ${failures.length} parameter${failures.length > 1 ? "s" : ""} rejected by the base group's catalogue, nothing was changed: ${failures
      .map((f) => `${f.parameterKey}=${JSON.stringify(f.value)} ${f.reason} (rule: ${f.rule})`)
      .join("; ")}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Flatteners, finders, waiters

/** The group as the cloud has it; `parameters` holds only the names `prior` manages (all non-default ones without a prior). */
async function readGroup(c: CacheClient, id: string, prior: Partial<ParameterGroupInputs>): Promise<ParameterGroupOutputs | undefined> {
  const group = await c.parameterGroups.find(id).catch(rethrowAs(`reading cache parameter group "${id}"`));
  if (!group) return undefined;
  const users = await c.clusters.list({ parameterGroup: id }).catch(rethrowAs(`reading cache parameter group "${id}": listing the clusters using it`));
  const events = await c.parameterGroups.events(id).catch(rethrowAs(`reading the events of cache parameter group "${id}"`));
  return {
    name: group.name ?? prior.name ?? id,
    baseParameterGroupId: await baseOf(c, group, prior.baseParameterGroupId),
    description: recordedDescription(group.description, prior.description),
    parameters: managedParameters(group, prior.parameters),
    applyMode: prior.applyMode ?? "sequential",
    timeouts: prior.timeouts,
    adopt: prior.adopt ?? false,
    engineVersion: group.engineVersion,
    clusterModeEnabled: group.clusterModeEnabled,
    syncStatus: syncStatusOf(users),
    clusterIds: users.map((u) => u.id).sort(),
    recentEvents: newestFirst(events).slice(0, 10),
  };
}

/**
 * The group's base as the program spells it: the program may name the base by id or by name, the
 * group records its id. Another base than the program's is reported as the group's (a replacement).
 */
async function baseOf(c: CacheClient, group: GroupRecord, declared: string | undefined): Promise<string> {
  const recorded = group.defaultParameterGroupId ?? "";
  if (declared === undefined || declared === recorded || recorded === "") return declared ?? recorded;
  const base = await c.parameterGroups.find(declared).catch(rethrowAs(`reading cache parameter group "${group.id}": reading its base "${declared}"`));
  return base?.id === recorded ? declared : recorded;
}

function managedParameters(group: GroupRecord, managed: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of group.parameters) {
    if (p.parameterValue === undefined) continue;
    if (managed !== undefined ? p.parameterKey in managed : p.parameterValue !== p.defaultParameterValue) out[p.parameterKey] = p.parameterValue;
  }
  return out;
}

function syncStatusOf(users: readonly CacheClusterRecord[]): string {
  const off = users.find((u) => u.parameterGroupSyncState !== undefined && u.parameterGroupSyncState !== "in-sync");
  return off?.parameterGroupSyncStatus ?? "In-Sync";
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { ParameterGroupArgs } from "./args";
/** A custom cache parameter group created from a default group. */
export const ParameterGroup = resourceClass<ParameterGroupArgs, ParameterGroupOutputs>(parameterGroup);
export type ParameterGroup = InstanceType<typeof ParameterGroup>;
