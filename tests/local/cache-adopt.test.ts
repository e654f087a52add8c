/**
 * Adopting existing cache resources (`adopt: true`), against the local cloud: a cluster, an
 * instance set and a custom parameter group made outside this stack are taken over with the same
 * id and no create request; what differs in place is updated; a difference that would replace is
 * refused, naming the property, before anything changes; without `adopt` the create fails and says
 * how to adopt.
 */
import { clusterArgs, instanceSetArgs } from "../support/cache";
import { cacheBedForFile } from "../support/local-cloud/per-file";
import { rejection, type EngineResource, type TestCloud } from "../support/local-cloud";

let tc: TestCloud;
let pg: EngineResource;
let cluster: EngineResource;
let iset: EngineResource;

cacheBedForFile({ reset: true }, (bed) => ({ tc, pg, cluster, iset } = bed));

const isetArgs = instanceSetArgs;
const pgArgs = (over: Record<string, unknown> = {}) => ({
  name: "sessions-params",
  baseParameterGroupId: "default.redis7.0.cluster",
  parameters: { timeout: "300" },
  ...over,
});

/** The operations sent since `cursor` that change something (everything but Get*, List*). */
const mutationsSince = (cursor: number) =>
  tc
    .requestsSince(cursor)
    .map((e) => e.operation)
    .filter((o) => !/^(Get|List)/.test(o));

describe.each([
  { type: "Cluster", res: () => cluster, args: clusterArgs, create: "CreateCluster", replaceOver: { flavorId: "redis.medium" }, replaceKey: "flavorId" },
  {
    type: "InstanceSet",
    res: () => iset,
    args: isetArgs,
    create: "CreateInstanceSet",
    replaceOver: { primarySubnetId: "sn-c", replicaSubnetIds: ["sn-b"] },
    replaceKey: "primarySubnetId",
  },
  {
    type: "ParameterGroup",
    res: () => pg,
    args: pgArgs,
    create: "CreateParameterGroup",
    replaceOver: { baseParameterGroupId: "default.redis7.0.standalone" },
    replaceKey: "baseParameterGroupId",
  },
])("$type", ({ res, args, create, replaceOver, replaceKey }) => {
  test("adopt: the existing resource is taken over (same id, no create), in-place differences updated, then no diff", async () => {
    // Made outside this stack (its state is not kept).
    const first = tc.logCursor();
    const outside = await res().up(args());
    expect(mutationsSince(first)).toContain(create);
    const cursor = tc.logCursor();
    const adopted = await res().up(args({ description: "adopted", adopt: true }));
    expect(adopted.id).toBe(outside.id);
    expect(mutationsSince(cursor)).not.toContain(create);
    expect(adopted.outputs.description).toBe("adopted");
    const refreshed = (await res().refresh(adopted))!;
    expect((await res().plan(refreshed, args({ description: "adopted", adopt: true }))).diff.changes).toBe(false);
  });

  test("adopt refuses a difference that would replace, naming it, before any change; without adopt the create says how", async () => {
    await res().up(args());
    const cursor = tc.logCursor();
    const refused = await rejection(res().up(args({ ...replaceOver, adopt: true })));
    expect(refused.message).toContain(`${replaceKey} is`);
    expect(refused.message).toContain("would lead the next update to delete it");
    expect(mutationsSince(cursor)).toEqual([]);

    const conflict = await rejection(res().up(args()));
    expect(conflict.message).toMatch(/already exists with this name .*set `adopt: true` on this resource/);
  });
});
