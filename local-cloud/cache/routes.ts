/**
 * Cache routes (spec 02 §4): parse and validate, then call the backend. Every request needs a valid
 * `X-Auth-Token`; bad input is a 400 naming the field, before any state changes.
 */
import { BadRequest } from "../core/errors";
import { NodeNotFound } from "./errors";
import { jsonResponse, type ApiResponse, type RequestContext, type RouteDefinition } from "../core/http";
import { caller, jsonObjectBody as body } from "../core/input";
import type { CacheBackend } from "./backend";
import {
  keepAutomaticBackups,
  parseAddShard,
  parseApplyMode,
  parseCreateBackup,
  parseCreateCluster,
  parseCreateGroup,
  parseCreateInstanceSet,
  parseEnabled,
  parseModifyGroup,
  parsePrimary,
  parseSubnet,
  parseUpdate,
} from "./validate";
import type { CacheViews } from "./views";

const project = (ctx: RequestContext): string => caller(ctx, "token", "The cache service").projectId;

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
  // A cluster and an instance set are one record: the same update and delete serve both paths.
  const update: RouteDefinition["handler"] = (ctx) => done(be.clusters.update(project(ctx), ctx.params.id!, parseUpdate(body(ctx))));
  const remove: RouteDefinition["handler"] = (ctx) =>
    done(be.clusters.delete(project(ctx), ctx.params.id!, keepAutomaticBackups(ctx.query.get("keepAutomaticBackups"))));
  return [
    r(["GET"], "/v1/redis/versions", "ListVersions", (ctx) => (project(ctx), ok(be.versions()))),
    r(["GET"], "/v1/redis/flavors", "ListFlavors", (ctx) => (project(ctx), ok({ flavors: be.flavors() }))),

    r(["GET"], "/v1/clusters", "ListClusters", (ctx) =>
      ok({ clusters: be.clusters.list(project(ctx), ctx.query.get("parameterGroup")).map((c) => views.cluster(c)) }),
    ),
    r(["GET"], "/v1/clusters/:id", "GetCluster", (ctx) => ok(views.cluster(be.clusters.get(project(ctx), ctx.params.id!)))),
    r(["POST"], "/v1/clusters", "CreateCluster", (ctx) => {
      const p = project(ctx);
      return created(be.clusters.create(p, parseCreateCluster(body(ctx))));
    }),
    r(["PATCH"], "/v1/clusters/:id", "UpdateCluster", update),
    r(["DELETE"], "/v1/clusters/:id", "DeleteCluster", remove),
    r(["POST"], "/v1/clusters/:id/parameter-group/apply", "RetryParameterGroupApply", (ctx) =>
      done(be.parameterGroups.retryApply(project(ctx), ctx.params.id!)),
    ),

    r(["GET"], "/v1/clusters/:id/shards", "ListShards", (ctx) => {
      const c = be.shards.clusterOnly(project(ctx), ctx.params.id!);
      return ok({ shards: c.shards.map((s) => views.shard(c, s)) });
    }),
    r(["POST"], "/v1/clusters/:id/shards", "AddShard", (ctx) => {
      const p = project(ctx);
      return created(be.shards.add(p, ctx.params.id!, parseAddShard(body(ctx))));
    }),
    r(["GET"], "/v1/clusters/:id/shards/:shard", "GetShard", (ctx) => {
      const c = be.clusters.get(project(ctx), ctx.params.id!);
      return ok(views.shard(c, be.shards.shard(c.projectId, c.id, ctx.params.shard!)));
    }),
    r(["DELETE"], "/v1/clusters/:id/shards/:shard", "DeleteShard", (ctx) => done(be.shards.delete(project(ctx), ctx.params.id!, ctx.params.shard!))),
    r(["POST"], "/v1/clusters/:id/shards/:shard/nodes", "AddReplica", (ctx) =>
      created(be.shards.addReplica(project(ctx), ctx.params.id!, ctx.params.shard!, parseSubnet(body(ctx)))),
    ),
    r(["GET"], "/v1/clusters/:id/shards/:shard/nodes", "ListNodes", (ctx) => {
      const c = be.clusters.get(project(ctx), ctx.params.id!);
      return ok({ nodes: be.shards.shard(c.projectId, c.id, ctx.params.shard!).nodes.map((n) => views.node(c, n)) });
    }),
    r(["GET"], "/v1/clusters/:id/shards/:shard/nodes/:node", "GetNode", (ctx) => {
      const c = be.clusters.get(project(ctx), ctx.params.id!);
      const n = be.shards.shard(c.projectId, c.id, ctx.params.shard!).nodes.find((x) => x.id === ctx.params.node);
      if (!n) throw new NodeNotFound(`No node "${ctx.params.node}".`);
      return ok(views.node(c, n));
    }),
    r(["DELETE"], "/v1/clusters/:id/shards/:shard/nodes/:node", "DeleteNode", (ctx) =>
      done(be.shards.deleteNode(project(ctx), ctx.params.id!, ctx.params.shard!, ctx.params.node!)),
    ),

    r(["POST"], "/v1/instance-sets", "CreateInstanceSet", (ctx) => {
      const p = project(ctx);
      return created(be.instanceSets.create(p, parseCreateInstanceSet(body(ctx))));
    }),
    r(["PATCH"], "/v1/instance-sets/:id", "UpdateInstanceSet", update),
    r(["DELETE"], "/v1/instance-sets/:id", "DeleteInstanceSet", remove),
    r(["GET"], "/v1/instance-sets/:id/instances", "ListInstances", (ctx) => {
      const p = project(ctx);
      const c = be.clusters.get(p, ctx.params.id!);
      const data = be.instanceSets.instances(p, c.id).map((n) => views.instance(c, n));
      return ok({ size: data.length, data });
    }),
    r(["DELETE"], "/v1/instance-sets/:id/instances/:instance", "DeleteInstance", (ctx) =>
      done(be.instanceSets.deleteInstance(project(ctx), ctx.params.id!, ctx.params.instance!)),
    ),
    r(["PATCH"], "/v1/instance-sets/:id/primary", "PromoteReplica", (ctx) =>
      done(be.instanceSets.promote(project(ctx), ctx.params.id!, parsePrimary(body(ctx)))),
    ),
    r(["PATCH"], "/v1/instance-sets/:id/replicas", "AddReplicaInstance", (ctx) =>
      done(be.instanceSets.addReplica(project(ctx), ctx.params.id!, parseSubnet(body(ctx)))),
    ),
    r(["PATCH"], "/v1/instance-sets/:id/recovery", "SetHighAvailability", (ctx) => {
      const p = project(ctx);
      return done(be.instanceSets.setRecovery(p, ctx.params.id!, parseEnabled(body(ctx))));
    }),

    // Parameter group create: method and path not shown (spec §4.4); read as POST /v1/parameter-groups.
    r(["POST"], "/v1/parameter-groups", "CreateParameterGroup", (ctx) => {
      const p = project(ctx);
      return created(be.parameterGroups.create(p, parseCreateGroup(body(ctx))));
    }),
    r(["GET"], "/v1/parameter-groups", "ListParameterGroups", (ctx) => {
      const p = project(ctx);
      const type = ctx.query.get("parameterGroupType");
      const mode = ctx.query.get("clusterMode");
      if (type && type !== "default" && type !== "custom") throw new BadRequest("parameterGroupType: default or custom.");
      if (mode && mode !== "enabled" && mode !== "disabled") throw new BadRequest("clusterMode: enabled or disabled.");
      const list = be.parameterGroups.list(p, {
        engineVersion: ctx.query.get("engineVersion"),
        ...(type ? { isDefault: type === "default" } : {}),
        ...(mode ? { clusterMode: mode === "enabled" } : {}),
      });
      return ok({ parameterGroups: list.map((g) => views.group(g, false)) });
    }),
    r(["GET"], "/v1/parameter-groups/:id", "GetParameterGroup", (ctx) => ok(views.group(be.parameterGroups.group(project(ctx), ctx.params.id!), true))),
    r(["PATCH"], "/v1/parameter-groups/:id", "ModifyParameterGroup", (ctx) => {
      const p = project(ctx);
      return done(be.parameterGroups.modify(p, ctx.params.id!, parseModifyGroup(body(ctx))));
    }),
    r(["POST"], "/v1/parameter-groups/:id/rollback", "RollbackParameterGroup", (ctx) =>
      done(be.parameterGroups.rollback(project(ctx), ctx.params.id!, parseApplyMode(body(ctx, { optional: true }), false))),
    ),
    r(["POST"], "/v1/parameter-groups/:id/reset", "ResetParameterGroup", (ctx) =>
      done(be.parameterGroups.reset(project(ctx), ctx.params.id!, parseApplyMode(body(ctx), true))),
    ),
    r(["DELETE"], "/v1/parameter-groups/:id", "DeleteParameterGroup", (ctx) => done(be.parameterGroups.delete(project(ctx), ctx.params.id!))),
    // On-demand backups: the cloud's public API documentation, not the spec (docs/api-assumptions.md).
    r(["POST"], "/v1/backups", "CreateBackup", (ctx) => {
      const p = project(ctx);
      return created(be.backups.create(p, parseCreateBackup(body(ctx))));
    }),
    r(["GET"], "/v1/backups", "ListBackups", (ctx) => {
      const p = project(ctx);
      return ok({ backups: be.backups.list(p, ctx.query.get("clusterName")).map((b) => views.backup(b)) });
    }),
    r(["GET"], "/v1/backups/:id", "GetBackup", (ctx) => ok(views.backup(be.backups.get(project(ctx), ctx.params.id!)))),
    r(["DELETE"], "/v1/backups/:id", "DeleteBackup", (ctx) => done(be.backups.delete(project(ctx), ctx.params.id!))),

    r(["GET"], "/v1/parameter-groups/:id/events", "ListParameterGroupEvents", (ctx) =>
      ok({ events: [...be.parameterGroups.group(project(ctx), ctx.params.id!).events].reverse() }),
    ),
  ];
}
