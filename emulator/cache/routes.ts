/**
 * Cache routes (seed 02 §4): parse and validate, then call the backend. Every request needs a valid
 * `X-Auth-Token`; bad input is a 400 naming the field, before any state changes.
 */
import { BadRequest, NotFound } from "../core/errors";
import { jsonResponse, type ApiResponse, type RequestContext, type RouteDefinition } from "../core/http";
import { caller, jsonObjectBody as body } from "../core/input";
import type { CacheBackend } from "./backend";
import type { CommonBody, UpdateBody } from "./model";
import type { CacheViews } from "./views";

type Body = Record<string, unknown>;

const project = (ctx: RequestContext): string => caller(ctx, "token", "The cache service").projectId;

const str = (b: Body, k: string, required = true): string | undefined => {
  const v = b[k];
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string" || v === "") throw new BadRequest(`${k}: a non-empty string is required.`);
  return v;
};
const int = (b: Body, k: string, lo: number, hi: number): number => {
  const v = b[k];
  if (typeof v !== "number" || !Number.isInteger(v) || v < lo || v > hi) throw new BadRequest(`${k}: an integer from ${lo} to ${hi} is required.`);
  return v;
};
const refs = (b: Body, k: string): { id: string }[] => {
  const v = b[k];
  if (!Array.isArray(v) || v.some((r) => typeof (r as Body)?.id !== "string")) throw new BadRequest(`${k}: a list of {id} is required.`);
  return (v as { id: string }[]).map((r) => ({ id: r.id }));
};
const assignments = (b: Body, k: string, subnets: { id: string }[]): CommonBody["subnetAssignments"] => {
  const v = b[k];
  if (!Array.isArray(v)) throw new BadRequest(`${k}: a list is required.`);
  const allowed = new Set(subnets.map((s) => s.id));
  return v.map((a, i) => {
    const x = a as { primary?: { id?: unknown }; replicas?: unknown };
    if (typeof x?.primary?.id !== "string") throw new BadRequest(`${k}[${i}].primary.id: required.`);
    if (!Array.isArray(x.replicas) || x.replicas.some((r) => typeof (r as Body)?.id !== "string"))
      throw new BadRequest(`${k}[${i}].replicas: a list of {id} is required.`);
    const out = { primary: { id: x.primary.id }, replicas: (x.replicas as { id: string }[]).map((r) => ({ id: r.id })) };
    for (const s of [out.primary, ...out.replicas]) if (!allowed.has(s.id)) throw new BadRequest(`${k}[${i}]: subnet "${s.id}" is not in subnets.`);
    return out;
  });
};
const NAME = /^[a-z](?!.*--)[a-z0-9-]{2,18}[a-z0-9]$/;

function common(b: Body, nameKey: string): CommonBody {
  const subnets = refs(b, "subnets");
  const name = str(b, nameKey)!;
  if (!NAME.test(name))
    throw new BadRequest(`${nameKey}: 4 to 20 lower-case letters, digits or '-', starting with a letter, ending with a letter or digit, no '--'.`);
  const description = str(b, "description", false);
  if (description !== undefined && (description.length > 100 || /[\r\n]/.test(description)))
    throw new BadRequest("description: at most 100 characters, no line breaks.");
  const bs = b.backupSchedule as { cron?: unknown; retentionLimit?: unknown } | undefined;
  if (bs !== undefined && (typeof bs?.cron !== "string" || bs.cron.trim().split(/\s+/).length !== 5))
    throw new BadRequest("backupSchedule.cron: a 5-field cron expression is required.");
  const rs = b.restoreSource as { backupName?: unknown; backupNames?: unknown; files?: unknown } | undefined;
  return {
    name,
    description,
    version: str(b, "version")!,
    port: int(b, "port", 2000, 50000),
    flavorId: str(b, "flavorId")!,
    parameterGroupId: str(b, "parameterGroupId")!,
    subnets,
    subnetAssignments: assignments(b, "subnetAssignments", subnets),
    securityGroups: refs(b, "securityGroups"),
    tlsEnabled: b.tlsEnabled === true,
    backupSchedule: bs ? { cron: bs.cron as string, ...(typeof bs.retentionLimit === "number" ? { retentionLimit: bs.retentionLimit } : {}) } : undefined,
    user:
      typeof (b.user as Body | undefined)?.name === "string"
        ? { name: (b.user as Body).name as string, password: typeof (b.user as Body).password === "string" ? ((b.user as Body).password as string) : "" }
        : undefined,
    restoreSource: rs ? restoreSource(rs) : undefined,
  };
}

/** The seed spells it backupName and backupNames: either is read; files (instance sets) are `bucket/path` strings. */
function restoreSource(rs: { backupName?: unknown; backupNames?: unknown; files?: unknown }): CommonBody["restoreSource"] {
  const name = [rs.backupName, rs.backupNames].find((v) => v !== undefined);
  if (name !== undefined && (typeof name !== "string" || name === "")) throw new BadRequest("restoreSource.backupName: a non-empty string is required.");
  if (rs.files !== undefined && (!Array.isArray(rs.files) || rs.files.length === 0 || rs.files.some((f) => typeof f !== "string" || !/^[^/]+\/.+/.test(f))))
    throw new BadRequest("restoreSource.files: a list of bucket/folder/.../file paths is required.");
  if ((name === undefined) === (rs.files === undefined)) throw new BadRequest("restoreSource: exactly one of backupName and files is required.");
  return name !== undefined ? { backupName: name } : { files: rs.files as string[] };
}

const ok = (value: unknown, status = 200): ApiResponse => jsonResponse(status, value);
const created = (objectId: string): ApiResponse => jsonResponse(201, { objectId });
const done = (objectId: string): ApiResponse => jsonResponse(200, { objectId });

export function cacheRoutes(be: CacheBackend, views: CacheViews): RouteDefinition[] {
  const r = (methods: string[], path: string, operation: string, handler: RouteDefinition["handler"]): RouteDefinition => ({
    methods,
    path,
    operation,
    // Automatic backups that fell due are taken before any request is answered.
    handler: (ctx, op) => {
      be.tick();
      return handler(ctx, op);
    },
  });
  return [
    r(["GET"], "/v1/redis/versions", "ListVersions", (ctx) => (project(ctx), ok(be.versions()))),
    r(["GET"], "/v1/redis/flavors", "ListFlavors", (ctx) => (project(ctx), ok({ flavors: be.flavors() }))),

    r(["GET"], "/v1/clusters", "ListClusters", (ctx) =>
      ok({ clusters: be.listClusters(project(ctx), ctx.query.get("parameterGroup")).map((c) => views.cluster(c)) }),
    ),
    r(["GET"], "/v1/clusters/:id", "GetCluster", (ctx) => ok(views.cluster(be.cluster(project(ctx), ctx.params.id!)))),
    r(["POST"], "/v1/clusters", "CreateCluster", (ctx) => {
      const p = project(ctx);
      const b = body(ctx);
      const c = common(b, "name");
      const shardCount = int(b, "shardCount", 1, 12);
      const nodes = int(b, "nodeCountPerShard", 1, 6);
      if (c.subnetAssignments.length !== shardCount) throw new BadRequest("subnetAssignments: one entry per shard is required.");
      c.subnetAssignments.forEach((a, i) => {
        if (a.replicas.length + 1 !== nodes) throw new BadRequest(`subnetAssignments[${i}].replicas: nodeCountPerShard - 1 replicas are required.`);
      });
      return created(be.createCluster(p, { ...c, shardCount, nodeCountPerShard: nodes }));
    }),
    r(["PATCH"], "/v1/clusters/:id", "UpdateCluster", (ctx) => done(be.update(project(ctx), ctx.params.id!, updateBody(body(ctx))))),
    r(["DELETE"], "/v1/clusters/:id", "DeleteCluster", (ctx) => done(be.delete(project(ctx), ctx.params.id!, ctx.query.get("keepAutomaticBackups")))),
    r(["POST"], "/v1/clusters/:id/parameter-group/apply", "RetryParameterGroupApply", (ctx) => done(be.retryApply(project(ctx), ctx.params.id!))),

    r(["GET"], "/v1/clusters/:id/shards", "ListShards", (ctx) => {
      const c = be.cluster(project(ctx), ctx.params.id!);
      if (!c.clusterEnabled) throw new BadRequest(`"${c.id}" is an instance set: it has no shards.`, "NotACluster");
      return ok({ shards: c.shards.map((s) => views.shard(c, s)) });
    }),
    r(["POST"], "/v1/clusters/:id/shards", "AddShard", (ctx) => {
      const b = body(ctx);
      const a = b.subnetAssignment as { primary?: { id?: unknown }; replicas?: unknown } | undefined;
      if (typeof a?.primary?.id !== "string" || !Array.isArray(a.replicas))
        throw new BadRequest("subnetAssignment: {primary: {id}, replicas: [{id}]} is required.");
      return created(
        be.addShard(project(ctx), ctx.params.id!, {
          nodeCount: int(b, "nodeCount", 1, 6),
          subnetAssignment: { primary: { id: a.primary.id }, replicas: (a.replicas as { id: string }[]).map((x) => ({ id: String(x?.id) })) },
        }),
      );
    }),
    r(["GET"], "/v1/clusters/:id/shards/:shard", "GetShard", (ctx) => {
      const c = be.cluster(project(ctx), ctx.params.id!);
      return ok(views.shard(c, be.shard(c.projectId, c.id, ctx.params.shard!)));
    }),
    r(["DELETE"], "/v1/clusters/:id/shards/:shard", "DeleteShard", (ctx) => done(be.deleteShard(project(ctx), ctx.params.id!, ctx.params.shard!))),
    r(["POST"], "/v1/clusters/:id/shards/:shard/nodes", "AddReplica", (ctx) =>
      created(be.addReplica(project(ctx), ctx.params.id!, ctx.params.shard!, subnet(body(ctx)))),
    ),
    r(["GET"], "/v1/clusters/:id/shards/:shard/nodes", "ListNodes", (ctx) => {
      const c = be.cluster(project(ctx), ctx.params.id!);
      return ok({ nodes: be.shard(c.projectId, c.id, ctx.params.shard!).nodes.map((n) => views.node(c, n)) });
    }),
    r(["GET"], "/v1/clusters/:id/shards/:shard/nodes/:node", "GetNode", (ctx) => {
      const c = be.cluster(project(ctx), ctx.params.id!);
      const n = be.shard(c.projectId, c.id, ctx.params.shard!).nodes.find((x) => x.id === ctx.params.node);
      if (!n) throw new NotFound(`No node "${ctx.params.node}".`, "NodeNotFound");
      return ok(views.node(c, n));
    }),
    r(["DELETE"], "/v1/clusters/:id/shards/:shard/nodes/:node", "DeleteNode", (ctx) =>
      done(be.deleteNode(project(ctx), ctx.params.id!, ctx.params.shard!, ctx.params.node!)),
    ),

    r(["POST"], "/v1/instance-sets", "CreateInstanceSet", (ctx) => {
      const p = project(ctx);
      const b = body(ctx);
      const c = common(b, "instanceSetName");
      const replicas = int(b, "replicas", 1, 6);
      if (typeof b.recoveryEnabled !== "boolean") throw new BadRequest("recoveryEnabled: a boolean is required.");
      if (c.subnetAssignments.length !== 1 || c.subnetAssignments[0]!.replicas.length + 1 !== replicas)
        throw new BadRequest("subnetAssignments: one entry holding the primary and replicas - 1 replicas is required.");
      if (b.recoveryEnabled && replicas < 2) throw new BadRequest("recoveryEnabled: high availability needs a replica.");
      const bs = c.backupSchedule;
      if (bs && !/^\* ([0-9]|1[0-9]|2[0-3]) \* \* \*$/.test(bs.cron.trim()))
        throw new BadRequest('backupSchedule.cron: only the hour is settable (e.g. "* 3 * * *").');
      if (bs?.retentionLimit !== undefined && (bs.retentionLimit < 1 || bs.retentionLimit > 35))
        throw new BadRequest("backupSchedule.retentionLimit: 1 to 35 days.");
      str(b, "projectId");
      const { name, ...rest } = c;
      return created(be.createInstanceSet(p, { ...rest, instanceSetName: name, replicas, recoveryEnabled: b.recoveryEnabled }));
    }),
    r(["PATCH"], "/v1/instance-sets/:id", "UpdateInstanceSet", (ctx) => done(be.update(project(ctx), ctx.params.id!, updateBody(body(ctx))))),
    r(["DELETE"], "/v1/instance-sets/:id", "DeleteInstanceSet", (ctx) => done(be.delete(project(ctx), ctx.params.id!, ctx.query.get("keepAutomaticBackups")))),
    r(["GET"], "/v1/instance-sets/:id/instances", "ListInstances", (ctx) => {
      const p = project(ctx);
      const c = be.cluster(p, ctx.params.id!);
      const data = be.instances(p, c.id).map((n) => views.instance(c, n));
      return ok({ size: data.length, data });
    }),
    r(["DELETE"], "/v1/instance-sets/:id/instances/:instance", "DeleteInstance", (ctx) =>
      done(be.deleteInstance(project(ctx), ctx.params.id!, ctx.params.instance!)),
    ),
    r(["PATCH"], "/v1/instance-sets/:id/primary", "PromoteReplica", (ctx) => done(be.promote(project(ctx), ctx.params.id!, str(body(ctx), "primaryId")!))),
    r(["PATCH"], "/v1/instance-sets/:id/replicas", "AddReplicaInstance", (ctx) => done(be.addInstanceReplica(project(ctx), ctx.params.id!, subnet(body(ctx))))),
    r(["PATCH"], "/v1/instance-sets/:id/recovery", "SetHighAvailability", (ctx) => {
      const b = body(ctx);
      if (typeof b.enabled !== "boolean") throw new BadRequest("enabled: a boolean is required.");
      return done(be.setRecovery(project(ctx), ctx.params.id!, b.enabled));
    }),

    // Parameter group create: method and path not shown (seed §4.4); read as POST /v1/parameter-groups.
    r(["POST"], "/v1/parameter-groups", "CreateParameterGroup", (ctx) => {
      const b = body(ctx);
      return created(
        be.createGroup(project(ctx), { parameterGroupId: str(b, "parameterGroupId")!, name: str(b, "name")!, description: str(b, "description", false) }),
      );
    }),
    r(["GET"], "/v1/parameter-groups", "ListParameterGroups", (ctx) => {
      const p = project(ctx);
      const type = ctx.query.get("parameterGroupType");
      const mode = ctx.query.get("clusterMode");
      if (type && type !== "default" && type !== "custom") throw new BadRequest("parameterGroupType: default or custom.");
      if (mode && mode !== "enabled" && mode !== "disabled") throw new BadRequest("clusterMode: enabled or disabled.");
      const list = be.listGroups(p, {
        engineVersion: ctx.query.get("engineVersion"),
        ...(type ? { isDefault: type === "default" } : {}),
        ...(mode ? { clusterMode: mode === "enabled" } : {}),
      });
      return ok({ parameterGroups: list.map((g) => views.group(g, false)) });
    }),
    r(["GET"], "/v1/parameter-groups/:id", "GetParameterGroup", (ctx) => ok(views.group(be.group(project(ctx), ctx.params.id!), true))),
    r(["PATCH"], "/v1/parameter-groups/:id", "ModifyParameterGroup", (ctx) => {
      const b = body(ctx);
      const params = b.parameters;
      if (
        params !== undefined &&
        (!Array.isArray(params) || params.some((x) => typeof (x as Body)?.parameterKey !== "string" || (x as Body).parameterValue === undefined))
      ) {
        throw new BadRequest("parameters: a list of {parameterKey, parameterValue} is required.");
      }
      return done(
        be.modifyGroup(project(ctx), ctx.params.id!, {
          description: str(b, "description", false),
          parameters: params as { parameterKey: string; parameterValue: string }[] | undefined,
          applyMode: b.applyMode as string | undefined,
        }),
      );
    }),
    r(["POST"], "/v1/parameter-groups/:id/rollback", "RollbackParameterGroup", (ctx) =>
      done(be.rollbackGroup(project(ctx), ctx.params.id!, ctx.body.length ? body(ctx).applyMode : undefined)),
    ),
    r(["POST"], "/v1/parameter-groups/:id/reset", "ResetParameterGroup", (ctx) => done(be.resetGroup(project(ctx), ctx.params.id!, body(ctx).applyMode))),
    r(["DELETE"], "/v1/parameter-groups/:id", "DeleteParameterGroup", (ctx) => done(be.deleteGroup(project(ctx), ctx.params.id!))),
    r(["GET"], "/v1/parameter-groups/:id/events", "ListParameterGroupEvents", (ctx) =>
      ok({ events: [...be.group(project(ctx), ctx.params.id!).events].reverse() }),
    ),
  ];
}

function subnet(b: Body): string {
  const s = b.subnet as { id?: unknown } | undefined;
  if (typeof s?.id !== "string" || s.id === "") throw new BadRequest("subnet.id: required.");
  return s.id;
}

function updateBody(b: Body): UpdateBody {
  if (b.parameterGroupId !== undefined && (typeof b.parameterGroupId !== "string" || b.parameterGroupId === ""))
    throw new BadRequest("parameterGroupId: must not be empty.");
  const bs = b.backupSchedule as { cron?: unknown; retentionLimit?: unknown } | undefined;
  if (bs !== undefined && typeof bs?.cron !== "string") throw new BadRequest("backupSchedule.cron: a string is required (empty turns backups off).");
  return {
    description: typeof b.description === "string" ? b.description : undefined,
    parameterGroupId: b.parameterGroupId,
    securityGroups: b.securityGroups === undefined ? undefined : refs(b, "securityGroups"),
    backupSchedule: bs ? { cron: bs.cron as string, ...(typeof bs.retentionLimit === "number" ? { retentionLimit: bs.retentionLimit } : {}) } : undefined,
  };
}
