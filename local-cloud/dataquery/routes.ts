/** Data query routes (spec 03 B.4): `/v1/data-query/...`, access-key auth, the statuses of B.7. */
import { BadRequest } from "../core/errors";
import { header, jsonResponse, type ApiResponse, type RequestContext, type RouteDefinition } from "../core/http";
import { caller, jsonObjectBody as body } from "../core/input";
import type { DataQueryBackend } from "./backend";
import { QUERY_STATES } from "./lifecycle";
import type { Query } from "./model";
import { parseCreateSource, parseRunQuery } from "./validate";

function project(ctx: RequestContext): { projectId: string; creator: string } {
  return { projectId: caller(ctx, "access-key", "Data query").projectId, creator: header(ctx, "credential-id") ?? "unknown" };
}

const SORTABLE = ["queryId", "queryTextPreview", "state", "createdAt", "elapsedTime", "inputDataSize", "creatorName", "storageUrl"];

export function dataQueryRoutes(be: DataQueryBackend): RouteDefinition[] {
  const info = async (q: Query) => {
    const state = await be.stateOf(q);
    const rows = q.outcome?.rows.length ?? 0;
    return {
      queryId: q.id,
      state,
      queryStats: {
        progressPercentage: state === "FINISHED" ? 100 : state === "RUNNING" ? 50 : 0,
        inputRows: rows,
        inputDataSize: `${rows * 16}B`,
        outputRows: rows,
        outputDataSize: `${rows * 16}B`,
        createdAt: q.createdAt,
        ...(q.completedAt
          ? { completedAt: q.completedAt, elapsedTime: `${q.completedAt - q.createdAt}ms`, queryExecutionTime: `${q.completedAt - q.createdAt}ms` }
          : {}),
      },
      queryTextPreview: q.sql.slice(0, 300),
      isScanned: state === "FINISHED",
      ...(state === "FAILED" && q.error ? { errorMessage: q.error } : {}),
    };
  };
  return [
    {
      methods: ["POST"],
      path: "/v1/data-query/query",
      operation: "RunQuery",
      handler: (ctx): ApiResponse => {
        const { projectId } = project(ctx);
        const input = parseRunQuery(body(ctx));
        const q = be.run(projectId, { ...input, dataSource: header(ctx, "x-data-source"), database: header(ctx, "x-database") });
        return jsonResponse(202, { queryInfo: { queryId: q.id, state: "QUEUED" } });
      },
    },
    {
      methods: ["GET"],
      path: "/v1/data-query/query/:id",
      operation: "GetQueryResult",
      handler: async (ctx) => {
        const q = be.query(project(ctx).projectId, ctx.params.id!);
        const pageParam = ctx.query.get("page");
        const page = pageParam === null ? 0 : Number(pageParam);
        if (!Number.isInteger(page) || page < 0 || page > 9) throw new BadRequest("page: an integer from 0 to 9.");
        const qi = await info(q);
        const all = (q.outcome?.rows ?? []).slice(0, 1000);
        const rows = qi.state === "FINISHED" ? all.slice(page * 100, page * 100 + 100) : [];
        return jsonResponse(200, {
          queryInfo: qi,
          resultConfig: { bucketName: q.bucketName, path: q.path, storageUrl: q.storageUrl ?? "", storeType: "BASIC", isStored: q.storageUrl !== undefined },
          reuseConfig: { reuse: q.reuse, ...(q.reuseExpireAt ? { expireAt: q.reuseExpireAt } : {}) },
          columnData: qi.state === "FINISHED" ? (q.outcome?.columns ?? []).map((c, i) => ({ name: c.name, index: i + 1, type: c.type.toLowerCase() })) : [],
          queryData: rows,
          totalPages: Math.max(1, Math.ceil(all.length / 100)),
          totalElements: all.length,
          number: page,
          size: 100,
          numberOfElements: rows.length,
        });
      },
    },
    {
      methods: ["GET"],
      path: "/v1/data-query/query",
      operation: "ListQueries",
      handler: async (ctx) => {
        const { projectId, creator } = project(ctx);
        const states = ctx.query.getAll("states");
        for (const s of states) if (!QUERY_STATES.includes(s)) throw new BadRequest(`states: ${s} is not one of ${QUERY_STATES.join(", ")}.`);
        const size = Number(ctx.query.get("size") ?? 20);
        const page = Number(ctx.query.get("page") ?? 0);
        if (!Number.isInteger(size) || size < 1 || size > 1000) throw new BadRequest("size: an integer from 1 to 1000.");
        if (!Number.isInteger(page) || page < 0) throw new BadRequest("page: a non-negative integer.");
        const sorts = ctx.query.getAll("sort").map((s) => s.split(","));
        for (const [f, dir] of sorts)
          if (!SORTABLE.includes(f ?? "") || (dir !== "asc" && dir !== "desc"))
            throw new BadRequest(`sort: field,asc|desc with a field of ${SORTABLE.join(", ")}.`);
        type Item = {
          queryInfo: Awaited<ReturnType<typeof info>> & { queryStats: { scannedDataSize: string; createdAt: number; elapsedTime?: string } };
          resultConfig: { storageUrl: string };
          reuseConfig: { reuse: boolean };
          creatorName: string;
        };
        const items: Item[] = [];
        for (const q of [...be.queries.values()].filter((x) => x.projectId === projectId)) {
          const i = await info(q);
          if (states.length && !states.includes(i.state)) continue;
          if (ctx.query.get("queryId") && q.id !== ctx.query.get("queryId")) continue;
          if (ctx.query.get("creatorName") && creator !== ctx.query.get("creatorName")) continue;
          items.push({
            queryInfo: {
              ...i,
              queryStats: { scannedDataSize: i.queryStats.inputDataSize, createdAt: q.createdAt, elapsedTime: i.queryStats.elapsedTime },
            } as Item["queryInfo"],
            resultConfig: { storageUrl: q.storageUrl ?? "" },
            reuseConfig: { reuse: q.reuse },
            creatorName: creator,
          });
        }
        for (const [f, dir] of [...sorts].reverse()) {
          const get = (x: Item): string | number =>
            f === "createdAt"
              ? x.queryInfo.queryStats.createdAt
              : f === "state"
                ? x.queryInfo.state
                : f === "queryTextPreview"
                  ? x.queryInfo.queryTextPreview
                  : x.queryInfo.queryId;
          items.sort((a, b) => (get(a) < get(b) ? -1 : get(a) > get(b) ? 1 : 0) * (dir === "desc" ? -1 : 1));
        }
        const content = items.slice(page * size, page * size + size);
        const totalPages = Math.max(1, Math.ceil(items.length / size));
        return jsonResponse(200, {
          content,
          totalPages,
          totalElements: items.length,
          number: page,
          size,
          numberOfElements: content.length,
          first: page === 0,
          last: page + 1 >= totalPages,
          empty: content.length === 0,
        });
      },
    },
    {
      methods: ["PUT"],
      path: "/v1/data-query/query/:id/abort",
      operation: "AbortQuery",
      handler: async (ctx) => {
        const q = be.query(project(ctx).projectId, ctx.params.id!);
        be.abort(q, await be.stateOf(q));
        return jsonResponse(200, { queryId: q.id, state: "ABORTED" });
      },
    },
    {
      methods: ["GET"],
      path: "/v1/data-query/data-source",
      operation: "ListDataSources",
      handler: (ctx) =>
        jsonResponse(
          200,
          be.listSources(project(ctx).projectId).map((s) => ({
            name: s.name,
            type: s.type,
            scope: s.scope,
            creatorName: s.creatorName,
            ...(s.description !== undefined ? { description: s.description } : {}),
          })),
        ),
    },
    {
      methods: ["POST"],
      path: "/v1/data-query/data-source",
      operation: "CreateDataSource",
      handler: async (ctx) => {
        const { projectId, creator } = project(ctx);
        const input = parseCreateSource(body(ctx));
        await be.createSource(projectId, creator, input);
        return jsonResponse(200, { name: input.name });
      },
    },
    {
      methods: ["DELETE"],
      path: "/v1/data-query/data-source/:name",
      operation: "DeleteDataSource",
      handler: async (ctx) => {
        await be.deleteSource(project(ctx).projectId, ctx.params.name!);
        return jsonResponse(200, { name: ctx.params.name });
      },
    },
  ];
}
