/** Object listings (spec 4.3, 2.2) and emptying a bucket. */

import { forEachLimit } from "../../core/concurrency";
import { InvalidArgumentError } from "../errors";
import { OBJECT_PAGE_LIMIT } from "../limits";
import { entryName, flattenObjectListing, intHeader } from "../parse";
import { containerPath } from "../path";
import type { EmptyBucketOptions, ListAllObjectsOptions, ListObjectsOptions, ObjectListEntry, ObjectPage } from "../types";
import { orUndefined } from "../../core";
import { JSON_TYPE, type Ops } from "./context";
import { deleteObjectIfExists } from "./objects";

const DEFAULT_EMPTY_CONCURRENCY = 8;
/** emptyBucket re-lists after deleting, since listings may lag; this bounds the rounds. */
const EMPTY_BUCKET_ROUNDS = 10;

/** One page of the listing (`format=json`). */
export async function listObjects(c: Ops, bucket: string, o: ListObjectsOptions = {}): Promise<ObjectPage> {
  const action = `listing objects of bucket "${bucket}"`;
  if (o.limit !== undefined && !(Number.isInteger(o.limit) && o.limit >= 1 && o.limit <= OBJECT_PAGE_LIMIT)) {
    throw new InvalidArgumentError(`${action}: limit must be an integer from 1 to ${OBJECT_PAGE_LIMIT}`);
  }
  const res = await c.send({
    operation: "ListObjects",
    idempotent: true,
    method: "GET",
    path: containerPath(c.account(action), bucket),
    query: { format: "json", prefix: o.prefix, delimiter: o.delimiter, marker: o.marker, limit: o.limit },
    headers: { accept: JSON_TYPE },
    action,
  });
  const entries = flattenObjectListing(res.body, action);
  const last = entries[entries.length - 1];
  const page: ObjectPage = { entries };
  // A page as long as the limit asked for (or the default) may have a successor.
  if (last !== undefined && entries.length >= (o.limit ?? OBJECT_PAGE_LIMIT)) page.nextMarker = entryName(last);
  const count = intHeader(res.headers["x-container-object-count"]);
  if (count !== undefined && Number.isInteger(count) && count >= 0) page.objectCount = count;
  return page;
}

/**
 * Every entry, following the marker from page to page until a short page, or until the answer's
 * object count says every object of the bucket has been listed: a full last page then costs no
 * further request (1,000 objects: one request, not two). Without the count, or with a delimiter
 * (a subdir stands for any number of objects), the walk goes on to the short page.
 */
export async function listAllObjects(c: Ops, bucket: string, o: ListAllObjectsOptions = {}): Promise<ObjectListEntry[]> {
  const { toShortPage, ...query } = o;
  const all: ObjectListEntry[] = [];
  let objects = 0;
  let marker: string | undefined;
  for (;;) {
    const page = await listObjects(c, bucket, { ...query, marker, limit: o.limit ?? OBJECT_PAGE_LIMIT });
    all.push(...page.entries);
    objects += page.entries.filter((e) => e.kind === "object").length;
    if (page.nextMarker === undefined || page.nextMarker === marker) break;
    if (toShortPage !== true && o.delimiter === undefined && allListed(objects, page.objectCount)) break;
    marker = page.nextMarker;
  }
  return all;
}

/**
 * Whether `listed` objects (from the first page on, under any prefix) are every object of a bucket
 * whose answer counted `count`. Only an equal count ends the walk: a count below what was listed
 * lags behind the listing (the bucket record's count is refreshed every 30 minutes, spec 01 §2.1,
 * §8; Swift's comes from the same database as the listing) and proves nothing.
 */
function allListed(listed: number, count: number | undefined): boolean {
  return count !== undefined && listed === count;
}

/**
 * Deletes every object of the bucket with bounded concurrency, page by page (a page is deleted
 * before the next is listed, so memory holds one page whatever the bucket's size); returns how many
 * were deleted. Large objects: the plain DELETE of a DLO or SLO manifest removes the manifest only,
 * and segments stored in this bucket are listed and deleted like any object. Segments of a
 * manifest that live in another bucket are left alone: they belong to that bucket. A missing
 * bucket counts as empty.
 */
export async function emptyBucket(c: Ops, bucket: string, o: EmptyBucketOptions = {}): Promise<number> {
  let deleted = 0;
  for (let round = 0; round < EMPTY_BUCKET_ROUNDS; round++) {
    let listed = 0;
    let thisRound = 0;
    // The marker moves past each deleted page: names after it are still to be seen.
    for (let marker: string | undefined; ;) {
      const page = await orUndefined(listObjects(c, bucket, { marker, limit: OBJECT_PAGE_LIMIT }));
      if (!page) break;
      const names = page.entries.flatMap((e) => (e.kind === "object" ? [e.name] : []));
      listed += names.length;
      await forEachLimit(names, o.concurrency ?? DEFAULT_EMPTY_CONCURRENCY, async (name) => {
        if (await deleteObjectIfExists(c, bucket, name)) {
          deleted++;
          thisRound++;
          o.onProgress?.(deleted);
        }
      });
      if (page.nextMarker === undefined || page.nextMarker === marker) break;
      marker = page.nextMarker;
    }
    // Nothing listed, or every listed object was already gone (the listing lags behind deletions):
    // stop re-listing.
    if (listed === 0 || thisRound === 0) break;
  }
  return deleted;
}
