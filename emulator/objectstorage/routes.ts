import { z } from 'zod';
import { hasPermission, type Identity } from '../core/credentials';
import { BadRequest } from '../core/errors';
import {
  describeIssues,
  emptyResponse,
  header,
  jsonResponse,
  parseIntegerParam,
  parseJsonBody,
  requireMediaType,
  textResponse,
  xmlResponse,
  type ApiResponse,
  type HeaderValue,
  type RequestContext,
  type RouteDefinition,
} from '../core/http';
import { ipAllowed } from '../core/ip';
import { buildXml, elementKeys, parseXml } from '../core/xml';
import { isApiError } from '../core/errors';
import type { ObjectStorageBackend, ListEntry } from './backend';
import { md5Hex, normaliseAcl } from './backend';
import { corsResponseHeaders, corsView, findCorsPolicy, parseCors, preflightHeaders } from './cors';
import {
  AccessDenied,
  BadDigest,
  CorsForbidden,
  EntityTooLarge,
  InvalidArgument,
  InvalidManifest,
  InvalidRange,
  MalformedXml,
  MissingDestination,
  TempUrlDenied,
  Unauthorized,
  InvalidAcl,
} from './errors';
import { lifecycleXml, parseLifecycle } from './lifecycle';
import {
  DEFAULT_CONTENT_TYPE,
  FOLDER_CONTENT_TYPE,
  LIMITS,
  STORAGE_POLICY,
  swiftTimestamp,
  validateBucketName,
  validateMetadataEntry,
  validateObjectName,
  type Bucket,
  type MultipartUpload,
  type StoredObject,
} from './model';

/**
 * Named permissions per operation (seed 01 section 5 names; `storage.buckets.create`,
 * `storage.buckets.list` and `storage.objects.delete` are the local cloud's additions for
 * operations the seed names no permission for).
 */
export const OPERATION_PERMISSIONS: Readonly<Record<string, string>> = {
  CreateBucket: 'storage.buckets.create',
  GetBucketMeta: 'storage.buckets.get',
  DeleteBucket: 'storage.buckets.delete',
  ListBuckets: 'storage.buckets.list',
  UpdateBucketAcl: 'storage.buckets.update',
  PutBucketLifecycleConfiguration: 'storage.buckets.update',
  GetBucketLifecycleConfiguration: 'storage.buckets.update',
  DeleteBucketLifecycleConfiguration: 'storage.buckets.update',
  GetBucketCors: 'storage.buckets.getIamPolicy',
  PutBucketCors: 'storage.buckets.setIamPolicy',
  ListContainers: 'storage.buckets.list',
  HeadAccount: 'storage.buckets.list',
  HeadContainer: 'storage.buckets.get',
  CreateContainer: 'storage.buckets.create',
  DeleteContainer: 'storage.buckets.delete',
  UpdateContainerMetadata: 'storage.buckets.update',
  ListObjects: 'storage.objects.get',
  HeadObject: 'storage.objects.get',
  GetObject: 'storage.objects.get',
  CreateTempUrl: 'storage.objects.get',
  PutObject: 'storage.objects.create',
  PostObject: 'storage.objects.create',
  PutSloManifest: 'storage.objects.create',
  InitiateMultipartUpload: 'storage.objects.create',
  UploadPart: 'storage.objects.create',
  CompleteMultipartUpload: 'storage.objects.create',
  AbortMultipartUpload: 'storage.objects.create',
  ListParts: 'storage.objects.create',
  ListMultipartUploads: 'storage.objects.create',
  DeleteObject: 'storage.objects.delete',
  CopyObject: 'storage.objects.get',
  MoveObject: 'storage.objects.get',
};

const PUBLIC_READ_OPERATIONS = new Set(['ListObjects', 'HeadContainer', 'GetObject', 'HeadObject']);

const INFO = {
  swift: {
    version: '17.2.7',
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
  tempurl: { methods: ['GET'] },
  slo: { max_manifest_segments: LIMITS.maxSloSegments, min_segment_size: LIMITS.minSloSegmentSize, max_manifest_size: LIMITS.maxSloManifestSize },
  tempauth: {},
};

// ---- authentication and authorisation -----------------------------------------------------------

type Access = { kind: 'identity'; identity: Identity } | { kind: 'public' };

function tokenIdentity(ctx: RequestContext): Identity | undefined {
  const presented = ctx.presented;
  if (presented.kind === 'none') return undefined;
  if (presented.kind === 'invalid') throw new Unauthorized('Authentication failed: the X-Auth-Token is not valid.');
  if (presented.identity.kind !== 'token') throw new Unauthorized('Object storage authenticates with X-Auth-Token; access keys are not accepted.');
  return presented.identity;
}

function requirePermission(identity: Identity, operation: string): void {
  const permission = OPERATION_PERMISSIONS[operation];
  if (permission && !hasPermission(identity, permission)) {
    throw new AccessDenied(`The credential lacks permission ${permission} needed for ${operation}.`);
  }
}

function publicReadAllowed(backend: ObjectStorageBackend, ctx: RequestContext, account: string, bucketName: string): boolean {
  const bucket = backend.findBucket(account, bucketName);
  if (!bucket || bucket.acl.public !== 'read-only') return false;
  const list = bucket.acl.ipList;
  return !list || list.length === 0 || ipAllowed(ctx.clientIp, list);
}

/** Extension API: a valid token with the operation's permission. */
function authorizeProject(ctx: RequestContext, operation: string): Identity {
  const identity = tokenIdentity(ctx);
  if (!identity) throw new Unauthorized();
  requirePermission(identity, operation);
  return identity;
}

/**
 * Swift paths: the token's project must be `{account}` and hold the permission. Token-less (or
 * foreign-project) reads of a `read-only` bucket pass when the client address is allowed.
 */
function authorizeAccount(backend: ObjectStorageBackend, ctx: RequestContext, account: string, operation: string, bucketName?: string): Access {
  const identity = tokenIdentity(ctx);
  const publicOk = (): boolean =>
    bucketName !== undefined && PUBLIC_READ_OPERATIONS.has(operation) && publicReadAllowed(backend, ctx, account, bucketName);
  if (!identity) {
    if (publicOk()) return { kind: 'public' };
    throw new Unauthorized();
  }
  if (identity.projectId !== account) {
    if (publicOk()) return { kind: 'public' };
    throw new AccessDenied(`The token belongs to another project than account "${account.slice(0, 64)}".`);
  }
  const permission = OPERATION_PERMISSIONS[operation];
  if (permission && !hasPermission(identity, permission)) {
    if (publicOk()) return { kind: 'public' };
    throw new AccessDenied(`The credential lacks permission ${permission} needed for ${operation}.`);
  }
  return { kind: 'identity', identity };
}

// ---- request parsing helpers --------------------------------------------------------------------

function metadataHeaders(ctx: RequestContext, prefix: string, { keepEmpty }: { keepEmpty: boolean }): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, raw] of Object.entries(ctx.headers)) {
    if (!name.startsWith(prefix) || raw === undefined) continue;
    const key = name.slice(prefix.length);
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (value === '' && !keepEmpty) continue;
    validateMetadataEntry(key, value);
    result[key] = value;
  }
  return result;
}

function removeHeaders(ctx: RequestContext, prefix: string): string[] {
  return Object.keys(ctx.headers)
    .filter((name) => name.startsWith(prefix))
    .map((name) => name.slice(prefix.length));
}

/** Swift answers metadata header names title-cased (X-Object-Meta-Owner-Name); keys are stored lowercase. */
function titleCase(key: string): string {
  return key
    .split('-')
    .map((w) => (w === '' ? w : w[0]!.toUpperCase() + w.slice(1)))
    .join('-');
}

function metaResponseHeaders(prefix: string, metadata: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) headers[`${prefix}${titleCase(key)}`] = value;
  return headers;
}

/** Percent-encodes each segment of a path for use in a header (Swift quotes names in headers). */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

function listFormat(ctx: RequestContext): 'plain' | 'json' | 'xml' {
  const format = ctx.query.get('format') ?? 'plain';
  if (format !== 'plain' && format !== 'json' && format !== 'xml') throw new InvalidArgument('format must be plain, json or xml.');
  return format;
}

function optionalParam(ctx: RequestContext, name: string): string | undefined {
  return ctx.query.get(name) ?? undefined;
}

function bucketStatsHeaders(backend: ObjectStorageBackend, bucket: Bucket): Record<string, string> {
  const stats = backend.stats(bucket);
  return {
    'X-Container-Object-Count': String(stats.objectCount),
    'X-Container-Bytes-Used': String(stats.bytes),
    'X-Container-Bytes-Used-Actual': String(stats.bytesActual),
    'X-Storage-Policy': STORAGE_POLICY,
    'X-Timestamp': swiftTimestamp(bucket.createdAt),
    'Last-Modified': new Date(bucket.lastModified).toUTCString(),
    ...metaResponseHeaders('X-Container-Meta-', bucket.metadata),
  };
}

function accountHeaders(backend: ObjectStorageBackend, account: string): Record<string, string> {
  const s = backend.accountStats(account);
  return {
    'X-Account-Container-Count': String(s.containerCount),
    'X-Account-Object-Count': String(s.objectCount),
    'X-Account-Bytes-Used': String(s.bytes),
    'X-Account-Bytes-Used-Actual': String(s.bytesActual),
    'X-Account-Storage-Policy-Default-Placement-Container-Count': String(s.containerCount),
    'X-Account-Storage-Policy-Default-Placement-Object-Count': String(s.objectCount),
    'X-Account-Storage-Policy-Default-Placement-Bytes-Used': String(s.bytes),
    'X-Account-Storage-Policy-Default-Placement-Bytes-Used-Actual': String(s.bytesActual),
    'X-Timestamp': swiftTimestamp(s.createdAt),
  };
}

/** The content headers an object keeps from its PUT (or POST): stored as given, served on HEAD/GET. */
const CONTENT_HEADERS: Record<string, string> = { 'cache-control': 'Cache-Control', 'content-disposition': 'Content-Disposition', 'content-encoding': 'Content-Encoding' };

function contentHeadersOf(ctx: RequestContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [lower, name] of Object.entries(CONTENT_HEADERS)) {
    const v = header(ctx, lower);
    if (v !== undefined && v !== '') out[name] = v;
  }
  return out;
}

function objectHeaders(object: StoredObject, length: number, etag: string): Record<string, HeaderValue> {
  return {
    'Content-Type': object.contentType,
    ...(object.contentHeaders ?? {}),
    'Content-Length': String(length),
    'Accept-Ranges': 'bytes',
    Etag: etag,
    'Last-Modified': new Date(object.lastModified).toUTCString(),
    'X-Timestamp': swiftTimestamp(object.lastModified),
    'X-Object-Storage-Class': 'STANDARD',
    'X-Rgw-Object-Type': 'Normal',
    ...(object.dloManifest !== undefined ? { 'X-Object-Manifest': encodePath(object.dloManifest) } : {}),
    ...(object.sloManifest !== undefined ? { 'X-Static-Large-Object': 'True' } : {}),
    ...metaResponseHeaders('X-Object-Meta-', object.metadata),
  };
}

/** Single `bytes=a-b`, `bytes=a-` or `bytes=-n` range; anything else is ignored (full body), as HTTP allows. */
function parseRange(value: string | undefined, size: number): { start: number; end: number } | undefined {
  if (!value) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) throw new InvalidRange(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return undefined;
  }
  if (start >= size) throw new InvalidRange(size);
  return { start, end };
}

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function listingBody(bucket: Bucket, entries: ListEntry[], format: 'plain' | 'json' | 'xml'): ApiResponse {
  if (format === 'json') {
    return jsonResponse(
      200,
      entries.map((e) =>
        e.kind === 'subdir'
          ? { subdir: e.subdir }
          : { name: e.name, hash: e.hash, bytes: e.bytes, content_type: e.content_type, last_modified: e.last_modified },
      ),
    );
  }
  if (format === 'xml') {
    const objects = entries.filter((e) => e.kind === 'object');
    const subdirs = entries.filter((e) => e.kind === 'subdir');
    return xmlResponse(
      200,
      buildXml({
        container: {
          '@_name': bucket.name,
          object: objects.map((e) => ({ name: e.name, hash: e.hash, bytes: e.bytes, content_type: e.content_type, last_modified: e.last_modified })),
          subdir: subdirs.map((e) => ({ '@_name': e.subdir, name: e.subdir })),
        },
      }),
    );
  }
  return textResponse(200, entries.map((e) => `${e.kind === 'subdir' ? e.subdir : e.name}\n`).join(''));
}

// ---- schemas --------------------------------------------------------------------------------------

function createBucketSchema() {
  return z.strictObject({
    name: z.string({ message: 'name is required' }),
    type: z.literal('STANDARD', { message: 'type is required and must be STANDARD' }),
    use_encryption: z.boolean().nullish(),
    encryption_configuration: z
      .strictObject({ type: z.literal('managed', { message: 'encryption_configuration.type must be "managed"' }) })
      .nullish(),
  });
}

function aclBodySchema() {
  return z.strictObject({
    name: z.string().optional(),
    bucket_name: z.string().optional(),
    acl: z.unknown(),
  });
}

function sloSchema() {
  return z
    .array(
      z.strictObject({
        path: z.string().min(3),
        etag: z.string().nullish(),
        size_bytes: z.number().int().nonnegative().nullish(),
      }),
    )
    .min(1, 'the manifest lists no segments')
    .max(LIMITS.maxSloSegments, `at most ${LIMITS.maxSloSegments} segments`);
}

// ---- routes ---------------------------------------------------------------------------------------

function containerOperation(ctx: RequestContext): string {
  switch (ctx.method) {
    case 'GET':
      return ctx.query.has('uploads') ? 'ListMultipartUploads' : 'ListObjects';
    case 'HEAD':
      return 'HeadContainer';
    case 'PUT':
      return 'CreateContainer';
    case 'DELETE':
      return 'DeleteContainer';
    case 'POST':
      return 'UpdateContainerMetadata';
    case 'OPTIONS':
      return 'CorsPreflight';
    default:
      return 'Unknown';
  }
}

function objectOperation(ctx: RequestContext): string {
  const q = ctx.query;
  switch (ctx.method) {
    case 'PUT':
      if (q.has('uploadId')) return q.has('partNumber') ? 'UploadPart' : 'CompleteMultipartUpload';
      return q.get('multipart-manifest') === 'put' ? 'PutSloManifest' : 'PutObject';
    case 'POST':
      return q.has('uploads') ? 'InitiateMultipartUpload' : 'PostObject';
    case 'GET':
      if (q.has('temp_url') && !q.has('temp_url_sig')) return 'CreateTempUrl';
      return q.has('uploadId') ? 'ListParts' : 'GetObject';
    case 'HEAD':
      return 'HeadObject';
    case 'DELETE':
      return q.has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject';
    case 'COPY':
      return 'CopyObject';
    case 'MOVE':
      return 'MoveObject';
    case 'OPTIONS':
      return 'CorsPreflight';
    default:
      return 'Unknown';
  }
}

export function objectStorageRoutes(backend: ObjectStorageBackend): RouteDefinition[] {
  // ---- CORS ----
  const preflight = (ctx: RequestContext, bucket: Bucket | undefined): ApiResponse => {
    const origin = header(ctx, 'origin');
    const method = header(ctx, 'access-control-request-method');
    if (!origin || !method) throw new BadRequest('A CORS preflight needs Origin and Access-Control-Request-Method headers.', 'InvalidArgument');
    const requested = (header(ctx, 'access-control-request-headers') ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '');
    const policy = bucket ? findCorsPolicy(bucket.cors, origin, method, requested) : undefined;
    if (!policy) throw new CorsForbidden();
    return emptyResponse(204, preflightHeaders(policy, origin, requested));
  };

  /** Adds CORS response headers to an actual request from an allowed Origin. */
  const withCors = (ctx: RequestContext, bucket: Bucket | undefined, response: ApiResponse): ApiResponse => {
    const origin = header(ctx, 'origin');
    if (!origin || !bucket) return response;
    const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
    const policy = findCorsPolicy(bucket.cors, origin, method);
    if (!policy) return response;
    return { ...response, headers: { ...(response.headers ?? {}), ...corsResponseHeaders(policy, origin) } };
  };

  // ---- extension API ----
  const extBucket = (ctx: RequestContext): string => ctx.params.name ?? '';

  const createBucket = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    requireMediaType(ctx, ['application/json']);
    const parsed = createBucketSchema().safeParse(parseJsonBody(ctx));
    if (!parsed.success) throw new InvalidArgument(describeIssues(parsed.error.issues));
    const body = parsed.data;
    validateBucketName(body.name);
    const encrypted = body.encryption_configuration ? true : body.use_encryption === true;
    return jsonResponse(200, backend.createBucket(identity.projectId, { name: body.name, encrypted, encryptionType: encrypted ? 'managed' : null }));
  };

  const getBucketMeta = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    const { record, metadata } = backend.getBucketMeta(identity.projectId, extBucket(ctx));
    return jsonResponse(200, record, metaResponseHeaders('X-Container-Meta-', metadata));
  };

  const deleteBucket = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    backend.deleteBucket(identity.projectId, extBucket(ctx));
    return emptyResponse(204);
  };

  const listBuckets = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    const q = ctx.query;
    const offset = parseIntegerParam(q.get('offset'), 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 });
    const limit = parseIntegerParam(q.get('limit'), 'limit', { min: 1, max: LIMITS.bucketListMax, fallback: LIMITS.bucketListDefault });
    const prefix = optionalParam(ctx, 'prefix');
    const include = optionalParam(ctx, 'include');
    if (prefix !== undefined && include !== undefined) throw new InvalidArgument('prefix and include cannot be combined.');
    const type = optionalParam(ctx, 'type');
    if (type !== undefined && type !== 'STANDARD') throw new InvalidArgument('type must be STANDARD.');
    const by = q.get('by') ?? 'bucket_name';
    if (!['bucket_name', 'bucket_type', 'created_at', 'bytes_used'].includes(by)) {
      throw new InvalidArgument('by must be bucket_name, bucket_type, created_at or bytes_used.');
    }
    const direct = q.get('direct') ?? 'asc';
    if (direct !== 'asc' && direct !== 'desc') throw new InvalidArgument('direct must be asc or desc.');
    return jsonResponse(
      200,
      backend.listBuckets(identity.projectId, {
        offset,
        limit,
        ...(prefix !== undefined ? { prefix } : {}),
        ...(include !== undefined ? { include } : {}),
        by: by as 'bucket_name',
        direct,
      }),
    );
  };

  const updateBucketAcl = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    requireMediaType(ctx, ['application/json']);
    const raw = parseJsonBody(ctx);
    const parsed = aclBodySchema().safeParse(raw);
    if (!parsed.success) throw new InvalidAcl(describeIssues(parsed.error.issues));
    const body = parsed.data;
    const names = [body.name, body.bucket_name].filter((n): n is string => n !== undefined);
    if (names.length === 0) throw new InvalidAcl('name (or bucket_name) is required.');
    for (const name of names) {
      if (name !== extBucket(ctx)) throw new InvalidAcl(`name "${name.slice(0, 80)}" does not match the bucket in the path.`);
    }
    if (!('acl' in (raw as object))) throw new InvalidAcl('acl is required (null removes the ACL).');
    const acl = normaliseAcl(body.acl);
    return jsonResponse(200, backend.updateBucketAcl(identity.projectId, extBucket(ctx), acl));
  };

  const putLifecycle = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    requireMediaType(ctx, ['application/xml', 'text/xml']);
    backend.bucket(identity.projectId, extBucket(ctx));
    const config = parseLifecycle(ctx.body.toString('utf8'));
    return xmlResponse(200, lifecycleXml(backend.putLifecycle(identity.projectId, extBucket(ctx), config)));
  };

  const getLifecycle = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    return xmlResponse(200, lifecycleXml(backend.getLifecycle(identity.projectId, extBucket(ctx))));
  };

  const deleteLifecycle = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    backend.deleteLifecycle(identity.projectId, extBucket(ctx));
    return emptyResponse(200);
  };

  const getCors = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    return jsonResponse(200, corsView(backend.getCors(identity.projectId, extBucket(ctx))));
  };

  const putCors = (ctx: RequestContext, op: string): ApiResponse => {
    const identity = authorizeProject(ctx, op);
    requireMediaType(ctx, ['application/json']);
    backend.bucket(identity.projectId, extBucket(ctx));
    const policies = parseCors(parseJsonBody(ctx));
    return jsonResponse(200, corsView(backend.putCors(identity.projectId, extBucket(ctx), policies)));
  };

  const extPreflight = (ctx: RequestContext): ApiResponse => {
    return preflight(ctx, backend.bucketByName(extBucket(ctx)));
  };

  // ---- Swift account ----
  const account = (ctx: RequestContext): string => ctx.params.account ?? '';

  const listContainers = (ctx: RequestContext, op: string): ApiResponse => {
    authorizeAccount(backend, ctx, account(ctx), op);
    const format = listFormat(ctx);
    const limit = parseIntegerParam(ctx.query.get('limit'), 'limit', { min: 0, max: LIMITS.accountListLimit, fallback: LIMITS.accountListLimit });
    const marker = optionalParam(ctx, 'marker');
    const endMarker = optionalParam(ctx, 'end_marker');
    const rows = backend.listContainers(account(ctx), {
      prefix: ctx.query.get('prefix') ?? '',
      limit,
      ...(marker !== undefined ? { marker } : {}),
      ...(endMarker !== undefined ? { endMarker } : {}),
    });
    const headers = accountHeaders(backend, account(ctx));
    if (format === 'json') {
      return jsonResponse(
        200,
        rows.map((r) => ({ name: r.bucket.name, count: r.stats.objectCount, bytes: r.stats.bytes, last_modified: new Date(r.bucket.lastModified).toISOString() })),
        headers,
      );
    }
    if (format === 'xml') {
      return xmlResponse(
        200,
        buildXml({
          account: {
            '@_name': account(ctx),
            container: rows.map((r) => ({ name: r.bucket.name, count: r.stats.objectCount, bytes: r.stats.bytes, last_modified: new Date(r.bucket.lastModified).toISOString() })),
          },
        }),
        headers,
      );
    }
    return textResponse(200, rows.map((r) => `${r.bucket.name}\n`).join(''), headers);
  };

  const headAccount = (ctx: RequestContext, op: string): ApiResponse => {
    authorizeAccount(backend, ctx, account(ctx), op);
    return emptyResponse(204, { ...accountHeaders(backend, account(ctx)), 'Content-Type': 'text/plain; charset=utf-8' });
  };

  // ---- Swift containers ----
  const containerHandler = (ctx: RequestContext, op: string): ApiResponse => {
    const acct = account(ctx);
    const name = ctx.params.bucket ?? '';
    if (op === 'CorsPreflight') return preflight(ctx, backend.findBucket(acct, name));
    authorizeAccount(backend, ctx, acct, op, name);
    switch (op) {
      case 'HeadContainer': {
        const bucket = backend.bucket(acct, name);
        return withCors(ctx, bucket, emptyResponse(200, { ...bucketStatsHeaders(backend, bucket), 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': '0' }));
      }
      case 'ListObjects': {
        const bucket = backend.bucket(acct, name);
        const format = listFormat(ctx);
        const limit = parseIntegerParam(ctx.query.get('limit'), 'limit', { min: 0, max: LIMITS.objectListLimit, fallback: LIMITS.objectListLimit });
        const delimiter = optionalParam(ctx, 'delimiter');
        const marker = optionalParam(ctx, 'marker');
        const endMarker = optionalParam(ctx, 'end_marker');
        const entries = backend.listObjects(bucket, {
          prefix: ctx.query.get('prefix') ?? '',
          delimiter: delimiter === '' ? undefined : delimiter,
          marker,
          endMarker,
          limit,
        });
        const response = listingBody(bucket, entries, format);
        response.headers = { ...response.headers, ...bucketStatsHeaders(backend, bucket) };
        return withCors(ctx, bucket, response);
      }
      case 'ListMultipartUploads': {
        const bucket = backend.bucket(acct, name);
        const uploads = backend.listMultipartUploads(bucket, ctx.query.get('prefix') ?? '');
        return xmlResponse(
          200,
          buildXml({
            ListMultipartUploadsResult: {
              Tenant: acct,
              Bucket: bucket.name,
              Upload: uploads.map((u) => ({ Key: u.key, UploadId: u.uploadId, Initiated: new Date(u.initiatedAt).toISOString() })),
            },
          }),
        );
      }
      case 'CreateContainer': {
        validateBucketName(name);
        const metadata = metadataHeaders(ctx, 'x-container-meta-', { keepEmpty: false });
        const outcome = backend.createContainer(acct, name, metadata);
        return textResponse(outcome === 'created' ? 201 : 202, '');
      }
      case 'DeleteContainer':
        backend.deleteContainer(acct, name);
        return emptyResponse(204);
      case 'UpdateContainerMetadata': {
        const set = metadataHeaders(ctx, 'x-container-meta-', { keepEmpty: true });
        backend.updateContainerMetadata(acct, name, set, removeHeaders(ctx, 'x-remove-container-meta-'));
        return emptyResponse(204);
      }
      default:
        throw new BadRequest(`Unsupported container operation ${ctx.method}.`);
    }
  };

  // ---- Swift objects ----
  const destination = (ctx: RequestContext): { bucket: string; name: string } => {
    const raw = header(ctx, 'destination');
    if (!raw) throw new MissingDestination();
    const decoded = safeDecode(raw.trim());
    if (decoded === undefined) throw new MissingDestination('The Destination header is not validly percent-encoded.');
    const path = decoded.startsWith('/') ? decoded.slice(1) : decoded;
    const slash = path.indexOf('/');
    if (slash <= 0 || slash === path.length - 1) throw new MissingDestination();
    const name = path.slice(slash + 1);
    validateObjectName(name);
    return { bucket: path.slice(0, slash), name };
  };

  const download = (ctx: RequestContext, bucket: Bucket, name: string, extra: Record<string, string>): ApiResponse => {
    const { object, content, etag } = backend.getObject(bucket, name);
    if (ctx.query.get('multipart-manifest') === 'get' && object.sloManifest) {
      return jsonResponse(200, object.sloManifest, { 'X-Static-Large-Object': 'True', Etag: object.etag, ...extra });
    }
    const headers = { ...objectHeaders(object, content.length, etag), ...extra };
    if (ctx.method === 'HEAD') return { status: 200, headers };
    const range = parseRange(header(ctx, 'range'), content.length);
    if (range) {
      const slice = content.subarray(range.start, range.end + 1);
      return {
        status: 206,
        headers: { ...headers, 'Content-Length': String(slice.length), 'Content-Range': `bytes ${range.start}-${range.end}/${content.length}` },
        body: slice,
      };
    }
    return { status: 200, headers, body: content };
  };

  const tempUrlDownload = (ctx: RequestContext, acct: string, bucketName: string, name: string): ApiResponse => {
    if (ctx.method !== 'GET') throw new TempUrlDenied('only GET is allowed through temporary URLs');
    const sig = ctx.query.get('temp_url_sig') ?? '';
    const expires = ctx.query.get('temp_url_expires') ?? '';
    backend.verifyTempUrl(acct, bucketName, name, sig, expires, ctx.now);
    const bucket = backend.bucket(acct, bucketName);
    const filename = ctx.query.get('filename') ?? name.split('/').filter((s) => s !== '').pop() ?? name;
    return download(ctx, bucket, name, { 'Content-Disposition': contentDisposition(filename) });
  };

  const uploadIdOf = (ctx: RequestContext): string => ctx.query.get('uploadId') ?? '';

  const multipartXml = (root: string, fields: Record<string, unknown>): string => buildXml({ [root]: { '@_xmlns': 'http://s3.amazonaws.com/doc/2006-03-01/', ...fields } });

  const parseCompleteBody = (ctx: RequestContext): Array<{ partNumber: number; etag: string }> => {
    let doc: Record<string, unknown>;
    try {
      doc = parseXml(ctx.body.toString('utf8'), (p) => p === 'CompleteMultipartUpload.Part');
    } catch (error) {
      if (isApiError(error)) throw new MalformedXml(error.message);
      throw error;
    }
    const root = doc.CompleteMultipartUpload;
    if (elementKeys(doc).length !== 1 || root === undefined) throw new MalformedXml('The root element must be <CompleteMultipartUpload>.');
    const parts = (typeof root === 'object' && root !== null ? ((root as Record<string, unknown>).Part ?? []) : []) as unknown[];
    return parts.map((part, index) => {
      const p = (typeof part === 'object' && part !== null ? part : {}) as Record<string, unknown>;
      const number = typeof p.PartNumber === 'string' ? p.PartNumber.trim() : '';
      const etag = typeof p.ETag === 'string' ? p.ETag.trim() : '';
      if (!/^\d{1,5}$/.test(number) || etag === '') throw new MalformedXml(`Part ${index + 1} needs a PartNumber and an ETag.`);
      return { partNumber: Number(number), etag };
    });
  };

  const objectHandler = async (ctx: RequestContext, op: string): Promise<ApiResponse> => {
    const acct = account(ctx);
    const bucketName = ctx.params.bucket ?? '';
    const name = ctx.params['*'] ?? '';
    if (name === '') return containerHandler(ctx, op);
    if (op === 'CorsPreflight') return preflight(ctx, backend.findBucket(acct, bucketName));
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      if (ctx.query.has('temp_url_sig')) return withCors(ctx, backend.findBucket(acct, bucketName), tempUrlDownload(ctx, acct, bucketName, name));
    }
    const access = authorizeAccount(backend, ctx, acct, op, bucketName);
    const bucket = backend.bucket(acct, bucketName);
    validateObjectName(name);
    switch (op) {
      case 'GetObject':
      case 'HeadObject':
        return withCors(ctx, bucket, download(ctx, bucket, name, {}));
      case 'CreateTempUrl': {
        const expires = ctx.query.get('temp_url_expires');
        if (expires === null || !/^\d{1,12}$/.test(expires)) throw new InvalidArgument('temp_url_expires must be a Unix timestamp in seconds.');
        return jsonResponse(200, backend.createTempUrl(acct, bucket, name, Number(expires)));
      }
      case 'PutObject': {
        const declared = Number(header(ctx, 'content-length'));
        if (Number.isFinite(declared) && declared > LIMITS.maxFileSize) throw new EntityTooLarge(`A single upload is limited to ${LIMITS.maxFileSize} bytes; use multipart upload.`);
        const folder = name.endsWith('/');
        if (folder && ctx.body.length > 0) throw new InvalidArgument('A folder (a name ending in "/") has no content.');
        const expectedEtag = header(ctx, 'etag');
        if (expectedEtag !== undefined && expectedEtag.replace(/"/g, '').toLowerCase() !== md5Hex(ctx.body)) {
          throw new BadDigest();
        }
        const manifestHeader = header(ctx, 'x-object-manifest');
        let dloManifest: string | undefined;
        if (manifestHeader !== undefined) {
          const decoded = safeDecode(manifestHeader.trim());
          const slash = decoded?.indexOf('/') ?? -1;
          if (decoded === undefined || slash <= 0) throw new InvalidArgument('X-Object-Manifest must be {bucket}/{prefix}.');
          dloManifest = decoded.replace(/^\/+/, '');
        }
        const object = backend.putObject(bucket, name, {
          body: ctx.body,
          contentType: folder ? FOLDER_CONTENT_TYPE : (header(ctx, 'content-type') ?? DEFAULT_CONTENT_TYPE),
          metadata: metadataHeaders(ctx, 'x-object-meta-', { keepEmpty: false }),
          contentHeaders: contentHeadersOf(ctx),
          ...(dloManifest !== undefined ? { dloManifest } : {}),
        });
        return withCors(ctx, bucket, textResponse(201, '', { Etag: object.etag, 'Last-Modified': new Date(object.lastModified).toUTCString() }));
      }
      case 'PostObject': {
        const contentType = header(ctx, 'content-type');
        backend.postObject(bucket, name, metadataHeaders(ctx, 'x-object-meta-', { keepEmpty: false }), contentType, contentHeadersOf(ctx));
        return withCors(ctx, bucket, emptyResponse(200, { 'Content-Length': '0' }));
      }
      case 'DeleteObject': {
        if (ctx.query.get('multipart-manifest') === 'delete') {
          const result = backend.deleteSloManifest(bucket, name);
          return jsonResponse(200, {
            'Number Deleted': result.deleted,
            'Number Not Found': result.notFound,
            Errors: [],
            'Response Status': '200 OK',
            'Response Body': '',
          });
        }
        backend.deleteObject(bucket, name);
        return withCors(ctx, bucket, emptyResponse(204));
      }
      case 'CopyObject':
      case 'MoveObject': {
        const target = destination(ctx);
        const identity = access.kind === 'identity' ? access.identity : undefined;
        if (!identity || !hasPermission(identity, 'storage.objects.create')) {
          throw new AccessDenied(`The credential lacks permission storage.objects.create on the destination bucket.`);
        }
        const targetBucket = backend.bucket(acct, target.bucket);
        const source = backend.object(bucket, name);
        const object =
          op === 'CopyObject'
            ? backend.copyObject(bucket, name, targetBucket, target.name, metadataHeaders(ctx, 'x-object-meta-', { keepEmpty: false }))
            : backend.moveObject(bucket, name, targetBucket, target.name);
        return textResponse(201, '', {
          Etag: object.etag,
          'Last-Modified': new Date(object.lastModified).toUTCString(),
          'X-Copied-From': encodePath(`${bucket.name}/${name}`),
          'X-Copied-From-Last-Modified': new Date(source.lastModified).toUTCString(),
        });
      }
      case 'InitiateMultipartUpload': {
        const upload = backend.initiateMultipartUpload(
          bucket,
          name,
          header(ctx, 'content-type') ?? DEFAULT_CONTENT_TYPE,
          metadataHeaders(ctx, 'x-object-meta-', { keepEmpty: false }),
          contentHeadersOf(ctx),
        );
        return xmlResponse(201, multipartXml('InitiateMultipartUploadResult', { Tenant: acct, Bucket: bucket.name, Key: name, UploadId: upload.uploadId }));
      }
      case 'UploadPart': {
        const partNumber = parseIntegerParam(ctx.query.get('partNumber'), 'partNumber', { min: 1, max: LIMITS.maxPartNumber, fallback: 0 });
        const part = backend.uploadPart(bucket, name, uploadIdOf(ctx), partNumber, ctx.body);
        return emptyResponse(200, { ETag: `"${part.etag}"`, 'Content-Length': '0' });
      }
      case 'CompleteMultipartUpload': {
        const parts = parseCompleteBody(ctx);
        const object = backend.completeMultipartUpload(bucket, name, uploadIdOf(ctx), parts);
        return xmlResponse(
          201,
          multipartXml('CompleteMultipartUploadResult', {
            Location: `/v1/${acct}/${bucket.name}/${name}`,
            Tenant: acct,
            Bucket: bucket.name,
            Key: name,
            ETag: `"${object.etag}"`,
          }),
          { Etag: object.etag },
        );
      }
      case 'AbortMultipartUpload':
        backend.abortMultipartUpload(bucket, name, uploadIdOf(ctx));
        return emptyResponse(204);
      case 'ListParts': {
        const upload: MultipartUpload = backend.listParts(bucket, name, uploadIdOf(ctx));
        const maxParts = parseIntegerParam(ctx.query.get('max-parts'), 'max-parts', { min: 0, max: 1000, fallback: 1000 });
        const marker = parseIntegerParam(ctx.query.get('part-number-marker'), 'part-number-marker', { min: 0, max: LIMITS.maxPartNumber, fallback: 0 });
        const all = [...upload.parts.values()].filter((p) => p.partNumber > marker).sort((a, b) => a.partNumber - b.partNumber);
        const page = all.slice(0, maxParts);
        const truncated = all.length > page.length;
        return xmlResponse(
          200,
          multipartXml('ListPartsResult', {
            Tenant: acct,
            Bucket: bucket.name,
            Key: name,
            UploadId: upload.uploadId,
            StorageClass: 'STANDARD',
            PartNumberMarker: marker,
            NextPartNumberMarker: page.length > 0 ? page[page.length - 1]!.partNumber : marker,
            MaxParts: maxParts,
            IsTruncated: truncated ? 'true' : 'false',
            Part: page.map((p) => ({ PartNumber: p.partNumber, LastModified: new Date(p.lastModified).toISOString(), ETag: `"${p.etag}"`, Size: p.body.length })),
          }),
        );
      }
      case 'PutSloManifest': {
        if (ctx.body.length > LIMITS.maxSloManifestSize) throw new InvalidManifest(`The manifest exceeds ${LIMITS.maxSloManifestSize} bytes.`);
        let raw: unknown;
        try {
          raw = JSON.parse(ctx.body.toString('utf8')) as unknown;
        } catch {
          throw new InvalidManifest('The manifest is not valid JSON.');
        }
        const parsed = sloSchema().safeParse(raw);
        if (!parsed.success) throw new InvalidManifest(`Invalid SLO manifest: ${describeIssues(parsed.error.issues)}`);
        const object = backend.putSloManifest(
          bucket,
          name,
          parsed.data.map((s) => ({ path: s.path, ...(s.etag != null ? { etag: s.etag } : {}), ...(s.size_bytes != null ? { size_bytes: s.size_bytes } : {}) })),
          header(ctx, 'x-object-content-type') ?? DEFAULT_CONTENT_TYPE,
          metadataHeaders(ctx, 'x-object-meta-', { keepEmpty: false }),
        );
        return textResponse(201, '', { Etag: object.etag, 'Last-Modified': new Date(object.lastModified).toUTCString() });
      }
      default:
        throw new BadRequest(`Unsupported object operation ${ctx.method}.`);
    }
  };

  const accountRoute = (ctx: RequestContext, op: string): ApiResponse => (op === 'HeadAccount' ? headAccount(ctx, op) : listContainers(ctx, op));

  return [
    { methods: ['GET'], path: '/info', operation: 'GetInfo', handler: () => jsonResponse(200, INFO) },
    { methods: ['GET'], path: '/v1_ext/bucket', operation: 'ListBuckets', handler: listBuckets },
    { methods: ['PUT'], path: '/v1_ext/bucket', operation: 'CreateBucket', handler: createBucket },
    { methods: ['GET'], path: '/v1_ext/bucket/:name', operation: 'GetBucketMeta', handler: getBucketMeta },
    { methods: ['POST'], path: '/v1_ext/bucket/:name', operation: 'UpdateBucketAcl', handler: updateBucketAcl },
    { methods: ['DELETE'], path: '/v1_ext/bucket/:name', operation: 'DeleteBucket', handler: deleteBucket },
    { methods: ['PUT'], path: '/v1_ext/bucket/:name/lifecycle', operation: 'PutBucketLifecycleConfiguration', handler: putLifecycle },
    { methods: ['GET'], path: '/v1_ext/bucket/:name/lifecycle', operation: 'GetBucketLifecycleConfiguration', handler: getLifecycle },
    { methods: ['DELETE'], path: '/v1_ext/bucket/:name/lifecycle', operation: 'DeleteBucketLifecycleConfiguration', handler: deleteLifecycle },
    { methods: ['GET'], path: '/v1_ext/bucket/:name/cors', operation: 'GetBucketCors', handler: getCors },
    { methods: ['PUT', 'POST'], path: '/v1_ext/bucket/:name/cors', operation: 'PutBucketCors', handler: putCors },
    { methods: ['OPTIONS'], path: '/v1_ext/bucket/:name', operation: 'CorsPreflight', handler: extPreflight },
    { methods: ['OPTIONS'], path: '/v1_ext/bucket/:name/cors', operation: 'CorsPreflight', handler: extPreflight },
    { methods: ['OPTIONS'], path: '/v1_ext/bucket/:name/lifecycle', operation: 'CorsPreflight', handler: extPreflight },
    {
      methods: ['GET', 'HEAD'],
      path: '/v1/:account',
      operation: (ctx) => (ctx.method === 'HEAD' ? 'HeadAccount' : 'ListContainers'),
      handler: accountRoute,
    },
    {
      methods: ['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'OPTIONS'],
      path: '/v1/:account/:bucket',
      operation: (ctx) => (ctx.params.bucket === '' ? (ctx.method === 'HEAD' ? 'HeadAccount' : ctx.method === 'GET' ? 'ListContainers' : 'Unknown') : containerOperation(ctx)),
      handler: (ctx, op) => {
        if (ctx.params.bucket === '') {
          if (op === 'Unknown') throw new BadRequest('A bucket name is required.', 'InvalidArgument');
          return accountRoute(ctx, op);
        }
        return containerHandler(ctx, op);
      },
    },
    {
      methods: ['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'COPY', 'MOVE', 'OPTIONS'],
      path: '/v1/:account/:bucket/*',
      operation: (ctx) => (ctx.params['*'] === '' ? containerOperation(ctx) : objectOperation(ctx)),
      handler: objectHandler,
    },
  ];
}
