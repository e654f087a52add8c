/**
 * Finding a cache resource by its name: how a create whose outcome is unknown finds what it made,
 * and what `adopt: true` takes over (provider/core/recovery.ts).
 */
import type { CacheClient } from "../../client/cache";
import { splitDescription, type Context, type Listed } from "../core";
import { cache } from "./client";
import { rethrowAs } from "../../client/core";

/** The id of the cluster (clusterMode true) or instance set (false) named `name`, if any. */
export async function findClusterByName(c: CacheClient, name: string, clusterMode: boolean): Promise<string | undefined> {
  const all = await c.clusters.list().catch(rethrowAs(`looking for an existing cache ${clusterMode ? "cluster" : "instance set"} "${name}" to adopt`));
  return all.find((r) => r.name === name && (r.clusterEnabled ?? true) === clusterMode)?.id;
}

/** The project's clusters (clusterMode true) or instance sets (false), for their types' lists: the service lists both together, without pages. */
export async function listClusters(ctx: Pick<Context, "settings">, clusterMode: boolean): Promise<Listed[]> {
  const all = await cache(ctx).clusters.list();
  return all.filter((r) => (r.clusterEnabled ?? true) === clusterMode).map((r) => ({ id: r.id, name: r.name ?? r.id }));
}

/** The id of the custom parameter group named `name`, if any. */
export async function findParameterGroupByName(c: CacheClient, name: string): Promise<string | undefined> {
  const all = await c.parameterGroups
    .list({ parameterGroupType: "custom" })
    .catch(rethrowAs(`looking for an existing cache parameter group "${name}" to adopt`));
  return all.find((g) => g.name === name && g.isDefault !== true)?.id;
}

/** The ids and names of the parameter groups a cluster (`enabled`) or an instance set (`disabled`) can use. */
export async function groupIds(
  ctx: Pick<Context, "settings">,
  clusterMode: "enabled" | "disabled" | undefined,
  type?: "default" | "custom",
): Promise<string[]> {
  const groups = await cache(ctx).parameterGroups.list({ clusterMode, parameterGroupType: type });
  return groups.flatMap((g) => (g.name && g.name !== g.id ? [g.id, g.name] : [g.id]));
}

/** The ownership marker a cluster or instance set carries in its description (ownership.ts). */
export async function clusterMarker(c: CacheClient, id: string): Promise<string | undefined> {
  const r = await c.findClusterById(id).catch(rethrowAs(`reading cache cluster "${id}"`));
  return splitDescription(r?.description).marker;
}

/** The ownership marker a parameter group carries in its description. */
export async function groupMarker(c: CacheClient, id: string): Promise<string | undefined> {
  const g = await c.parameterGroups.find(id).catch(rethrowAs(`reading cache parameter group "${id}"`));
  return splitDescription(g?.description).marker;
}
