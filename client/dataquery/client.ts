/**
 * Data query client (spec 03 section B): run a query, read its result pages, list queries, abort;
 * list, create and delete MySQL / PostgreSQL data sources. Access-key auth (`Credential-ID`,
 * `Credential-Secret`). Passwords are Base64-encoded for the wire here, and redacted (in both
 * forms) from any error.
 */
import { orUndefined, type ClientOptions, ServiceClient, idSegment } from "../core";
import { InvalidArgumentError } from "./errors";
import { parseJson } from "../core/json";
import "./secrets";
import { dataSources, listPage, resultPage, runAnswer } from "./parse";
import {
  QUERY_STATES,
  type CreateDataSourceInput,
  type DataSource,
  type ListQueriesOptions,
  type QueryInfo,
  type QueryResultPage,
  type QuerySummary,
  type RunQueryInput,
} from "./types";

/** Spec section 8. */
export const DATA_QUERY_LIMITS = Object.freeze({
  maxPage: 9,
  rowsPerPage: 100,
  maxRows: 1000,
  minReuseAge: 1,
  maxReuseAge: 1440,
  nameMin: 3,
  nameMax: 72,
  previewChars: 300,
});

export const DATA_SOURCE_NAME = /^[a-z0-9_]{3,72}$/;

const JSON_TYPE = "application/json";
const BASE = "/v1/data-query";

export class DataQueryClient extends ServiceClient {
  constructor(opts: ClientOptions) {
    super("dataquery", opts);
  }

  /** Starts a query; 202 with its id and state (QUEUED). Not idempotent: a repeat runs it again. */
  async runQuery(input: RunQueryInput): Promise<QueryInfo> {
    const action = "running a data query";
    if (!input.query.trim()) throw new InvalidArgumentError(`${action}: the query text is empty`);
    if (!input.bucketName) throw new InvalidArgumentError(`${action}: resultConfig.bucketName is required`);
    if (input.reuse) checkReuseAge(input.reuse.maxReuseAge, action);
    const body: Record<string, unknown> = { query: input.query, resultConfig: { bucketName: input.bucketName, path: input.path } };
    if (input.reuse) body.reuseConfig = { reuse: true, maxReuseAge: input.reuse.maxReuseAge };
    const res = await this.send({
      operation: "RunQuery",
      method: "POST",
      path: `${BASE}/query`,
      headers: { "content-type": JSON_TYPE, "x-data-source": input.dataSource, "x-database": input.database },
      body: JSON.stringify(body),
      expect: [200, 201, 202],
      action,
      idempotent: false,
    });
    return runAnswer(parseJson(res.body, action), action);
  }

  /** One result page (0 to 9, 100 rows each) with the query's state, stats and result location. */
  async getQueryResult(queryId: string, page?: number): Promise<QueryResultPage> {
    const action = `reading data query "${queryId}"`;
    if (page !== undefined && (!Number.isInteger(page) || page < 0 || page > DATA_QUERY_LIMITS.maxPage)) {
      throw new InvalidArgumentError(`${action}: page must be from 0 to ${DATA_QUERY_LIMITS.maxPage} (100 rows each, at most 1000 rows)`);
    }
    const res = await this.send({
      operation: "GetQueryResult",
      method: "GET",
      path: `${BASE}/query/${idSegment(queryId, action)}`,
      query: { page },
      action,
      idempotent: true,
    });
    return resultPage(parseJson(res.body, action), action);
  }

  /** The query, or undefined when the service no longer knows it (404). */
  async findQuery(queryId: string): Promise<QueryResultPage | undefined> {
    return orUndefined(this.getQueryResult(queryId));
  }

  /** Up to `maxRows` rows (at most 1000), reading pages from 0 until they run out. */
  async getRows(queryId: string, maxRows: number = DATA_QUERY_LIMITS.maxRows): Promise<{ columns: QueryResultPage["columns"]; rows: string[][] }> {
    const first = await this.getQueryResult(queryId, 0);
    const rows = [...first.rows];
    const pages = Math.min(first.totalPages ?? 1, DATA_QUERY_LIMITS.maxPage + 1);
    for (let p = 1; p < pages && rows.length < maxRows; p++) rows.push(...(await this.getQueryResult(queryId, p)).rows);
    return { columns: first.columns, rows: rows.slice(0, Math.min(maxRows, DATA_QUERY_LIMITS.maxRows)) };
  }

  /** Every query matching the filters, all pages. */
  async listQueries(o: ListQueriesOptions = {}): Promise<QuerySummary[]> {
    const action = "listing data queries";
    for (const s of o.states ?? [])
      if (!QUERY_STATES.includes(s)) throw new InvalidArgumentError(`${action}: unknown state "${s}" (${QUERY_STATES.join(", ")})`);
    if (o.sort !== undefined && !/^[A-Za-z]+,(asc|desc)$/.test(o.sort)) throw new InvalidArgumentError(`${action}: sort must be "field,asc" or "field,desc"`);
    const out: QuerySummary[] = [];
    for (let page = 0; page < (o.maxPages ?? 10_000); page++) {
      const q = new URLSearchParams();
      if (o.queryId) q.set("queryId", o.queryId);
      if (o.creatorName) q.set("creatorName", o.creatorName);
      for (const s of o.states ?? []) q.append("states", s);
      if (o.sort) q.set("sort", o.sort);
      if (o.size) q.set("size", String(o.size));
      q.set("page", String(page));
      const res = await this.send({ operation: "ListQueries", method: "GET", path: `${BASE}/query?${q.toString()}`, action, idempotent: true });
      const p = listPage(parseJson(res.body, action), action);
      out.push(...p.items);
      if (p.last || p.items.length === 0) break;
    }
    return out;
  }

  /** Aborts a queued or running query; 409 when it has already ended. Idempotent: the end state is the same. */
  async abortQuery(queryId: string): Promise<void> {
    const action = `aborting data query "${queryId}"`;
    await this.send({ operation: "AbortQuery", method: "PUT", path: `${BASE}/query/${idSegment(queryId, action)}/abort`, action, idempotent: true });
  }

  async listDataSources(): Promise<DataSource[]> {
    const action = "listing data sources";
    const res = await this.send({ operation: "ListDataSources", method: "GET", path: `${BASE}/data-source`, action, idempotent: true });
    return dataSources(parseJson(res.body, action), action);
  }

  /** The data source named `name`, or undefined (there is no get: the list is filtered). */
  async findDataSource(name: string): Promise<DataSource | undefined> {
    return (await this.listDataSources()).find((d) => d.name === name);
  }

  /** Creates a MySQL or PostgreSQL data source; 409 when the name exists. Not idempotent. */
  async createDataSource(input: CreateDataSourceInput): Promise<void> {
    const action = `creating data source "${input.name}"`;
    if (!DATA_SOURCE_NAME.test(input.name)) throw new InvalidArgumentError(`${action}: the name must be 3 to 72 lower-case letters, digits or underscores`);
    if (input.type === "POSTGRESQL" && !input.databaseName) throw new InvalidArgumentError(`${action}: databaseName is required for a PostgreSQL data source`);
    const encoded = Buffer.from(input.password, "utf8").toString("base64");
    const body: Record<string, unknown> = {
      type: input.type,
      name: input.name,
      scope: input.scope,
      instanceId: input.instanceId,
      username: input.username,
      password: encoded,
    };
    if (input.description !== undefined) body.description = input.description;
    if (input.type === "POSTGRESQL") body.databaseName = input.databaseName;
    await this.send({
      operation: "CreateDataSource",
      method: "POST",
      path: `${BASE}/data-source`,
      headers: { "content-type": JSON_TYPE },
      body: JSON.stringify(body),
      expect: [200, 201],
      action,
      idempotent: false,
      secrets: [input.password, encoded],
    });
  }

  /** Deletes a MySQL or PostgreSQL data source; 404 when it does not exist. */
  async deleteDataSource(name: string): Promise<void> {
    const action = `deleting data source "${name}"`;
    await this.send({ operation: "DeleteDataSource", method: "DELETE", path: `${BASE}/data-source/${idSegment(name, action)}`, action, idempotent: true });
  }
}

export function checkReuseAge(minutes: number, action: string): void {
  if (!Number.isInteger(minutes) || minutes < DATA_QUERY_LIMITS.minReuseAge || minutes > DATA_QUERY_LIMITS.maxReuseAge) {
    throw new InvalidArgumentError(`${action}: maxReuseAge must be a whole number of minutes from 1 to 1440`);
  }
}
