/**
 * krcloud:dataquery:Query — SQL that runs once when the resource is created, and again only when
 * its SQL, default data source or database, result location or `triggers` change (each a
 * replacement). Create waits through QUEUED/RUNNING (progress lines, `timeouts`); FAILED or ABORTED
 * fails with the service's message and keeps the query in state. Read never re-runs it, and a query
 * the service no longer lists stays in state as it was (a result that expired is not a reason to
 * run again, unlike what hurt Athena and "run SQL" resources). The SQL in state is always the
 * program's, never the service's 300-character preview. Delete aborts a query still running and
 * otherwise does nothing. Spec: 03-kms-dataquery-hadoop.md sections B.2, B.3, B.4, B.7, B.8.
 */
import { z } from "zod";
import { DATA_QUERY_LIMITS, TERMINAL_STATES, type DataQueryClient, type QueryResultPage } from "../../client/dataquery";
import { isConflict, isNotFound, rethrowAs, withAction } from "../../client/core";
import {
  PartialFailure,
  pickShape,
  timeoutFor,
  timeoutsInput,
  waitWithProgress,
  type Context,
  defineResource,
  resourceClass,
  nonEmpty,
  markerDigits,
  markerOf,
  reasonFor,
} from "../core";
import { dataQuery } from "./client";
import type { QueryArgs } from "./args";

/** A query is not a long-lived thing: create 30 minutes, no update or delete waits to speak of. */
export const QUERY_TIMEOUTS = Object.freeze({ create: 30 * 60_000, update: 30 * 60_000, delete: 5 * 60_000 });

const statsShape = () =>
  z.object({
    progressPercentage: z.number().optional(),
    inputRows: z.number().optional(),
    inputDataSize: z.string().optional(),
    outputRows: z.number().optional(),
    outputDataSize: z.string().optional(),
    createdAt: z.number().optional().describe("Epoch ms."),
    completedAt: z.number().optional().describe("Epoch ms."),
    elapsedTime: z.string().optional(),
    queryExecutionTime: z.string().optional(),
  });

/** A value sent as a request header: undici refuses to send a line break or a character beyond Latin-1. */
function headerValue(header: string) {
  return nonEmpty().regex(/^[\x20-\x7e]*$/, `must be printable ASCII (it travels as the ${header} header)`);
}

export function queryInputs() {
  return z.strictObject({
    query: z
      .string()
      .refine((q) => q.trim() !== "", "must not be empty")
      .describe("The SQL to run. Changing it runs it again (a replacement)."),
    dataSource: headerValue("X-Data-Source")
      .optional()
      .describe(
        "Default data source for unqualified table names (`X-Data-Source`); without it every table is `datasource.database.table`. Changing it runs the query again.",
      ),
    database: headerValue("X-Database").optional().describe("Default database (`X-Database`). Changing it runs the query again."),
    bucketName: nonEmpty().describe("Object storage bucket for the result. Changing it runs the query again."),
    path: z
      .string()
      .default("")
      .describe("Path in the bucket; the result goes to `path/YYYY/MM/DD` as a `.csv` and a `.metadata` file. Changing it runs the query again."),
    reuse: z
      .strictObject({
        maxReuseAge: z
          .number()
          .int("must be whole minutes")
          .min(DATA_QUERY_LIMITS.minReuseAge, "must be from 1 to 1440 minutes")
          .max(DATA_QUERY_LIMITS.maxReuseAge, "must be from 1 to 1440 minutes")
          .describe("Minutes, 1 to 1440."),
      })
      .optional()
      .describe("Reuse a previous identical query's result no older than maxReuseAge minutes. Only steers the run: changing it does not run the query again."),
    triggers: z.record(z.string(), z.string()).optional().describe("Any values; changing them runs the query again (a replacement)."),
    captureRows: z
      .number()
      .int("must be a whole number")
      .min(0, "must be from 0 to 1000")
      .max(DATA_QUERY_LIMITS.maxRows, "must be from 0 to 1000 (the API serves at most 1000 rows)")
      .default(0)
      .describe(
        "How many result rows to keep in the `rows` output (0, the default, keeps none; at most 1000). Changing it reads the rows again without running the query.",
      ),
    timeouts: timeoutsInput(QUERY_TIMEOUTS),
  });
}
export type QueryInputs = z.infer<ReturnType<typeof queryInputs>>;

export function queryOutputs() {
  return queryInputs().extend({
    queryId: z.string().describe("The service's query id."),
    state: z.string().describe("`FINISHED` once created; `FAILED`/`ABORTED` when it ended otherwise (kept in state)."),
    stats: statsShape().optional().describe("The query's statistics."),
    storageUrl: z.string().optional().describe("Where the result lies: `bucket/path/YYYY/MM/DD`."),
    errorMessage: z.string().optional().describe("The service's message for a failed query."),
    columns: z.array(z.object({ name: z.string(), index: z.number(), type: z.string() })).describe("Result columns (when rows were captured)."),
    rows: z.array(z.array(z.string())).describe("The first `captureRows` rows, each an array of strings."),
  });
}
export type QueryOutputs = z.infer<ReturnType<typeof queryOutputs>>;

export const query = defineResource("krcloud:dataquery:Query", queryInputs, queryOutputs, {
  description: "SQL run once on create, and again only when its SQL, data source, database, result location or triggers change. Refresh never re-runs it.",
  replaceOn: reasonFor(["query", "dataSource", "database", "bucketName", "path", "triggers"], "a query run cannot change: the query runs again, as a new run"),
  localInputs: ["reuse", "captureRows", "timeouts"],
  importId: "the query id",
  list: {
    kind: ["query run", "query runs"],
    inputs: { bucketName: "Only the runs whose result went to this bucket (a run still going has no result yet, and is left out)." },
    notUnmanaged: "a query run is a one-time run that the service keeps a list of for a while, not a resource left running",
    async page(ctx, { query }) {
      const runs = await dataQuery(ctx).listQueries({ sort: "createdAt,desc", size: 100 }).catch(rethrowAs("listing data queries"));
      const wanted = query?.bucketName;
      // The list answers the result's place as `bucket/path/YYYY/MM/DD` (storageUrl) only.
      const bucketOf = (q: (typeof runs)[number]) => q.resultConfig.bucketName ?? q.resultConfig.storageUrl?.split("/")[0];
      return {
        items: runs.filter((q) => wanted === undefined || bucketOf(q) === wanted).map((q) => ({ id: q.queryInfo.queryId, name: q.queryInfo.queryId })),
      };
    },
  },
  unverifiable: "a query is a one-time run: refresh reads its state, and the service keeps none of the settings the program declares",
  offered: {
    dataSource: { list: async (ctx) => (await dataQuery(ctx).listDataSources()).map((d) => d.name), lookup: "krcloud.dataquery.getDataSources" },
    bucketName: { hint: "the result bucket must exist in this project and be writable (krcloud.objectstorage.getBuckets lists the buckets)" },
  },
  // A query run has no name to collide on: the SQL it sends starts with a comment carrying the
  // create key, and every create looks for a run with that key first, so the run after a crash or
  // a lost answer takes over the first run instead of running the SQL a second time.
  recovery: {
    lookFirst: true,
    async find(ctx, inputs) {
      if (ctx.createKey === undefined || inputs.reuse) return undefined;
      const marks = [sqlMarker(ctx.createKey) ?? "", `/* krcloud:${ctx.createKey} */`].filter((m) => m !== "");
      const recent = await dataQuery(ctx)
        .listQueries({ sort: "createdAt,desc", size: 100, maxPages: RECENT_PAGES })
        .catch(rethrowAs("looking for an earlier run of this data query"));
      return recent.find((q) => marks.some((m) => (q.queryInfo.queryTextPreview ?? "").startsWith(m)))?.queryInfo.queryId;
    },
  },
  describe: (id) => `data query "${id}"`,

  async create(ctx, inputs) {
    const c = dataQuery(ctx);
    const started = await c
      .runQuery({
        // With reuse the text must stay as written: the service reuses the results of identical text.
        query: inputs.reuse ? inputs.query : markedSql(inputs.query, ctx.createKey),
        dataSource: inputs.dataSource,
        database: inputs.database,
        bucketName: inputs.bucketName,
        path: inputs.path,
        reuse: inputs.reuse,
      })
      .catch(rethrowAs("running the data query"));
    const id = started.queryId;
    // Accepted: whatever happens next, the query is recorded and not run a second time by itself.
    try {
      const page = await waitFinished(ctx, c, id, timeoutFor(ctx, inputs.timeouts, "create", QUERY_TIMEOUTS));
      return { id, outs: await flatten(c, page, inputs, undefined) };
    } catch (e) {
      const page = await c.findQuery(id).catch(() => undefined);
      const outs = page ? await flatten(c, page, inputs, undefined, false) : { ...inputs, queryId: id, state: started.state, columns: [], rows: [] };
      throw new PartialFailure(id, outs, e);
    }
  },

  readsFromList: { no: "its read keeps the recorded run (columns, rows): only the run's record is asked for, and the run list holds the newest 100 runs only" },

  async read(ctx, id, olds) {
    const page = await dataQuery(ctx)
      .findQuery(id)
      .catch(rethrowAs(`reading data query "${id}"`));
    // Gone from the service's list (expired): the query ran; it stays in state as it was.
    if (!page) return olds;
    return {
      // Read from its id alone (import): what the service tells of the inputs. The SQL is its
      // preview (the first 300 characters) without the marker of a run made by this provider; the
      // default data source and database are not answered.
      ...(olds.query === undefined ? importedInputs(page) : {}),
      ...olds,
      // Taken over from its id alone (a lost answer, import): no rows read yet.
      columns: olds.columns ?? [],
      rows: olds.rows ?? [],
      queryId: id,
      state: page.queryInfo.state,
      stats: statsOf(page),
      storageUrl: page.resultConfig.storageUrl ?? olds.storageUrl,
      ...(page.queryInfo.errorMessage !== undefined ? { errorMessage: page.queryInfo.errorMessage } : {}),
    };
  },

  /** Only the provider's own inputs change in place: a resumed wait, or more or fewer captured rows. */
  async update(ctx, id, current, news) {
    const c = dataQuery(ctx);
    try {
      const page = TERMINAL_STATES.includes(current.state as never)
        ? await c.getQueryResult(id)
        : await waitFinished(ctx, c, id, timeoutFor(ctx, news.timeouts, "update", QUERY_TIMEOUTS));
      if (page.queryInfo.state !== "FINISHED") throw failed(id, page);
      const rowsChanged = news.captureRows !== current.captureRows || current.rows.length < Math.min(news.captureRows, current.stats?.outputRows ?? Infinity);
      return await flatten(c, page, news, rowsChanged ? undefined : current);
    } catch (e) {
      throw new PartialFailure(id, current, e);
    }
  },

  async delete(ctx, id, olds) {
    if (TERMINAL_STATES.includes(olds.state as never)) return;
    try {
      await dataQuery(ctx).abortQuery(id);
      ctx.progress(`data query "${id}": aborted (it was still ${olds.state})`);
    } catch (e) {
      // 409: it ended meanwhile; 404: the service forgot it. Either way there is nothing to stop.
      if (isConflict(e) || isNotFound(e)) return;
      throw withAction(e, `aborting data query "${id}"`);
    }
  },
});

/** How far back (pages of 100, newest first) a create looks for an earlier run of itself. */
const RECENT_PAGES = 5;

/**
 * The comment that marks a run with its create key's marker (ownership.ts), in 19 characters of the
 * 300 of the service's text preview (runs made before carry `/* krcloud:<create key> *\/`, 45, and
 * are found too).
 */
function sqlMarker(createKey: string | undefined): string | undefined {
  const marker = markerOf(createKey);
  return marker === undefined ? undefined : `/*k:${markerDigits(marker)}*/`;
}

/** The SQL as sent: the program's, after the marker comment (SQL engines ignore it). */
export function markedSql(sql: string, createKey: string | undefined): string {
  const mark = sqlMarker(createKey);
  return mark === undefined ? sql : `${mark} ${sql}`;
}

function importedInputs(page: QueryResultPage): Partial<QueryInputs> {
  const text = page.queryInfo.queryTextPreview;
  return {
    ...(text !== undefined ? { query: text.replace(/^\/\*(?:k:[0-9a-z]{13}| krcloud:[^*]* )\*\/ /, "") } : {}),
    ...(page.resultConfig.bucketName !== undefined ? { bucketName: page.resultConfig.bucketName } : {}),
    path: page.resultConfig.path ?? "",
    captureRows: 0,
  };
}

function statsOf(page: QueryResultPage): QueryOutputs["stats"] {
  const s = page.queryInfo.queryStats;
  return s && pickShape(statsShape().shape, s);
}

/** Outputs; rows are read (up to captureRows) unless `keep` already has them. */
async function flatten(c: DataQueryClient, page: QueryResultPage, inputs: QueryInputs, keep: QueryOutputs | undefined, readRows = true): Promise<QueryOutputs> {
  let columns = keep?.columns ?? [];
  let rows = keep?.rows ?? [];
  if (!keep && readRows && inputs.captureRows > 0 && page.queryInfo.state === "FINISHED") {
    const r = await c.getRows(page.queryInfo.queryId, inputs.captureRows).catch(rethrowAs(`reading the rows of data query "${page.queryInfo.queryId}"`));
    columns = r.columns;
    rows = r.rows;
  }
  return {
    ...inputs,
    queryId: page.queryInfo.queryId,
    state: page.queryInfo.state,
    stats: statsOf(page),
    storageUrl: page.resultConfig.storageUrl,
    ...(page.queryInfo.errorMessage !== undefined ? { errorMessage: page.queryInfo.errorMessage } : {}),
    columns: inputs.captureRows > 0 ? columns : [],
    rows: inputs.captureRows > 0 ? rows.slice(0, inputs.captureRows) : [],
  };
}

/** How a query that did not finish ended, with the service's message. */
function endedHow(page: QueryResultPage): string {
  const why = page.queryInfo.errorMessage ? `: ${page.queryInfo.errorMessage}` : "";
  return `ended ${page.queryInfo.state}${why}; change the query (or its triggers) to run it again`;
}

function failed(id: string, page: QueryResultPage): Error {
  return new Error(`data query "${id}" ${endedHow(page)}`);
}

/** Until FINISHED; FAILED or ABORTED end the wait at once with the service's message. */
async function waitFinished(ctx: Context, c: DataQueryClient, id: string, timeoutMs: number): Promise<QueryResultPage> {
  const page = await waitWithProgress<QueryResultPage>(ctx, {
    resource: `data query "${id}"`,
    status: () => c.findQuery(id),
    stateOf: (p) => {
      const pct = p.queryInfo.queryStats?.progressPercentage;
      return p.queryInfo.state === "RUNNING" && pct !== undefined ? `RUNNING ${pct}%` : p.queryInfo.state;
    },
    target: ["FINISHED"],
    failure: (p) => (p.queryInfo.state === "FAILED" || p.queryInfo.state === "ABORTED" ? endedHow(p) : undefined),
    timeoutMs,
  });
  return page!;
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { QueryArgs } from "./args";
/** SQL run once, and again only when it (or where it reads or writes) changes. */
export const Query = resourceClass<QueryArgs, QueryOutputs>(query);
export type Query = InstanceType<typeof Query>;
