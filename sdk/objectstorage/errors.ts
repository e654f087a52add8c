/**
 * Object storage errors raised before a request is sent or after an unusable answer. API failures
 * use core's ApiError family (errors.ts of sdk/core); these two cover what core has no class for.
 * Both carry the core brand, so `isKrcloudError` recognises them across copies of the package.
 */

import { KrcloudError } from "../core";

/** An argument the service would reject anyway (limits of seed section 8, exclusive options, XML-illegal text). */
export class InvalidArgumentError extends KrcloudError {
  readonly code = "KRCLOUD_INVALID_ARGUMENT";
  override readonly name = "InvalidArgumentError";
}

/** A success response whose body cannot be understood (no UploadId, a listing that is not JSON, ...). */
export class ResponseFormatError extends KrcloudError {
  readonly code = "KRCLOUD_BAD_RESPONSE";
  override readonly name = "ResponseFormatError";
}

export function isInvalidArgument(e: unknown): e is InvalidArgumentError {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === "KRCLOUD_INVALID_ARGUMENT";
}

export function isResponseFormatError(e: unknown): e is ResponseFormatError {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === "KRCLOUD_BAD_RESPONSE";
}
