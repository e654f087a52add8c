/**
 * The numbers of spec 01-object-storage.md that the client and the provider both enforce, in one
 * place (sections 2.3, 4.1, 4.3, 4.4, 8).
 */

const MIB = 1024 * 1024;

/** Spec 8: a single upload (one PUT) carries at most 5 GiB (`swift.max_file_size`). */
export const MAX_SINGLE_UPLOAD_BYTES = 5_368_709_120;
/** Spec 4.4 and 8: every multipart part but the last is at least 5 MB (read as 5 MiB). */
export const MIN_PART_SIZE = 5 * MIB;
/** A part is one PUT, so it is bounded by the single-upload limit. */
export const MAX_PART_SIZE = MAX_SINGLE_UPLOAD_BYTES;
/** Spec 4.4 and 8: part numbers run from 1 to 10000. */
export const MAX_PART_NUMBER = 10_000;
/** The client's default part size (an object of 80 GB fits in 10000 of them). */
export const DEFAULT_PART_SIZE = 8 * MIB;
/** Spec 4.3 and 8: default and maximum object list page. */
export const OBJECT_PAGE_LIMIT = 1000;
/** Spec 8: account listing page. */
export const ACCOUNT_PAGE_LIMIT = 1000;
/** Spec 4.1: ListBuckets limit. */
export const BUCKET_PAGE_MAX = 100;
/** Spec 2.3: lifecycle `Expiration/Date` is `YYYY-MM-DDThh:mm:ss.000Z` only. */
export const LIFECYCLE_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/;
/** Spec 2.3: rule ids are at most 255 characters. */
export const MAX_RULE_ID_LENGTH = 255;
/** Spec 2.4 and 8: at most 10 CORS policies. */
export const MAX_CORS_RULES = 10;
