/**
 * Path building for `/v1/{account}/{bucket}/{object}` and `/v1_ext/bucket/{bucket}`.
 *
 * Object names may contain any character, and `/` separates pseudo-folders (spec 1: a path such as
 * `images/small/icon.jpg`). Each segment is percent-encoded on its own and the slashes are kept, so
 * the server sees the same folder structure; an empty segment (`a//b`) stays empty.
 */

import { InvalidArgumentError } from "./errors";

export function encodeSegment(s: string): string {
  return encodeURIComponent(s);
}

/** Percent-encodes every segment of an object path, keeping `/`. */
export function encodeObjectPath(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}

export function requireBucket(bucket: string): string {
  if (typeof bucket !== "string" || bucket === "") throw new InvalidArgumentError("a bucket name is required");
  if (bucket.includes("/")) throw new InvalidArgumentError(`bucket name "${bucket}" must not contain "/"`);
  return bucket;
}

export function requireKey(key: string): string {
  if (typeof key !== "string" || key === "") throw new InvalidArgumentError("an object name is required");
  return key;
}

export function extBucketPath(bucket: string, sub?: string): string {
  return `/v1_ext/bucket/${encodeSegment(requireBucket(bucket))}${sub ? `/${sub}` : ""}`;
}

export function accountPath(account: string): string {
  return `/v1/${encodeSegment(account)}`;
}

export function containerPath(account: string, bucket: string): string {
  return `${accountPath(account)}/${encodeSegment(requireBucket(bucket))}`;
}

export function objectPath(account: string, bucket: string, key: string): string {
  return `${containerPath(account, bucket)}/${encodeObjectPath(requireKey(key))}`;
}

/**
 * `{bucket}/{path}` references inside header values and manifests (Destination, X-Object-Manifest).
 * Swift unquotes these values, so they are sent percent-encoded like a URL path; names without
 * reserved characters are unchanged by the encoding.
 */
export function objectRef(bucket: string, key: string): string {
  return `${encodeSegment(requireBucket(bucket))}/${encodeObjectPath(key)}`;
}
