/**
 * Readers of data query answers: tolerant of fields the spec does not list, of numbers sent as
 * strings, and of missing optional parts; a missing required part is a ResponseFormatError naming it.
 */
import { jsonBoolean, jsonNumber, jsonObject, jsonString, jsonWithId } from "../core/json";
import { ResponseFormatError } from "./errors";
import type { Column, DataSource, QueryInfo, QueryResultPage, QueryStats, QuerySummary, ResultConfig, ReuseConfig } from "./types";

const obj = jsonObject;
const str = jsonString;
const num = jsonNumber;
const bool = jsonBoolean;

function stats(v: unknown): QueryStats | undefined {
  const s = obj(v);
  if (!s) return undefined;
  return {
    progressPercentage: num(s.progressPercentage),
    inputRows: num(s.inputRows),
    inputDataSize: str(s.inputDataSize),
    outputRows: num(s.outputRows),
    outputDataSize: str(s.outputDataSize),
    scannedDataSize: str(s.scannedDataSize),
    createdAt: num(s.createdAt),
    completedAt: num(s.completedAt),
    queryExecutionTime: str(s.queryExecutionTime),
    elapsedTime: str(s.elapsedTime),
    queuedTime: str(s.queuedTime),
    planningTime: str(s.planningTime),
  };
}

export function queryInfo(v: unknown, action: string): QueryInfo {
  const { o: q, id: queryId } = jsonWithId(v, ["queryId"], action, "queryInfo.queryId");
  const error = str(q.errorMessage) ?? str(q.message) ?? str(q.error) ?? str(q.failureReason);
  return {
    queryId,
    state: (str(q.state) ?? "").toUpperCase(),
    queryStats: stats(q.queryStats),
    queryTextPreview: str(q.queryTextPreview),
    isScanned: bool(q.isScanned),
    ...(error !== undefined ? { errorMessage: error } : {}),
  };
}

function resultConfig(v: unknown): ResultConfig {
  const r = obj(v) ?? {};
  return { bucketName: str(r.bucketName), path: str(r.path), storageUrl: str(r.storageUrl), storeType: str(r.storeType), isStored: bool(r.isStored) };
}

function reuseConfig(v: unknown): ReuseConfig {
  const r = obj(v) ?? {};
  return { reuse: bool(r.reuse), expireAt: num(r.expireAt) };
}

function columns(v: unknown): Column[] {
  if (!Array.isArray(v)) return [];
  return v.map((c, i) => {
    const o = obj(c) ?? {};
    return { name: str(o.name) ?? `column${i + 1}`, index: num(o.index) ?? i + 1, type: str(o.type) ?? "" };
  });
}

function rows(v: unknown): string[][] {
  if (!Array.isArray(v)) return [];
  return v.map((row) =>
    Array.isArray(row) ? row.map((cell) => (cell === null || cell === undefined ? "" : typeof cell === "string" ? cell : JSON.stringify(cell))) : [],
  );
}

/** The run answer `{queryInfo: {queryId, state}}` (a bare `{queryId, state}` read too). */
export function runAnswer(v: unknown, action: string): QueryInfo {
  const o = obj(v);
  return queryInfo(obj(o?.queryInfo) ?? o, action);
}

export function resultPage(v: unknown, action: string): QueryResultPage {
  const o = obj(v);
  if (!o) throw new ResponseFormatError(`${action}: the answer is not an object`);
  return {
    queryInfo: queryInfo(o.queryInfo, action),
    resultConfig: resultConfig(o.resultConfig),
    reuseConfig: reuseConfig(o.reuseConfig),
    columns: columns(o.columnData),
    rows: rows(o.queryData),
    totalPages: num(o.totalPages),
    totalElements: num(o.totalElements),
    number: num(o.number),
    size: num(o.size),
    numberOfElements: num(o.numberOfElements),
  };
}

/** One page of the list: Spring-style `{content, totalPages, last, number}`; a bare array read as the only page. */
export function listPage(v: unknown, action: string): { items: QuerySummary[]; last: boolean } {
  const o = obj(v);
  const content = Array.isArray(v) ? v : Array.isArray(o?.content) ? (o.content as unknown[]) : undefined;
  if (!content) throw new ResponseFormatError(`${action}: the answer has no content[]`);
  const items = content.map((c) => {
    const i = obj(c) ?? {};
    return {
      queryInfo: queryInfo(i.queryInfo, action),
      resultConfig: resultConfig(i.resultConfig),
      reuseConfig: reuseConfig(i.reuseConfig),
      creatorName: str(i.creatorName),
    };
  });
  if (Array.isArray(v)) return { items, last: true };
  const last = bool(o!.last);
  const totalPages = num(o!.totalPages);
  const number = num(o!.number);
  return { items, last: last ?? (totalPages !== undefined && number !== undefined ? number + 1 >= totalPages : items.length === 0) };
}

/** "JSON array of data source objects" (an object with `dataSources` or `content` read too). */
export function dataSources(v: unknown, action: string): DataSource[] {
  const o = obj(v);
  const list = Array.isArray(v)
    ? v
    : Array.isArray(o?.dataSources)
      ? (o.dataSources as unknown[])
      : Array.isArray(o?.content)
        ? (o.content as unknown[])
        : undefined;
  if (!list) throw new ResponseFormatError(`${action}: the answer is not a list of data sources`);
  return list.map((d) => {
    const s = obj(d) ?? {};
    const name = str(s.name);
    if (!name) throw new ResponseFormatError(`${action}: a data source without a name`);
    return {
      name,
      type: (str(s.type) ?? "").toUpperCase(),
      scope: str(s.scope)?.toUpperCase(),
      creatorName: str(s.creatorName),
      description: str(s.description),
      raw: s,
    };
  });
}
