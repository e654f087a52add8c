import { emptyResponse, jsonResponse, parseIntegerParam, textResponse, xmlResponse, type ApiResponse, type RequestContext } from "../../core/http";
import { buildXml } from "../../core/xml";
import type { ObjectStorageBackend } from "../backend";
import { swiftTimestamp, validateBucketName } from "../model";
import { LIMITS } from "../limits";
import { authorizeAccount } from "./auth";
import { bucketStatsHeaders, listFormat, metadataHeaders, optionalParam, removeHeaders, type ContainerHandler } from "./common";
import { withCors } from "./cors";

/** The Swift account (`/v1/{account}`): ListContainers and HeadAccount. */
export function accountOperations(backend: ObjectStorageBackend): Record<"ListContainers" | "HeadAccount", (ctx: RequestContext, op: string) => ApiResponse> {
  const api = backend.containers;
  const accountOf = (ctx: RequestContext): string => ctx.params.account ?? "";

  const accountHeaders = (account: string): Record<string, string> => {
    const s = api.accountStats(account);
    return {
      "X-Account-Container-Count": String(s.containerCount),
      "X-Account-Object-Count": String(s.objectCount),
      "X-Account-Bytes-Used": String(s.bytes),
      "X-Account-Bytes-Used-Actual": String(s.bytesActual),
      "X-Account-Storage-Policy-Default-Placement-Container-Count": String(s.containerCount),
      "X-Account-Storage-Policy-Default-Placement-Object-Count": String(s.objectCount),
      "X-Account-Storage-Policy-Default-Placement-Bytes-Used": String(s.bytes),
      "X-Account-Storage-Policy-Default-Placement-Bytes-Used-Actual": String(s.bytesActual),
      "X-Timestamp": swiftTimestamp(s.createdAt),
    };
  };

  return {
    ListContainers(ctx, op) {
      const account = accountOf(ctx);
      authorizeAccount(backend, ctx, account, op);
      const format = listFormat(ctx);
      const limit = parseIntegerParam(ctx.query.get("limit"), "limit", { min: 0, max: LIMITS.accountListLimit, fallback: LIMITS.accountListLimit });
      const marker = optionalParam(ctx, "marker");
      const endMarker = optionalParam(ctx, "end_marker");
      const rows = api.listContainers(account, {
        prefix: ctx.query.get("prefix") ?? "",
        limit,
        ...(marker !== undefined ? { marker } : {}),
        ...(endMarker !== undefined ? { endMarker } : {}),
      });
      const headers = accountHeaders(account);
      const entries = rows.map((r) => ({
        name: r.bucket.name,
        count: r.stats.objectCount,
        bytes: r.stats.bytes,
        last_modified: new Date(r.bucket.lastModified).toISOString(),
      }));
      if (format === "json") return jsonResponse(200, entries, headers);
      if (format === "xml") return xmlResponse(200, buildXml({ account: { "@_name": account, container: entries } }), headers);
      return textResponse(200, rows.map((r) => `${r.bucket.name}\n`).join(""), headers);
    },
    HeadAccount(ctx, op) {
      const account = accountOf(ctx);
      authorizeAccount(backend, ctx, account, op);
      return emptyResponse(204, { ...accountHeaders(account), "Content-Type": "text/plain; charset=utf-8" });
    },
  };
}

/** Swift container operations (`/v1/{account}/{bucket}`), called after authorisation. */
export function containerOperations(backend: ObjectStorageBackend): Record<string, ContainerHandler> {
  const api = backend.containers;
  return {
    HeadContainer(ctx, { account, name }) {
      const { bucket, stats } = api.headContainer(account, name);
      return withCors(
        ctx,
        bucket,
        emptyResponse(200, { ...bucketStatsHeaders(bucket, stats), "Content-Type": "text/plain; charset=utf-8", "Content-Length": "0" }),
      );
    },
    CreateContainer(ctx, { account, name }) {
      validateBucketName(name);
      const metadata = metadataHeaders(ctx, "x-container-meta-", { keepEmpty: false });
      const outcome = api.createContainer(account, name, metadata);
      return textResponse(outcome === "created" ? 201 : 202, "");
    },
    DeleteContainer(_ctx, { account, name }) {
      api.deleteContainer(account, name);
      return emptyResponse(204);
    },
    UpdateContainerMetadata(ctx, { account, name }) {
      const set = metadataHeaders(ctx, "x-container-meta-", { keepEmpty: true });
      api.updateContainerMetadata(account, name, set, removeHeaders(ctx, "x-remove-container-meta-"));
      return emptyResponse(204);
    },
  };
}
