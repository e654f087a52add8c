/** Extension API buckets (spec 4.1) and the capability document (spec 2.5). */

import { orUndefined, type Query } from "../../core";
import { flattenBucket, flattenBucketPage } from "../parse";
import { flattenCapabilities } from "../parse";
import { InvalidArgumentError } from "../errors";
import { BUCKET_PAGE_MAX } from "../limits";
import { CONTAINER_META, metadataHeaders } from "../metadata";
import { extBucketPath, requireBucket } from "../path";
import type { Bucket, BucketAcl, BucketPage, BucketSummary, Capabilities, CreateBucketInput, ListBucketsOptions } from "../types";
import { JSON_TYPE, jsonRequest, type Ops } from "./context";

export async function getBucket(c: Ops, name: string): Promise<Bucket> {
  const action = `reading bucket "${name}"`;
  const res = await c.send(jsonRequest("GetBucketMeta", "GET", extBucketPath(name), action, { idempotent: true }));
  return flattenBucket(c.json(res, action), res.headers, { name, project: c.opts.settings.projectId }, action);
}

/** The bucket, or undefined when it does not exist. */
export async function findBucket(c: Ops, name: string): Promise<Bucket | undefined> {
  return orUndefined(getBucket(c, name));
}

export async function createBucket(c: Ops, input: CreateBucketInput): Promise<Bucket> {
  const action = `creating bucket "${input.name}"`;
  requireBucket(input.name);
  const body: Record<string, unknown> = { name: input.name, type: input.type ?? "STANDARD" };
  // use_encryption is ignored by the service when encryption_configuration is given (spec 4.1);
  // both are sent so that a server reading either field sees the same intent.
  body.use_encryption = input.encryption !== undefined;
  if (input.encryption) body.encryption_configuration = { type: input.encryption.type };
  const res = await c.send({
    operation: "CreateBucket",
    // The name is ours: a repeat after a lost answer meets our own bucket with a 409 that carries
    // earlierAttemptMayHaveApplied, which the caller checks (provider/objectstorage/bucket.ts).
    idempotent: true,
    method: "PUT",
    path: "/v1_ext/bucket",
    headers: { "content-type": JSON_TYPE, ...metadataHeaders(CONTAINER_META, input.metadata) },
    body: JSON.stringify(body),
    action,
  });
  const json = c.json(res, action);
  return json === undefined ? getBucket(c, input.name) : flattenBucket(json, res.headers, { name: input.name, project: c.opts.settings.projectId }, action);
}

/** Fails with a conflict when the bucket still holds objects (see emptyBucket). */
export async function deleteBucket(c: Ops, name: string): Promise<void> {
  await c.send(jsonRequest("DeleteBucket", "DELETE", extBucketPath(name), `deleting bucket "${name}"`, { idempotent: true }));
}

/** One page of buckets. */
export async function listBuckets(c: Ops, o: ListBucketsOptions = {}): Promise<BucketPage> {
  const action = "listing buckets";
  if (o.prefix !== undefined && o.include !== undefined) throw new InvalidArgumentError(`${action}: prefix and include cannot be combined`);
  if (o.limit !== undefined && !(Number.isInteger(o.limit) && o.limit >= 1 && o.limit <= BUCKET_PAGE_MAX)) {
    throw new InvalidArgumentError(`${action}: limit must be an integer from 1 to ${BUCKET_PAGE_MAX}`);
  }
  if (o.offset !== undefined && !(Number.isInteger(o.offset) && o.offset >= 0))
    throw new InvalidArgumentError(`${action}: offset must be a non-negative integer`);
  const query: Query = { offset: o.offset, limit: o.limit, prefix: o.prefix, include: o.include, type: o.type, by: o.by, direct: o.direct };
  const res = await c.send(jsonRequest("ListBuckets", "GET", "/v1_ext/bucket", action, { idempotent: true, query }));
  return flattenBucketPage(c.json(res, action) ?? {}, action);
}

/** Every bucket matching the filters, following offsets until `totalCount` is reached. */
export async function listAllBuckets(c: Ops, o: Omit<ListBucketsOptions, "offset"> = {}): Promise<BucketSummary[]> {
  const limit = o.limit ?? BUCKET_PAGE_MAX;
  const all: BucketSummary[] = [];
  for (let offset = 0; ;) {
    const page = await listBuckets(c, { ...o, offset, limit });
    all.push(...page.items);
    offset += page.items.length;
    // An empty page ends the walk even if totalCount says otherwise (buckets deleted meanwhile);
    // without totalCount, a short page is the last one.
    if (page.items.length === 0) break;
    if (page.totalCount !== undefined ? offset >= page.totalCount : page.items.length < limit) break;
  }
  return all;
}

/**
 * Sets (or with null, deletes) the bucket's ACL. The spec names the body's bucket field both
 * `name` and `bucket_name` (4.1); both are sent with the same value, as a server that requires
 * one of them is more likely than one that rejects the other.
 */
export async function updateBucketAcl(c: Ops, name: string, acl: BucketAcl | null): Promise<Bucket> {
  const action = acl === null ? `removing the ACL of bucket "${name}"` : `setting the ACL of bucket "${name}"`;
  let wire: Record<string, unknown> | null = null;
  if (acl !== null) {
    wire = {};
    if (acl.public !== undefined) wire.public = acl.public;
    if (acl.publicReadAllowIpList !== undefined) wire.public_read_allow_ip_list = acl.publicReadAllowIpList;
  }
  // A POST, but it sets the ACL to the absolute value sent: a repeat changes nothing.
  const res = await c.send(
    jsonRequest("UpdateBucketAcl", "POST", extBucketPath(name), action, { idempotent: true, body: JSON.stringify({ name, bucket_name: name, acl: wire }) }),
  );
  const json = c.json(res, action);
  return json === undefined ? getBucket(c, name) : flattenBucket(json, res.headers, { name, project: c.opts.settings.projectId }, action);
}

/** `GET /info`; sent without the auth token (spec 4.2: may not be required). */
export async function getInfo(c: Ops): Promise<Capabilities> {
  const action = "reading the object storage capabilities";
  const res = await c.send({ operation: "ListCapability", idempotent: true, method: "GET", path: "/info", auth: false, action });
  return flattenCapabilities(c.json(res, action) ?? {});
}
