import { BucketAlreadyExists } from "../errors";
import { compareNames, validateMetadataTotal, type Bucket } from "../model";
import type { ExtensionBackend } from "./extension";
import type { BucketStats, ObjectStorageState } from "./state";

export interface AccountStats extends BucketStats {
  containerCount: number;
  createdAt: number;
}

/** The Swift account and its containers (`/v1/{account}[/{bucket}]`). One method per operation. */
export class ContainerBackend {
  constructor(
    private readonly state: ObjectStorageState,
    private readonly extension: ExtensionBackend,
  ) {}

  accountStats(projectId: string): AccountStats {
    const stats: AccountStats = {
      containerCount: 0,
      objectCount: 0,
      bytes: 0,
      bytesActual: 0,
      createdAt: this.state.credentials.project(projectId)?.createdAt ?? this.state.now(),
    };
    for (const bucket of this.state.buckets.values()) {
      if (bucket.projectId !== projectId) continue;
      const s = this.state.stats(bucket);
      stats.containerCount += 1;
      stats.objectCount += s.objectCount;
      stats.bytes += s.bytes;
      stats.bytesActual += s.bytesActual;
    }
    return stats;
  }

  listContainers(
    projectId: string,
    query: { prefix: string; marker?: string; endMarker?: string; limit: number },
  ): Array<{ bucket: Bucket; stats: BucketStats }> {
    return [...this.state.buckets.values()]
      .filter((b) => b.projectId === projectId && b.name.startsWith(query.prefix))
      .filter((b) => (query.marker === undefined ? true : compareNames(b.name, query.marker) > 0))
      .filter((b) => (query.endMarker === undefined ? true : compareNames(b.name, query.endMarker) < 0))
      .sort((a, b) => compareNames(a.name, b.name))
      .slice(0, query.limit)
      .map((bucket) => ({ bucket, stats: this.state.stats(bucket) }));
  }

  headContainer(projectId: string, name: string): { bucket: Bucket; stats: BucketStats } {
    const bucket = this.state.bucket(projectId, name);
    return { bucket, stats: this.state.stats(bucket) };
  }

  /** Swift PUT container: 'created' (201) or, for an existing bucket of the project, 'updated' (202). */
  createContainer(projectId: string, name: string, metadata: Record<string, string>): "created" | "updated" {
    const existing = this.state.buckets.get(name);
    if (existing && existing.projectId !== projectId) throw new BucketAlreadyExists(name);
    if (existing) {
      this.updateContainerMetadata(projectId, name, metadata, []);
      return "updated";
    }
    validateMetadataTotal(metadata);
    const bucket = this.state.newBucket(projectId, name, false, null);
    bucket.metadata = { ...metadata };
    this.state.buckets.set(name, bucket);
    return "created";
  }

  deleteContainer(projectId: string, name: string): void {
    this.extension.deleteBucket(projectId, name);
  }

  /** Sets keys (an empty value removes the key, as in Swift) and removes `remove` keys. */
  updateContainerMetadata(projectId: string, name: string, set: Record<string, string>, remove: string[]): void {
    const bucket = this.state.bucket(projectId, name);
    const next = { ...bucket.metadata };
    for (const key of remove) delete next[key];
    for (const [key, value] of Object.entries(set)) {
      if (value === "") delete next[key];
      else next[key] = value;
    }
    validateMetadataTotal(next);
    bucket.metadata = next;
    this.state.touch(bucket);
  }
}
