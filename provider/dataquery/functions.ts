/** Data query lookups: the data sources, and a query's result (one page, or every page up to 1000 rows). */
import { rethrowAs } from "../../sdk/core";
import { DataQueryClient } from "../../sdk/dataquery";
import { lookupSettings, outputForm, type LookupOptions } from "../core";

function client(opts: LookupOptions): DataQueryClient {
  return new DataQueryClient({ settings: lookupSettings(opts) });
}

export interface GetDataSourcesResult {
  dataSources: { name: string; type: string; scope?: string; creatorName?: string; description?: string }[];
}

/** Every data source of the project (MySQL, PostgreSQL and data-catalog ones). */
export async function getDataSources(_args: Record<string, never> = {}, opts: LookupOptions = {}): Promise<GetDataSourcesResult> {
  const list = await client(opts).listDataSources().catch(rethrowAs("getDataSources"));
  return { dataSources: list.map((d) => ({ name: d.name, type: d.type, scope: d.scope, creatorName: d.creatorName, description: d.description })) };
}

export interface GetQueryResultArgs {
  queryId: string;
  /** One page (0 to 9, 100 rows each); omitted: every page, up to the API's 1000 rows. */
  page?: number;
}
export interface GetQueryResultResult {
  state: string;
  storageUrl?: string;
  columns: { name: string; index: number; type: string }[];
  rows: string[][];
  totalPages?: number;
  totalElements?: number;
}

/** A query's state, result location, columns and rows. */
export async function getQueryResult(args: GetQueryResultArgs, opts: LookupOptions = {}): Promise<GetQueryResultResult> {
  const c = client(opts);
  const first = await c.getQueryResult(args.queryId, args.page ?? 0).catch(rethrowAs("getQueryResult"));
  const rows = args.page === undefined ? (await c.getRows(args.queryId).catch(rethrowAs("getQueryResult"))).rows : first.rows;
  return {
    state: first.queryInfo.state,
    storageUrl: first.resultConfig.storageUrl,
    columns: first.columns,
    rows,
    totalPages: first.totalPages,
    totalElements: first.totalElements,
  };
}
export const getQueryResultOutput = outputForm(getQueryResult);
