/** Lookups: getBucket, getBuckets (all pages), getObjectStorageInfo, getTempUrl. */
import * as pulumi from "@pulumi/pulumi";
import { ObjectStorageClient } from "../../sdk/objectstorage";
import { rethrowAs } from "../../sdk/core";
import { lookupSettings, outputForm, type LookupOptions } from "../core";

function client(opts: LookupOptions): ObjectStorageClient {
  return new ObjectStorageClient({ settings: lookupSettings(opts) });
}

export interface GetBucketArgs {
  /** Bucket name. */
  name: string;
}
export interface GetBucketResult {
  name: string;
  project: string;
  type: string;
  encrypted: boolean;
  acl: { public: "read-only" | "deny"; publicReadAllowIpList?: string[] };
  metadata: Record<string, string>;
  createdAt: string;
  bytes: number;
  objectCount: number;
  url: string;
}

/** Looks up an existing bucket by name; fails when it does not exist. */
export async function getBucket(args: GetBucketArgs, opts: LookupOptions = {}): Promise<GetBucketResult> {
  const c = client(opts);
  const b = await c.getBucket(args.name).catch(rethrowAs("getBucket"));
  return {
    name: b.name,
    project: b.project ?? "",
    type: b.type ?? "STANDARD",
    encrypted: Boolean(b.useEncryption),
    acl:
      b.acl?.public === "read-only"
        ? { public: "read-only", ...(b.acl.publicReadAllowIpList?.length ? { publicReadAllowIpList: b.acl.publicReadAllowIpList } : {}) }
        : { public: "deny" },
    metadata: b.metadata ?? {},
    createdAt: b.createdAt ?? "",
    bytes: b.bytes ?? 0,
    objectCount: b.objectCount ?? 0,
    url: c.bucketUrl(b.name),
  };
}
export const getBucketOutput = outputForm(getBucket);

export interface GetBucketsArgs {
  /** Only buckets whose names start with this. */
  prefix?: string;
  /** Only buckets whose names contain this (cannot be combined with prefix). */
  include?: string;
}
export interface GetBucketsResult {
  names: string[];
  buckets: { name: string; createdAt?: string; bytes?: number; objectCount?: number }[];
}

/** Lists buckets, every page. */
export async function getBuckets(args: GetBucketsArgs = {}, opts: LookupOptions = {}): Promise<GetBucketsResult> {
  if (args.prefix && args.include) throw new Error("getBuckets: prefix and include cannot be combined (seed section 4.1)");
  const all = (await client(opts).listAllBuckets({ prefix: args.prefix, include: args.include })).filter(
    (b): b is typeof b & { name: string } => typeof b.name === "string",
  );
  return {
    names: all.map((b) => b.name),
    buckets: all.map((b) => ({ name: b.name, createdAt: b.createdAt, bytes: b.bytes, objectCount: b.objectCount })),
  };
}
export const getBucketsOutput = outputForm(getBuckets);

/** The service's capability document (`/info`): limits such as max_file_size, container_listing_limit. */
export async function getObjectStorageInfo(_args: Record<string, never> = {}, opts: LookupOptions = {}): Promise<Record<string, unknown>> {
  return await client(opts).getInfo();
}

export interface GetTempUrlArgs {
  bucket: string;
  key: string;
  /**
   * How long the URL stays valid, in seconds (default 3600). The expiry is aligned to a multiple of
   * this period, at least one period from now: the URL (and so the program's outputs) stays the same
   * for every run within a period instead of changing on every run. Ignored when expiresAt is set.
   */
  expiresIn?: number;
  /** Expiry as Unix seconds. */
  expiresAt?: number;
}
export interface GetTempUrlResult {
  /** Absolute URL for token-less GET until expiresAt. It carries a signature: treat it as a secret. */
  url: string;
  expiresAt: number;
}

/** The default expiry: the end of the period after the current one, so stable within a period. */
export function stableExpiry(nowSeconds: number, period: number): number {
  return (Math.floor(nowSeconds / period) + 2) * period;
}

/** Creates a temporary signed URL for token-less download of an object. */
export async function getTempUrl(args: GetTempUrlArgs, opts: LookupOptions = {}): Promise<GetTempUrlResult> {
  const period = args.expiresIn ?? 3600;
  if (!Number.isInteger(period) || period < 1) throw new Error(`getTempUrl: expiresIn must be a whole number of seconds >= 1, got ${period}`);
  const expiresAt = args.expiresAt ?? stableExpiry(Math.floor(Date.now() / 1000), period);
  const t = await client(opts).createTempUrl(args.bucket, args.key, expiresAt);
  return { url: t.absoluteUrl, expiresAt };
}

/** `getTempUrl` for Inputs; the URL is a secret Output (its signature grants access). */
export function getTempUrlOutput(args: { [K in keyof GetTempUrlArgs]: pulumi.Input<GetTempUrlArgs[K]> }): pulumi.Output<GetTempUrlResult> {
  const r = outputForm(getTempUrl)(args);
  return pulumi.output({ url: pulumi.secret(r.url), expiresAt: r.expiresAt });
}
