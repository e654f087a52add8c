/**
 * Object storage in the console: a project's buckets (in name order), each with its CORS and
 * lifecycle configurations, its objects and unfinished multipart uploads, every one with the record
 * the control API shows; an object's bytes page by page.
 */
import { bytesPreview, group, type BrowseNode, type ServiceBrowser } from "../core/browse";
import type { ObjectStorageBackend } from "./backend";
import type { ObjectStorageControl } from "./control";
import { compareNames, type Bucket } from "./model";

export function objectStorageBrowser(backend: ObjectStorageBackend, control: ObjectStorageControl): ServiceBrowser {
  const record = (kind: string, id: string): unknown => control.getResource(kind, id);
  const bucketNode = (bucket: Bucket): BrowseNode => {
    const children: BrowseNode[] = [];
    const config = (kind: string, label: string): BrowseNode => ({
      kind,
      id: bucket.name,
      label,
      record: record(kind, bucket.name),
      control: { kind, id: bucket.name },
    });
    if (bucket.cors) children.push(config("bucket-cors", "CORS"));
    if (bucket.lifecycle) children.push(config("bucket-lifecycle", "lifecycle"));
    const objects = [...bucket.objects.values()].sort((a, b) => compareNames(a.name, b.name));
    children.push(
      group(
        "objects",
        "objects",
        objects.map((o) => {
          const id = `${bucket.name}/${o.name}`;
          return {
            kind: "object",
            id,
            label: o.name,
            facts: { size: o.size, type: o.contentType, metadata: Object.keys(o.metadata).length },
            record: record("object", id),
            control: { kind: "object", id },
            preview: "bytes",
          };
        }),
      ),
    );
    const uploads = [...bucket.uploads.values()].sort((a, b) => compareNames(a.key, b.key) || a.initiatedAt - b.initiatedAt);
    if (uploads.length > 0) {
      children.push(
        group(
          "uploads",
          "multipart uploads",
          uploads.map((u) => {
            const id = `${bucket.name}/${u.key}/${u.uploadId}`;
            return {
              kind: "multipart-upload",
              id,
              label: u.key,
              facts: { parts: u.parts.size },
              record: record("multipart-upload", id),
              control: { kind: "multipart-upload", id },
            };
          }),
        ),
      );
    }
    return {
      kind: "bucket",
      id: bucket.name,
      label: bucket.name,
      facts: { public: bucket.acl.public, objects: bucket.objects.size, encrypted: bucket.encrypted },
      record: record("bucket", bucket.name),
      control: { kind: "bucket", id: bucket.name },
      children,
    };
  };
  return {
    tree(projectId) {
      const buckets = [...backend.state.buckets.values()].filter((b) => b.projectId === projectId).sort((a, b) => compareNames(a.name, b.name));
      return [group("buckets", "buckets", buckets.map(bucketNode))];
    },
    async preview(projectId, kind, id, page) {
      if (kind !== "object") return undefined;
      const slash = id.indexOf("/");
      const bucket = backend.state.findBucket(projectId, id.slice(0, slash));
      if (slash <= 0 || !bucket || !bucket.objects.has(id.slice(slash + 1))) return undefined;
      const content = backend.objects.getObject(bucket, id.slice(slash + 1));
      return bytesPreview((start, end) => backend.objects.readContent(content, start, end), content.size, page, content.object.contentType);
    },
  };
}
