/**
 * The numbers of the object storage API reference (01, section 8 and 2.5) the local cloud enforces,
 * in a module of their own: the model and the bucket documents (bucket-cors.ts, bucket-lifecycle.ts)
 * both read them, and the model reads the documents' types.
 */
export const LIMITS = {
  maxFileSize: 5_368_709_120,
  minPartSize: 5 * 1024 * 1024,
  maxPartNumber: 10_000,
  maxSloSegments: 1000,
  minSloSegmentSize: 1,
  maxSloManifestSize: 8_392_704,
  objectListLimit: 1000,
  accountListLimit: 1000,
  bucketListDefault: 20,
  bucketListMax: 100,
  minObjectName: 1,
  maxObjectName: 396,
  minBucketName: 4,
  maxBucketName: 63,
  minMetaName: 2,
  maxMetaName: 64,
  maxMetaValue: 512,
  maxMetaTotal: 4096,
  maxCorsPolicies: 10,
  maxCorsOrigin: 200,
  maxLifecycleId: 255,
} as const;
