import type { CredentialStore } from '../../core/credentials';
import { NotFound } from '../../core/errors';
import { DEFAULT_ACL } from '../acl';
import { NoSuchBucket, NoSuchKey } from '../errors';
import { STORAGE_POLICY, rfc3339, type Bucket, type BucketRecord, type StoredObject } from '../model';

export const SERVICE = 'object-storage';

export interface BucketStats {
  objectCount: number;
  bytes: number;
  bytesActual: number;
}

/** Physical size as RGW reports it in *-Bytes-Used-Actual: each object rounded up to 4 KiB. */
function actualBytes(size: number): number {
  return Math.ceil(size / 4096) * 4096;
}

/**
 * All object storage state, in one place: buckets (one global namespace, as the S3-compatible path
 * has no account) holding their objects and multipart uploads. The per-area backends share it and
 * keep no state of their own.
 */
export class ObjectStorageState {
  readonly buckets = new Map<string, Bucket>();
  readonly now: () => number;
  readonly credentials: CredentialStore;

  constructor(now: () => number, credentials: CredentialStore) {
    this.now = now;
    this.credentials = credentials;
  }

  /** A bucket of this project; another project's bucket is as invisible as a missing one. */
  bucket(projectId: string, name: string): Bucket {
    const bucket = this.buckets.get(name);
    if (!bucket || bucket.projectId !== projectId) throw new NoSuchBucket(name);
    return bucket;
  }

  findBucket(projectId: string, name: string): Bucket | undefined {
    const bucket = this.buckets.get(name);
    return bucket && bucket.projectId === projectId ? bucket : undefined;
  }

  /** Any project's bucket, for the control API (404 NoSuchResource). */
  anyBucket(name: string): Bucket {
    const bucket = this.buckets.get(name);
    if (!bucket) throw new NotFound(`No bucket "${name.slice(0, 80)}".`, 'NoSuchResource');
    return bucket;
  }

  object(bucket: Bucket, name: string): StoredObject {
    const object = bucket.objects.get(name);
    if (!object) throw new NoSuchKey(name);
    return object;
  }

  /** The object a `{bucket}/{object}` reference names within a project, if any. */
  objectAt(projectId: string, path: string): StoredObject | undefined {
    const slash = path.indexOf('/');
    return this.findBucket(projectId, path.slice(0, slash))?.objects.get(path.slice(slash + 1));
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

  newBucket(projectId: string, name: string, encrypted: boolean, encryptionType: string | null): Bucket {
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

  touch(bucket: Bucket): void {
    bucket.lastModified = this.now();
  }
}
