import { z } from "zod";
import {
  describeIssues,
  emptyResponse,
  jsonResponse,
  parseIntegerParam,
  parseJsonBody,
  requireMediaType,
  xmlResponse,
  type ApiResponse,
  type RequestContext,
  type RouteDefinition,
} from "../../core/http";
import { normaliseAcl } from "../acl";
import type { ObjectStorageBackend } from "../backend";
import { corsView, parseCors } from "../bucket-cors";
import { InvalidAcl, InvalidArgument } from "../errors";
import { lifecycleXml, parseLifecycle } from "../bucket-lifecycle";
import { validateBucketName } from "../model";
import { LIMITS } from "../limits";
import { authorizeProject } from "./auth";
import { metadataHeaders, metaResponseHeaders, optionalParam } from "./common";
import { preflight } from "./cors";

function createBucketSchema() {
  return z.strictObject({
    name: z.string({ message: "name is required" }),
    type: z.literal("STANDARD", { message: "type is required and must be STANDARD" }),
    use_encryption: z.boolean().nullish(),
    encryption_configuration: z.strictObject({ type: z.literal("managed", { message: 'encryption_configuration.type must be "managed"' }) }).nullish(),
  });
}

function aclBodySchema() {
  return z.strictObject({
    name: z.string().optional(),
    bucket_name: z.string().optional(),
    acl: z.unknown(),
  });
}

const bucketOf = (ctx: RequestContext): string => ctx.params.name ?? "";

/** The extension API (spec 01 §4.1) under `/v1_ext/bucket`. */
export function extensionRoutes(backend: ObjectStorageBackend): RouteDefinition[] {
  const api = backend.extension;

  /** A handler of one bucket of the caller's project, called once the caller is authorized. */
  const onBucket =
    (f: (ctx: RequestContext, projectId: string, bucket: string) => ApiResponse) =>
    (ctx: RequestContext, op: string): ApiResponse =>
      f(ctx, authorizeProject(ctx, op).projectId, bucketOf(ctx));

  const createBucket = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    requireMediaType(ctx, ["application/json"]);
    const parsed = createBucketSchema().safeParse(parseJsonBody(ctx));
    if (!parsed.success) throw new InvalidArgument(describeIssues(parsed.error.issues));
    const body = parsed.data;
    validateBucketName(body.name);
    const encrypted = body.encryption_configuration ? true : body.use_encryption === true;
    // Metadata headers on the create are kept, as Swift's container PUT keeps them (a reading of
    // §2.1 "bucket metadata is returned as X-Container-Meta-* headers"; docs/api-assumptions.md).
    const metadata = metadataHeaders(ctx, "x-container-meta-", { keepEmpty: false });
    return jsonResponse(
      200,
      api.createBucket(identity.projectId, { name: body.name, encrypted, encryptionType: encrypted ? "managed" : null, metadata }),
      metaResponseHeaders("X-Container-Meta-", metadata),
    );
  };

  const getBucketMeta = onBucket((_ctx, projectId, bucket) => {
    const { record, metadata } = api.getBucketMeta(projectId, bucket);
    return jsonResponse(200, record, metaResponseHeaders("X-Container-Meta-", metadata));
  });

  const deleteBucket = onBucket((_ctx, projectId, bucket) => {
    api.deleteBucket(projectId, bucket);
    return emptyResponse(204);
  });

  const listBuckets = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    const q = ctx.query;
    const offset = parseIntegerParam(q.get("offset"), "offset", { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 });
    const limit = parseIntegerParam(q.get("limit"), "limit", { min: 1, max: LIMITS.bucketListMax, fallback: LIMITS.bucketListDefault });
    const prefix = optionalParam(ctx, "prefix");
    const include = optionalParam(ctx, "include");
    if (prefix !== undefined && include !== undefined) throw new InvalidArgument("prefix and include cannot be combined.");
    const type = optionalParam(ctx, "type");
    if (type !== undefined && type !== "STANDARD") throw new InvalidArgument("type must be STANDARD.");
    const by = q.get("by") ?? "bucket_name";
    if (!["bucket_name", "bucket_type", "created_at", "bytes_used"].includes(by)) {
      throw new InvalidArgument("by must be bucket_name, bucket_type, created_at or bytes_used.");
    }
    const direct = q.get("direct") ?? "asc";
    if (direct !== "asc" && direct !== "desc") throw new InvalidArgument("direct must be asc or desc.");
    return jsonResponse(
      200,
      api.listBuckets(identity.projectId, {
        offset,
        limit,
        ...(prefix !== undefined ? { prefix } : {}),
        ...(include !== undefined ? { include } : {}),
        by: by as "bucket_name",
        direct,
      }),
    );
  };

  const updateBucketAcl = onBucket((ctx, projectId, bucket) => {
    requireMediaType(ctx, ["application/json"]);
    const raw = parseJsonBody(ctx);
    const parsed = aclBodySchema().safeParse(raw);
    if (!parsed.success) throw new InvalidAcl(describeIssues(parsed.error.issues));
    const body = parsed.data;
    const names = [body.name, body.bucket_name].filter((n): n is string => n !== undefined);
    if (names.length === 0) throw new InvalidAcl("name (or bucket_name) is required.");
    for (const name of names) {
      if (name !== bucket) throw new InvalidAcl(`name "${name.slice(0, 80)}" does not match the bucket in the path.`);
    }
    if (!("acl" in (raw as object))) throw new InvalidAcl("acl is required (null removes the ACL).");
    const acl = normaliseAcl(body.acl);
    return jsonResponse(200, api.updateBucketAcl(projectId, bucket, acl));
  });

  const putLifecycle = onBucket((ctx, projectId, bucket) => {
    requireMediaType(ctx, ["application/xml", "text/xml"]);
    backend.state.bucket(projectId, bucket);
    const config = parseLifecycle(ctx.body.toString("utf8"));
    return xmlResponse(200, lifecycleXml(api.putLifecycle(projectId, bucket, config)));
  });

  const getLifecycle = onBucket((_ctx, projectId, bucket) => xmlResponse(200, lifecycleXml(api.getLifecycle(projectId, bucket))));

  const deleteLifecycle = onBucket((_ctx, projectId, bucket) => {
    api.deleteLifecycle(projectId, bucket);
    return emptyResponse(200);
  });

  const getCors = onBucket((_ctx, projectId, bucket) => jsonResponse(200, corsView(api.getCors(projectId, bucket))));

  const putCors = onBucket((ctx, projectId, bucket) => {
    requireMediaType(ctx, ["application/json"]);
    backend.state.bucket(projectId, bucket);
    const policies = parseCors(parseJsonBody(ctx));
    return jsonResponse(200, corsView(api.putCors(projectId, bucket, policies)));
  });

  /** Preflights on the extension path carry no account: any project's bucket answers. */
  const extPreflight = (ctx: RequestContext): ApiResponse => preflight(ctx, backend.state.buckets.get(bucketOf(ctx)));

  return [
    { methods: ["GET"], path: "/v1_ext/bucket", operation: "ListBuckets", handler: listBuckets },
    { methods: ["PUT"], path: "/v1_ext/bucket", operation: "CreateBucket", handler: createBucket },
    { methods: ["GET"], path: "/v1_ext/bucket/:name", operation: "GetBucketMeta", handler: getBucketMeta },
    { methods: ["POST"], path: "/v1_ext/bucket/:name", operation: "UpdateBucketAcl", handler: updateBucketAcl },
    { methods: ["DELETE"], path: "/v1_ext/bucket/:name", operation: "DeleteBucket", handler: deleteBucket },
    { methods: ["PUT"], path: "/v1_ext/bucket/:name/lifecycle", operation: "PutBucketLifecycleConfiguration", handler: putLifecycle },
    { methods: ["GET"], path: "/v1_ext/bucket/:name/lifecycle", operation: "GetBucketLifecycleConfiguration", handler: getLifecycle },
    { methods: ["DELETE"], path: "/v1_ext/bucket/:name/lifecycle", operation: "DeleteBucketLifecycleConfiguration", handler: deleteLifecycle },
    { methods: ["GET"], path: "/v1_ext/bucket/:name/cors", operation: "GetBucketCors", handler: getCors },
    { methods: ["PUT", "POST"], path: "/v1_ext/bucket/:name/cors", operation: "PutBucketCors", handler: putCors },
    { methods: ["OPTIONS"], path: "/v1_ext/bucket/:name", operation: "CorsPreflight", handler: extPreflight },
    { methods: ["OPTIONS"], path: "/v1_ext/bucket/:name/cors", operation: "CorsPreflight", handler: extPreflight },
    { methods: ["OPTIONS"], path: "/v1_ext/bucket/:name/lifecycle", operation: "CorsPreflight", handler: extPreflight },
  ];
}
