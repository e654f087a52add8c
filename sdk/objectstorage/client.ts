/**
 * ObjectStorageClient: every operation of seed 01-object-storage.md over core's Transport (retries,
 * errors, redaction, auth). Sections: extension API (buckets, ACL, lifecycle, CORS), Swift account
 * and containers, objects, multipart, large objects (DLO/SLO), temp URLs, capabilities, bulk helpers.
 *
 * Status codes: success is "any 2xx" unless stated, because the seed and upstream Swift disagree on
 * several (HEAD container 200 vs 204, POST object 200 vs 202, PUT container 201 vs 202 when it
 * exists, an empty listing 200 vs 204). Failures surface as core ApiErrors (`isNotFound`,
 * `isConflict`, ...), each with an action such as `creating bucket "logs"`.
 */

import {
  apiErrorFor,
  isApiError,
  isNotFound,
  transportFor,
  Transport,
  type HttpResponse,
  type Query,
  type RequestSpec,
  withAction,
} from "../core";
import { flattenBucket, flattenBucketPage } from "./bucket";
import { flattenCapabilities } from "./capabilities";
import { forEachLimit } from "./concurrency";
import { accountInfoFromHeaders, containerInfoFromHeaders, parseContainerNames } from "./container";
import { expandCorsRules, flattenCorsRules } from "./cors";
import { InvalidArgumentError, ResponseFormatError } from "./errors";
import { expandSloManifest, flattenSloManifest } from "./large-object";
import { buildLifecycleXml, parseLifecycleXml } from "./lifecycle";
import { CONTAINER_META, OBJECT_META, REMOVE_CONTAINER_META, metadataHeaders, removeMetadataHeaders } from "./metadata";
import { buildCompleteXml, MAX_PART_NUMBER, MIN_PART_SIZE, parseInitiateResult } from "./multipart";
import { entryName, flattenObjectListing, objectInfoFromHeaders, stripQuotes } from "./object";
import { accountPath, containerPath, extBucketPath, objectPath, objectRef, requireBucket, requireKey } from "./path";
import "./secrets";
import { resolveTempUrl, signTempUrl, type TempUrlDigest } from "./temp-url";
import type {
  AccountInfo,
  Bucket,
  BucketAcl,
  BucketPage,
  BucketSummary,
  Capabilities,
  ContainerInfo,
  CopyObjectOptions,
  CorsRule,
  CreateBucketInput,
  DownloadResult,
  EmptyBucketOptions,
  GetObjectResult,
  LifecycleRule,
  ListBucketsOptions,
  ListObjectsOptions,
  MoveObjectOptions,
  MultipartUpload,
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

const JSON_TYPE = "application/json";
const XML_TYPE = "application/xml";
const DIRECTORY_TYPE = "application/directory";
/** Seed 4.3 and 8: default and maximum object list page. */
export const OBJECT_PAGE_LIMIT = 1000;
/** Seed 8: account listing page. */
const ACCOUNT_PAGE_LIMIT = 1000;
/** Seed 4.1: ListBuckets limit. */
export const BUCKET_PAGE_MAX = 100;
export const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
const DEFAULT_PART_CONCURRENCY = 4;
const DEFAULT_EMPTY_CONCURRENCY = 8;
/** emptyBucket re-lists after deleting, since listings may lag; this bounds the rounds. */
const EMPTY_BUCKET_ROUNDS = 10;

export class ObjectStorageClient {
  readonly transport: Transport;
  private readonly opts: ObjectStorageClientOptions;
  /** Which method PutBucketCors accepted on this client (the seed gives PUT and POST). */
  private corsPutMethod: "PUT" | "POST" | undefined;

  constructor(opts: ObjectStorageClientOptions) {
    this.opts = opts;
    this.transport = transportFor("objectstorage", opts);
  }

  // =============================================================================================
  // Extension API: buckets (seed 4.1)

  async getBucket(name: string): Promise<Bucket> {
    const action = `reading bucket "${name}"`;
    const res = await this.send({ operation: "GetBucketMeta", idempotent: true, method: "GET", path: extBucketPath(name), headers: { "content-type": JSON_TYPE }, action });
    return flattenBucket(this.json(res, action), res.headers, { name, project: this.opts.settings.projectId }, action);
  }

  /** The bucket, or undefined when it does not exist. */
  async findBucket(name: string): Promise<Bucket | undefined> {
    return orUndefined(this.getBucket(name));
  }

  async createBucket(input: CreateBucketInput): Promise<Bucket> {
    const action = `creating bucket "${input.name}"`;
    requireBucket(input.name);
    const body: Record<string, unknown> = { name: input.name, type: input.type ?? "STANDARD" };
    // use_encryption is ignored by the service when encryption_configuration is given (seed 4.1);
    // both are sent so that a server reading either field sees the same intent.
    body.use_encryption = input.encryption !== undefined;
    if (input.encryption) body.encryption_configuration = { type: input.encryption.type };
    const res = await this.send({
      operation: "CreateBucket",
      // The name is ours: a repeat after a lost answer meets our own bucket with a 409 that carries
      // earlierAttemptMayHaveApplied, which the caller checks (provider/objectstorage/bucket.ts).
      idempotent: true,
      method: "PUT",
      path: "/v1_ext/bucket",
      headers: { "content-type": JSON_TYPE },
      body: JSON.stringify(body),
      action,
    });
    const json = this.json(res, action);
    return json === undefined ? this.getBucket(input.name) : flattenBucket(json, res.headers, { name: input.name, project: this.opts.settings.projectId }, action);
  }

  /** Fails with a conflict when the bucket still holds objects (see emptyBucket). */
  async deleteBucket(name: string): Promise<void> {
    await this.send({ operation: "DeleteBucket", idempotent: true, method: "DELETE", path: extBucketPath(name), headers: { "content-type": JSON_TYPE }, action: `deleting bucket "${name}"` });
  }

  /** One page of buckets. */
  async listBuckets(o: ListBucketsOptions = {}): Promise<BucketPage> {
    const action = "listing buckets";
    if (o.prefix !== undefined && o.include !== undefined) throw new InvalidArgumentError(`${action}: prefix and include cannot be combined`);
    if (o.limit !== undefined && !(Number.isInteger(o.limit) && o.limit >= 1 && o.limit <= BUCKET_PAGE_MAX)) {
      throw new InvalidArgumentError(`${action}: limit must be an integer from 1 to ${BUCKET_PAGE_MAX}`);
    }
    if (o.offset !== undefined && !(Number.isInteger(o.offset) && o.offset >= 0)) throw new InvalidArgumentError(`${action}: offset must be a non-negative integer`);
    const query: Query = { offset: o.offset, limit: o.limit, prefix: o.prefix, include: o.include, type: o.type, by: o.by, direct: o.direct };
    const res = await this.send({ operation: "ListBuckets", idempotent: true, method: "GET", path: "/v1_ext/bucket", query, headers: { "content-type": JSON_TYPE }, action });
    return flattenBucketPage(this.json(res, action) ?? {}, action);
  }

  /** Every bucket matching the filters, following offsets until `totalCount` is reached. */
  async listAllBuckets(o: Omit<ListBucketsOptions, "offset"> = {}): Promise<BucketSummary[]> {
    const limit = o.limit ?? BUCKET_PAGE_MAX;
    const all: BucketSummary[] = [];
    for (let offset = 0; ; ) {
      const page = await this.listBuckets({ ...o, offset, limit });
      all.push(...page.items);
      offset += page.items.length;
      // An empty page ends the walk even if totalCount says otherwise (buckets deleted meanwhile);
      // without totalCount, a short page is the last one.
      if (page.items.length === 0) break;
      if (page.totalCount !== undefined ? offset >= page.totalCount : page.items.length < limit) break;
    }
    return all;
  }

  /**
   * Sets (or with null, deletes) the bucket's ACL. The seed names the body's bucket field both
   * `name` and `bucket_name` (4.1); both are sent with the same value, as a server that requires
   * one of them is more likely than one that rejects the other.
   */
  async updateBucketAcl(name: string, acl: BucketAcl | null): Promise<Bucket> {
    const action = acl === null ? `removing the ACL of bucket "${name}"` : `setting the ACL of bucket "${name}"`;
    let wire: Record<string, unknown> | null = null;
    if (acl !== null) {
      wire = {};
      if (acl.public !== undefined) wire.public = acl.public;
      if (acl.publicReadAllowIpList !== undefined) wire.public_read_allow_ip_list = acl.publicReadAllowIpList;
    }
    const res = await this.send({
      operation: "UpdateBucketAcl",
      // A POST, but it sets the ACL to the absolute value sent: a repeat changes nothing.
      idempotent: true,
      method: "POST",
      path: extBucketPath(name),
      headers: { "content-type": JSON_TYPE },
      body: JSON.stringify({ name, bucket_name: name, acl: wire }),
      action,
    });
    const json = this.json(res, action);
    return json === undefined ? this.getBucket(name) : flattenBucket(json, res.headers, { name, project: this.opts.settings.projectId }, action);
  }

  // ---------------------------------------------------------------------------------------------
  // Lifecycle (seed 2.3): a new configuration replaces the previous one as a whole.

  async putLifecycle(bucket: string, rules: readonly LifecycleRule[]): Promise<LifecycleRule[]> {
    const action = `setting the lifecycle configuration of bucket "${bucket}"`;
    const xml = wrap(action, () => buildLifecycleXml(rules));
    const res = await this.send({
      operation: "PutBucketLifecycleConfiguration",
      idempotent: true,
      method: "PUT",
      path: extBucketPath(bucket, "lifecycle"),
      headers: { "content-type": XML_TYPE },
      body: xml,
      action,
    });
    const text = res.body.toString("utf8").trim();
    return text ? wrap(action, () => parseLifecycleXml(text)) : rules.map((r) => ({ ...r }));
  }

  /** The rules, or undefined when the bucket has no lifecycle configuration (404). */
  async getLifecycle(bucket: string): Promise<LifecycleRule[] | undefined> {
    const action = `reading the lifecycle configuration of bucket "${bucket}"`;
    const res = await orUndefined(
      this.send({ operation: "GetBucketLifecycleConfiguration", idempotent: true, method: "GET", path: extBucketPath(bucket, "lifecycle"), headers: { accept: XML_TYPE }, action }),
    );
    if (!res) return undefined;
    const text = res.body.toString("utf8").trim();
    return text ? wrap(action, () => parseLifecycleXml(text)) : [];
  }

  /** Returns false when there was nothing to delete (404). */
  async deleteLifecycle(bucket: string): Promise<boolean> {
    const res = await orUndefined(
      this.send({
        operation: "DeleteBucketLifecycleConfiguration",
        idempotent: true,
        method: "DELETE",
        path: extBucketPath(bucket, "lifecycle"),
        action: `deleting the lifecycle configuration of bucket "${bucket}"`,
      }),
    );
    return res !== undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // CORS (seed 2.4)

  /** The bucket's CORS rules; an empty list when none is set. A missing bucket is a NotFound error. */
  async getCors(bucket: string): Promise<CorsRule[]> {
    const action = `reading the CORS policy of bucket "${bucket}"`;
    const res = await this.send({ operation: "GetBucketCors", idempotent: true, method: "GET", path: extBucketPath(bucket, "cors"), headers: { "content-type": JSON_TYPE }, action });
    return flattenCorsRules(this.json(res, action));
  }

  /**
   * Replaces the whole CORS policy. The seed's sample request uses PUT, its method table POST
   * (4.1): PUT is tried first and, when the server answers 405 or 404 to it, POST once. The method
   * that worked is remembered for the rest of this client's life.
   */
  async putCors(bucket: string, rules: readonly CorsRule[]): Promise<CorsRule[]> {
    const action = rules.length ? `setting the CORS policy of bucket "${bucket}"` : `removing the CORS policy of bucket "${bucket}"`;
    const body = JSON.stringify(wrap(action, () => expandCorsRules(rules)));
    const spec = (method: "PUT" | "POST"): RequestSpec => ({
      operation: "PutBucketCors",
      idempotent: true,
      method,
      path: extBucketPath(bucket, "cors"),
      headers: { "content-type": JSON_TYPE },
      body,
      action,
    });
    let res: HttpResponse;
    if (this.corsPutMethod) {
      res = await this.send(spec(this.corsPutMethod));
    } else {
      try {
        res = await this.send(spec("PUT"));
        this.corsPutMethod = "PUT";
      } catch (e) {
        if (!(isApiError(e) && (e.status === 405 || e.status === 404))) throw e;
        res = await this.send(spec("POST"));
        this.corsPutMethod = "POST";
      }
    }
    const json = this.json(res, action);
    return json === undefined ? rules.map((r) => ({ ...r })) : flattenCorsRules(json);
  }

  /**
   * Removes the CORS policy. The seed has no delete operation; since a set replaces the whole list,
   * setting an empty list is the removal.
   */
  async deleteCors(bucket: string): Promise<void> {
    await this.putCors(bucket, []);
  }

  // =============================================================================================
  // Swift account and containers (seed 4.2, 2.6)

  /** Account statistics and every bucket name (plain-text listing, followed page by page). */
  async getAccount(): Promise<AccountInfo> {
    const action = "listing buckets of the project";
    const path = accountPath(this.account(action));
    const names: string[] = [];
    let headers: Record<string, string> = {};
    for (let marker: string | undefined; ; ) {
      const res = await this.send({ operation: "ListContainers", idempotent: true, method: "GET", path, query: { marker }, headers: { "content-type": JSON_TYPE }, action });
      if (marker === undefined) headers = res.headers;
      const page = parseContainerNames(res.body);
      names.push(...page);
      const last = page[page.length - 1];
      // Upstream Swift pages by 10000 by default, the seed by 1000: ask again only after a page of
      // at least 1000 names, and stop if the server ignores the marker.
      if (page.length < ACCOUNT_PAGE_LIMIT || last === undefined || (marker !== undefined && last <= marker)) break;
      marker = last;
    }
    return accountInfoFromHeaders(names, headers);
  }

  async listContainers(): Promise<string[]> {
    return (await this.getAccount()).containers;
  }

  async headContainer(name: string): Promise<ContainerInfo> {
    const action = `reading bucket "${name}"`;
    const res = await this.send({ operation: "HeadContainer", idempotent: true, method: "HEAD", path: containerPath(this.account(action), name), headers: { "content-type": JSON_TYPE }, action });
    return containerInfoFromHeaders(name, res.headers);
  }

  async findContainer(name: string): Promise<ContainerInfo | undefined> {
    return orUndefined(this.headContainer(name));
  }

  /** Swift answers 201, or 202 when the container already exists: both are success. */
  async createContainer(name: string, o: { metadata?: Record<string, string> } = {}): Promise<void> {
    const action = `creating bucket "${name}"`;
    await this.send({
      operation: "CreateContainer",
      idempotent: true,
      method: "PUT",
      path: containerPath(this.account(action), name),
      headers: { "content-type": JSON_TYPE, "content-length": "0", ...wrap(action, () => metadataHeaders(CONTAINER_META, o.metadata)) },
      body: "",
      action,
    });
  }

  async deleteContainer(name: string): Promise<void> {
    const action = `deleting bucket "${name}"`;
    await this.send({ operation: "DeleteContainer", idempotent: true, method: "DELETE", path: containerPath(this.account(action), name), headers: { "content-type": JSON_TYPE }, action });
  }

  /** Sets keys in `set` and removes keys in `remove`, in one request; other keys are untouched. */
  async updateContainerMetadata(name: string, set: Record<string, string> = {}, remove: readonly string[] = []): Promise<void> {
    const action = `setting the metadata of bucket "${name}"`;
    const overlap = remove.find((k) => Object.keys(set).some((s) => s.toLowerCase() === k.toLowerCase()));
    if (overlap !== undefined) throw new InvalidArgumentError(`${action}: key "${overlap}" is both set and removed`);
    await this.send({
      operation: "UpdateContainerMetadata",
      idempotent: true,
      method: "POST",
      path: containerPath(this.account(action), name),
      headers: {
        "content-type": JSON_TYPE,
        "content-length": "0",
        ...wrap(action, () => ({ ...metadataHeaders(CONTAINER_META, set), ...removeMetadataHeaders(REMOVE_CONTAINER_META, remove) })),
      },
      body: "",
      action,
    });
  }

  /**
   * Stores the key that locally signed temp URLs are checked against, on the account or on one
   * bucket (`X-Account-Meta-Temp-URL-Key` / `X-Container-Meta-Temp-URL-Key`). Upstream Swift only:
   * the seed has no such operation (its temp URLs come from createTempUrl).
   */
  async setTempUrlKey(key: string, o: { bucket?: string } = {}): Promise<void> {
    const action = o.bucket ? `setting the temp URL key of bucket "${o.bucket}"` : "setting the temp URL key of the project";
    const account = this.account(action);
    await this.send({
      operation: o.bucket ? "UpdateContainerMetadata" : "UpdateAccountMetadata",
      idempotent: true,
      method: "POST",
      path: o.bucket ? containerPath(account, o.bucket) : accountPath(account),
      headers: { [o.bucket ? "x-container-meta-temp-url-key" : "x-account-meta-temp-url-key"]: key, "content-length": "0" },
      body: "",
      action,
    });
  }

  // =============================================================================================
  // Objects (seed 4.3)

  /** A folder: a zero-byte object `{path}/` of type `application/directory`. */
  async createFolder(bucket: string, path: string, metadata?: Record<string, string>): Promise<void> {
    const folder = `${path.replace(/\/+$/, "")}/`;
    const action = `creating folder "${bucket}/${folder}"`;
    if (folder === "/") throw new InvalidArgumentError(`${action}: a folder path is required`);
    await this.send({
      operation: "CreateFolder",
      idempotent: true,
      method: "PUT",
      path: objectPath(this.account(action), bucket, folder),
      headers: { "content-type": DIRECTORY_TYPE, "content-length": "0", ...wrap(action, () => metadataHeaders(OBJECT_META, metadata)) },
      body: "",
      action,
    });
  }

  /** Uploads in one request (up to 5 GiB, seed 8). Returns the ETag without quotes. */
  async putObject(bucket: string, key: string, body: Buffer | string, o: PutObjectOptions = {}): Promise<{ etag?: string }> {
    const action = `uploading object "${bucket}/${key}"`;
    const data = typeof body === "string" ? Buffer.from(body, "utf8") : body;
    const res = await this.send({
      operation: "PutObject",
      idempotent: true,
      method: "PUT",
      path: objectPath(this.account(action), bucket, key),
      headers: {
        ...o.headers,
        "content-type": o.contentType ?? "application/octet-stream",
        "content-length": String(data.length),
        ...wrap(action, () => metadataHeaders(OBJECT_META, o.metadata)),
      },
      body: data,
      action,
    });
    return definedEtag(res.headers);
  }

  async headObject(bucket: string, key: string): Promise<ObjectInfo> {
    const action = `reading object "${bucket}/${key}"`;
    const res = await this.send({ operation: "HeadObject", idempotent: true, method: "HEAD", path: objectPath(this.account(action), bucket, key), action });
    return objectInfoFromHeaders(bucket, key, res.headers);
  }

  async findObject(bucket: string, key: string): Promise<ObjectInfo | undefined> {
    return orUndefined(this.headObject(bucket, key));
  }

  /**
   * Sets the object's user metadata. Upstream Swift replaces all `X-Object-Meta-*` of the object
   * with the ones sent (keys not sent are removed); pass the complete map.
   */
  async setObjectMetadata(bucket: string, key: string, metadata: Record<string, string>, o: { contentType?: string } = {}): Promise<void> {
    const action = `setting the metadata of object "${bucket}/${key}"`;
    await this.send({
      operation: "UpdateObjectMetadata",
      // Replaces the metadata with the map sent: a repeat changes nothing.
      idempotent: true,
      method: "POST",
      path: objectPath(this.account(action), bucket, key),
      headers: { "content-length": "0", "content-type": o.contentType, ...wrap(action, () => metadataHeaders(OBJECT_META, metadata)) },
      body: "",
      action,
    });
  }

  /** One page of the listing (`format=json`). */
  async listObjects(bucket: string, o: ListObjectsOptions = {}): Promise<ObjectPage> {
    const action = `listing objects of bucket "${bucket}"`;
    if (o.limit !== undefined && !(Number.isInteger(o.limit) && o.limit >= 1 && o.limit <= OBJECT_PAGE_LIMIT)) {
      throw new InvalidArgumentError(`${action}: limit must be an integer from 1 to ${OBJECT_PAGE_LIMIT}`);
    }
    const res = await this.send({
      operation: "ListObjects",
      idempotent: true,
      method: "GET",
      path: containerPath(this.account(action), bucket),
      query: { format: "json", prefix: o.prefix, delimiter: o.delimiter, marker: o.marker, limit: o.limit },
      headers: { accept: JSON_TYPE },
      action,
    });
    const entries = flattenObjectListing(res.body, action);
    const last = entries[entries.length - 1];
    const page: ObjectPage = { entries };
    // A page as long as the limit asked for (or the default) may have a successor.
    if (last !== undefined && entries.length >= (o.limit ?? OBJECT_PAGE_LIMIT)) page.nextMarker = entryName(last);
    return page;
  }

  /** Every entry, following the marker from page to page until a short page. */
  async listAllObjects(bucket: string, o: Omit<ListObjectsOptions, "marker"> = {}): Promise<ObjectListEntry[]> {
    const all: ObjectListEntry[] = [];
    let marker: string | undefined;
    for (;;) {
      const page = await this.listObjects(bucket, { ...o, marker, limit: o.limit ?? OBJECT_PAGE_LIMIT });
      all.push(...page.entries);
      if (page.nextMarker === undefined || page.nextMarker === marker) break;
      marker = page.nextMarker;
    }
    return all;
  }

  async getObject(bucket: string, key: string): Promise<GetObjectResult> {
    const action = `downloading object "${bucket}/${key}"`;
    const res = await this.send({ operation: "GetObject", idempotent: true, method: "GET", path: objectPath(this.account(action), bucket, key), action });
    return { ...objectInfoFromHeaders(bucket, key, res.headers), body: res.body };
  }

  /** Fails with NotFound when the object does not exist; see deleteObjectIfExists. */
  async deleteObject(bucket: string, key: string): Promise<void> {
    const action = `deleting object "${bucket}/${key}"`;
    await this.send({ operation: "DeleteObject", idempotent: true, method: "DELETE", path: objectPath(this.account(action), bucket, key), action });
  }

  /** Returns false when the object was already gone. */
  async deleteObjectIfExists(bucket: string, key: string): Promise<boolean> {
    return (await orUndefined(this.deleteObject(bucket, key).then(() => true))) ?? false;
  }

  async copyObject(srcBucket: string, srcKey: string, dstBucket: string, dstKey: string, o: CopyObjectOptions = {}): Promise<{ etag?: string }> {
    const action = `copying object "${srcBucket}/${srcKey}" to "${dstBucket}/${dstKey}"`;
    const res = await this.send({
      operation: "CopyObject",
      idempotent: true,
      method: "COPY",
      path: objectPath(this.account(action), srcBucket, srcKey),
      headers: { destination: this.destination(dstBucket, dstKey), ...wrap(action, () => metadataHeaders(OBJECT_META, o.metadata)) },
      action,
    });
    return definedEtag(res.headers);
  }

  /**
   * MOVE (seed 4.3; unavailable for encrypted buckets). Upstream Swift has no MOVE and answers 405;
   * with `fallbackToCopy` that answer (or 501) turns into COPY followed by DELETE of the source.
   */
  async moveObject(srcBucket: string, srcKey: string, dstBucket: string, dstKey: string, o: MoveObjectOptions = {}): Promise<void> {
    const action = `moving object "${srcBucket}/${srcKey}" to "${dstBucket}/${dstKey}"`;
    try {
      await this.send({
        operation: "MoveObject",
        // After a MOVE that was applied the source is gone: a repeat would fail with 404.
        idempotent: false,
        method: "MOVE",
        path: objectPath(this.account(action), srcBucket, srcKey),
        headers: { destination: this.destination(dstBucket, dstKey), ...wrap(action, () => metadataHeaders(OBJECT_META, o.metadata)) },
        action,
      });
    } catch (e) {
      if (!(o.fallbackToCopy && isApiError(e) && (e.status === 405 || e.status === 501))) throw e;
      await this.copyObject(srcBucket, srcKey, dstBucket, dstKey, { metadata: o.metadata });
      await this.deleteObject(srcBucket, srcKey);
    }
  }

  // =============================================================================================
  // Multipart upload (seed 4.4; abort is "not shown" and follows S3: DELETE ?uploadId=)

  async initiateMultipartUpload(bucket: string, key: string, o: { contentType?: string; metadata?: Record<string, string> } = {}): Promise<MultipartUpload> {
    const action = `starting a multipart upload of "${bucket}/${key}"`;
    const res = await this.send({
      operation: "InitiateMultipartUpload",
      // Each call creates an upload with a server-chosen id: a repeat leaves an orphan upload.
      idempotent: false,
      method: "POST",
      path: objectPath(this.account(action), bucket, key),
      query: { uploads: true },
      headers: { "content-type": o.contentType, "content-length": "0", ...wrap(action, () => metadataHeaders(OBJECT_META, o.metadata)) },
      body: "",
      action,
    });
    const r = parseInitiateResult(res.body.toString("utf8"), action);
    const upload: MultipartUpload = { bucket, key, uploadId: r.uploadId };
    if (r.tenant !== undefined) upload.tenant = r.tenant;
    return upload;
  }

  async uploadPart(upload: MultipartUpload, partNumber: number, body: Buffer): Promise<UploadedPart> {
    const action = `uploading part ${partNumber} of "${upload.bucket}/${upload.key}"`;
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
      throw new InvalidArgumentError(`${action}: part numbers run from 1 to ${MAX_PART_NUMBER}`);
    }
    const res = await this.send({
      operation: "UploadPart",
      idempotent: true,
      method: "PUT",
      path: objectPath(this.account(action), upload.bucket, upload.key),
      query: { uploadId: upload.uploadId, partNumber },
      headers: { "content-type": "application/octet-stream", "content-length": String(body.length) },
      body,
      action,
    });
    const etag = stripQuotes(res.headers["etag"]);
    if (!etag) throw new ResponseFormatError(`${action}: the answer has no etag header`);
    return { partNumber, etag };
  }

  async completeMultipartUpload(upload: MultipartUpload, parts: readonly UploadedPart[]): Promise<{ etag?: string }> {
    const action = `completing the multipart upload of "${upload.bucket}/${upload.key}"`;
    const res = await this.send({
      operation: "CompleteMultipartUpload",
      // A completed upload id no longer exists: a repeat after a lost answer fails with 404 for an
      // object that was written.
      idempotent: false,
      method: "PUT",
      path: objectPath(this.account(action), upload.bucket, upload.key),
      query: { uploadId: upload.uploadId },
      headers: { "content-type": XML_TYPE },
      body: wrap(action, () => buildCompleteXml(parts)),
      action,
    });
    return definedEtag(res.headers);
  }

  async abortMultipartUpload(upload: MultipartUpload): Promise<void> {
    const action = `aborting the multipart upload of "${upload.bucket}/${upload.key}"`;
    await this.send({
      operation: "AbortMultipartUpload",
      idempotent: true,
      method: "DELETE",
      path: objectPath(this.account(action), upload.bucket, upload.key),
      query: { uploadId: upload.uploadId },
      action,
    });
  }

  /**
   * Uploads `body` by multipart: initiate, parts (a few at a time), complete. Any failure aborts the
   * upload so no parts are left behind, then the original error is thrown.
   */
  async uploadLarge(bucket: string, key: string, body: Buffer, o: UploadLargeOptions = {}): Promise<{ etag?: string; parts: number }> {
    const action = `uploading object "${bucket}/${key}" in parts`;
    const partSize = o.partSize ?? DEFAULT_PART_SIZE;
    if (!Number.isInteger(partSize) || partSize < MIN_PART_SIZE) throw new InvalidArgumentError(`${action}: partSize must be at least ${MIN_PART_SIZE} bytes (5 MiB)`);
    const count = Math.max(1, Math.ceil(body.length / partSize));
    if (count > MAX_PART_NUMBER) throw new InvalidArgumentError(`${action}: ${count} parts exceed ${MAX_PART_NUMBER}; use a larger partSize`);
    const upload = await this.initiateMultipartUpload(bucket, key, { contentType: o.contentType, metadata: o.metadata });
    try {
      const parts: UploadedPart[] = [];
      let uploadedBytes = 0;
      const numbers = Array.from({ length: count }, (_, i) => i + 1);
      await forEachLimit(numbers, o.concurrency ?? DEFAULT_PART_CONCURRENCY, async (n) => {
        const chunk = body.subarray((n - 1) * partSize, Math.min(body.length, n * partSize));
        parts.push(await this.uploadPart(upload, n, chunk));
        uploadedBytes += chunk.length;
        o.onProgress?.(parts.length, { partsDone: parts.length, parts: count, uploadedBytes, totalBytes: body.length });
      });
      const done = await this.completeMultipartUpload(upload, parts);
      return { ...done, parts: count };
    } catch (e) {
      await this.abortMultipartUpload(upload).catch((abortError: unknown) =>
        this.opts.debug?.(`[krcloud objectstorage] abort after failed upload of "${bucket}/${key}" also failed: ${(abortError as Error).message}`),
      );
      throw e;
    }
  }

  // =============================================================================================
  // Large objects (seed 4.5; not available on encrypted buckets)

  /**
   * A DLO manifest: GET on it returns the concatenation of every object under
   * `{segmentBucket}/{segmentPrefix}` in name order. May be written before or after the segments.
   */
  async putDloManifest(bucket: string, key: string, segmentPrefix: string, o: { segmentBucket?: string; contentType?: string } = {}): Promise<void> {
    const action = `creating large object manifest "${bucket}/${key}"`;
    await this.send({
      operation: "PutDloManifest",
      idempotent: true,
      method: "PUT",
      path: objectPath(this.account(action), bucket, key),
      headers: {
        "x-object-manifest": objectRef(o.segmentBucket ?? bucket, segmentPrefix),
        "content-type": o.contentType ?? "application/octet-stream",
        "content-length": "0",
      },
      body: "",
      action,
    });
  }

  /**
   * An SLO manifest, written after its segments. The server checks each segment's existence and,
   * when given, its etag and size; on a mismatch it answers an error and creates no manifest.
   */
  async putSloManifest(bucket: string, key: string, segments: readonly SloSegment[]): Promise<{ etag?: string }> {
    const action = `creating static large object "${bucket}/${key}"`;
    const res = await this.send({
      operation: "PutSloManifest",
      // Completes a large object from segments that were checked at that moment, like
      // CompleteMultipartUpload: not repeated after an answer was lost.
      idempotent: false,
      method: "PUT",
      path: objectPath(this.account(action), bucket, key),
      query: { "multipart-manifest": "put" },
      headers: { "content-type": JSON_TYPE },
      body: JSON.stringify(wrap(action, () => expandSloManifest(segments))),
      action,
    });
    return definedEtag(res.headers);
  }

  async getSloManifest(bucket: string, key: string): Promise<SloSegment[]> {
    const action = `reading the manifest of static large object "${bucket}/${key}"`;
    const res = await this.send({
      operation: "GetSloManifest",
      idempotent: true,
      method: "GET",
      path: objectPath(this.account(action), bucket, key),
      query: { "multipart-manifest": "get" },
      action,
    });
    return flattenSloManifest(res.body, action);
  }

  /**
   * Deletes an SLO manifest and its segments. Upstream Swift answers 200 with a bulk-delete report
   * whose own status and error list say whether it worked; a failing report becomes an ApiError.
   */
  async deleteSlo(bucket: string, key: string): Promise<SloDeleteResult> {
    const action = `deleting static large object "${bucket}/${key}" and its segments`;
    const path = objectPath(this.account(action), bucket, key);
    const res = await this.send({ operation: "DeleteSlo", idempotent: true, method: "DELETE", path, query: { "multipart-manifest": "delete" }, headers: { accept: JSON_TYPE }, action });
    const report = this.json(res, action, { lenient: true }) as Record<string, unknown> | undefined;
    if (!report || typeof report !== "object") return {};
    const status = typeof report["Response Status"] === "string" ? Number.parseInt(report["Response Status"], 10) : undefined;
    const errors = Array.isArray(report.Errors) ? report.Errors : [];
    if ((status !== undefined && (status < 200 || status >= 300)) || errors.length > 0) {
      throw this.transport.redact(
        apiErrorFor({
          service: "objectstorage",
          operation: "DeleteSlo",
          method: "DELETE",
          path: this.transport.fullPath(path),
          status: status !== undefined && status >= 300 ? status : 400,
          apiMessage: `${String(report["Response Body"] ?? "")} ${JSON.stringify(errors)}`.trim(),
          requestId: res.requestId,
          action,
        }),
      );
    }
    const out: SloDeleteResult = {};
    if (typeof report["Number Deleted"] === "number") out.deleted = report["Number Deleted"];
    if (typeof report["Number Not Found"] === "number") out.notFound = report["Number Not Found"];
    return out;
  }

  // =============================================================================================
  // Temp URLs (seed 4.6)

  /** Asks the service for a signed download URL valid until `expiresAt` (Unix seconds). */
  async createTempUrl(bucket: string, key: string, expiresAt: number): Promise<TempUrl> {
    const action = `creating a temp URL for "${bucket}/${key}"`;
    if (!Number.isInteger(expiresAt) || expiresAt <= 0) throw new InvalidArgumentError(`${action}: expiresAt must be Unix seconds`);
    const res = await this.send({
      operation: "CreateTempUrl",
      idempotent: true,
      method: "GET",
      path: objectPath(this.account(action), bucket, key),
      query: { temp_url: true, temp_url_expires: expiresAt },
      action,
    });
    const json = this.json(res, action) as { url?: unknown; sig?: unknown } | undefined;
    if (!json || typeof json.url !== "string") throw new ResponseFormatError(`${action}: the answer has no url`);
    const sig = typeof json.sig === "string" ? json.sig : (new URL(json.url, "http://x").searchParams.get("temp_url_sig") ?? "");
    return { url: json.url, sig, absoluteUrl: resolveTempUrl(this.transport.endpoint, json.url) };
  }

  /** The decoded path a temp URL signature covers: `/v1/{account}/{bucket}/{key}`. */
  tempUrlPath(bucket: string, key: string): string {
    return `/v1/${this.account("signing a temp URL")}/${requireBucket(bucket)}/${requireKey(key)}`;
  }

  /** A temp URL signed locally with Swift's scheme (see signTempUrl), for servers without createTempUrl. */
  signedTempUrl(bucket: string, key: string, o: { tempUrlKey: string; expires: number; filename?: string; digest?: TempUrlDigest }): string {
    const sig = signTempUrl({ key: o.tempUrlKey, expires: o.expires, path: this.tempUrlPath(bucket, key), digest: o.digest });
    return this.transport.url(objectPath(this.account("signing a temp URL"), bucket, key), { temp_url_sig: sig, temp_url_expires: o.expires, filename: o.filename });
  }

  /** Downloads through a temp URL (absolute, or relative to the endpoint) without the auth token. */
  async downloadWithTempUrl(url: string, filename?: string): Promise<DownloadResult> {
    const u = new URL(resolveTempUrl(this.transport.endpoint, url));
    if (filename !== undefined) u.searchParams.set("filename", filename);
    const s = this.opts.settings;
    const t = new Transport({ service: "objectstorage", endpoint: u.origin, retry: s.retry, timeouts: s.timeouts, clock: this.opts.clock, debug: this.opts.debug });
    const res = await t.request({ operation: "DownloadWithTempUrl", idempotent: true, method: "GET", path: `${u.pathname}${u.search}`, auth: false, action: "downloading through a temp URL" });
    const out: DownloadResult = { body: res.body, headers: res.headers };
    if (res.headers["content-type"] !== undefined) out.contentType = res.headers["content-type"];
    if (res.headers["content-disposition"] !== undefined) out.contentDisposition = res.headers["content-disposition"];
    const etag = stripQuotes(res.headers["etag"]);
    if (etag !== undefined) out.etag = etag;
    return out;
  }

  // =============================================================================================
  // Capabilities (seed 2.5)

  /** `GET /info`; sent without the auth token (seed 4.2: may not be required). */
  async getInfo(): Promise<Capabilities> {
    const action = "reading the object storage capabilities";
    const res = await this.send({ operation: "ListCapability", idempotent: true, method: "GET", path: "/info", auth: false, action });
    return flattenCapabilities(this.json(res, action) ?? {});
  }

  // =============================================================================================
  // Bulk helpers and URLs

  /**
   * Deletes every object of the bucket (all pages) with bounded concurrency; returns how many were
   * deleted. Large objects: the plain DELETE of a DLO or SLO manifest removes the manifest only,
   * and segments stored in this bucket are listed and deleted like any object. Segments of a
   * manifest that live in another bucket are left alone: they belong to that bucket. A missing
   * bucket counts as empty.
   */
  async emptyBucket(bucket: string, o: EmptyBucketOptions = {}): Promise<number> {
    let deleted = 0;
    for (let round = 0; round < EMPTY_BUCKET_ROUNDS; round++) {
      const entries = await orUndefined(this.listAllObjects(bucket));
      const names = (entries ?? []).flatMap((e) => (e.kind === "object" ? [e.name] : []));
      if (names.length === 0) break;
      let thisRound = 0;
      await forEachLimit(names, o.concurrency ?? DEFAULT_EMPTY_CONCURRENCY, async (name) => {
        if (await this.deleteObjectIfExists(bucket, name)) {
          deleted++;
          thisRound++;
          o.onProgress?.(deleted);
        }
      });
      // Every listed object was already gone: the listing lags behind deletions; stop re-listing.
      if (thisRound === 0) break;
    }
    return deleted;
  }

  /** `{endpoint}/v1/{project}/{bucket}`. */
  bucketUrl(bucket: string): string {
    return this.transport.url(containerPath(this.account("building a bucket URL"), bucket));
  }

  /** `{endpoint}/v1/{project}/{bucket}/{key}`, segments percent-encoded. */
  objectUrl(bucket: string, key: string): string {
    return this.transport.url(objectPath(this.account("building an object URL"), bucket, key));
  }

  // =============================================================================================
  // Internals

  private send(spec: RequestSpec): Promise<HttpResponse> {
    return this.transport.request(spec);
  }

  /** The project ID used as `{account}` in Swift paths. */
  private account(action: string): string {
    const p = this.opts.settings.projectId;
    if (!p) throw new InvalidArgumentError(`${action}: no project ID: set krcloud:projectId or KRCLOUD_PROJECT_ID`);
    return p;
  }

  private destination(bucket: string, key: string): string {
    const ref = objectRef(bucket, requireKey(key));
    return this.opts.destinationStyle === "relative" ? ref : `/${ref}`;
  }

  /** The JSON body, or undefined when empty. */
  private json(res: HttpResponse, action: string, o: { lenient?: boolean } = {}): unknown {
    const text = res.body.toString("utf8").trim();
    if (text === "") return undefined;
    try {
      return JSON.parse(text);
    } catch {
      if (o.lenient) return undefined;
      throw new ResponseFormatError(`${action}: the answer is not JSON (status ${res.status})`);
    }
  }
}

/** Resolves undefined instead of rejecting with a NotFound error. */
async function orUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** Runs a local step (validation, document building) and prefixes its error with the action. */
function wrap<T>(action: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw withAction(e, action);
  }
}

function definedEtag(headers: Record<string, string>): { etag?: string } {
  const etag = stripQuotes(headers["etag"]);
  return etag === undefined ? {} : { etag };
}
