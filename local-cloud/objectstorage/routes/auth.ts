import { hasPermission, type Identity } from "../../core/credentials";
import type { RequestContext } from "../../core/http";
import type { ObjectStorageBackend } from "../backend";
import { AccessDenied, Unauthorized } from "../errors";

/**
 * Named permissions per operation (spec 01 section 5 names; `storage.buckets.create`,
 * `storage.buckets.list` and `storage.objects.delete` are the local cloud's additions for
 * operations the spec names no permission for).
 */
export const OPERATION_PERMISSIONS: Readonly<Record<string, string>> = {
  CreateBucket: "storage.buckets.create",
  GetBucketMeta: "storage.buckets.get",
  DeleteBucket: "storage.buckets.delete",
  ListBuckets: "storage.buckets.list",
  UpdateBucketAcl: "storage.buckets.update",
  PutBucketLifecycleConfiguration: "storage.buckets.update",
  GetBucketLifecycleConfiguration: "storage.buckets.update",
  DeleteBucketLifecycleConfiguration: "storage.buckets.update",
  GetBucketCors: "storage.buckets.getIamPolicy",
  PutBucketCors: "storage.buckets.setIamPolicy",
  ListContainers: "storage.buckets.list",
  HeadAccount: "storage.buckets.list",
  HeadContainer: "storage.buckets.get",
  CreateContainer: "storage.buckets.create",
  DeleteContainer: "storage.buckets.delete",
  UpdateContainerMetadata: "storage.buckets.update",
  ListObjects: "storage.objects.get",
  HeadObject: "storage.objects.get",
  GetObject: "storage.objects.get",
  CreateTempUrl: "storage.objects.get",
  PutObject: "storage.objects.create",
  PostObject: "storage.objects.create",
  PutSloManifest: "storage.objects.create",
  InitiateMultipartUpload: "storage.objects.create",
  UploadPart: "storage.objects.create",
  CompleteMultipartUpload: "storage.objects.create",
  AbortMultipartUpload: "storage.objects.create",
  ListParts: "storage.objects.create",
  ListMultipartUploads: "storage.objects.create",
  DeleteObject: "storage.objects.delete",
  CopyObject: "storage.objects.get",
  MoveObject: "storage.objects.get",
};

const PUBLIC_READ_OPERATIONS = new Set(["ListObjects", "HeadContainer", "GetObject", "HeadObject"]);

export type Access = { kind: "identity"; identity: Identity } | { kind: "public" };

function tokenIdentity(ctx: RequestContext): Identity | undefined {
  const presented = ctx.presented;
  if (presented.kind === "none") return undefined;
  if (presented.kind === "invalid") throw new Unauthorized("Authentication failed: the X-Auth-Token is not valid.");
  if (presented.identity.kind !== "token") throw new Unauthorized("Object storage authenticates with X-Auth-Token; access keys are not accepted.");
  return presented.identity;
}

function requirePermission(identity: Identity, operation: string): void {
  const permission = OPERATION_PERMISSIONS[operation];
  if (permission && !hasPermission(identity, permission)) {
    throw new AccessDenied(`The credential lacks permission ${permission} needed for ${operation}.`);
  }
}

/** Extension API: a valid token with the operation's permission. */
export function authorizeProject(ctx: RequestContext, operation: string): Identity {
  const identity = tokenIdentity(ctx);
  if (!identity) throw new Unauthorized();
  requirePermission(identity, operation);
  return identity;
}

/**
 * Swift paths: the token's project must be `{account}` and hold the permission. Token-less (or
 * foreign-project) reads of a `read-only` bucket pass when the client address is allowed.
 */
export function authorizeAccount(backend: ObjectStorageBackend, ctx: RequestContext, account: string, operation: string, bucketName?: string): Access {
  const identity = tokenIdentity(ctx);
  const publicOk = (): boolean =>
    bucketName !== undefined && PUBLIC_READ_OPERATIONS.has(operation) && backend.auth.publicReadAllowed(account, bucketName, ctx.clientIp);
  if (!identity) {
    if (publicOk()) return { kind: "public" };
    throw new Unauthorized();
  }
  if (identity.projectId !== account) {
    if (publicOk()) return { kind: "public" };
    throw new AccessDenied(`The token belongs to another project than account "${account.slice(0, 64)}".`);
  }
  const permission = OPERATION_PERMISSIONS[operation];
  if (permission && !hasPermission(identity, permission)) {
    if (publicOk()) return { kind: "public" };
    throw new AccessDenied(`The credential lacks permission ${permission} needed for ${operation}.`);
  }
  return { kind: "identity", identity };
}
