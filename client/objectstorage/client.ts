/**
 * ObjectStorageClient: every operation of spec 01-object-storage.md over core's Transport (retries,
 * errors, redaction, auth). The operations live in `operations/`, one module per area (buckets,
 * containers, objects, multipart, large objects, listing, temp URLs, bucket CORS, bucket lifecycle); this class
 * is the public face that delegates to them.
 *
 * Status codes: success is "any 2xx" unless stated, because the spec and upstream Swift disagree on
 * several (HEAD container 200 vs 204, POST object 200 vs 202, PUT container 201 vs 202 when it
 * exists, an empty listing 200 vs 204). Failures surface as core ApiErrors (`isNotFound`,
 * `isConflict`, ...), each with an action such as `creating bucket "logs"`.
 */

import { transportFor, type Transport } from "../core";
import * as buckets from "./operations/buckets";
import * as containers from "./operations/containers";
import { Ops } from "./operations/context";
import * as bucketCors from "./operations/bucket-cors";
import * as largeObjects from "./operations/large-objects";
import * as bucketLifecycle from "./operations/bucket-lifecycle";
import * as listing from "./operations/listing";
import * as multipart from "./operations/multipart";
import * as objects from "./operations/objects";
import * as tempUrls from "./operations/temp-urls";
import "./secrets";
import type { ByteSource } from "./byte-source";
import type { TempUrlDigest } from "./wire/temp-url";
import type {
  AccountInfo,
  Bucket,
  BucketAcl,
  BucketPage,
  BucketSummary,
  Capabilities,
  ContainerInfo,
  ContentHeaders,
  CopyObjectOptions,
  CorsRule,
  CreateBucketInput,
  DownloadResult,
  EmptyBucketOptions,
  GetObjectResult,
  LifecycleRule,
  ListAllObjectsOptions,
  ListBucketsOptions,
  ListObjectsOptions,
  MoveObjectOptions,
  MultipartUpload,
  MultipartUploadSummary,
  ObjectInfo,
  ObjectListEntry,
  ObjectPage,
  ObjectStorageClientOptions,
  PutObjectOptions,
  SloDeleteResult,
  SloSegment,
  TempUrl,
  UploadedPart,
  UploadLargeOptions,
} from "./types";

export { BUCKET_PAGE_MAX, DEFAULT_PART_SIZE, OBJECT_PAGE_LIMIT } from "./limits";

export class ObjectStorageClient {
  readonly transport: Transport;
  private readonly ops: Ops;

  constructor(opts: ObjectStorageClientOptions) {
    this.transport = transportFor("objectstorage", opts);
    this.ops = new Ops(this.transport, opts);
  }

  // ---------------------------------------------------------------------------------------------
  // Extension API: buckets (spec 4.1) and capabilities (2.5)

  getBucket(name: string): Promise<Bucket> {
    return buckets.getBucket(this.ops, name);
  }

  /** The bucket, or undefined when it does not exist. */
  findBucket(name: string): Promise<Bucket | undefined> {
    return buckets.findBucket(this.ops, name);
  }

  createBucket(input: CreateBucketInput): Promise<Bucket> {
    return buckets.createBucket(this.ops, input);
  }

  /** Fails with a conflict when the bucket still holds objects (see emptyBucket). */
  deleteBucket(name: string): Promise<void> {
    return buckets.deleteBucket(this.ops, name);
  }

  /** One page of buckets. */
  listBuckets(o: ListBucketsOptions = {}): Promise<BucketPage> {
    return buckets.listBuckets(this.ops, o);
  }

  /** Every bucket matching the filters, following offsets until `totalCount` is reached. */
  listAllBuckets(o: Omit<ListBucketsOptions, "offset"> = {}): Promise<BucketSummary[]> {
    return buckets.listAllBuckets(this.ops, o);
  }

  /** Sets (or with null, deletes) the bucket's ACL (details on the operation in operations/). */
  updateBucketAcl(name: string, acl: BucketAcl | null): Promise<Bucket> {
    return buckets.updateBucketAcl(this.ops, name, acl);
  }

  /** `GET /info`; sent without the auth token (spec 4.2: may not be required). */
  getInfo(): Promise<Capabilities> {
    return buckets.getInfo(this.ops);
  }

  // ---------------------------------------------------------------------------------------------
  // Lifecycle (spec 2.3)

  putLifecycle(bucket: string, rules: readonly LifecycleRule[]): Promise<LifecycleRule[]> {
    return bucketLifecycle.putLifecycle(this.ops, bucket, rules);
  }

  /** The rules, or undefined when the bucket has no lifecycle configuration (404). */
  getLifecycle(bucket: string): Promise<LifecycleRule[] | undefined> {
    return bucketLifecycle.getLifecycle(this.ops, bucket);
  }

  /** Returns false when there was nothing to delete (404). */
  deleteLifecycle(bucket: string): Promise<boolean> {
    return bucketLifecycle.deleteLifecycle(this.ops, bucket);
  }

  // ---------------------------------------------------------------------------------------------
  // CORS (spec 2.4)

  /** The bucket's CORS rules; an empty list when none is set. A missing bucket is a NotFound error. */
  getCors(bucket: string): Promise<CorsRule[]> {
    return bucketCors.getCors(this.ops, bucket);
  }

  /** Replaces the whole CORS policy (details on the operation in operations/). */
  putCors(bucket: string, rules: readonly CorsRule[]): Promise<CorsRule[]> {
    return bucketCors.putCors(this.ops, bucket, rules);
  }

  /** Removes the CORS policy (details on the operation in operations/). */
  deleteCors(bucket: string): Promise<void> {
    return bucketCors.deleteCors(this.ops, bucket);
  }

  // ---------------------------------------------------------------------------------------------
  // Swift account and containers (spec 4.2, 2.6)

  /** Account statistics and every bucket name (plain-text listing, followed page by page). */
  getAccount(): Promise<AccountInfo> {
    return containers.getAccount(this.ops);
  }

  listContainers(): Promise<string[]> {
    return containers.listContainers(this.ops);
  }

  headContainer(name: string): Promise<ContainerInfo> {
    return containers.headContainer(this.ops, name);
  }

  findContainer(name: string): Promise<ContainerInfo | undefined> {
    return containers.findContainer(this.ops, name);
  }

  /** Swift answers 201, or 202 when the container already exists: both are success. */
  createContainer(name: string, o: { metadata?: Record<string, string> } = {}): Promise<void> {
    return containers.createContainer(this.ops, name, o);
  }

  deleteContainer(name: string): Promise<void> {
    return containers.deleteContainer(this.ops, name);
  }

  /** Sets keys in `set` and removes keys in `remove`, in one request; other keys are untouched. */
  updateContainerMetadata(name: string, set: Record<string, string> = {}, remove: readonly string[] = []): Promise<void> {
    return containers.updateContainerMetadata(this.ops, name, set, remove);
  }

  /** Stores the temp URL key on the account or one bucket (upstream Swift only; see operations/containers.ts). */
  setTempUrlKey(key: string, o: { bucket?: string } = {}): Promise<void> {
    return containers.setTempUrlKey(this.ops, key, o);
  }

  // ---------------------------------------------------------------------------------------------
  // Objects (spec 4.3) and URLs

  /** A folder: a zero-byte object `{path}/` of type `application/directory`. */
  createFolder(bucket: string, path: string, metadata?: Record<string, string>, o: { headers?: Record<string, string> } = {}): Promise<void> {
    return objects.createFolder(this.ops, bucket, path, metadata, o);
  }

  /** Uploads in one request (up to 5 GiB, spec 8). Returns the ETag without quotes. */
  putObject(bucket: string, key: string, body: Buffer | string | ByteSource, o: PutObjectOptions = {}): Promise<{ etag?: string }> {
    return objects.putObject(this.ops, bucket, key, body, o);
  }

  headObject(bucket: string, key: string): Promise<ObjectInfo> {
    return objects.headObject(this.ops, bucket, key);
  }

  findObject(bucket: string, key: string): Promise<ObjectInfo | undefined> {
    return objects.findObject(this.ops, bucket, key);
  }

  /** Sets the object's user metadata (details on the operation in operations/). */
  setObjectMetadata(bucket: string, key: string, metadata: Record<string, string>, o: { contentType?: string } & ContentHeaders = {}): Promise<void> {
    return objects.setObjectMetadata(this.ops, bucket, key, metadata, o);
  }

  getObject(bucket: string, key: string): Promise<GetObjectResult> {
    return objects.getObject(this.ops, bucket, key);
  }

  /** Fails with NotFound when the object does not exist; see deleteObjectIfExists. */
  deleteObject(bucket: string, key: string): Promise<void> {
    return objects.deleteObject(this.ops, bucket, key);
  }

  /** Returns false when the object was already gone. */
  deleteObjectIfExists(bucket: string, key: string): Promise<boolean> {
    return objects.deleteObjectIfExists(this.ops, bucket, key);
  }

  copyObject(srcBucket: string, srcKey: string, dstBucket: string, dstKey: string, o: CopyObjectOptions = {}): Promise<{ etag?: string }> {
    return objects.copyObject(this.ops, srcBucket, srcKey, dstBucket, dstKey, o);
  }

  /** MOVE (spec 4.3; unavailable for encrypted buckets) (details on the operation in operations/). */
  moveObject(srcBucket: string, srcKey: string, dstBucket: string, dstKey: string, o: MoveObjectOptions = {}): Promise<void> {
    return objects.moveObject(this.ops, srcBucket, srcKey, dstBucket, dstKey, o);
  }

  /** `{endpoint}/v1/{project}/{bucket}`. */
  bucketUrl(bucket: string): string {
    return objects.bucketUrl(this.ops, bucket);
  }

  /** `{endpoint}/v1/{project}/{bucket}/{key}`, segments percent-encoded. */
  objectUrl(bucket: string, key: string): string {
    return objects.objectUrl(this.ops, bucket, key);
  }

  // ---------------------------------------------------------------------------------------------
  // Listing and emptying (spec 4.3)

  /** One page of the listing (`format=json`). */
  listObjects(bucket: string, o: ListObjectsOptions = {}): Promise<ObjectPage> {
    return listing.listObjects(this.ops, bucket, o);
  }

  /** Every entry, following the marker from page to page until a short page or the answer's object count (see operations/listing.ts). */
  listAllObjects(bucket: string, o: ListAllObjectsOptions = {}): Promise<ObjectListEntry[]> {
    return listing.listAllObjects(this.ops, bucket, o);
  }

  /** Deletes every object of the bucket, page by page; returns how many (see operations/listing.ts). */
  emptyBucket(bucket: string, o: EmptyBucketOptions = {}): Promise<number> {
    return listing.emptyBucket(this.ops, bucket, o);
  }

  // ---------------------------------------------------------------------------------------------
  // Multipart upload (spec 4.4)

  initiateMultipartUpload(
    bucket: string,
    key: string,
    o: { contentType?: string; metadata?: Record<string, string> } & ContentHeaders = {},
  ): Promise<MultipartUpload> {
    return multipart.initiateMultipartUpload(this.ops, bucket, key, o);
  }

  uploadPart(upload: MultipartUpload, partNumber: number, body: Buffer | ByteSource): Promise<UploadedPart> {
    return multipart.uploadPart(this.ops, upload, partNumber, body);
  }

  completeMultipartUpload(upload: MultipartUpload, parts: readonly UploadedPart[]): Promise<{ etag?: string }> {
    return multipart.completeMultipartUpload(this.ops, upload, parts);
  }

  abortMultipartUpload(upload: MultipartUpload): Promise<void> {
    return multipart.abortMultipartUpload(this.ops, upload);
  }

  /** Uploads `body` by multipart (details on the operation in operations/). */
  uploadLarge(bucket: string, key: string, body: Buffer | ByteSource, o: UploadLargeOptions = {}): Promise<{ etag?: string; parts: number }> {
    return multipart.uploadLarge(this.ops, bucket, key, body, o);
  }

  /** Unfinished multipart uploads, all pages (GET `?uploads`, see operations/multipart.ts); none where the service lacks the call. */
  async listMultipartUploads(bucket: string, o: { prefix?: string } = {}): Promise<MultipartUploadSummary[]> {
    const all: MultipartUploadSummary[] = [];
    await multipart.forEachMultipartUploadPage(this.ops, bucket, async (page) => void all.push(...page), o);
    return all;
  }

  /** Aborts every unfinished multipart upload of the bucket, page by page; returns how many. */
  abortAllMultipartUploads(bucket: string, o: { concurrency?: number } = {}): Promise<number> {
    return multipart.abortAllMultipartUploads(this.ops, bucket, o);
  }

  // ---------------------------------------------------------------------------------------------
  // Large objects (spec 4.5)

  /** A DLO manifest (details on the operation in operations/). */
  putDloManifest(bucket: string, key: string, segmentPrefix: string, o: { segmentBucket?: string; contentType?: string } = {}): Promise<void> {
    return largeObjects.putDloManifest(this.ops, bucket, key, segmentPrefix, o);
  }

  /** An SLO manifest, written after its segments (details on the operation in operations/). */
  putSloManifest(bucket: string, key: string, segments: readonly SloSegment[]): Promise<{ etag?: string }> {
    return largeObjects.putSloManifest(this.ops, bucket, key, segments);
  }

  getSloManifest(bucket: string, key: string): Promise<SloSegment[]> {
    return largeObjects.getSloManifest(this.ops, bucket, key);
  }

  /** Deletes an SLO manifest and its segments (details on the operation in operations/). */
  deleteSlo(bucket: string, key: string): Promise<SloDeleteResult> {
    return largeObjects.deleteSlo(this.ops, bucket, key);
  }

  // ---------------------------------------------------------------------------------------------
  // Temp URLs (spec 4.6)

  /** Asks the service for a signed download URL valid until `expiresAt` (Unix seconds). */
  createTempUrl(bucket: string, key: string, expiresAt: number): Promise<TempUrl> {
    return tempUrls.createTempUrl(this.ops, bucket, key, expiresAt);
  }

  /** The decoded path a temp URL signature covers: `/v1/{account}/{bucket}/{key}`. */
  tempUrlPath(bucket: string, key: string): string {
    return tempUrls.tempUrlPath(this.ops, bucket, key);
  }

  /** A temp URL signed locally with Swift's scheme (see signTempUrl), for servers without createTempUrl. */
  signedTempUrl(bucket: string, key: string, o: { tempUrlKey: string; expires: number; filename?: string; digest?: TempUrlDigest }): string {
    return tempUrls.signedTempUrl(this.ops, bucket, key, o);
  }

  /** Downloads through a temp URL (absolute, or relative to the endpoint) without the auth token. */
  downloadWithTempUrl(url: string, filename?: string): Promise<DownloadResult> {
    return tempUrls.downloadWithTempUrl(this.ops, url, filename);
  }
}
