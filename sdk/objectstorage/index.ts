/** Object storage (seed 01-object-storage.md): the client and the pure helpers it is built from. */

export { ObjectStorageClient, OBJECT_PAGE_LIMIT, BUCKET_PAGE_MAX, DEFAULT_PART_SIZE } from "./client";
export * from "./types";
export { OBJECT_STORAGE_SECRETS } from "./secrets";
export { InvalidArgumentError, ResponseFormatError, isInvalidArgument, isResponseFormatError } from "./errors";
export { buildLifecycleXml, parseLifecycleXml, LIFECYCLE_DATE, MAX_RULE_ID_LENGTH } from "./lifecycle";
export { expandCorsRules, flattenCorsRules, MAX_CORS_RULES, type CorsRuleWire } from "./cors";
export { signTempUrl, resolveTempUrl, type SignTempUrlInput, type TempUrlDigest } from "./temp-url";
export { encodeObjectPath, objectPath, containerPath } from "./path";
export { buildCompleteXml, parseInitiateResult, MIN_PART_SIZE, MAX_PART_NUMBER } from "./multipart";
export { expandSloManifest, flattenSloManifest, MAX_SLO_SEGMENTS } from "./large-object";
export { flattenBucket, flattenBucketPage, flattenBucketSummary } from "./bucket";
export { flattenObjectListing } from "./object";
export { flattenCapabilities } from "./capabilities";
export { escapeXmlText, isXmlRepresentable } from "./xml";
