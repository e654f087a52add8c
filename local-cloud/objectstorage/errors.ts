import { apiErrorClass, apiErrorCode } from "../core/errors";

/** One class per error code the object storage local cloud answers (codes are documented in docs/local-cloud.md). */

export { AccessDenied, EntityTooLarge, InvalidArgument, MalformedXml } from "../core/errors";

export const InvalidBucketName = apiErrorClass(
  400,
  "InvalidBucketName",
  (name: string, reason: string) => `Invalid bucket name "${name.slice(0, 80)}": ${reason}`,
);
export const InvalidObjectName = apiErrorClass(400, "InvalidObjectName", (reason: string) => `Invalid object name: ${reason}`);
export const InvalidMetadata = apiErrorClass(400, "InvalidMetadata", (reason: string) => `Invalid metadata: ${reason}`);
export const InvalidLifecycleConfiguration = apiErrorCode(400, "InvalidLifecycleConfiguration");
export const InvalidCorsConfiguration = apiErrorCode(400, "InvalidCorsConfiguration");
export const InvalidAcl = apiErrorCode(400, "InvalidAcl");
export const InvalidPart = apiErrorCode(400, "InvalidPart");
export const InvalidPartOrder = apiErrorClass(400, "InvalidPartOrder", () => "Parts must be listed in ascending PartNumber order without duplicates.");
export const EntityTooSmall = apiErrorClass(
  400,
  "EntityTooSmall",
  (partNumber: number, size: number, min: number) => `Part ${partNumber} is ${size} bytes; every part except the last must be at least ${min} bytes.`,
);
export const InvalidManifest = apiErrorCode(400, "InvalidManifest");
export const NotSupportedOnEncryptedBucket = apiErrorClass(
  400,
  "NotSupportedOnEncryptedBucket",
  (what: string, bucket: string) => `${what} is not available for encrypted bucket "${bucket}".`,
);
export const MissingDestination = apiErrorClass(
  400,
  "InvalidDestination",
  (message: string = "The Destination header is required and must be /{bucket}/{object}.") => message,
);
/** The core's 401 code, with object storage's default message (it authenticates by X-Auth-Token only). */
export const Unauthorized = apiErrorClass(401, "Unauthorized", (message: string = "Authentication failed: a valid X-Auth-Token is required.") => message);
export const TempUrlDenied = apiErrorClass(401, "TempUrlInvalid", (reason: string) => `Temporary URL refused: ${reason}.`);
export const CorsForbidden = apiErrorClass(
  403,
  "CORSForbidden",
  (message: string = "CORS preflight refused: no CORS policy of the bucket allows this origin, method and headers.") => message,
);
export const NoSuchBucket = apiErrorClass(404, "NoSuchBucket", (name: string) => `Bucket "${name.slice(0, 80)}" does not exist.`);
export const NoSuchKey = apiErrorClass(404, "NoSuchKey", (name: string) => `Object "${name.slice(0, 200)}" does not exist.`);
export const NoSuchUpload = apiErrorClass(
  404,
  "NoSuchUpload",
  (uploadId: string) => `Multipart upload "${uploadId.slice(0, 80)}" does not exist for this object.`,
);
export const NoSuchLifecycleConfiguration = apiErrorClass(
  404,
  "NoSuchLifecycleConfiguration",
  (bucket: string) => `Bucket "${bucket}" has no lifecycle configuration.`,
);
export const BucketAlreadyExists = apiErrorClass(409, "BucketAlreadyExists", (name: string) => `Bucket "${name}" already exists.`);
export const BucketNotEmpty = apiErrorClass(409, "BucketNotEmpty", (name: string) => `Bucket "${name}" is not empty; delete its objects first.`);
export const SegmentMissing = apiErrorCode(409, "SegmentMissing");
export const PreconditionFailed = apiErrorCode(412, "PreconditionFailed");
export const InvalidRange = apiErrorClass(
  416,
  "InvalidRange",
  (_size: number) => "The requested range is not satisfiable.",
  (size) => ({ "Content-Range": `bytes */${size}` }),
);
export const BadDigest = apiErrorClass(422, "BadDigest", () => "The ETag request header does not match the MD5 of the body.");
