import { compareNames, type Bucket } from "../model";

export interface ListObjectsQuery {
  prefix: string;
  delimiter: string | undefined;
  marker: string | undefined;
  endMarker: string | undefined;
  limit: number;
}

export type ListEntry =
  { kind: "object"; name: string; hash: string; bytes: number; content_type: string; last_modified: string } | { kind: "subdir"; subdir: string };

/** Object listings (GET container): prefix, delimiter, markers and limit over UTF-8 name order. */
export class ListingBackend {
  listObjects(bucket: Bucket, query: ListObjectsQuery): ListEntry[] {
    const names = [...bucket.objects.keys()].sort(compareNames);
    const entries: ListEntry[] = [];
    let lastSubdir: string | undefined;
    for (const name of names) {
      if (entries.length >= query.limit) break;
      if (!name.startsWith(query.prefix)) continue;
      if (query.marker !== undefined && compareNames(name, query.marker) <= 0) continue;
      if (query.endMarker !== undefined && compareNames(name, query.endMarker) >= 0) continue;
      if (query.delimiter) {
        const at = name.indexOf(query.delimiter, query.prefix.length);
        if (at >= 0) {
          const subdir = name.slice(0, at + query.delimiter.length);
          if (subdir === lastSubdir || (query.marker !== undefined && compareNames(subdir, query.marker) <= 0)) continue;
          lastSubdir = subdir;
          entries.push({ kind: "subdir", subdir });
          continue;
        }
      }
      const object = bucket.objects.get(name)!;
      entries.push({
        kind: "object",
        name,
        hash: object.etag,
        bytes: object.sloManifest ? object.sloManifest.reduce((sum, s) => sum + s.size_bytes, 0) : object.size,
        content_type: object.contentType,
        last_modified: new Date(object.lastModified).toISOString(),
      });
    }
    return entries;
  }
}
