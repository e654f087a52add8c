/**
 * Static large object manifests (spec 4.5).
 *
 * Written in the spec's form `[{path: "{bucket}/{segment}", etag, size_bytes}]`. Read in either that
 * form or upstream Swift's stored form `[{name: "/{bucket}/{segment}", hash, bytes, ...}]`, which is
 * what Swift returns for `?multipart-manifest=get` (the spec does not show the answer's shape).
 */

import { looseInt } from "../parse";
import { InvalidArgumentError, ResponseFormatError } from "../errors";
import type { SloSegment } from "../types";
import { isRecord } from "../xml";

export const MAX_SLO_SEGMENTS = 1000;

export function expandSloManifest(segments: readonly SloSegment[]): { path: string; etag?: string; size_bytes?: number }[] {
  if (segments.length === 0) throw new InvalidArgumentError("an SLO manifest needs at least one segment");
  if (segments.length > MAX_SLO_SEGMENTS) throw new InvalidArgumentError(`an SLO manifest has at most ${MAX_SLO_SEGMENTS} segments, got ${segments.length}`);
  return segments.map((s, i) => {
    const path = s.path.replace(/^\/+/, "");
    if (!/^[^/]+\/.+/.test(path)) throw new InvalidArgumentError(`SLO segment ${i + 1}: path "${s.path}" must be {bucket}/{object}`);
    const w: { path: string; etag?: string; size_bytes?: number } = { path };
    if (s.etag !== undefined) w.etag = s.etag.replace(/^"(.*)"$/, "$1");
    if (s.sizeBytes !== undefined) w.size_bytes = s.sizeBytes;
    return w;
  });
}

export function flattenSloManifest(body: Buffer, action: string): SloSegment[] {
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    throw new ResponseFormatError(`${action}: the answer is not a JSON manifest (is the object an SLO?)`);
  }
  if (!Array.isArray(json)) throw new ResponseFormatError(`${action}: the manifest is not a JSON array`);
  return json.map((e, i) => {
    if (!isRecord(e)) throw new ResponseFormatError(`${action}: manifest entry ${i} is not an object`);
    const path = typeof e.path === "string" ? e.path : typeof e.name === "string" ? e.name : undefined;
    if (path === undefined) throw new ResponseFormatError(`${action}: manifest entry ${i} has neither path nor name`);
    const seg: SloSegment = { path: path.replace(/^\/+/, "") };
    const etag = typeof e.etag === "string" ? e.etag : typeof e.hash === "string" ? e.hash : undefined;
    if (etag !== undefined) seg.etag = etag.replace(/^"(.*)"$/, "$1");
    const size = looseInt().safeParse(e.size_bytes ?? e.bytes);
    if (size.success) seg.sizeBytes = size.data;
    return seg;
  });
}
