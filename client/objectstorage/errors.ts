/**
 * Object storage errors raised before a request is sent or after an unusable answer: core's
 * InvalidArgumentError and ResponseFormatError, shared by every service.
 */

export { InvalidArgumentError, isInvalidArgument, isResponseFormatError, ResponseFormatError } from "../core";
