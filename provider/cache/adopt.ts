/**
 * `adopt: true` on the cache resources: a resource of the declared name that exists already is
 * taken over instead of failing the create. What exists must match every property whose change
 * replaces (assertAdoptable), so that adopting never leads the next update to delete it; the rest is
 * then converged by the resource's own update.
 */
import { z } from "zod";
import type { CacheClient } from "../../sdk/cache";
import { rethrowAs } from "../../sdk/core";

export function adoptInput(what: string) {
  return z
    .boolean()
    .default(false)
    .describe(
      `If ${what} with this name already exists, manage it instead of creating one (its replace-on properties must match; the rest is updated in place).`,
    );
}

/** The id of the cluster (clusterMode true) or instance set (false) named `name`, if any. */
export async function findClusterByName(c: CacheClient, name: string, clusterMode: boolean): Promise<string | undefined> {
  const all = await c.clusters.list().catch(rethrowAs(`looking for an existing cache ${clusterMode ? "cluster" : "instance set"} "${name}" to adopt`));
  return all.find((r) => r.name === name && (r.clusterEnabled ?? true) === clusterMode)?.id;
}

/** The id of the custom parameter group named `name`, if any. */
export async function findParameterGroupByName(c: CacheClient, name: string): Promise<string | undefined> {
  const all = await c.parameterGroups
    .list({ parameterGroupType: "custom" })
    .catch(rethrowAs(`looking for an existing cache parameter group "${name}" to adopt`));
  return all.find((g) => g.name === name && g.isDefault !== true)?.id;
}
