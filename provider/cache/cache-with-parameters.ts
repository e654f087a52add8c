/**
 * krcloud:cache:CacheWithParameters — a component: a cache (a Cluster, or an InstanceSet) with a
 * parameter group of its own, made from a plain map of parameter values. The cache points at the
 * group by id, and the group's id never changes with its values: a parameter change is an update of
 * the ParameterGroup (applied to the cache by the service, waited for until In-Sync), never a
 * replacement of the cache.
 */
import { z } from "zod";
import { all, type Output } from "@pulumi/pulumi/output";
import { APPLY_MODES } from "../../client/cache";
import { componentClass, defineComponent, nonEmpty, spread } from "../core";
import { Cluster, clusterShape } from "./cluster";
import { InstanceSet, instanceSetShape } from "./instance-set";
import { ParameterGroup } from "./parameter-group";
import { groupOrBackupName, user } from "./validation";
import type { CacheWithParametersArgs } from "./args";

/** A cache's inputs without what the component sets: its parameter group, and its user (a secret input of the component's own). */
const OMITTED = { parameterGroupId: true, user: true } as const;

/** The cache's name may be omitted, as on the Cluster itself: the component's name plus a random suffix. */
const clusterCache = () => clusterShape().omit(OMITTED).partial({ name: true });
const instanceSetCache = () => instanceSetShape().omit(OMITTED).partial({ name: true });

export function cacheWithParametersInputs() {
  return z
    .strictObject({
      cluster: clusterCache()
        .optional()
        .describe("A cluster (cluster mode): a Cluster's inputs but `parameterGroupId` and `user`. Exactly one of cluster and instanceSet."),
      instanceSet: instanceSetCache()
        .optional()
        .describe("An instance set (cluster mode off): an InstanceSet's inputs but `parameterGroupId` and `user`. Exactly one of cluster and instanceSet."),
      user: user(),
      baseParameterGroupId: nonEmpty().describe(
        "The default parameter group the cache's own group is created from (its id or name; see getParameterGroups): its catalogue checks every value. Changing it replaces the group.",
      ),
      parameters: z
        .record(z.string().min(1, "parameter names must not be empty"), z.string())
        .default({})
        .describe("Parameter values by name, as strings (`maxmemory-policy: allkeys-lru`). A change updates the group; the cache is not replaced."),
      parameterGroupName: groupOrBackupName().optional().describe("The group's name. When omitted: the component's name plus `-params` and a random suffix."),
      applyMode: z
        .enum(APPLY_MODES)
        .default("sequential")
        .describe("How changed parameters reach the cache's nodes: `sequential` (the default) or `parallel`."),
    })
    .superRefine((i, ctx) => {
      if ((i.cluster === undefined) === (i.instanceSet === undefined))
        ctx.addIssue({ code: "custom", path: ["cluster"], message: "set exactly one of cluster and instanceSet" });
    });
}
export type CacheWithParametersInputs = z.infer<ReturnType<typeof cacheWithParametersInputs>>;

export function cacheWithParametersOutputs() {
  return z.strictObject({
    kind: z.string().describe("What was created: `cluster` or `instanceSet`."),
    cacheId: z.string().describe("The id of the cluster or instance set."),
    parameters: z.record(z.string(), z.string()).describe("The parameter values the group sets."),
    parameterGroupId: z.string().describe("The id of the cache's own parameter group."),
    syncStatus: z.string().describe("The group's sync status: `In-Sync` once the cache has applied every value."),
    primaryEndpoint: z.string().optional().describe("The cache's endpoint (a cluster's), or its primary's (an instance set's)."),
    readEndpoint: z.string().optional().describe("An instance set's endpoint for reads from the replicas."),
  });
}
export type CacheWithParametersOutputs = z.infer<ReturnType<typeof cacheWithParametersOutputs>>;

/** `cluster` or `instanceSet`: which of the two the args name. Decided from the args' keys, so it is known while values are not. */
export function cacheKind(args: object): "cluster" | "instanceSet" {
  const a = args as Record<string, unknown>;
  return a.cluster !== undefined && a.cluster !== null ? "cluster" : "instanceSet";
}

export const cacheWithParameters = defineComponent<CacheWithParametersInputs, CacheWithParametersOutputs>({
  token: "krcloud:cache:CacheWithParameters",
  description:
    "A cache (a Cluster, or an InstanceSet) with a parameter group of its own, made from a plain map of parameter values: a parameter change updates the group, never replaces the cache.",
  secretInputs: ["user"],
  build(scope, name, inputs, args) {
    const group = scope.resource(ParameterGroup, `${name}-params`, {
      name: inputs.get("parameterGroupName") as Output<string>,
      baseParameterGroupId: inputs.get("baseParameterGroupId"),
      parameters: inputs.get("parameters"),
      applyMode: inputs.get("applyMode"),
    });
    const kind = cacheKind(args);
    // The user only when the program gives one: the cache's class makes it secret, and a secret of nothing is a null the check refuses.
    const common = { parameterGroupId: group.id, ...(args.user !== undefined ? { user: inputs.get("user") } : {}) };
    const cacheOutputs =
      kind === "cluster"
        ? (() => {
            const c = scope.resource(Cluster, name, {
              ...spread(inputs.get("cluster"), clusterCache()),
              ...common,
            } as never);
            return { id: c.id, primaryEndpoint: c.primaryEndpoint, readEndpoint: undefined };
          })()
        : (() => {
            const s = scope.resource(InstanceSet, name, {
              ...spread(inputs.get("instanceSet"), instanceSetCache()),
              ...common,
            } as never);
            return { id: s.id, primaryEndpoint: s.primaryEndpoint, readEndpoint: s.readEndpoint };
          })();
    return {
      kind,
      cacheId: cacheOutputs.id,
      primaryEndpoint: cacheOutputs.primaryEndpoint,
      readEndpoint: cacheOutputs.readEndpoint as never,
      parameterGroupId: group.id,
      parameters: group.parameters,
      // Read after the cache exists: the group's status with the cache using it.
      syncStatus: all([group.syncStatus, cacheOutputs.id]).apply(([s]) => s),
    };
  },
  inputs: cacheWithParametersInputs,
  outputs: cacheWithParametersOutputs,
});

export type { CacheWithParametersArgs } from "./args";
export const CacheWithParameters = componentClass<CacheWithParametersArgs, CacheWithParametersOutputs>(cacheWithParameters);
