import type { Bucket, MultipartUpload, StoredObject, UploadPart } from '../model';
import type { ObjectStorageState } from './state';

interface SnapshotObject extends Omit<StoredObject, 'body'> {
  body: string;
}

interface SnapshotBucket extends Omit<Bucket, 'objects' | 'uploads'> {
  objects: SnapshotObject[];
  uploads: Array<Omit<MultipartUpload, 'parts'> & { parts: Array<Omit<UploadPart, 'body'> & { body: string }> }>;
}

export interface ObjectStorageSnapshot {
  buckets: SnapshotBucket[];
}

/** Persistence (the core's JSON snapshot file) and reset. */
export class SnapshotBackend {
  private readonly state: ObjectStorageState;

  constructor(state: ObjectStorageState) {
    this.state = state;
  }

  reset(): void {
    this.state.buckets.clear();
  }

  snapshot(): ObjectStorageSnapshot {
    return {
      buckets: [...this.state.buckets.values()].map((bucket) => ({
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
    this.state.buckets.clear();
    const snapshot = data as Partial<ObjectStorageSnapshot> | undefined;
    for (const b of snapshot?.buckets ?? []) {
      this.state.buckets.set(b.name, {
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
