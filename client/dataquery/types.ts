/** Data query (spec 03 section B): requests and answers as the client returns them. */

export type QueryState = "QUEUED" | "RUNNING" | "FINISHED" | "ABORTED" | "FAILED";
export const QUERY_STATES: readonly QueryState[] = ["QUEUED", "RUNNING", "FINISHED", "ABORTED", "FAILED"];
export const TERMINAL_STATES: readonly QueryState[] = ["FINISHED", "ABORTED", "FAILED"];

export interface QueryStats {
  progressPercentage?: number;
  inputRows?: number;
  inputDataSize?: string;
  outputRows?: number;
  outputDataSize?: string;
  scannedDataSize?: string;
  /** Epoch ms. */
  createdAt?: number;
  completedAt?: number;
  queryExecutionTime?: string;
  elapsedTime?: string;
  queuedTime?: string;
  planningTime?: string;
}

export interface QueryInfo {
  queryId: string;
  /** As received; one of QUERY_STATES for a known state. */
  state: string;
  queryStats?: QueryStats;
  queryTextPreview?: string;
  isScanned?: boolean;
  /** The failure reason when the service gives one (the spec does not name the field). */
  errorMessage?: string;
}

export interface ResultConfig {
  bucketName?: string;
  path?: string;
  /** `bucket/path/YYYY/MM/DD`. */
  storageUrl?: string;
  storeType?: string;
  isStored?: boolean;
}

export interface ReuseConfig {
  reuse?: boolean;
  /** Epoch ms. */
  expireAt?: number;
}

export interface Column {
  name: string;
  /** From 1. */
  index: number;
  type: string;
}

export interface QueryResultPage {
  queryInfo: QueryInfo;
  resultConfig: ResultConfig;
  reuseConfig: ReuseConfig;
  columns: Column[];
  /** Rows, each an array of strings. */
  rows: string[][];
  totalPages?: number;
  totalElements?: number;
  /** The page number (0 to 9). */
  number?: number;
  size?: number;
  numberOfElements?: number;
}

export interface RunQueryInput {
  query: string;
  /** `X-Data-Source`: the default data source for unqualified table names. */
  dataSource?: string;
  /** `X-Database`: the default database. */
  database?: string;
  bucketName: string;
  path: string;
  /** Reuse a previous result no older than `maxReuseAge` minutes (1 to 1440). */
  reuse?: { maxReuseAge: number };
}

export interface ListQueriesOptions {
  queryId?: string;
  creatorName?: string;
  states?: QueryState[];
  /** `field,asc` or `field,desc`. */
  sort?: string;
  /** Page size for each request (all pages are read). */
  size?: number;
  /** Read at most this many pages (the newest first with `sort: "createdAt,desc"`). */
  maxPages?: number;
}

export interface QuerySummary {
  queryInfo: QueryInfo;
  resultConfig: ResultConfig;
  reuseConfig: ReuseConfig;
  creatorName?: string;
}

export type DataSourceType = "DATA_CATALOG" | "MYSQL" | "POSTGRESQL";
export type DataSourceScope = "NONE" | "PUBLIC" | "PRIVATE";

export interface DataSource {
  name: string;
  type: string;
  scope?: string;
  creatorName?: string;
  description?: string;
  raw: Record<string, unknown>;
}

export interface CreateDataSourceInput {
  type: "MYSQL" | "POSTGRESQL";
  /** 3 to 72: lower-case letters, digits, `_`. */
  name: string;
  scope: "PRIVATE" | "PUBLIC";
  description?: string;
  instanceId: string;
  username: string;
  /** Plain text: the client Base64-encodes it for the wire and never logs it. */
  password: string;
  /** PostgreSQL only, required there. */
  databaseName?: string;
}
