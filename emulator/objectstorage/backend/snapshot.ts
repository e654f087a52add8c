import type { Bucket, MultipartUpload, StoredObject, UploadPart } from "../model";
import type { ObjectStorageState } from "./state";

/** Snapshots before bodies moved to disk carried them inline as base64; restore still reads those. */
type Legacy<T> = Omit<T, "blob" | "size"> & { blob?: string; size?: number; body?: string };

interface SnapshotBucket extends Omit<Bucket, "objects" | "uploads"> {
  objects: StoredObject[];
  uploads: Array<Omit<MultipartUpload, "parts"> & { parts: UploadPart[] }>;
}

export interface ObjectStorageSnapshot {
  buckets: SnapshotBucket[];
}

interface RestoredBucket extends Omit<Bucket, "objects" | "uploads"> {
  objects: Array<Legacy<StoredObject>>;
  uploads: Array<Omit<MultipartUpload, "parts"> & { parts: Array<Legacy<UploadPart>> }>;
}

/** Persistence (the core's JSON snapshot file: metadata and body ids, never bodies) and reset. */
export class SnapshotBackend {
  private readonly state: ObjectStorageState;

  constructor(state: ObjectStorageState) {
    this.state = state;
  }

  reset(): void {
    this.state.clear();
  }

  snapshot(): ObjectStorageSnapshot {
    return {
      buckets: [...this.state.buckets.values()].map((bucket) => ({
        ...bucket,
        objects: [...bucket.objects.values()],
        uploads: [...bucket.uploads.values()].map((u) => ({ ...u, parts: [...u.parts.values()] })),
      })),
    };
  }

  /**
   * Loads a snapshot whose bodies are in the blob directory. The snapshot trails the files by up to
   * its write delay, so after a crash they may disagree: a record whose body file is gone (deleted
   * after the last snapshot) is dropped, and body files no record refers to are removed.
   */
  restore(data: unknown): void {
    this.state.buckets.clear();
    const snapshot = data as { buckets?: RestoredBucket[] } | undefined;
    const referenced = new Set<string>();
    const withBody = <T extends { blob?: string; size?: number; body?: string }>(record: T): Array<Omit<T, "body"> & { blob: string; size: number }> => {
      const { body: inline, ...rest } = record;
      const stored = inline !== undefined ? this.state.blobs.write(Buffer.from(inline, "base64")) : { blob: rest.blob ?? "", size: rest.size ?? 0 };
      if (!this.state.blobs.has(stored.blob)) return [];
      referenced.add(stored.blob);
      return [{ ...rest, blob: stored.blob, size: stored.size }];
    };
    for (const b of snapshot?.buckets ?? []) {
      this.state.buckets.set(b.name, {
        ...b,
        objects: new Map(b.objects.flatMap(withBody).map((o) => [o.name, o])),
        uploads: new Map(b.uploads.map((u) => [u.uploadId, { ...u, parts: new Map(u.parts.flatMap(withBody).map((p) => [p.partNumber, p])) }])),
      });
    }
    this.state.blobs.retainOnly(referenced);
  }
}
