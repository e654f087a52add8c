import { randomHex } from "../../core/ids";
import { multipartEtag, stripQuotes } from "../etag";
import { EntityTooSmall, InvalidPart, InvalidPartOrder, NoSuchUpload } from "../errors";
import { compareNames, validateMetadataTotal, type Bucket, type MultipartUpload, type StoredObject, type UploadPart } from "../model";
import { LIMITS } from "../limits";
import type { ObjectBackend } from "./objects";
import type { ObjectStorageState } from "./state";

/** S3-style multipart upload (spec 01 §4.4). One method per operation. */
export class MultipartBackend {
  constructor(
    private readonly state: ObjectStorageState,
    private readonly objects: ObjectBackend,
  ) {}

  initiateMultipartUpload(
    bucket: Bucket,
    key: string,
    contentType: string,
    metadata: Record<string, string>,
    contentHeaders: Record<string, string> = {},
  ): MultipartUpload {
    validateMetadataTotal(metadata);
    const upload: MultipartUpload = {
      uploadId: `2~${randomHex(32)}`,
      key,
      contentType,
      metadata: { ...metadata },
      ...(Object.keys(contentHeaders).length ? { contentHeaders: { ...contentHeaders } } : {}),
      initiatedAt: this.state.now(),
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
    const written = this.state.blobs.write(body);
    const part: UploadPart = { partNumber, blob: written.blob, size: written.size, etag: written.md5, lastModified: this.state.now() };
    const replaced = upload.parts.get(partNumber);
    upload.parts.set(partNumber, part);
    if (replaced) this.state.blobs.remove(replaced.blob);
    return part;
  }

  completeMultipartUpload(bucket: Bucket, key: string, uploadId: string, parts: Array<{ partNumber: number; etag: string }>): StoredObject {
    const upload = this.upload(bucket, key, uploadId);
    if (parts.length === 0) throw new InvalidPart("CompleteMultipartUpload must list at least one part.");
    for (let i = 1; i < parts.length; i += 1) if (parts[i]!.partNumber <= parts[i - 1]!.partNumber) throw new InvalidPartOrder();
    const chosen = parts.map((requested, index) => {
      const stored = upload.parts.get(requested.partNumber);
      if (!stored) throw new InvalidPart(`Part ${requested.partNumber} was not uploaded.`);
      if (stripQuotes(requested.etag) !== stored.etag) throw new InvalidPart(`The ETag of part ${requested.partNumber} does not match the uploaded part.`);
      if (index < parts.length - 1 && stored.size < LIMITS.minPartSize) {
        throw new EntityTooSmall(requested.partNumber, stored.size, LIMITS.minPartSize);
      }
      return stored;
    });
    const object = this.objects.storeBlob(bucket, key, this.state.blobs.concat(chosen), {
      contentType: upload.contentType,
      metadata: upload.metadata,
      ...(upload.contentHeaders ? { contentHeaders: upload.contentHeaders } : {}),
      etag: multipartEtag(chosen.map((p) => p.etag)),
    });
    this.state.removeUpload(bucket, uploadId);
    return object;
  }

  abortMultipartUpload(bucket: Bucket, key: string, uploadId: string): void {
    this.upload(bucket, key, uploadId);
    this.state.removeUpload(bucket, uploadId);
  }

  listParts(bucket: Bucket, key: string, uploadId: string): MultipartUpload {
    return this.upload(bucket, key, uploadId);
  }

  listMultipartUploads(bucket: Bucket, prefix: string): MultipartUpload[] {
    return [...bucket.uploads.values()].filter((u) => u.key.startsWith(prefix)).sort((a, b) => compareNames(a.key, b.key) || a.initiatedAt - b.initiatedAt);
  }
}
