import { manifestEtag, stripQuotes } from "../etag";
import { InvalidManifest, NotSupportedOnEncryptedBucket, SegmentMissing } from "../errors";
import { compareNames, validateMetadataTotal, type Bucket, type SloSegment, type StoredObject } from "../model";
import { LIMITS } from "../limits";
import type { ObjectStorageState } from "./state";

export interface SloSegmentInput {
  path: string;
  etag?: string;
  size_bytes?: number;
}

/** Dynamic and static large objects (spec 01 §4.5): manifests and the segments they assemble. */
export class LargeObjectBackend {
  constructor(private readonly state: ObjectStorageState) {}

  /** A DLO's segments: objects of `{bucket}/{prefix}` (same account) in name order, without the manifest itself. */
  dloSegments(bucket: Bucket, manifest: StoredObject): StoredObject[] {
    const reference = manifest.dloManifest ?? "";
    const slash = reference.indexOf("/");
    const container = this.state.findBucket(bucket.projectId, reference.slice(0, slash));
    const prefix = reference.slice(slash + 1);
    if (!container) return [];
    return [...container.objects.values()]
      .filter((o) => o.name.startsWith(prefix) && !(container === bucket && o.name === manifest.name))
      .sort((a, b) => compareNames(a.name, b.name));
  }

  /** An SLO's segments in manifest order; a segment deleted since is a 409. */
  sloSegments(bucket: Bucket, manifest: StoredObject): StoredObject[] {
    return (manifest.sloManifest ?? []).map((segment) => {
      const found = this.state.objectAt(bucket.projectId, segment.path);
      if (!found) throw new SegmentMissing(`SLO segment "${segment.path}" of "${manifest.name}" no longer exists.`);
      return found;
    });
  }

  putSloManifest(bucket: Bucket, name: string, segments: SloSegmentInput[], contentType: string, metadata: Record<string, string>): StoredObject {
    if (bucket.encrypted) throw new NotSupportedOnEncryptedBucket("An SLO manifest", bucket.name);
    const problems: string[] = [];
    const resolved: SloSegment[] = [];
    segments.forEach((segment, index) => {
      const path = segment.path.replace(/^\/+/, "");
      const slash = path.indexOf("/");
      if (slash <= 0 || slash === path.length - 1) {
        problems.push(`segment ${index + 1}: path must be {bucket}/{object}`);
        return;
      }
      const found = this.state.objectAt(bucket.projectId, path);
      if (!found || found.dloManifest !== undefined || found.sloManifest !== undefined) {
        problems.push(`segment ${index + 1} (${path}): not found`);
        return;
      }
      if (segment.etag !== undefined && segment.etag !== null && stripQuotes(segment.etag) !== found.etag) {
        problems.push(`segment ${index + 1} (${path}): etag mismatch`);
      }
      if (segment.size_bytes !== undefined && segment.size_bytes !== null && segment.size_bytes !== found.size) {
        problems.push(`segment ${index + 1} (${path}): size mismatch (${segment.size_bytes} given, ${found.size} stored)`);
      }
      if (found.size < LIMITS.minSloSegmentSize && index < segments.length - 1) {
        problems.push(`segment ${index + 1} (${path}): smaller than the minimum segment size of ${LIMITS.minSloSegmentSize} byte`);
      }
      resolved.push({ path, etag: found.etag, size_bytes: found.size });
    });
    if (problems.length > 0) throw new InvalidManifest(`Invalid SLO manifest: ${problems.slice(0, 10).join("; ")}`);
    validateMetadataTotal(metadata);
    const now = this.state.now();
    const object: StoredObject = {
      name,
      contentType,
      ...this.emptyBody(),
      etag: manifestEtag(resolved.map((s) => s.etag)),
      createdAt: now,
      lastModified: now,
      metadata: { ...metadata },
      sloManifest: resolved,
    };
    this.state.setObject(bucket, object);
    return object;
  }

  /** The manifest's own body: empty (GET assembles the segments; `?multipart-manifest=get` renders the list). */
  private emptyBody(): { blob: string; size: number } {
    const { blob, size } = this.state.blobs.write(Buffer.alloc(0));
    return { blob, size };
  }

  /** `?multipart-manifest=delete`: the manifest and its segments (a plain object is simply deleted). */
  deleteSloManifest(bucket: Bucket, name: string): { deleted: number; notFound: number } {
    const object = this.state.object(bucket, name);
    let deleted = 0;
    let notFound = 0;
    for (const segment of object.sloManifest ?? []) {
      const slash = segment.path.indexOf("/");
      const container = this.state.findBucket(bucket.projectId, segment.path.slice(0, slash));
      if (container && this.state.removeObject(container, segment.path.slice(slash + 1))) deleted += 1;
      else notFound += 1;
    }
    this.state.removeObject(bucket, name);
    return { deleted: deleted + 1, notFound };
  }
}
