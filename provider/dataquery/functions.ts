/** Data query lookups: the data sources, and a query's result (one page, or every page up to 1000 rows). */
import { z } from "zod";
import { pickShapes, serviceLookups, type LookupArgs, type LookupResult } from "../core";
import { dataQuery } from "./client";

const lookup = serviceLookups("dataquery", dataQuery);

const dataSourceShape = () => ({
  name: z.string(),
  type: z.string(),
  scope: z.string().optional(),
  creatorName: z.string().optional(),
  description: z.string().optional(),
});

/** Every data source of the project (MySQL, PostgreSQL and data-catalog ones). */
export const { getDataSources, getDataSourcesOutput } = lookup("getDataSources", {
  description: "The project's data sources.",
  result: () => z.object({ dataSources: z.array(z.object(dataSourceShape())).describe("The project's data sources.") }),
  run: async (_args, c) => ({ dataSources: pickShapes(dataSourceShape(), await c.listDataSources()) }),
});
export type GetDataSourcesResult = LookupResult<typeof getDataSources>;

/** A query's state, result location, columns and rows. */
export const { getQueryResult, getQueryResultOutput } = lookup("getQueryResult", {
  description: "A data query's state, result location, columns and rows.",
  args: () => ({
    queryId: z.string().describe("The query's id."),
    page: z
      .number()
      .int("must be a whole number")
      .min(0, "must be from 0 to 9")
      .max(9, "must be from 0 to 9")
      .optional()
      .describe("One page, 0 to 9 (100 rows each); omitted: every page, up to 1000 rows."),
  }),
  result: () =>
    z.object({
      state: z.string().describe("The query's state."),
      storageUrl: z.string().optional().describe("Where the result lies: `bucket/path/YYYY/MM/DD`."),
      columns: z.array(z.object({ name: z.string(), index: z.number(), type: z.string() })).describe("Result columns."),
      rows: z.array(z.array(z.string())).describe("Rows, each an array of strings."),
      totalPages: z.number().optional(),
      totalElements: z.number().optional(),
    }),
  async run(args, c) {
    const first = await c.getQueryResult(args.queryId, args.page ?? 0);
    const rows = args.page === undefined ? (await c.getRows(args.queryId)).rows : first.rows;
    return {
      state: first.queryInfo.state,
      storageUrl: first.resultConfig.storageUrl,
      columns: first.columns,
      rows,
      totalPages: first.totalPages,
      totalElements: first.totalElements,
    };
  },
});
export type GetQueryResultArgs = LookupArgs<typeof getQueryResult>;
export type GetQueryResultResult = LookupResult<typeof getQueryResult>;
