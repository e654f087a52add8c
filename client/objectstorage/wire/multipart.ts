/**
 * Multipart upload documents (spec 4.4): the `InitiateMultipartUploadResult` answer and the
 * `CompleteMultipartUpload` request, S3-shaped.
 */

import { InvalidArgumentError, ResponseFormatError } from "../errors";
import { stripQuotes } from "../parse";
import type { MultipartUploadSummary, UploadedPart } from "../types";
import { buildXml, isRecord, parseXml, textOf } from "../xml";

import { MAX_PART_NUMBER } from "../limits";

export { MIN_PART_SIZE, MAX_PART_NUMBER } from "../limits";

export function parseInitiateResult(text: string, action: string): { uploadId: string; tenant?: string; bucket?: string; key?: string } {
  let doc: Record<string, unknown>;
  try {
    doc = parseXml(text);
  } catch (e) {
    throw new ResponseFormatError(`${action}: the answer is not well-formed XML: ${(e as Error).message}`);
  }
  const r = isRecord(doc.InitiateMultipartUploadResult) ? doc.InitiateMultipartUploadResult : undefined;
  const uploadId = r ? textOf(r.UploadId)?.trim() : undefined;
  if (!r || !uploadId) throw new ResponseFormatError(`${action}: the answer has no InitiateMultipartUploadResult/UploadId`);
  const out: { uploadId: string; tenant?: string; bucket?: string; key?: string } = { uploadId };
  const tenant = textOf(r.Tenant);
  if (tenant !== undefined) out.tenant = tenant;
  const bucket = textOf(r.Bucket);
  if (bucket !== undefined) out.bucket = bucket;
  const key = textOf(r.Key);
  if (key !== undefined) out.key = key;
  return out;
}

/** Parts sorted by number, ETags quoted as in the spec's sample. */
export function buildCompleteXml(parts: readonly UploadedPart[]): string {
  if (parts.length === 0) throw new InvalidArgumentError("completing a multipart upload needs at least one part");
  const sorted = [...parts].sort((a, b) => a.partNumber - b.partNumber);
  for (let i = 0; i < sorted.length; i++) {
    const n = sorted[i]!.partNumber;
    if (!Number.isInteger(n) || n < 1 || n > MAX_PART_NUMBER) throw new InvalidArgumentError(`part number ${n} is outside 1..${MAX_PART_NUMBER}`);
    if (i > 0 && sorted[i - 1]!.partNumber === n) throw new InvalidArgumentError(`part number ${n} is listed twice`);
  }
  return buildXml(
    { CompleteMultipartUpload: { Part: sorted.map((p) => ({ PartNumber: String(p.partNumber), ETag: `"${stripQuotes(p.etag)}"` })) } },
    { quotes: false },
  );
}

export interface ListUploadsPage {
  uploads: MultipartUploadSummary[];
  truncated: boolean;
  nextKeyMarker?: string;
  nextUploadIdMarker?: string;
}

/** `ListMultipartUploadsResult` (S3 shape); an upload without a key or id is skipped. */
export function parseListUploadsResult(text: string, action: string): ListUploadsPage {
  let doc: Record<string, unknown>;
  try {
    doc = parseXml(text, ["Upload"]);
  } catch (e) {
    throw new ResponseFormatError(`${action}: the answer is not well-formed XML: ${(e as Error).message}`);
  }
  const r = isRecord(doc.ListMultipartUploadsResult) ? doc.ListMultipartUploadsResult : undefined;
  if (!r) throw new ResponseFormatError(`${action}: the answer has no ListMultipartUploadsResult`);
  const uploads: MultipartUploadSummary[] = [];
  for (const u of Array.isArray(r.Upload) ? r.Upload : []) {
    if (!isRecord(u)) continue;
    const key = textOf(u.Key);
    const uploadId = textOf(u.UploadId)?.trim();
    if (key === undefined || !uploadId) continue;
    const s: MultipartUploadSummary = { key, uploadId };
    const initiated = textOf(u.Initiated);
    if (initiated !== undefined) s.initiated = initiated;
    uploads.push(s);
  }
  const page: ListUploadsPage = { uploads, truncated: /^true$/i.test(textOf(r.IsTruncated)?.trim() ?? "") };
  const nk = textOf(r.NextKeyMarker);
  if (nk) page.nextKeyMarker = nk;
  const nu = textOf(r.NextUploadIdMarker);
  if (nu) page.nextUploadIdMarker = nu;
  return page;
}
