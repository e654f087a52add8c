/** Object storage (spec 01-object-storage.md): the client and the pure helpers it is built from. */

export { ObjectStorageClient } from "./client";
export * from "./types";
export * from "./limits";
export { fileSource, bufferSource, isByteSource, type ByteSource } from "./byte-source";
export { OBJECT_STORAGE_SECRETS } from "./secrets";
export { InvalidArgumentError, ResponseFormatError, isInvalidArgument, isResponseFormatError } from "./errors";
export { buildLifecycleXml, parseLifecycleXml } from "./wire/bucket-lifecycle";
export { expandCorsRules, flattenCorsRules, type CorsRuleWire } from "./wire/bucket-cors";
export { signTempUrl, resolveTempUrl, type SignTempUrlInput, type TempUrlDigest } from "./wire/temp-url";
export { encodeObjectPath, objectPath, containerPath } from "./path";
export { buildCompleteXml, parseInitiateResult } from "./wire/multipart";
export { expandSloManifest, flattenSloManifest, MAX_SLO_SEGMENTS } from "./wire/large-object";
export { flattenBucket, flattenBucketPage, flattenBucketSummary, flattenCapabilities, flattenObjectListing } from "./parse";
export { escapeXmlText, isXmlRepresentable } from "./xml";
