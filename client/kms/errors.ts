/**
 * Key management errors raised before a request is sent or after an unusable answer: core's
 * InvalidArgumentError and ResponseFormatError, shared by every service. API failures are core's
 * ApiError family (`isNotFound`, `isConflict`, ...).
 */

export { InvalidArgumentError, isInvalidArgument, isResponseFormatError, ResponseFormatError } from "../core";
