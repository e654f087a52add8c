import type { CredentialStore } from "../../core/credentials";
import { NoSuchResource } from "../../core/errors";
import { DEFAULT_ACL } from "../acl";
import { NoSuchBucket, NoSuchKey } from "../errors";
import { STORAGE_POLICY, rfc3339, type Bucket, type BucketRecord, type StoredObject } from "../model";
import { BlobStore } from "./blobs";

export const SERVICE = "object-storage";

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
 * has no account) holding their objects and multipart uploads, whose bodies live in the blob store
 * on disk. The per-area backends share it and keep no state of their own. Records that own a body
 * are replaced and removed only through the methods here, so no body file is orphaned.
 */
export class ObjectStorageState {
  readonly buckets = new Map<string, Bucket>();
  readonly now: () => number;
  readonly credentials: CredentialStore;
  readonly blobs: BlobStore;

  constructor(now: () => number, credentials: CredentialStore, blobDir: string) {
    this.now = now;
    this.credentials = credentials;
    this.blobs = new BlobStore(blobDir);
  }

  /** Stores an object record, releasing the body of the object it replaces. */
  setObject(bucket: Bucket, object: StoredObject): void {
    const previous = bucket.objects.get(object.name);
    bucket.objects.set(object.name, object);
    if (previous && previous.blob !== object.blob) this.blobs.remove(previous.blob);
  }

  /** Removes an object and its body; false when there was none. */
  removeObject(bucket: Bucket, name: string): boolean {
    const object = bucket.objects.get(name);
    if (!object) return false;
    bucket.objects.delete(name);
    this.blobs.remove(object.blob);
    return true;
  }

  /** Removes a multipart upload and its parts' bodies. */
  removeUpload(bucket: Bucket, uploadId: string): void {
    const upload = bucket.uploads.get(uploadId);
    if (!upload) return;
    bucket.uploads.delete(uploadId);
    for (const part of upload.parts.values()) this.blobs.remove(part.blob);
  }

  /** Removes a bucket with everything in it. */
  removeBucket(name: string): void {
    const bucket = this.buckets.get(name);
    if (!bucket) return;
    for (const objectName of [...bucket.objects.keys()]) this.removeObject(bucket, objectName);
    for (const uploadId of [...bucket.uploads.keys()]) this.removeUpload(bucket, uploadId);
    this.buckets.delete(name);
  }

  clear(): void {
    this.buckets.clear();
    this.blobs.retainOnly(new Set());
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
    if (!bucket) throw new NoSuchResource(`No bucket "${name.slice(0, 80)}".`);
    return bucket;
  }

  object(bucket: Bucket, name: string): StoredObject {
    const object = bucket.objects.get(name);
    if (!object) throw new NoSuchKey(name);
    return object;
  }

  /** The object a `{bucket}/{object}` reference names within a project, if any. */
  objectAt(projectId: string, path: string): StoredObject | undefined {
    const slash = path.indexOf("/");
    return this.findBucket(projectId, path.slice(0, slash))?.objects.get(path.slice(slash + 1));
  }

  stats(bucket: Bucket): BucketStats {
    let bytes = 0;
    let bytesActual = 0;
    for (const object of bucket.objects.values()) {
      bytes += object.size;
      bytesActual += actualBytes(object.size);
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
      storageClass: "STANDARD",
      storagePolicy: STORAGE_POLICY,
      acl: { public: bucket.acl.public, public_read_allow_ip_list: bucket.acl.ipList ? [...bucket.acl.ipList] : null, permissions: null },
    };
  }

  newBucket(projectId: string, name: string, encrypted: boolean, encryptionType: string | null): Bucket {
    const now = this.now();
    return {
      name,
      projectId,
      type: "STANDARD",
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
