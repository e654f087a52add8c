/**
 * Hadoop cluster routes (spec 03 C.4) under `/v2/hadoop-service/clusters`: authenticate, parse and
 * validate, then one backend call. Delete and scale ("not shown") follow the provider team's
 * readings (docs/local-cloud-hadoop.md).
 */
import { hasPermission } from "../core/credentials";
import { header, jsonResponse, type RequestContext, type RouteDefinition } from "../core/http";
import { caller, jsonObjectBody } from "../core/input";
import type { Caller, HadoopBackend } from "./backend";
import { CredentialAuthFailed, InvalidParameter, PermissionDenied } from "./errors";
import { API_KEY_STATUSES } from "./model";
import { parsePageRequest } from "./paging";
import { booleanParam, parseCreate, parseRerun, parseScale } from "./validate";
import { CLUSTER_SORT_FIELDS, VM_SORT_FIELDS } from "./views";

const BASE = "/v2/hadoop-service/clusters";
const JSON_TYPES = ["application/json"];

/** The spec names no roles for this service; these names let tests exercise 403. */
export const OPERATION_PERMISSIONS: Readonly<Record<string, string>> = {
  CreateCluster: "hadoop.clusters.create",
  GetCluster: "hadoop.clusters.get",
  ListClusters: "hadoop.clusters.list",
  ListClusterVms: "hadoop.clusters.get",
  DeleteCluster: "hadoop.clusters.delete",
  ScaleCluster: "hadoop.clusters.update",
  RerunCluster: "hadoop.clusters.rerun",
  GetRerunRequest: "hadoop.clusters.get",
};

/** Access keys only (C.5): no or a bad credential, or a token, is 401; a missing permission 403. */
function authorize(ctx: RequestContext, operation: string): Caller {
  const identity = caller(ctx, "access-key", "The Hadoop service", (message) => new CredentialAuthFailed(message));
  const permission = OPERATION_PERMISSIONS[operation];
  if (permission && !hasPermission(identity, permission)) throw new PermissionDenied(permission, operation);
  return { projectId: identity.projectId, owner: header(ctx, "credential-id") ?? "unknown" };
}

function jsonObject(ctx: RequestContext, optional = false): unknown {
  return jsonObjectBody(ctx, { optional, mediaTypes: JSON_TYPES, notAnObject: () => new InvalidParameter("(body)", "must be a JSON object") });
}

function clusterId(ctx: RequestContext): string {
  return ctx.params.clusterId ?? "";
}

function apiKey(ctx: RequestContext): string | undefined {
  return header(ctx, "hadoop-service-api-key");
}

export function hadoopRoutes(backend: HadoopBackend): RouteDefinition[] {
  const ok = (value: unknown) => jsonResponse(200, value);
  const scale = (ctx: RequestContext, operation: string) => {
    const caller = authorize(ctx, operation);
    const workerCnt = parseScale(jsonObject(ctx));
    return ok(backend.scaleCluster(caller, clusterId(ctx), workerCnt));
  };
  return [
    {
      methods: ["POST"],
      path: BASE,
      operation: "CreateCluster",
      handler: (ctx, operation) => {
        const caller = authorize(ctx, operation);
        return ok(backend.createCluster(caller, parseCreate(jsonObject(ctx))));
      },
    },
    {
      methods: ["GET"],
      path: BASE,
      operation: "ListClusters",
      handler: (ctx, operation) => {
        const caller = authorize(ctx, operation);
        const page = parsePageRequest(ctx.query, CLUSTER_SORT_FIELDS);
        const apiKeyStatus = ctx.query.get("apiKeyStatus");
        if (apiKeyStatus !== null && !(API_KEY_STATUSES as readonly string[]).includes(apiKeyStatus)) {
          throw new InvalidParameter("apiKeyStatus", `must be one of ${API_KEY_STATUSES.join(", ")}`);
        }
        const filter = {
          name: ctx.query.get("name"),
          includeTerminated: booleanParam(ctx.query.get("includeTerminated"), "includeTerminated") ?? true,
          apiKeyStatus,
        };
        return ok(backend.listClusters(caller, filter, page));
      },
    },
    {
      methods: ["GET"],
      path: `${BASE}/:clusterId`,
      operation: "GetCluster",
      handler: (ctx, operation) => {
        const caller = authorize(ctx, operation);
        booleanParam(ctx.query.get("retainMetadata"), "retainMetadata");
        return ok(backend.getCluster(caller, clusterId(ctx)));
      },
    },
    {
      methods: ["GET"],
      path: `${BASE}/:clusterId/vms`,
      operation: "ListClusterVms",
      handler: (ctx, operation) => {
        const caller = authorize(ctx, operation);
        const page = parsePageRequest(ctx.query, VM_SORT_FIELDS);
        const filter = { ip: ctx.query.get("ip"), name: ctx.query.get("name"), instanceId: ctx.query.get("instanceId") };
        return ok(backend.listVms(caller, clusterId(ctx), filter, page));
      },
    },
    {
      methods: ["DELETE"],
      path: `${BASE}/:clusterId`,
      operation: "DeleteCluster",
      handler: (ctx, operation) => ok(backend.deleteCluster(authorize(ctx, operation), clusterId(ctx))),
    },
    { methods: ["PATCH"], path: `${BASE}/:clusterId`, operation: "ScaleCluster", handler: scale },
    { methods: ["PUT"], path: `${BASE}/:clusterId/scale`, operation: "ScaleCluster", handler: scale },
    {
      methods: ["POST"],
      path: `${BASE}/:clusterId`,
      operation: "RerunCluster",
      handler: (ctx, operation) => {
        const caller = authorize(ctx, operation);
        const input = parseRerun(jsonObject(ctx, true));
        return jsonResponse(202, backend.rerunCluster(caller, clusterId(ctx), apiKey(ctx), input));
      },
    },
    {
      methods: ["GET"],
      path: `${BASE}/:clusterId/requests/:requestId`,
      operation: "GetRerunRequest",
      handler: (ctx, operation) => {
        const caller = authorize(ctx, operation);
        const verbose = booleanParam(ctx.query.get("verbose"), "verbose") ?? false;
        return ok(backend.getRerunRequest(caller, clusterId(ctx), ctx.params.requestId ?? "", apiKey(ctx), verbose));
      },
    },
  ];
}
