import type { Readable } from "node:stream";
import { etagHeader, manifestEtag } from "../etag";
import { NotSupportedOnEncryptedBucket } from "../errors";
import { validateMetadataTotal, type Bucket, type StoredObject } from "../model";
import type { BlobRef, WrittenBlob } from "./blobs";
import type { LargeObjectBackend } from "./large-objects";
import type { ObjectStorageState } from "./state";

export interface ObjectAttributes {
  contentType: string;
  metadata: Record<string, string>;
  /** Cache-Control, Content-Disposition, Content-Encoding as given. */
  contentHeaders?: Record<string, string>;
  dloManifest?: string;
  /** The stored ETag when it is not the MD5 of the body (multipart: `{md5 of part MD5s}-{N}`). */
  etag?: string;
}

export interface PutObjectInput extends ObjectAttributes {
  body: Buffer;
}

/** What a GET or HEAD serves: the object, and the bodies that make up its content, in order. */
export interface ObjectContent {
  object: StoredObject;
  pieces: BlobRef[];
  size: number;
  /** The Etag response header (quoted for manifests and multipart objects, as Swift and S3 send them). */
  etag: string;
  kind: "plain" | "dlo" | "slo";
}

/** Swift object operations (`/v1/{account}/{bucket}/{path}`). One method per operation. */
export class ObjectBackend {
  constructor(
    private readonly state: ObjectStorageState,
    private readonly largeObjects: LargeObjectBackend,
  ) {}

  putObject(bucket: Bucket, name: string, input: PutObjectInput): StoredObject {
    this.checkAttributes(bucket, input);
    const { body, ...attributes } = input;
    return this.storeBlob(bucket, name, this.state.blobs.write(body), attributes);
  }

  /** Records an object whose body is already in the blob store (copies, completed multipart uploads). */
  storeBlob(bucket: Bucket, name: string, written: WrittenBlob, input: ObjectAttributes): StoredObject {
    try {
      this.checkAttributes(bucket, input);
    } catch (error) {
      this.state.blobs.remove(written.blob);
      throw error;
    }
    const now = this.state.now();
    const object: StoredObject = {
      name,
      contentType: input.contentType,
      blob: written.blob,
      size: written.size,
      ...(input.contentHeaders && Object.keys(input.contentHeaders).length ? { contentHeaders: { ...input.contentHeaders } } : {}),
      etag: input.etag ?? written.md5,
      createdAt: now,
      lastModified: now,
      metadata: { ...input.metadata },
      ...(input.dloManifest !== undefined ? { dloManifest: input.dloManifest } : {}),
    };
    this.state.setObject(bucket, object);
    return object;
  }

  private checkAttributes(bucket: Bucket, input: ObjectAttributes): void {
    if (input.dloManifest !== undefined && bucket.encrypted) throw new NotSupportedOnEncryptedBucket("A DLO manifest", bucket.name);
    validateMetadataTotal(input.metadata);
  }

  /** GET and HEAD: the object and what its content is made of (DLO: segments by prefix in name order; SLO: listed segments). */
  getObject(bucket: Bucket, name: string): ObjectContent {
    const object = this.state.object(bucket, name);
    if (object.dloManifest !== undefined) {
      const segments = this.largeObjects.dloSegments(bucket, object);
      return { object, ...assembled(segments), etag: etagHeader(manifestEtag(segments.map((s) => s.etag)), true), kind: "dlo" };
    }
    if (object.sloManifest !== undefined) {
      return { object, ...assembled(this.largeObjects.sloSegments(bucket, object)), etag: etagHeader(object.etag, true), kind: "slo" };
    }
    return { object, pieces: [object], size: object.size, etag: etagHeader(object.etag, false), kind: "plain" };
  }

  /** Bytes `start..end` (inclusive) of a GET's content, streamed from disk. */
  readContent(content: ObjectContent, start: number, end: number): Readable {
    return this.state.blobs.stream(content.pieces, start, end);
  }

  /** Swift POST: replaces the object's metadata (and Content-Type when given). */
  postObject(
    bucket: Bucket,
    name: string,
    metadata: Record<string, string>,
    contentType: string | undefined,
    contentHeaders: Record<string, string> = {},
  ): StoredObject {
    const object = this.state.object(bucket, name);
    validateMetadataTotal(metadata);
    object.metadata = { ...metadata };
    // Like metadata, the content headers of a POST replace the object's (none given: none kept).
    if (Object.keys(contentHeaders).length) object.contentHeaders = { ...contentHeaders };
    else delete object.contentHeaders;
    if (contentType !== undefined) object.contentType = contentType;
    object.lastModified = this.state.now();
    return object;
  }

  deleteObject(bucket: Bucket, name: string): void {
    this.state.object(bucket, name);
    this.state.removeObject(bucket, name);
  }

  /** Copies the (assembled) content and metadata; extra metadata from the request is merged over. */
  copyObject(source: Bucket, sourceName: string, target: Bucket, targetName: string, extraMetadata: Record<string, string>): StoredObject {
    const { object, pieces } = this.getObject(source, sourceName);
    return this.storeBlob(target, targetName, this.state.blobs.concat(pieces), {
      contentType: object.contentType,
      metadata: { ...object.metadata, ...extraMetadata },
    });
  }

  moveObject(source: Bucket, sourceName: string, target: Bucket, targetName: string): StoredObject {
    if (source.encrypted) throw new NotSupportedOnEncryptedBucket("MOVE", source.name);
    if (target.encrypted) throw new NotSupportedOnEncryptedBucket("MOVE", target.name);
    const copied = this.copyObject(source, sourceName, target, targetName, {});
    if (!(source === target && sourceName === targetName)) this.state.removeObject(source, sourceName);
    return copied;
  }
}

function assembled(segments: StoredObject[]): { pieces: BlobRef[]; size: number } {
  return { pieces: segments, size: segments.reduce((sum, s) => sum + s.size, 0) };
}
