/**
 * Public types of the object storage client. Wire names (snake_case, spec section 2) are mapped to
 * camelCase here; the `raw` members keep the record as received for fields the spec does not list.
 */

import type { ClientOptions } from "../core";

// ---------------------------------------------------------------------------------------------
// Client

export interface ObjectStorageClientOptions extends ClientOptions {
  /**
   * Form of the `Destination` header of COPY and MOVE. The spec writes `/{bucket}/{path}`; Swift
   * documents `{container}/{object}` and accepts both (it prepends the slash when missing).
   * Default `absolute` (the spec's form).
   */
  destinationStyle?: "absolute" | "relative";
}

// ---------------------------------------------------------------------------------------------
// Buckets (extension API, spec 2.1 and 4.1)

export type PublicAccess = "read-only" | "deny";

export interface BucketAcl {
  /** `read-only` allows token-less reads; `deny` forbids them (same as no ACL). */
  public?: PublicAccess;
  /** When set, token-less reads are allowed only from these IP addresses or CIDR ranges. */
  publicReadAllowIpList?: string[] | null;
  /** Shown as null in the create response; kept as received. */
  permissions?: unknown;
}

export interface Bucket {
  /**
   * Project ID: `project`, else the deprecated `account`, else the client's project (the one the
   * token was issued for, spec 5).
   */
  project: string;
  name: string;
  type?: string;
  /** Total object bytes; refreshed every 30 minutes, so it lags. The wire value may be a numeric string. */
  bytes?: number;
  objectCount?: number;
  createdAt?: string;
  lastModified?: string;
  useEncryption?: boolean;
  encryptionType?: string;
  storageClass?: string;
  storagePolicy?: string;
  acl?: BucketAcl | null;
  /** `X-Container-Meta-*` response headers, keys lower-cased, without the prefix. */
  metadata: Record<string, string>;
  /** The record as received. */
  raw: Record<string, unknown>;
}

/** A ListBuckets item: its model is "not shown" (spec 2.1), so every field is optional. */
export type BucketSummary = Partial<Omit<Bucket, "metadata" | "raw">> & { raw: unknown };

export interface CreateBucketInput {
  name: string;
  /** Default `STANDARD`. */
  type?: string;
  /** Provider-managed encryption. Encrypted buckets do not support DLO, SLO or MOVE. */
  encryption?: { type: "managed" };
  /** Metadata set by the create request itself (`X-Container-Meta-*` headers, as Swift's container PUT takes them). */
  metadata?: Record<string, string>;
}

export interface ListBucketsOptions {
  /** Starts at 0. */
  offset?: number;
  /** 1 to 100 (server default 20). */
  limit?: number;
  /** Names starting with this; cannot be combined with `include`. */
  prefix?: string;
  /** Names containing this; cannot be combined with `prefix`. */
  include?: string;
  type?: string;
  by?: "bucket_name" | "bucket_type" | "created_at" | "bytes_used";
  direct?: "asc" | "desc";
}

export interface BucketPage {
  /** Buckets matching the query across all pages; undefined when the server omits it. */
  totalCount?: number;
  offset: number;
  count: number;
  items: BucketSummary[];
}

// ---------------------------------------------------------------------------------------------
// Lifecycle (spec 2.3) and CORS (spec 2.4)

export type LifecycleStatus = "Enabled" | "Disabled";

export interface LifecycleRule {
  /** Unique within the configuration, up to 255 characters. */
  id?: string;
  /** Object name prefix the rule applies to; empty for every object. */
  prefix: string;
  status: LifecycleStatus;
  /** Expire this many days after creation (positive). Exactly one of `days` and `date`. */
  days?: number;
  /** Expire on this date, `YYYY-MM-DDThh:mm:ss.000Z` exactly. Exactly one of `days` and `date`. */
  date?: string;
}

export type CorsMethod = "PUT" | "POST" | "GET" | "DELETE";

export interface CorsRule {
  allowedOrigins: string[];
  allowedMethods: CorsMethod[];
  allowedHeaders?: string[];
  exposeHeaders?: string[];
  maxAgeSeconds?: number;
}

// ---------------------------------------------------------------------------------------------
// Swift account and containers (spec 2.6, 4.2)

export interface AccountInfo {
  containers: string[];
  containerCount?: number;
  objectCount?: number;
  bytesUsed?: number;
  bytesUsedActual?: number;
  timestamp?: number;
}

export interface ContainerInfo {
  name: string;
  objectCount?: number;
  /** Logical bytes. */
  bytesUsed?: number;
  /** Physical bytes including replicas (not sent by upstream Swift). */
  bytesUsedActual?: number;
  storagePolicy?: string;
  /** Creation time, Unix seconds (float). */
  timestamp?: number;
  metadata: Record<string, string>;
  headers: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------
// Objects (spec 2.2, 4.3)

/**
 * Standard HTTP headers stored with an object and answered by GET and HEAD (Swift keeps them as
 * written). Spec 4.3 lists none of them for upload: see docs/api-assumptions.md.
 */
export interface ContentHeaders {
  cacheControl?: string;
  contentDisposition?: string;
  contentEncoding?: string;
}

export interface PutObjectOptions extends ContentHeaders {
  /** Default `application/octet-stream`. */
  contentType?: string;
  /**
   * The body's MD5 (hex) as the caller knows it: sent as the `ETag` request header, which Swift
   * checks, refusing (422) a body that does not match.
   */
  expectedMd5?: string;
  metadata?: Record<string, string>;
  /** Extra headers, e.g. `X-Delete-After`. */
  headers?: Record<string, string>;
}

export interface ObjectInfo {
  bucket: string;
  key: string;
  contentType?: string;
  contentLength?: number;
  /** Without quotes. MD5 of the content for plain objects; meaningless for folders. */
  etag?: string;
  lastModified?: string;
  metadata: Record<string, string>;
  /** `X-Object-Manifest` of a DLO manifest: `{bucket}/{prefix}`. */
  dloManifest?: string;
  /** True for an SLO manifest (`X-Static-Large-Object`). */
  staticLargeObject: boolean;
  storageClass?: string;
  cacheControl?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  headers: Record<string, string>;
}

export interface GetObjectResult extends ObjectInfo {
  body: Buffer;
}

export type ObjectListEntry =
  | {
      kind: "object";
      name: string;
      contentType?: string;
      bytes?: number;
      hash?: string;
      lastModified?: string;
    }
  | {
      /** A pseudo-directory, present only when listing with a delimiter. */
      kind: "subdir";
      subdir: string;
    };

export interface ListObjectsOptions {
  prefix?: string;
  delimiter?: string;
  /** List names after this one. */
  marker?: string;
  /** 1 to 1000 (default and maximum 1000). */
  limit?: number;
}

export interface ListAllObjectsOptions extends Omit<ListObjectsOptions, "marker"> {
  /**
   * Walk on to a short page even when an answer's object count says every object is listed: for a
   * caller that must see every key even where the count lags behind the listing (a create that
   * refuses objects it did not make). Default false: the count ends the walk.
   */
  toShortPage?: boolean;
}

export interface ObjectPage {
  entries: ObjectListEntry[];
  /** Pass as `marker` for the next page; undefined when this page was short (the last one). */
  nextMarker?: string;
  /**
   * The bucket's object count as this answer gives it (`X-Container-Object-Count`: Swift sends it
   * on a listing as on HEAD, spec 01 §2.6 names it for HEAD only); undefined when the answer lacks it.
   * The whole bucket's, whatever the prefix: `listAllObjects` ends a walk by it (docs/api-assumptions.md).
   */
  objectCount?: number;
}

export interface CopyObjectOptions {
  /** Metadata set on the destination (merged with the source's by Swift). */
  metadata?: Record<string, string>;
}

export interface MoveObjectOptions extends CopyObjectOptions {
  /**
   * When the server does not implement MOVE (405 or 501, e.g. upstream Swift), copy and then
   * delete the source. Not atomic: a failure between the two leaves both objects. Default false.
   */
  fallbackToCopy?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Multipart (spec 4.4) and large objects (spec 4.5)

export interface MultipartUpload {
  bucket: string;
  key: string;
  uploadId: string;
  tenant?: string;
}

export interface UploadedPart {
  partNumber: number;
  etag: string;
}

export interface UploadLargeProgress {
  partsDone: number;
  parts: number;
  uploadedBytes: number;
  totalBytes: number;
}

export interface UploadLargeOptions extends ContentHeaders {
  /** Bytes per part, at least 5 MiB (spec 8); the last part may be smaller. Default 8 MiB. */
  partSize?: number;
  contentType?: string;
  metadata?: Record<string, string>;
  /** Parts uploaded at once. Default 4. */
  concurrency?: number;
  /** Called after each part with the number of parts done so far. */
  onProgress?: (partsDone: number, progress: UploadLargeProgress) => void;
}

export interface SloSegment {
  /** `{bucket}/{segment object}`. */
  path: string;
  /** MD5 of the segment; checked by the server when given. */
  etag?: string;
  /** Size of the segment; checked by the server when given. */
  sizeBytes?: number;
}

export interface SloDeleteResult {
  deleted?: number;
  notFound?: number;
}

// ---------------------------------------------------------------------------------------------
// Temp URLs (spec 4.6)

export interface TempUrl {
  /** As returned: a path (relative to the base URL) with `temp_url_sig` and `temp_url_expires`. */
  url: string;
  sig: string;
  /** `url` resolved against the endpoint. */
  absoluteUrl: string;
}

export interface DownloadResult {
  body: Buffer;
  contentType?: string;
  contentDisposition?: string;
  etag?: string;
  headers: Record<string, string>;
}

// ---------------------------------------------------------------------------------------------
// Capabilities (spec 2.5)

/** A type alias (not an interface) so that it is assignable to `Record<string, unknown>`. */
export type Capabilities = {
  swift: {
    version?: string;
    accountListingLimit?: number;
    containerListingLimit?: number;
    maxFileSize?: number;
    maxMetaLength?: number;
    minMetaNameLength?: number;
    maxMetaNameLength?: number;
    minMetaValueLength?: number;
    maxMetaValueLength?: number;
    minObjectNameLength?: number;
    maxObjectNameLength?: number;
    minContainerNameLength?: number;
    maxContainerNameLength?: number;
    maxAccountNameLength?: number;
    policies?: { name: string; default?: boolean }[];
  };
  tempurl?: { methods?: string[] };
  slo?: { maxManifestSegments?: number; minSegmentSize?: number; maxManifestSize?: number };
  /** The document as received (unknown sections and keys included). */
  raw: Record<string, unknown>;
};

/** An unfinished multipart upload (ListMultipartUploads). */
export interface MultipartUploadSummary {
  key: string;
  uploadId: string;
  initiated?: string;
}

export interface EmptyBucketOptions {
  /** Called after each deletion with the number of objects deleted so far. */
  onProgress?: (deleted: number) => void;
  /** Deletions in flight. Default 8. */
  concurrency?: number;
}
