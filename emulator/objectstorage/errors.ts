import { ApiError, Unauthorized as CoreUnauthorized } from "../core/errors";

/** One class per error code the object storage local cloud answers (codes are documented in docs/local-cloud.md). */

export class InvalidArgument extends ApiError {
  constructor(message: string) {
    super(400, "InvalidArgument", message);
  }
}

export class InvalidBucketName extends ApiError {
  constructor(name: string, reason: string) {
    super(400, "InvalidBucketName", `Invalid bucket name "${name.slice(0, 80)}": ${reason}`);
  }
}

export class InvalidObjectName extends ApiError {
  constructor(reason: string) {
    super(400, "InvalidObjectName", `Invalid object name: ${reason}`);
  }
}

export class InvalidMetadata extends ApiError {
  constructor(reason: string) {
    super(400, "InvalidMetadata", `Invalid metadata: ${reason}`);
  }
}

export class MalformedXml extends ApiError {
  constructor(message: string) {
    super(400, "MalformedXML", message);
  }
}

export class InvalidLifecycleConfiguration extends ApiError {
  constructor(message: string) {
    super(400, "InvalidLifecycleConfiguration", message);
  }
}

export class InvalidCorsConfiguration extends ApiError {
  constructor(message: string) {
    super(400, "InvalidCorsConfiguration", message);
  }
}

export class InvalidAcl extends ApiError {
  constructor(message: string) {
    super(400, "InvalidAcl", message);
  }
}

export class InvalidPart extends ApiError {
  constructor(message: string) {
    super(400, "InvalidPart", message);
  }
}

export class InvalidPartOrder extends ApiError {
  constructor() {
    super(400, "InvalidPartOrder", "Parts must be listed in ascending PartNumber order without duplicates.");
  }
}

export class EntityTooSmall extends ApiError {
  constructor(partNumber: number, size: number, min: number) {
    super(400, "EntityTooSmall", `Part ${partNumber} is ${size} bytes; every part except the last must be at least ${min} bytes.`);
  }
}

export class EntityTooLarge extends ApiError {
  constructor(message: string) {
    super(413, "EntityTooLarge", message);
  }
}

export class InvalidManifest extends ApiError {
  constructor(message: string) {
    super(400, "InvalidManifest", message);
  }
}

export class NotSupportedOnEncryptedBucket extends ApiError {
  constructor(what: string, bucket: string) {
    super(400, "NotSupportedOnEncryptedBucket", `${what} is not available for encrypted bucket "${bucket}".`);
  }
}

export class MissingDestination extends ApiError {
  constructor(message = "The Destination header is required and must be /{bucket}/{object}.") {
    super(400, "InvalidDestination", message);
  }
}

/** The core 401, with object storage's default message (it authenticates by X-Auth-Token only). */
export class Unauthorized extends CoreUnauthorized {
  constructor(message = "Authentication failed: a valid X-Auth-Token is required.") {
    super(message);
  }
}

export class TempUrlDenied extends ApiError {
  constructor(reason: string) {
    super(401, "TempUrlInvalid", `Temporary URL refused: ${reason}.`);
  }
}

export class AccessDenied extends ApiError {
  constructor(message = "Access denied.") {
    super(403, "AccessDenied", message);
  }
}

export class CorsForbidden extends ApiError {
  constructor(message = "CORS preflight refused: no CORS policy of the bucket allows this origin, method and headers.") {
    super(403, "CORSForbidden", message);
  }
}

export class NoSuchBucket extends ApiError {
  constructor(name: string) {
    super(404, "NoSuchBucket", `Bucket "${name.slice(0, 80)}" does not exist.`);
  }
}

export class NoSuchKey extends ApiError {
  constructor(name: string) {
    super(404, "NoSuchKey", `Object "${name.slice(0, 200)}" does not exist.`);
  }
}

export class NoSuchUpload extends ApiError {
  constructor(uploadId: string) {
    super(404, "NoSuchUpload", `Multipart upload "${uploadId.slice(0, 80)}" does not exist for this object.`);
  }
}

export class NoSuchLifecycleConfiguration extends ApiError {
  constructor(bucket: string) {
    super(404, "NoSuchLifecycleConfiguration", `Bucket "${bucket}" has no lifecycle configuration.`);
  }
}

export class BucketAlreadyExists extends ApiError {
  constructor(name: string) {
    super(409, "BucketAlreadyExists", `Bucket "${name}" already exists.`);
  }
}

export class BucketNotEmpty extends ApiError {
  constructor(name: string) {
    super(409, "BucketNotEmpty", `Bucket "${name}" is not empty; delete its objects first.`);
  }
}

export class InvalidRange extends ApiError {
  constructor(size: number) {
    super(416, "InvalidRange", "The requested range is not satisfiable.", { "Content-Range": `bytes */${size}` });
  }
}

export class BadDigest extends ApiError {
  constructor() {
    super(422, "BadDigest", "The ETag request header does not match the MD5 of the body.");
  }
}

export class PreconditionFailed extends ApiError {
  constructor(message: string) {
    super(412, "PreconditionFailed", message);
  }
}
