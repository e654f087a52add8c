/** One class per error code the data query service answers besides the core's (the body is the local cloud's JSON `{code, message, requestId}`). */
import { apiErrorCode } from "../core/errors";

export const DataSourceNotFound = apiErrorCode(404, "DataSourceNotFound");
export const BucketNotFound = apiErrorCode(404, "BucketNotFound");
export const QueryNotFound = apiErrorCode(404, "QueryNotFound");
export const DuplicateName = apiErrorCode(409, "DuplicateName");
export const QueryTerminated = apiErrorCode(409, "QueryTerminated");
