import { jsonResponse, parseIntegerParam, textResponse, xmlResponse, type ApiResponse } from "../../core/http";
import { buildXml } from "../../core/xml";
import type { ListEntry, ObjectStorageBackend } from "../backend";
import { type Bucket } from "../model";
import { LIMITS } from "../limits";
import { bucketStatsHeaders, listFormat, optionalParam, type ContainerHandler } from "./common";
import { withCors } from "./cors";

function listingBody(bucket: Bucket, entries: ListEntry[], format: "plain" | "json" | "xml"): ApiResponse {
  if (format === "json") {
    return jsonResponse(
      200,
      entries.map((e) =>
        e.kind === "subdir"
          ? { subdir: e.subdir }
          : { name: e.name, hash: e.hash, bytes: e.bytes, content_type: e.content_type, last_modified: e.last_modified },
      ),
    );
  }
  if (format === "xml") {
    const objects = entries.filter((e) => e.kind === "object");
    const subdirs = entries.filter((e) => e.kind === "subdir");
    return xmlResponse(
      200,
      buildXml({
        container: {
          "@_name": bucket.name,
          object: objects.map((e) => ({ name: e.name, hash: e.hash, bytes: e.bytes, content_type: e.content_type, last_modified: e.last_modified })),
          subdir: subdirs.map((e) => ({ "@_name": e.subdir, name: e.subdir })),
        },
      }),
    );
  }
  return textResponse(200, entries.map((e) => `${e.kind === "subdir" ? e.subdir : e.name}\n`).join(""));
}

/** ListObjects (GET container) in plain, json or xml. */
export function listingOperations(backend: ObjectStorageBackend): Record<"ListObjects", ContainerHandler> {
  return {
    ListObjects(ctx, { account, name }) {
      const bucket = backend.state.bucket(account, name);
      const format = listFormat(ctx);
      const limit = parseIntegerParam(ctx.query.get("limit"), "limit", { min: 0, max: LIMITS.objectListLimit, fallback: LIMITS.objectListLimit });
      const delimiter = optionalParam(ctx, "delimiter");
      const entries = backend.listing.listObjects(bucket, {
        prefix: ctx.query.get("prefix") ?? "",
        delimiter: delimiter === "" ? undefined : delimiter,
        marker: optionalParam(ctx, "marker"),
        endMarker: optionalParam(ctx, "end_marker"),
        limit,
      });
      const response = listingBody(bucket, entries, format);
      response.headers = { ...response.headers, ...bucketStatsHeaders(bucket, backend.state.stats(bucket)) };
      return withCors(ctx, bucket, response);
    },
  };
}
