import { BadRequest } from "../../core/errors";
import { InvalidArgument } from "../errors";
import { jsonResponse, type ApiResponse, type RequestContext, type RouteDefinition } from "../../core/http";
import type { ObjectStorageBackend } from "../backend";
import { STORAGE_POLICY, validateObjectName } from "../model";
import { LIMITS } from "../limits";
import { authorizeAccount } from "./auth";
import type { ContainerHandler, ObjectHandler } from "./common";
import { accountOperations, containerOperations } from "./containers";
import { preflight, withCors } from "./cors";
import { extensionRoutes } from "./extension";
import { largeObjectOperations } from "./large-objects";
import { listingOperations } from "./listing";
import { multipartOperations } from "./multipart";
import { objectOperations } from "./objects";

export { OPERATION_PERMISSIONS } from "./auth";

const INFO = {
  swift: {
    version: "17.2.7",
    Account_listing_limit: LIMITS.accountListLimit,
    container_listing_limit: LIMITS.objectListLimit,
    max_file_size: LIMITS.maxFileSize,
    max_meta_length: LIMITS.maxMetaTotal,
    min_meta_name_length: LIMITS.minMetaName,
    max_meta_name_length: LIMITS.maxMetaName,
    min_meta_value_length: 0,
    max_meta_value_length: LIMITS.maxMetaValue,
    min_object_name_length: LIMITS.minObjectName,
    max_object_name_length: LIMITS.maxObjectName,
    min_container_name_length: LIMITS.minBucketName,
    max_container_name_length: LIMITS.maxBucketName,
    max_Account_name_length: 32,
    policies: [{ name: STORAGE_POLICY, default: true }],
  },
  tempurl: { methods: ["GET"] },
  slo: { max_manifest_segments: LIMITS.maxSloSegments, min_segment_size: LIMITS.minSloSegmentSize, max_manifest_size: LIMITS.maxSloManifestSize },
  tempauth: {},
};

/** The spec operation a container request names (the query string selects among some). */
function containerOperation(ctx: RequestContext): string {
  switch (ctx.method) {
    case "GET":
      return ctx.query.has("uploads") ? "ListMultipartUploads" : "ListObjects";
    case "HEAD":
      return "HeadContainer";
    case "PUT":
      return "CreateContainer";
    case "DELETE":
      return "DeleteContainer";
    case "POST":
      return "UpdateContainerMetadata";
    case "OPTIONS":
      return "CorsPreflight";
    default:
      return "Unknown";
  }
}

/** The spec operation an object request names. */
function objectOperation(ctx: RequestContext): string {
  const q = ctx.query;
  switch (ctx.method) {
    case "PUT":
      if (q.has("uploadId")) return q.has("partNumber") ? "UploadPart" : "CompleteMultipartUpload";
      return q.get("multipart-manifest") === "put" ? "PutSloManifest" : "PutObject";
    case "POST":
      return q.has("uploads") ? "InitiateMultipartUpload" : "PostObject";
    case "GET":
      if (q.has("temp_url") && !q.has("temp_url_sig")) return "CreateTempUrl";
      return q.has("uploadId") ? "ListParts" : "GetObject";
    case "HEAD":
      return "HeadObject";
    case "DELETE":
      return q.has("uploadId") ? "AbortMultipartUpload" : "DeleteObject";
    case "COPY":
      return "CopyObject";
    case "MOVE":
      return "MoveObject";
    case "OPTIONS":
      return "CorsPreflight";
    default:
      return "Unknown";
  }
}

/**
 * All object storage routes. Each area module parses and validates its operations and calls the
 * backend; this table only selects the operation and applies what they share: CORS preflights,
 * temp URL downloads, authorisation, the bucket lookup and the object name check.
 */
export function objectStorageRoutes(backend: ObjectStorageBackend): RouteDefinition[] {
  const account = accountOperations(backend);
  const multipart = multipartOperations(backend);
  const objects = objectOperations(backend);
  const containerHandlers: Record<string, ContainerHandler> = {
    ...containerOperations(backend),
    ...listingOperations(backend),
    ...multipart.containerHandlers,
  };
  const objectHandlers: Record<string, ObjectHandler> = {
    ...objects.handlers,
    ...multipart.objectHandlers,
    ...largeObjectOperations(backend),
  };

  const accountRoute = (ctx: RequestContext, op: string): ApiResponse =>
    op === "HeadAccount" ? account.HeadAccount(ctx, op) : account.ListContainers(ctx, op);

  const containerRoute = (ctx: RequestContext, op: string): ApiResponse => {
    const acct = ctx.params.account ?? "";
    const name = ctx.params.bucket ?? "";
    if (op === "CorsPreflight") return preflight(ctx, backend.state.findBucket(acct, name));
    authorizeAccount(backend, ctx, acct, op, name);
    const handler = containerHandlers[op];
    if (!handler) throw new BadRequest(`Unsupported container operation ${ctx.method}.`);
    return handler(ctx, { account: acct, name });
  };

  const objectRoute = async (ctx: RequestContext, op: string): Promise<ApiResponse> => {
    const acct = ctx.params.account ?? "";
    const bucketName = ctx.params.bucket ?? "";
    const name = ctx.params["*"] ?? "";
    if (name === "") return containerRoute(ctx, op);
    if (op === "CorsPreflight") return preflight(ctx, backend.state.findBucket(acct, bucketName));
    if ((ctx.method === "GET" || ctx.method === "HEAD") && ctx.query.has("temp_url_sig")) {
      return withCors(ctx, backend.state.findBucket(acct, bucketName), objects.tempUrlDownload(ctx, acct, bucketName, name));
    }
    const access = authorizeAccount(backend, ctx, acct, op, bucketName);
    const bucket = backend.state.bucket(acct, bucketName);
    validateObjectName(name);
    const handler = objectHandlers[op];
    if (!handler) throw new BadRequest(`Unsupported object operation ${ctx.method}.`);
    return handler(ctx, { account: acct, bucket, name, access });
  };

  return [
    { methods: ["GET"], path: "/info", operation: "GetInfo", handler: () => jsonResponse(200, INFO) },
    ...extensionRoutes(backend),
    {
      methods: ["GET", "HEAD"],
      path: "/v1/:account",
      operation: (ctx) => (ctx.method === "HEAD" ? "HeadAccount" : "ListContainers"),
      handler: accountRoute,
    },
    {
      methods: ["GET", "HEAD", "PUT", "DELETE", "POST", "OPTIONS"],
      path: "/v1/:account/:bucket",
      operation: (ctx) =>
        ctx.params.bucket === "" ? (ctx.method === "HEAD" ? "HeadAccount" : ctx.method === "GET" ? "ListContainers" : "Unknown") : containerOperation(ctx),
      handler: (ctx, op) => {
        if (ctx.params.bucket === "") {
          if (op === "Unknown") throw new InvalidArgument("A bucket name is required.");
          return accountRoute(ctx, op);
        }
        return containerRoute(ctx, op);
      },
    },
    {
      methods: ["GET", "HEAD", "PUT", "DELETE", "POST", "COPY", "MOVE", "OPTIONS"],
      path: "/v1/:account/:bucket/*",
      operation: (ctx) => (ctx.params["*"] === "" ? containerOperation(ctx) : objectOperation(ctx)),
      handler: objectRoute,
    },
  ];
}
