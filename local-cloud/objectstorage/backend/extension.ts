import { DEFAULT_ACL } from "../acl";
import type { CorsPolicy } from "../bucket-cors";
import { BucketAlreadyExists, BucketNotEmpty, NoSuchLifecycleConfiguration } from "../errors";
import { isExpired, type LifecycleConfiguration } from "../bucket-lifecycle";
import { compareNames, validateMetadataTotal, type Bucket, type BucketAcl, type BucketRecord } from "../model";
import type { ObjectStorageState } from "./state";

export interface ListBucketsQuery {
  offset: number;
  limit: number;
  prefix?: string;
  include?: string;
  by: "bucket_name" | "bucket_type" | "created_at" | "bytes_used";
  direct: "asc" | "desc";
}

/** The extension API (`/v1_ext/bucket`): buckets, ACL, lifecycle and CORS. One method per operation. */
export class ExtensionBackend {
  constructor(private readonly state: ObjectStorageState) {}

  createBucket(projectId: string, input: { name: string; encrypted: boolean; encryptionType: string | null; metadata?: Record<string, string> }): BucketRecord {
    if (this.state.buckets.has(input.name)) throw new BucketAlreadyExists(input.name);
    validateMetadataTotal(input.metadata ?? {});
    const bucket = this.state.newBucket(projectId, input.name, input.encrypted, input.encryptionType);
    bucket.metadata = { ...(input.metadata ?? {}) };
    this.state.buckets.set(bucket.name, bucket);
    return this.state.record(bucket);
  }

  getBucketMeta(projectId: string, name: string): { record: BucketRecord; metadata: Record<string, string> } {
    const bucket = this.state.bucket(projectId, name);
    return { record: this.state.record(bucket), metadata: { ...bucket.metadata } };
  }

  /** In-progress multipart uploads do not block the delete; they go with the bucket. */
  deleteBucket(projectId: string, name: string): void {
    const bucket = this.state.bucket(projectId, name);
    if (bucket.objects.size > 0) throw new BucketNotEmpty(name);
    this.state.removeBucket(name);
  }

  listBuckets(projectId: string, query: ListBucketsQuery): { totalCount: number; offset: number; count: number; items: BucketRecord[] } {
    const records = [...this.state.buckets.values()]
      .filter((b) => b.projectId === projectId)
      .filter((b) => (query.prefix === undefined ? true : b.name.startsWith(query.prefix)))
      .filter((b) => (query.include === undefined ? true : b.name.includes(query.include)))
      .map((b) => ({ bucket: b, record: this.state.record(b) }));
    const key = (entry: { bucket: Bucket; record: BucketRecord }): string | number => {
      switch (query.by) {
        case "bucket_type":
          return entry.bucket.type;
        case "created_at":
          return entry.bucket.createdAt;
        case "bytes_used":
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
      return query.direct === "desc" ? -order : order;
    });
    const items = records.slice(query.offset, query.offset + query.limit).map((r) => r.record);
    return { totalCount: records.length, offset: query.offset, count: items.length, items };
  }

  updateBucketAcl(projectId: string, name: string, acl: BucketAcl | null): BucketRecord {
    const bucket = this.state.bucket(projectId, name);
    bucket.acl = acl && acl.public === "read-only" ? { public: "read-only", ipList: acl.ipList ? [...acl.ipList] : null } : { ...DEFAULT_ACL };
    this.state.touch(bucket);
    return this.state.record(bucket);
  }

  putLifecycle(projectId: string, name: string, config: LifecycleConfiguration): LifecycleConfiguration {
    const bucket = this.state.bucket(projectId, name);
    bucket.lifecycle = structuredClone(config);
    this.state.touch(bucket);
    return config;
  }

  getLifecycle(projectId: string, name: string): LifecycleConfiguration {
    const bucket = this.state.bucket(projectId, name);
    if (!bucket.lifecycle) throw new NoSuchLifecycleConfiguration(name);
    return structuredClone(bucket.lifecycle);
  }

  deleteLifecycle(projectId: string, name: string): void {
    const bucket = this.state.bucket(projectId, name);
    bucket.lifecycle = null;
    this.state.touch(bucket);
  }

  getCors(projectId: string, name: string): CorsPolicy[] {
    return structuredClone(this.state.bucket(projectId, name).cors ?? []);
  }

  putCors(projectId: string, name: string, policies: CorsPolicy[]): CorsPolicy[] {
    const bucket = this.state.bucket(projectId, name);
    bucket.cors = policies.length > 0 ? structuredClone(policies) : null;
    this.state.touch(bucket);
    return policies;
  }

  /** Day-boundary work: deletes objects expired under enabled rules as of `boundary` (00:00 UTC). Returns how many. */
  runLifecycle(boundary: number): number {
    let removed = 0;
    for (const bucket of this.state.buckets.values()) {
      const rules = bucket.lifecycle?.rules ?? [];
      if (rules.length === 0) continue;
      for (const object of [...bucket.objects.values()]) {
        if (rules.some((rule) => isExpired(rule, object.name, object.createdAt, boundary))) {
          this.state.removeObject(bucket, object.name);
          removed += 1;
        }
      }
    }
    return removed;
  }
}
