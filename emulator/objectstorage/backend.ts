import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { CredentialStore } from '../core/credentials';
import { BadRequest, Conflict, NotFound } from '../core/errors';
import type { InventoryEntry } from '../core/http';
import { randomHex } from '../core/ids';
import { isIpOrCidr } from '../core/ip';
import { parseCors, type CorsPolicy } from './cors';
import {
  BucketAlreadyExists,
  BucketNotEmpty,
  EntityTooSmall,
  InvalidAcl,
  InvalidManifest,
  InvalidPart,
  InvalidPartOrder,
  NoSuchBucket,
  NoSuchKey,
  NoSuchLifecycleConfiguration,
  NoSuchUpload,
  NotSupportedOnEncryptedBucket,
  TempUrlDenied,
} from './errors';
import { isExpired, lifecycleXml, parseLifecycle, type LifecycleConfiguration } from './lifecycle';
import {
  LIMITS,
  STORAGE_POLICY,
  compareNames,
  rfc3339,
  validateMetadataEntry,
  validateMetadataTotal,
  type Bucket,
  type BucketAcl,
  type BucketRecord,
  type MultipartUpload,
  type SloSegment,
  type StoredObject,
  type UploadPart,
} from './model';

export const SERVICE = 'object-storage';

export function md5Hex(data: Buffer): string {
  return createHash('md5').update(data).digest('hex');
}

function stripQuotes(etag: string): string {
  return etag.trim().replace(/^"(.*)"$/, '$1').toLowerCase();
}

/** Physical size as RGW reports it in *-Bytes-Used-Actual: each object rounded up to 4 KiB. */
function actualBytes(size: number): number {
  return Math.ceil(size / 4096) * 4096;
}

export interface ListObjectsQuery {
  prefix: string;
  delimiter: string | undefined;
  marker: string | undefined;
  endMarker: string | undefined;
  limit: number;
}

export type ListEntry =
  | { kind: 'object'; name: string; hash: string; bytes: number; content_type: string; last_modified: string }
  | { kind: 'subdir'; subdir: string };

export interface ListBucketsQuery {
  offset: number;
  limit: number;
  prefix?: string;
  include?: string;
  by: 'bucket_name' | 'bucket_type' | 'created_at' | 'bytes_used';
  direct: 'asc' | 'desc';
}

export interface PutObjectInput {
  body: Buffer;
  contentType: string;
  metadata: Record<string, string>;
  contentHeaders?: Record<string, string>;
  dloManifest?: string;
}

export interface ObjectContent {
  object: StoredObject;
  content: Buffer;
  etag: string;
  kind: 'plain' | 'dlo' | 'slo';
}

export interface BucketStats {
  objectCount: number;
  bytes: number;
  bytesActual: number;
}

export interface AccountStats extends BucketStats {
  containerCount: number;
  createdAt: number;
}

interface SnapshotObject extends Omit<StoredObject, 'body'> {
  body: string;
}

interface SnapshotBucket extends Omit<Bucket, 'objects' | 'uploads'> {
  objects: SnapshotObject[];
  uploads: Array<Omit<MultipartUpload, 'parts'> & { parts: Array<Omit<UploadPart, 'body'> & { body: string }> }>;
}

const DEFAULT_ACL: BucketAcl = { public: 'deny', ipList: null };

/**
 * Object storage state: buckets (one global namespace, as the S3-compatible path has no account),
 * their objects, metadata, ACL, CORS, lifecycle and multipart uploads. One method per API operation.
 */
export class ObjectStorageBackend {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly credentials: CredentialStore;

  constructor(now: () => number, credentials: CredentialStore) {
    this.now = now;
    this.credentials = credentials;
  }

  // ---- lookups -------------------------------------------------------------------------------

  /** A bucket of this project; another project's bucket is as invisible as a missing one. */
  bucket(projectId: string, name: string): Bucket {
    const bucket = this.buckets.get(name);
    if (!bucket || bucket.projectId !== projectId) throw new NoSuchBucket(name);
    return bucket;
  }

  /** Any project's bucket (CORS preflights on the extension path carry no account). */
  bucketByName(name: string): Bucket | undefined {
    return this.buckets.get(name);
  }

  findBucket(projectId: string, name: string): Bucket | undefined {
    const bucket = this.buckets.get(name);
    return bucket && bucket.projectId === projectId ? bucket : undefined;
  }

  object(bucket: Bucket, name: string): StoredObject {
    const object = bucket.objects.get(name);
    if (!object) throw new NoSuchKey(name);
    return object;
  }

  stats(bucket: Bucket): BucketStats {
    let bytes = 0;
    let bytesActual = 0;
    for (const object of bucket.objects.values()) {
      bytes += object.body.length;
      bytesActual += actualBytes(object.body.length);
    }
    return { objectCount: bucket.objects.size, bytes, bytesActual };
  }

  record(bucket: Bucket): BucketRecord {
    const stats = this.stats(bucket);
    return {
      project: bucket.projectId,
      account: bucket.projectId,
      name: bucket.name,
      type: bucket.type,
      bytes: stats.bytes,
      objectCount: stats.objectCount,
      createdAt: rfc3339(bucket.createdAt),
      lastModified: rfc3339(bucket.lastModified),
      use_encryption: bucket.encrypted,
      encryption_type: bucket.encryptionType,
      storageClass: 'STANDARD',
      storagePolicy: STORAGE_POLICY,
      acl: { public: bucket.acl.public, public_read_allow_ip_list: bucket.acl.ipList ? [...bucket.acl.ipList] : null, permissions: null },
    };
  }

  private newBucket(projectId: string, name: string, encrypted: boolean, encryptionType: string | null): Bucket {
    const now = this.now();
    return {
      name,
      projectId,
      type: 'STANDARD',
      createdAt: now,
      lastModified: now,
      encrypted,
      encryptionType,
      acl: { ...DEFAULT_ACL },
      metadata: {},
      cors: null,
      lifecycle: null,
      objects: new Map(),
      uploads: new Map(),
    };
  }

  private touch(bucket: Bucket): void {
    bucket.lastModified = this.now();
  }

  // ---- extension API -------------------------------------------------------------------------

  createBucket(projectId: string, input: { name: string; encrypted: boolean; encryptionType: string | null }): BucketRecord {
    if (this.buckets.has(input.name)) throw new BucketAlreadyExists(input.name);
    const bucket = this.newBucket(projectId, input.name, input.encrypted, input.encryptionType);
    this.buckets.set(bucket.name, bucket);
    return this.record(bucket);
  }

  getBucketMeta(projectId: string, name: string): { record: BucketRecord; metadata: Record<string, string> } {
    const bucket = this.bucket(projectId, name);
    return { record: this.record(bucket), metadata: { ...bucket.metadata } };
  }

  deleteBucket(projectId: string, name: string): void {
    const bucket = this.bucket(projectId, name);
    if (bucket.objects.size > 0) throw new BucketNotEmpty(name);
    this.buckets.delete(name);
  }

  listBuckets(projectId: string, query: ListBucketsQuery): { totalCount: number; offset: number; count: number; items: BucketRecord[] } {
    const records = [...this.buckets.values()]
      .filter((b) => b.projectId === projectId)
      .filter((b) => (query.prefix === undefined ? true : b.name.startsWith(query.prefix)))
      .filter((b) => (query.include === undefined ? true : b.name.includes(query.include)))
      .map((b) => ({ bucket: b, record: this.record(b) }));
    const key = (entry: { bucket: Bucket; record: BucketRecord }): string | number => {
      switch (query.by) {
        case 'bucket_type':
          return entry.bucket.type;
        case 'created_at':
          return entry.bucket.createdAt;
        case 'bytes_used':
          return entry.record.bytes;
        default:
          return entry.bucket.name;
      }
    };
    records.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      const primary = ka < kb ? -1 : ka > kb ? 1 : 0;
      const order = primary !== 0 ? primary : compareNames(a.bucket.name, b.bucket.name);
      return query.direct === 'desc' ? -order : order;
    });
    const items = records.slice(query.offset, query.offset + query.limit).map((r) => r.record);
    return { totalCount: records.length, offset: query.offset, count: items.length, items };
  }

  updateBucketAcl(projectId: string, name: string, acl: BucketAcl | null): BucketRecord {
    const bucket = this.bucket(projectId, name);
    bucket.acl = acl && acl.public === 'read-only' ? { public: 'read-only', ipList: acl.ipList ? [...acl.ipList] : null } : { ...DEFAULT_ACL };
    this.touch(bucket);
    return this.record(bucket);
  }

  putLifecycle(projectId: string, name: string, config: LifecycleConfiguration): LifecycleConfiguration {
    const bucket = this.bucket(projectId, name);
    bucket.lifecycle = structuredClone(config);
    this.touch(bucket);
    return config;
  }

  getLifecycle(projectId: string, name: string): LifecycleConfiguration {
    const bucket = this.bucket(projectId, name);
    if (!bucket.lifecycle) throw new NoSuchLifecycleConfiguration(name);
    return structuredClone(bucket.lifecycle);
  }

  deleteLifecycle(projectId: string, name: string): void {
    const bucket = this.bucket(projectId, name);
    bucket.lifecycle = null;
    this.touch(bucket);
  }

  getCors(projectId: string, name: string): CorsPolicy[] {
    return structuredClone(this.bucket(projectId, name).cors ?? []);
  }

  putCors(projectId: string, name: string, policies: CorsPolicy[]): CorsPolicy[] {
    const bucket = this.bucket(projectId, name);
    bucket.cors = policies.length > 0 ? structuredClone(policies) : null;
    this.touch(bucket);
    return policies;
  }

  // ---- Swift account and containers ----------------------------------------------------------

  accountStats(projectId: string): AccountStats {
    const stats: AccountStats = {
      containerCount: 0,
      objectCount: 0,
      bytes: 0,
      bytesActual: 0,
      createdAt: this.credentials.project(projectId)?.createdAt ?? this.now(),
    };
    for (const bucket of this.buckets.values()) {
      if (bucket.projectId !== projectId) continue;
      const s = this.stats(bucket);
      stats.containerCount += 1;
      stats.objectCount += s.objectCount;
      stats.bytes += s.bytes;
      stats.bytesActual += s.bytesActual;
    }
    return stats;
  }

  listContainers(projectId: string, query: { prefix: string; marker?: string; endMarker?: string; limit: number }): Array<{ bucket: Bucket; stats: BucketStats }> {
    return [...this.buckets.values()]
      .filter((b) => b.projectId === projectId && b.name.startsWith(query.prefix))
      .filter((b) => (query.marker === undefined ? true : compareNames(b.name, query.marker) > 0))
      .filter((b) => (query.endMarker === undefined ? true : compareNames(b.name, query.endMarker) < 0))
      .sort((a, b) => compareNames(a.name, b.name))
      .slice(0, query.limit)
      .map((bucket) => ({ bucket, stats: this.stats(bucket) }));
  }

  /** Swift PUT container: 'created' (201) or, for an existing bucket of the project, 'updated' (202). */
  createContainer(projectId: string, name: string, metadata: Record<string, string>): 'created' | 'updated' {
    const existing = this.buckets.get(name);
    if (existing && existing.projectId !== projectId) throw new BucketAlreadyExists(name);
    if (existing) {
      this.updateContainerMetadata(projectId, name, metadata, []);
      return 'updated';
    }
    validateMetadataTotal(metadata);
    const bucket = this.newBucket(projectId, name, false, null);
    bucket.metadata = { ...metadata };
    this.buckets.set(name, bucket);
    return 'created';
  }

  deleteContainer(projectId: string, name: string): void {
    this.deleteBucket(projectId, name);
  }

  /** Sets keys (an empty value removes the key, as in Swift) and removes `remove` keys. */
  updateContainerMetadata(projectId: string, name: string, set: Record<string, string>, remove: string[]): void {
    const bucket = this.bucket(projectId, name);
    const next = { ...bucket.metadata };
    for (const key of remove) delete next[key];
    for (const [key, value] of Object.entries(set)) {
      if (value === '') delete next[key];
      else next[key] = value;
    }
    validateMetadataTotal(next);
    bucket.metadata = next;
    this.touch(bucket);
  }

  // ---- objects -------------------------------------------------------------------------------

  putObject(bucket: Bucket, name: string, input: PutObjectInput): StoredObject {
    if (input.dloManifest !== undefined && bucket.encrypted) throw new NotSupportedOnEncryptedBucket('A DLO manifest', bucket.name);
    validateMetadataTotal(input.metadata);
    const now = this.now();
    const object: StoredObject = {
      name,
      contentType: input.contentType,
      body: input.body,
      ...(input.contentHeaders && Object.keys(input.contentHeaders).length ? { contentHeaders: { ...input.contentHeaders } } : {}),
      etag: md5Hex(input.body),
      createdAt: now,
      lastModified: now,
      metadata: { ...input.metadata },
      ...(input.dloManifest !== undefined ? { dloManifest: input.dloManifest } : {}),
    };
    bucket.objects.set(name, object);
    return object;
  }

  /** The object with its content assembled (DLO: segments by prefix in name order; SLO: listed segments). */
  getObject(bucket: Bucket, name: string): ObjectContent {
    const object = this.object(bucket, name);
    if (object.dloManifest !== undefined) {
      const slash = object.dloManifest.indexOf('/');
      const container = this.findBucket(bucket.projectId, object.dloManifest.slice(0, slash));
      const prefix = object.dloManifest.slice(slash + 1);
      const segments = container
        ? [...container.objects.values()]
            .filter((o) => o.name.startsWith(prefix) && !(container === bucket && o.name === name))
            .sort((a, b) => compareNames(a.name, b.name))
        : [];
      const content = Buffer.concat(segments.map((s) => s.body));
      return { object, content, etag: md5Hex(content), kind: 'dlo' };
    }
    if (object.sloManifest !== undefined) {
      const parts = object.sloManifest.map((segment) => {
        const slash = segment.path.indexOf('/');
        const container = this.findBucket(bucket.projectId, segment.path.slice(0, slash));
        const found = container?.objects.get(segment.path.slice(slash + 1));
        if (!found) throw new Conflict(`SLO segment "${segment.path}" of "${name}" no longer exists.`, 'SegmentMissing');
        return found.body;
      });
      const content = Buffer.concat(parts);
      return { object, content, etag: md5Hex(content), kind: 'slo' };
    }
    return { object, content: object.body, etag: object.etag, kind: 'plain' };
  }

  /** Swift POST: replaces the object's metadata (and Content-Type when given). */
  postObject(bucket: Bucket, name: string, metadata: Record<string, string>, contentType: string | undefined, contentHeaders: Record<string, string> = {}): StoredObject {
    const object = this.object(bucket, name);
    validateMetadataTotal(metadata);
    object.metadata = { ...metadata };
    // Like metadata, the content headers of a POST replace the object's (none given: none kept).
    if (Object.keys(contentHeaders).length) object.contentHeaders = { ...contentHeaders };
    else delete object.contentHeaders;
    if (contentType !== undefined) object.contentType = contentType;
    object.lastModified = this.now();
    return object;
  }

  listObjects(bucket: Bucket, query: ListObjectsQuery): ListEntry[] {
    const names = [...bucket.objects.keys()].sort(compareNames);
    const entries: ListEntry[] = [];
    let lastSubdir: string | undefined;
    for (const name of names) {
      if (entries.length >= query.limit) break;
      if (!name.startsWith(query.prefix)) continue;
      if (query.marker !== undefined && compareNames(name, query.marker) <= 0) continue;
      if (query.endMarker !== undefined && compareNames(name, query.endMarker) >= 0) continue;
      if (query.delimiter) {
        const at = name.indexOf(query.delimiter, query.prefix.length);
        if (at >= 0) {
          const subdir = name.slice(0, at + query.delimiter.length);
          if (subdir === lastSubdir || (query.marker !== undefined && compareNames(subdir, query.marker) <= 0)) continue;
          lastSubdir = subdir;
          entries.push({ kind: 'subdir', subdir });
          continue;
        }
      }
      const object = bucket.objects.get(name)!;
      entries.push({
        kind: 'object',
        name,
        hash: object.etag,
        bytes: object.sloManifest ? object.sloManifest.reduce((sum, s) => sum + s.size_bytes, 0) : object.body.length,
        content_type: object.contentType,
        last_modified: new Date(object.lastModified).toISOString(),
      });
    }
    return entries;
  }

  deleteObject(bucket: Bucket, name: string): void {
    this.object(bucket, name);
    bucket.objects.delete(name);
  }

  /** Copies the (assembled) content and metadata; extra metadata from the request is merged over. */
  copyObject(source: Bucket, sourceName: string, target: Bucket, targetName: string, extraMetadata: Record<string, string>): StoredObject {
    const { object, content } = this.getObject(source, sourceName);
    return this.putObject(target, targetName, {
      body: content,
      contentType: object.contentType,
      metadata: { ...object.metadata, ...extraMetadata },
    });
  }

  moveObject(source: Bucket, sourceName: string, target: Bucket, targetName: string): StoredObject {
    if (source.encrypted) throw new NotSupportedOnEncryptedBucket('MOVE', source.name);
    if (target.encrypted) throw new NotSupportedOnEncryptedBucket('MOVE', target.name);
    const copied = this.copyObject(source, sourceName, target, targetName, {});
    if (!(source === target && sourceName === targetName)) source.objects.delete(sourceName);
    return copied;
  }

  // ---- multipart -----------------------------------------------------------------------------

  initiateMultipartUpload(bucket: Bucket, key: string, contentType: string, metadata: Record<string, string>, contentHeaders: Record<string, string> = {}): MultipartUpload {
    validateMetadataTotal(metadata);
    const upload: MultipartUpload = {
      uploadId: `2~${randomHex(32)}`,
      key,
      contentType,
      metadata: { ...metadata },
      ...(Object.keys(contentHeaders).length ? { contentHeaders: { ...contentHeaders } } : {}),
      initiatedAt: this.now(),
      parts: new Map(),
    };
    bucket.uploads.set(upload.uploadId, upload);
    return upload;
  }

  private upload(bucket: Bucket, key: string, uploadId: string): MultipartUpload {
    const upload = bucket.uploads.get(uploadId);
    if (!upload || upload.key !== key) throw new NoSuchUpload(uploadId);
    return upload;
  }

  uploadPart(bucket: Bucket, key: string, uploadId: string, partNumber: number, body: Buffer): UploadPart {
    const upload = this.upload(bucket, key, uploadId);
    const part: UploadPart = { partNumber, body, etag: md5Hex(body), lastModified: this.now() };
    upload.parts.set(partNumber, part);
    return part;
  }

  completeMultipartUpload(bucket: Bucket, key: string, uploadId: string, parts: Array<{ partNumber: number; etag: string }>): StoredObject {
    const upload = this.upload(bucket, key, uploadId);
    if (parts.length === 0) throw new InvalidPart('CompleteMultipartUpload must list at least one part.');
    for (let i = 1; i < parts.length; i += 1) if (parts[i]!.partNumber <= parts[i - 1]!.partNumber) throw new InvalidPartOrder();
    const bodies = parts.map((requested, index) => {
      const stored = upload.parts.get(requested.partNumber);
      if (!stored) throw new InvalidPart(`Part ${requested.partNumber} was not uploaded.`);
      if (stripQuotes(requested.etag) !== stored.etag) throw new InvalidPart(`The ETag of part ${requested.partNumber} does not match the uploaded part.`);
      if (index < parts.length - 1 && stored.body.length < LIMITS.minPartSize) {
        throw new EntityTooSmall(requested.partNumber, stored.body.length, LIMITS.minPartSize);
      }
      return stored.body;
    });
    const object = this.putObject(bucket, key, { body: Buffer.concat(bodies), contentType: upload.contentType, metadata: upload.metadata, contentHeaders: upload.contentHeaders });
    // As S3 (and Ceph RGW behind Swift) report it: the MD5 of the parts' binary MD5s, then `-<parts>`.
    // Not the content's MD5, so a client must not treat a multipart ETag as one.
    const partMd5s = parts.map((p) => Buffer.from(upload.parts.get(p.partNumber)!.etag, 'hex'));
    object.etag = `${createHash('md5').update(Buffer.concat(partMd5s)).digest('hex')}-${parts.length}`;
    bucket.uploads.delete(uploadId);
    return object;
  }

  abortMultipartUpload(bucket: Bucket, key: string, uploadId: string): void {
    this.upload(bucket, key, uploadId);
    bucket.uploads.delete(uploadId);
  }

  listParts(bucket: Bucket, key: string, uploadId: string): MultipartUpload {
    return this.upload(bucket, key, uploadId);
  }

  listMultipartUploads(bucket: Bucket, prefix: string): MultipartUpload[] {
    return [...bucket.uploads.values()]
      .filter((u) => u.key.startsWith(prefix))
      .sort((a, b) => compareNames(a.key, b.key) || a.initiatedAt - b.initiatedAt);
  }

  // ---- static large objects ------------------------------------------------------------------

  putSloManifest(
    bucket: Bucket,
    name: string,
    segments: Array<{ path: string; etag?: string; size_bytes?: number }>,
    contentType: string,
    metadata: Record<string, string>,
  ): StoredObject {
    if (bucket.encrypted) throw new NotSupportedOnEncryptedBucket('An SLO manifest', bucket.name);
    const problems: string[] = [];
    const resolved: SloSegment[] = [];
    segments.forEach((segment, index) => {
      const path = segment.path.replace(/^\/+/, '');
      const slash = path.indexOf('/');
      if (slash <= 0 || slash === path.length - 1) {
        problems.push(`segment ${index + 1}: path must be {bucket}/{object}`);
        return;
      }
      const container = this.findBucket(bucket.projectId, path.slice(0, slash));
      const found = container?.objects.get(path.slice(slash + 1));
      if (!found || found.dloManifest !== undefined || found.sloManifest !== undefined) {
        problems.push(`segment ${index + 1} (${path}): not found`);
        return;
      }
      if (segment.etag !== undefined && segment.etag !== null && stripQuotes(segment.etag) !== found.etag) {
        problems.push(`segment ${index + 1} (${path}): etag mismatch`);
      }
      if (segment.size_bytes !== undefined && segment.size_bytes !== null && segment.size_bytes !== found.body.length) {
        problems.push(`segment ${index + 1} (${path}): size mismatch (${segment.size_bytes} given, ${found.body.length} stored)`);
      }
      if (found.body.length < LIMITS.minSloSegmentSize && index < segments.length - 1) {
        problems.push(`segment ${index + 1} (${path}): smaller than the minimum segment size of ${LIMITS.minSloSegmentSize} byte`);
      }
      resolved.push({ path, etag: found.etag, size_bytes: found.body.length });
    });
    if (problems.length > 0) throw new InvalidManifest(`Invalid SLO manifest: ${problems.slice(0, 10).join('; ')}`);
    validateMetadataTotal(metadata);
    const content = Buffer.concat(
      resolved.map((s) => {
        const slash = s.path.indexOf('/');
        return this.findBucket(bucket.projectId, s.path.slice(0, slash))!.objects.get(s.path.slice(slash + 1))!.body;
      }),
    );
    const now = this.now();
    const object: StoredObject = {
      name,
      contentType,
      body: Buffer.alloc(0),
      etag: md5Hex(content),
      createdAt: now,
      lastModified: now,
      metadata: { ...metadata },
      sloManifest: resolved,
    };
    bucket.objects.set(name, object);
    return object;
  }

  /** `?multipart-manifest=delete`: the manifest and its segments (a plain object is simply deleted). */
  deleteSloManifest(bucket: Bucket, name: string): { deleted: number; notFound: number } {
    const object = this.object(bucket, name);
    let deleted = 0;
    let notFound = 0;
    for (const segment of object.sloManifest ?? []) {
      const slash = segment.path.indexOf('/');
      const container = this.findBucket(bucket.projectId, segment.path.slice(0, slash));
      if (container?.objects.delete(segment.path.slice(slash + 1))) deleted += 1;
      else notFound += 1;
    }
    bucket.objects.delete(name);
    return { deleted: deleted + 1, notFound };
  }

  // ---- temporary URLs ------------------------------------------------------------------------

  private tempUrlSignature(account: string, path: string, expires: string): string | undefined {
    const project = this.credentials.project(account);
    if (!project) return undefined;
    return createHmac('sha256', project.tempUrlKey).update(`GET\n${expires}\n${path}`).digest('hex');
  }

  createTempUrl(account: string, bucket: Bucket, name: string, expires: number): { url: string; sig: string } {
    const path = `/v1/${account}/${bucket.name}/${name}`;
    const sig = this.tempUrlSignature(account, path, String(expires))!;
    const encoded = `/v1/${encodeURIComponent(account)}/${encodeURIComponent(bucket.name)}/${name.split('/').map(encodeURIComponent).join('/')}`;
    return { url: `${encoded}?temp_url_sig=${sig}&temp_url_expires=${expires}`, sig };
  }

  /** Checks a temp URL download: HMAC-SHA256 over "GET\n{expires}\n{decoded path}" with the project's key. */
  verifyTempUrl(account: string, bucketName: string, name: string, sig: string, expires: string, nowMs: number): void {
    if (!/^\d{1,12}$/.test(expires)) throw new TempUrlDenied('temp_url_expires must be a Unix timestamp in seconds');
    const expected = this.tempUrlSignature(account, `/v1/${account}/${bucketName}/${name}`, expires);
    const given = Buffer.from(sig.toLowerCase());
    if (!expected || given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {
      throw new TempUrlDenied('signature does not match');
    }
    if (Math.floor(nowMs / 1000) > Number(expires)) throw new TempUrlDenied('the URL has expired');
  }

  // ---- lifecycle expiry ----------------------------------------------------------------------

  /** Deletes objects expired under enabled rules as of `boundary` (00:00 UTC). Returns how many. */
  runLifecycle(boundary: number): number {
    let removed = 0;
    for (const bucket of this.buckets.values()) {
      const rules = bucket.lifecycle?.rules ?? [];
      if (rules.length === 0) continue;
      for (const object of [...bucket.objects.values()]) {
        if (rules.some((rule) => isExpired(rule, object.name, object.createdAt, boundary))) {
          bucket.objects.delete(object.name);
          removed += 1;
        }
      }
    }
    return removed;
  }

  // ---- control API ---------------------------------------------------------------------------

  inventory(): InventoryEntry[] {
    const entries: InventoryEntry[] = [];
    for (const bucket of [...this.buckets.values()].sort((a, b) => compareNames(a.name, b.name))) {
      entries.push({ service: SERVICE, kind: 'bucket', id: bucket.name, projectId: bucket.projectId });
      if (bucket.cors) entries.push({ service: SERVICE, kind: 'bucket-cors', id: bucket.name, projectId: bucket.projectId });
      if (bucket.lifecycle) entries.push({ service: SERVICE, kind: 'bucket-lifecycle', id: bucket.name, projectId: bucket.projectId });
    }
    return entries;
  }

  private anyBucket(name: string): Bucket {
    const bucket = this.buckets.get(name);
    if (!bucket) throw new NotFound(`No bucket "${name.slice(0, 80)}".`, 'NoSuchResource');
    return bucket;
  }

  private objectView(bucket: Bucket, object: StoredObject): Record<string, unknown> {
    return {
      bucket: bucket.name,
      name: object.name,
      content_type: object.contentType,
      bytes: object.body.length,
      hash: object.etag,
      last_modified: new Date(object.lastModified).toISOString(),
      created_at: new Date(object.createdAt).toISOString(),
      metadata: { ...object.metadata },
      ...(object.dloManifest !== undefined ? { dlo_manifest: object.dloManifest } : {}),
      ...(object.sloManifest !== undefined ? { slo_manifest: structuredClone(object.sloManifest) } : {}),
    };
  }

  private splitObjectId(id: string): { bucket: Bucket; name: string } {
    const slash = id.indexOf('/');
    if (slash <= 0 || slash === id.length - 1) throw new BadRequest('An object id is {bucket}/{object name}.');
    return { bucket: this.anyBucket(id.slice(0, slash)), name: id.slice(slash + 1) };
  }

  getResource(kind: string, id: string): unknown {
    switch (kind) {
      case 'bucket': {
        const bucket = this.anyBucket(id);
        return {
          ...this.record(bucket),
          metadata: { ...bucket.metadata },
          cors: bucket.cors ? structuredClone(bucket.cors) : null,
          lifecycle: bucket.lifecycle ? lifecycleXml(bucket.lifecycle) : null,
        };
      }
      case 'bucket-cors': {
        const bucket = this.anyBucket(id);
        if (!bucket.cors) throw new NotFound(`Bucket "${id}" has no CORS configuration.`, 'NoSuchResource');
        return { cors: structuredClone(bucket.cors) };
      }
      case 'bucket-lifecycle': {
        const bucket = this.anyBucket(id);
        if (!bucket.lifecycle) throw new NotFound(`Bucket "${id}" has no lifecycle configuration.`, 'NoSuchResource');
        return { lifecycle: lifecycleXml(bucket.lifecycle) };
      }
      case 'object': {
        const { bucket, name } = this.splitObjectId(id);
        const object = bucket.objects.get(name);
        if (!object) throw new NotFound(`No object "${id.slice(0, 200)}".`, 'NoSuchResource');
        return this.objectView(bucket, object);
      }
      default:
        throw new NotFound(`Unknown kind "${kind}" (bucket, bucket-cors, bucket-lifecycle, object).`, 'NoSuchKind');
    }
  }

  /** Drift: merges fields into the stored record, validated as the API would validate them. */
  patchResource(kind: string, id: string, patch: unknown): unknown {
    if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) throw new BadRequest('The patch must be a JSON object.');
    const fields = patch as Record<string, unknown>;
    switch (kind) {
      case 'bucket': {
        const bucket = this.anyBucket(id);
        const allowed = ['acl', 'metadata', 'cors', 'lifecycle', 'use_encryption', 'encryption_type'];
        for (const key of Object.keys(fields)) if (!allowed.includes(key)) throw new BadRequest(`Field "${key}" cannot be patched; patchable: ${allowed.join(', ')}.`);
        if ('acl' in fields) bucket.acl = mergeAcl(bucket.acl, fields.acl);
        if ('metadata' in fields) bucket.metadata = mergeMetadata(bucket.metadata, fields.metadata);
        if ('cors' in fields) bucket.cors = fields.cors === null ? null : nonEmpty(parseCors({ cors: fields.cors }));
        if ('lifecycle' in fields) bucket.lifecycle = parseLifecycleField(fields.lifecycle);
        if ('use_encryption' in fields) {
          if (typeof fields.use_encryption !== 'boolean') throw new BadRequest('use_encryption must be a boolean.');
          bucket.encrypted = fields.use_encryption;
          bucket.encryptionType = fields.use_encryption ? (bucket.encryptionType ?? 'managed') : null;
        }
        if ('encryption_type' in fields) {
          if (fields.encryption_type !== null && typeof fields.encryption_type !== 'string') throw new BadRequest('encryption_type must be a string or null.');
          bucket.encryptionType = fields.encryption_type;
        }
        this.touch(bucket);
        return this.getResource('bucket', id);
      }
      case 'bucket-cors': {
        const bucket = this.anyBucket(id);
        if (!('cors' in fields)) throw new BadRequest('Patch {"cors": [...]} or {"cors": null}.');
        bucket.cors = fields.cors === null ? null : nonEmpty(parseCors({ cors: fields.cors }));
        this.touch(bucket);
        return { cors: bucket.cors };
      }
      case 'bucket-lifecycle': {
        const bucket = this.anyBucket(id);
        if (!('lifecycle' in fields)) throw new BadRequest('Patch {"lifecycle": "<LifecycleConfiguration>..."} or {"lifecycle": null}.');
        bucket.lifecycle = parseLifecycleField(fields.lifecycle);
        this.touch(bucket);
        return { lifecycle: bucket.lifecycle ? lifecycleXml(bucket.lifecycle) : null };
      }
      case 'object': {
        const { bucket, name } = this.splitObjectId(id);
        const object = bucket.objects.get(name);
        if (!object) throw new NotFound(`No object "${id.slice(0, 200)}".`, 'NoSuchResource');
        const allowed = ['metadata', 'content_type', 'content', 'content_base64'];
        for (const key of Object.keys(fields)) if (!allowed.includes(key)) throw new BadRequest(`Field "${key}" cannot be patched; patchable: ${allowed.join(', ')}.`);
        if ('metadata' in fields) object.metadata = mergeMetadata(object.metadata, fields.metadata);
        if ('content_type' in fields) {
          if (typeof fields.content_type !== 'string' || !/^[\x20-\x7e]+$/.test(fields.content_type)) throw new BadRequest('content_type must be a printable ASCII string.');
          object.contentType = fields.content_type;
        }
        if ('content' in fields || 'content_base64' in fields) {
          const value = fields.content ?? fields.content_base64;
          if (typeof value !== 'string') throw new BadRequest('content / content_base64 must be a string.');
          object.body = 'content' in fields ? Buffer.from(value, 'utf8') : Buffer.from(value, 'base64');
          object.etag = md5Hex(object.body);
          delete object.dloManifest;
          delete object.sloManifest;
        }
        object.lastModified = this.now();
        return this.objectView(bucket, object);
      }
      default:
        throw new NotFound(`Unknown kind "${kind}" (bucket, bucket-cors, bucket-lifecycle, object).`, 'NoSuchKind');
    }
  }

  /** Drift: deletes behind the API's back; a bucket goes with its objects and uploads. */
  deleteResource(kind: string, id: string): void {
    switch (kind) {
      case 'bucket':
        this.anyBucket(id);
        this.buckets.delete(id);
        return;
      case 'bucket-cors':
        this.anyBucket(id).cors = null;
        return;
      case 'bucket-lifecycle':
        this.anyBucket(id).lifecycle = null;
        return;
      case 'object': {
        const { bucket, name } = this.splitObjectId(id);
        if (!bucket.objects.delete(name)) throw new NotFound(`No object "${id.slice(0, 200)}".`, 'NoSuchResource');
        return;
      }
      default:
        throw new NotFound(`Unknown kind "${kind}" (bucket, bucket-cors, bucket-lifecycle, object).`, 'NoSuchKind');
    }
  }

  reset(): void {
    this.buckets.clear();
  }

  snapshot(): { buckets: SnapshotBucket[] } {
    return {
      buckets: [...this.buckets.values()].map((bucket) => ({
        ...bucket,
        objects: [...bucket.objects.values()].map((o) => ({ ...o, body: o.body.toString('base64') })),
        uploads: [...bucket.uploads.values()].map((u) => ({
          ...u,
          parts: [...u.parts.values()].map((p) => ({ ...p, body: p.body.toString('base64') })),
        })),
      })),
    };
  }

  restore(data: unknown): void {
    this.buckets.clear();
    const snapshot = data as { buckets?: SnapshotBucket[] } | undefined;
    for (const b of snapshot?.buckets ?? []) {
      this.buckets.set(b.name, {
        ...b,
        objects: new Map(b.objects.map((o) => [o.name, { ...o, body: Buffer.from(o.body, 'base64') }])),
        uploads: new Map(
          b.uploads.map((u) => [
            u.uploadId,
            { ...u, parts: new Map(u.parts.map((p) => [p.partNumber, { ...p, body: Buffer.from(p.body, 'base64') }])) },
          ]),
        ),
      });
    }
  }
}

function nonEmpty<T>(list: T[]): T[] | null {
  return list.length > 0 ? list : null;
}

function parseLifecycleField(value: unknown): LifecycleConfiguration | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw new BadRequest('lifecycle must be the XML document as a string, or null.');
  return parseLifecycle(value);
}

/** Validates and normalises an ACL as UpdateBucketAcl accepts it (`deny` equals no ACL). */
export function normaliseAcl(value: unknown): BucketAcl | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new InvalidAcl('acl must be an object or null.');
  const acl = value as Record<string, unknown>;
  for (const key of Object.keys(acl)) {
    if (!['public', 'public_read_allow_ip_list', 'permissions'].includes(key)) throw new InvalidAcl(`Unknown acl field "${key}".`);
  }
  const pub = acl.public ?? 'deny';
  if (pub !== 'read-only' && pub !== 'deny') throw new InvalidAcl('acl.public must be "read-only" or "deny".');
  const list = acl.public_read_allow_ip_list;
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list) || list.some((e) => typeof e !== 'string' || !isIpOrCidr(e))) {
      throw new InvalidAcl('acl.public_read_allow_ip_list must be a list of IPv4/IPv6 addresses or CIDR ranges.');
    }
  }
  if (pub === 'deny') return null;
  return { public: 'read-only', ipList: Array.isArray(list) ? [...(list as string[])] : null };
}

function mergeAcl(current: BucketAcl, patch: unknown): BucketAcl {
  if (patch === null) return { ...DEFAULT_ACL };
  if (typeof patch !== 'object' || Array.isArray(patch)) throw new InvalidAcl('acl must be an object or null.');
  const merged = {
    public: current.public,
    public_read_allow_ip_list: current.ipList,
    ...(patch as Record<string, unknown>),
  };
  return normaliseAcl(merged) ?? { ...DEFAULT_ACL };
}

function mergeMetadata(current: Record<string, string>, patch: unknown): Record<string, string> {
  if (patch === null) return {};
  if (typeof patch !== 'object' || Array.isArray(patch)) throw new BadRequest('metadata must be an object (a null value removes a key).');
  const next = { ...current };
  for (const [rawKey, value] of Object.entries(patch as Record<string, unknown>)) {
    const key = rawKey.toLowerCase();
    if (value === null) {
      delete next[key];
      continue;
    }
    if (typeof value !== 'string') throw new BadRequest(`metadata.${rawKey} must be a string or null.`);
    validateMetadataEntry(key, value);
    next[key] = value;
  }
  validateMetadataTotal(next);
  return next;
}
