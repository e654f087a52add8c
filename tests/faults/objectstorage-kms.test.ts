/**
 * Fault matrix, object storage and key management rows: Bucket, BucketCors, BucketLifecycle,
 * BucketObject, Ciphertext and DataKey × create, update, read, delete × the faults of
 * tests/support/faults/matrix.ts, at the provider level with the engine's state rules.
 */
import { defineMatrix } from "../support/faults/matrix";
import { faultRows } from "../support/faults/rows";

jest.setTimeout(120_000);

defineMatrix("objectstorage-kms", faultRows("objectstorage-kms"));
