import { InvalidBucketName, InvalidMetadata, InvalidObjectName } from "./errors";
import type { CorsPolicy } from "./bucket-cors";
import type { LifecycleConfiguration } from "./bucket-lifecycle";
import { LIMITS } from "./limits";

export const FOLDER_CONTENT_TYPE = "application/directory";
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";
export const STORAGE_POLICY = "default-placement";

export interface SloSegment {
  /** `{bucket}/{object}` without a leading slash. */
  path: string;
  etag: string;
  size_bytes: number;
}

export interface StoredObject {
  name: string;
  contentType: string;
  /** The body's file in the blob store (for manifests: the manifest's own, usually empty, body). */
  blob: string;
  /** Body size in bytes. */
  size: number;
  /**
   * Stored unquoted: MD5 hex of the body; `{md5 of part MD5s}-{N}` after multipart upload; for an
   * SLO the MD5 of its segment ETags.
   */
  etag: string;
  createdAt: number;
  lastModified: number;
  metadata: Record<string, string>;
  /** Cache-Control, Content-Disposition, Content-Encoding as given on PUT (replaced by POST). */
  contentHeaders?: Record<string, string>;
  /** DLO: `{bucket}/{prefix}` from X-Object-Manifest. */
  dloManifest?: string;
  /** SLO: the validated segment list. */
  sloManifest?: SloSegment[];
}

export interface UploadPart {
  partNumber: number;
  blob: string;
  size: number;
  etag: string;
  lastModified: number;
}

/** The completed upload's object is given its content type, metadata and content headers. */
export interface MultipartUpload extends Pick<StoredObject, "contentType" | "metadata" | "contentHeaders"> {
  uploadId: string;
  key: string;
  initiatedAt: number;
  parts: Map<number, UploadPart>;
}

export interface BucketAcl {
  public: "read-only" | "deny";
  ipList: string[] | null;
}

export interface Bucket {
  name: string;
  projectId: string;
  type: "STANDARD";
  createdAt: number;
  lastModified: number;
  encrypted: boolean;
  encryptionType: string | null;
  acl: BucketAcl;
  metadata: Record<string, string>;
  cors: CorsPolicy[] | null;
  lifecycle: LifecycleConfiguration | null;
  objects: Map<string, StoredObject>;
  uploads: Map<string, MultipartUpload>;
}

/** Bucket record of spec section 2.1, as the extension API returns it. */
export interface BucketRecord {
  project: string;
  account: string;
  name: string;
  type: string;
  bytes: number;
  objectCount: number;
  createdAt: string;
  lastModified: string;
  use_encryption: boolean;
  encryption_type: string | null;
  storageClass: string;
  storagePolicy: string;
  acl: { public: string; public_read_allow_ip_list: string[] | null; permissions: null };
}

/** RFC 3339 without fractional seconds, e.g. 2025-01-02T03:04:05Z. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Swift X-Timestamp: Unix seconds with five decimals. */
export function swiftTimestamp(ms: number): string {
  return (ms / 1000).toFixed(5);
}

/** Byte-wise (UTF-8) name order, as Swift lists. */
export function compareNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9-]*[a-z0-9]$/;

export function validateBucketName(name: string): void {
  if (name.length < LIMITS.minBucketName || name.length > LIMITS.maxBucketName) {
    throw new InvalidBucketName(name, `length must be ${LIMITS.minBucketName} to ${LIMITS.maxBucketName} characters`);
  }
  if (!BUCKET_NAME.test(name)) {
    throw new InvalidBucketName(name, 'use lowercase letters, digits and "-", starting and ending with a letter or digit');
  }
}

export function validateObjectName(name: string): void {
  const length = [...name].length;
  if (length < LIMITS.minObjectName || length > LIMITS.maxObjectName) {
    throw new InvalidObjectName(`length must be ${LIMITS.minObjectName} to ${LIMITS.maxObjectName} characters (got ${length})`);
  }
  if (name.includes("\u0000")) throw new InvalidObjectName("NUL characters are not allowed");
}

/** Validates one metadata entry (key without its header prefix) against spec section 8. */
export function validateMetadataEntry(key: string, value: string): void {
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) throw new InvalidMetadata(`name "${key.slice(0, 80)}" must be an HTTP header token`);
  if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) throw new InvalidMetadata(`value of "${key.slice(0, 80)}" must be printable ISO-8859-1 text`);
  if (key.length < LIMITS.minMetaName || key.length > LIMITS.maxMetaName) {
    throw new InvalidMetadata(`name "${key.slice(0, 80)}" must be ${LIMITS.minMetaName} to ${LIMITS.maxMetaName} characters`);
  }
  if (Buffer.byteLength(value, "utf8") > LIMITS.maxMetaValue) {
    throw new InvalidMetadata(`value of "${key}" exceeds ${LIMITS.maxMetaValue} bytes`);
  }
}

export function validateMetadataTotal(metadata: Record<string, string>): void {
  let total = 0;
  for (const [k, v] of Object.entries(metadata)) total += Buffer.byteLength(k, "utf8") + Buffer.byteLength(v, "utf8");
  if (total > LIMITS.maxMetaTotal) throw new InvalidMetadata(`total size of names and values is ${total} bytes; the limit is ${LIMITS.maxMetaTotal}`);
}
