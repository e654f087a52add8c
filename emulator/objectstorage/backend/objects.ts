import { etagHeader, manifestEtag, md5Hex } from '../etag';
import { NotSupportedOnEncryptedBucket } from '../errors';
import { validateMetadataTotal, type Bucket, type StoredObject } from '../model';
import type { LargeObjectBackend } from './large-objects';
import type { ObjectStorageState } from './state';

export interface PutObjectInput {
  body: Buffer;
  contentType: string;
  metadata: Record<string, string>;
  dloManifest?: string;
  /** The stored ETag when it is not the MD5 of the body (multipart: `{md5 of part MD5s}-{N}`). */
  etag?: string;
}

export interface ObjectContent {
  object: StoredObject;
  content: Buffer;
  /** The Etag response header (quoted for manifests and multipart objects, as Swift and S3 send them). */
  etag: string;
  kind: 'plain' | 'dlo' | 'slo';
}

/** Swift object operations (`/v1/{account}/{bucket}/{path}`). One method per operation. */
export class ObjectBackend {
  private readonly state: ObjectStorageState;
  private readonly largeObjects: LargeObjectBackend;

  constructor(state: ObjectStorageState, largeObjects: LargeObjectBackend) {
    this.state = state;
    this.largeObjects = largeObjects;
  }

  putObject(bucket: Bucket, name: string, input: PutObjectInput): StoredObject {
    if (input.dloManifest !== undefined && bucket.encrypted) throw new NotSupportedOnEncryptedBucket('A DLO manifest', bucket.name);
    validateMetadataTotal(input.metadata);
    const now = this.state.now();
    const object: StoredObject = {
      name,
      contentType: input.contentType,
      body: input.body,
      etag: input.etag ?? md5Hex(input.body),
      createdAt: now,
      lastModified: now,
      metadata: { ...input.metadata },
      ...(input.dloManifest !== undefined ? { dloManifest: input.dloManifest } : {}),
    };
    bucket.objects.set(name, object);
    return object;
  }

  /** GET and HEAD: the object with its content assembled (DLO: segments by prefix in name order; SLO: listed segments). */
  getObject(bucket: Bucket, name: string): ObjectContent {
    const object = this.state.object(bucket, name);
    if (object.dloManifest !== undefined) {
      const segments = this.largeObjects.dloSegments(bucket, object);
      const content = Buffer.concat(segments.map((s) => s.body));
      return { object, content, etag: etagHeader(manifestEtag(segments.map((s) => s.etag)), true), kind: 'dlo' };
    }
    if (object.sloManifest !== undefined) {
      const content = Buffer.concat(this.largeObjects.sloSegments(bucket, object).map((s) => s.body));
      return { object, content, etag: etagHeader(object.etag, true), kind: 'slo' };
    }
    return { object, content: object.body, etag: etagHeader(object.etag, false), kind: 'plain' };
  }

  /** Swift POST: replaces the object's metadata (and Content-Type when given). */
  postObject(bucket: Bucket, name: string, metadata: Record<string, string>, contentType: string | undefined): StoredObject {
    const object = this.state.object(bucket, name);
    validateMetadataTotal(metadata);
    object.metadata = { ...metadata };
    if (contentType !== undefined) object.contentType = contentType;
    object.lastModified = this.state.now();
    return object;
  }

  deleteObject(bucket: Bucket, name: string): void {
    this.state.object(bucket, name);
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
}
