import { BadRequest, NoSuchResource } from "../core/errors";
import { KindControl, type ControlledKind, type InventoryEntry } from "../core/http";
import { mergeAcl } from "./acl";
import { parseCors } from "./bucket-cors";
import { lifecycleXml, parseLifecycle, type LifecycleConfiguration } from "./bucket-lifecycle";
import { compareNames, validateMetadataEntry, validateMetadataTotal, type Bucket, type MultipartUpload, type StoredObject, type UploadPart } from "./model";
import { SERVICE, type ObjectStorageState } from "./backend/state";

/** A patch: patchResource has checked it is a JSON object. */
type Fields = Record<string, unknown>;

/** Snapshots before bodies moved to disk carried them inline as base64; restore still reads those. */
type Legacy<T> = Omit<T, "blob" | "size"> & { blob?: string; size?: number; body?: string };

interface SnapshotBucket extends Omit<Bucket, "objects" | "uploads"> {
  objects: StoredObject[];
  uploads: Array<Omit<MultipartUpload, "parts"> & { parts: UploadPart[] }>;
}

export interface ObjectStorageSnapshot {
  buckets: SnapshotBucket[];
}

interface RestoredBucket extends Omit<Bucket, "objects" | "uploads"> {
  objects: Array<Legacy<StoredObject>>;
  uploads: Array<Omit<MultipartUpload, "parts"> & { parts: Array<Legacy<UploadPart>> }>;
}

/**
 * Object storage's part of the control API: the inventory, GET/PATCH/DELETE of records behind the
 * API's back (drift; patches are validated as the API would validate the same values), and reset,
 * snapshot and restore (the core's JSON snapshot file: metadata and body ids, never bodies).
 */
export class ObjectStorageControl extends KindControl {
  constructor(private readonly state: ObjectStorageState) {
    super();
  }

  /**
   * Everything that would be left behind: per bucket (in name order) the bucket, its CORS and
   * lifecycle configurations, its objects (`{bucket}/{key}`, in name order) and its unfinished
   * multipart uploads (`{bucket}/{key}/{uploadId}`).
   */
  inventory(): InventoryEntry[] {
    const entries: InventoryEntry[] = [];
    for (const bucket of [...this.state.buckets.values()].sort((a, b) => compareNames(a.name, b.name))) {
      const entry = (kind: string, id: string): InventoryEntry => ({ service: SERVICE, kind, id, projectId: bucket.projectId });
      entries.push(entry("bucket", bucket.name));
      if (bucket.cors) entries.push(entry("bucket-cors", bucket.name));
      if (bucket.lifecycle) entries.push(entry("bucket-lifecycle", bucket.name));
      for (const name of [...bucket.objects.keys()].sort(compareNames)) entries.push(entry("object", `${bucket.name}/${name}`));
      const uploads = [...bucket.uploads.values()].sort((a, b) => compareNames(a.key, b.key) || a.initiatedAt - b.initiatedAt);
      for (const upload of uploads) entries.push(entry("multipart-upload", `${bucket.name}/${upload.key}/${upload.uploadId}`));
    }
    return entries;
  }

  protected readonly kinds = {
    bucket: {
      get: (id: string) => this.bucketRecord(id),
      patch: (id: string, fields: Fields) => {
        const bucket = this.state.anyBucket(id);
        onlyFields(fields, ["acl", "metadata", "cors", "lifecycle", "use_encryption", "encryption_type"]);
        // Every field is checked before any changes: a refused patch changes nothing.
        const next: Partial<Pick<Bucket, "acl" | "metadata" | "cors" | "lifecycle" | "encrypted" | "encryptionType">> = {};
        if ("acl" in fields) next.acl = mergeAcl(bucket.acl, fields.acl);
        if ("metadata" in fields) next.metadata = mergeMetadata(bucket.metadata, fields.metadata);
        if ("cors" in fields) next.cors = fields.cors === null ? null : nonEmpty(parseCors({ cors: fields.cors }));
        if ("lifecycle" in fields) next.lifecycle = parseLifecycleField(fields.lifecycle);
        if ("use_encryption" in fields) {
          if (typeof fields.use_encryption !== "boolean") throw new BadRequest("use_encryption must be a boolean.");
          next.encrypted = fields.use_encryption;
          next.encryptionType = fields.use_encryption ? (bucket.encryptionType ?? "managed") : null;
        }
        if ("encryption_type" in fields) {
          if (fields.encryption_type !== null && typeof fields.encryption_type !== "string") throw new BadRequest("encryption_type must be a string or null.");
          if (typeof fields.encryption_type === "string" && !/^[\x20-\x7e]{1,64}$/.test(fields.encryption_type))
            throw new BadRequest("encryption_type must be 1 to 64 printable ASCII characters.");
          next.encryptionType = fields.encryption_type;
        }
        Object.assign(bucket, next);
        this.state.touch(bucket);
        return this.bucketRecord(id);
      },
      /** A bucket goes with its objects and uploads. */
      delete: (id: string) => {
        this.state.anyBucket(id);
        this.state.removeBucket(id);
      },
    },
    "bucket-cors": this.configurationKind("cors", {
      what: "CORS",
      example: "[...]",
      parse: (value) => (value === null ? null : nonEmpty(parseCors({ cors: value }))),
      shown: (cors) => structuredClone(cors),
    }),
    "bucket-lifecycle": this.configurationKind("lifecycle", {
      what: "lifecycle",
      example: '"<LifecycleConfiguration>..."',
      parse: parseLifecycleField,
      shown: lifecycleXml,
    }),
    object: {
      get: (id: string) => {
        const { bucket, object } = this.objectById(id);
        return objectView(bucket, object);
      },
      patch: (id: string, fields: Fields) => {
        const { bucket, object } = this.objectById(id);
        onlyFields(fields, ["metadata", "content_type", "content", "content_base64"]);
        if ("content" in fields && "content_base64" in fields) throw new BadRequest("Give content or content_base64, not both.");
        const metadata = "metadata" in fields ? mergeMetadata(object.metadata, fields.metadata) : object.metadata;
        if ("content_type" in fields && (typeof fields.content_type !== "string" || !/^[\x20-\x7e]{1,256}$/.test(fields.content_type)))
          throw new BadRequest("content_type must be 1 to 256 printable ASCII characters.");
        const content = fields.content ?? fields.content_base64;
        if (("content" in fields || "content_base64" in fields) && typeof content !== "string")
          throw new BadRequest("content / content_base64 must be a string.");
        if ("content_base64" in fields && !/^[A-Za-z0-9+/]*={0,2}$/.test(content as string)) throw new BadRequest("content_base64 must be Base64.");
        object.metadata = metadata;
        if (typeof fields.content_type === "string") object.contentType = fields.content_type;
        if (typeof content === "string") {
          const written = this.state.blobs.write("content" in fields ? Buffer.from(content, "utf8") : Buffer.from(content, "base64"));
          this.state.blobs.remove(object.blob);
          Object.assign(object, { blob: written.blob, size: written.size, etag: written.md5 });
          delete object.dloManifest;
          delete object.sloManifest;
        }
        object.lastModified = this.state.now();
        return objectView(bucket, object);
      },
      delete: (id: string) => {
        const { bucket, object } = this.objectById(id);
        this.state.removeObject(bucket, object.name);
      },
    },
    "multipart-upload": {
      get: (id: string) => {
        const { bucket, upload } = this.uploadById(id);
        return uploadView(bucket, upload);
      },
      patch: (id: string) => {
        this.uploadById(id);
        throw new BadRequest("A multipart upload has no patchable fields; DELETE it to abort it behind the API.");
      },
      delete: (id: string) => {
        const { bucket, upload } = this.uploadById(id);
        this.state.removeUpload(bucket, upload.uploadId);
      },
    },
  } satisfies Record<string, ControlledKind>;

  /**
   * Drift: merges fields into the stored record, validated as the API would validate them. The
   * patch must be an object whatever the kind, before the kind is looked up.
   */
  override patchResource(kind: string, id: string, patch: unknown): unknown {
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) throw new BadRequest("The patch must be a JSON object.");
    return super.patchResource(kind, id, patch);
  }

  reset(): void {
    this.state.clear();
  }

  snapshot(): ObjectStorageSnapshot {
    return {
      buckets: [...this.state.buckets.values()].map((bucket) => ({
        ...bucket,
        objects: [...bucket.objects.values()],
        uploads: [...bucket.uploads.values()].map((u) => ({ ...u, parts: [...u.parts.values()] })),
      })),
    };
  }

  /**
   * Loads a snapshot whose bodies are in the blob directory. The snapshot trails the files by up to
   * its write delay, so after a crash they may disagree: a record whose body file is gone (deleted
   * after the last snapshot) is dropped, and body files no record refers to are removed.
   */
  restore(data: unknown): void {
    this.state.buckets.clear();
    const snapshot = data as { buckets?: RestoredBucket[] } | undefined;
    const referenced = new Set<string>();
    const withBody = <T extends { blob?: string; size?: number; body?: string }>(record: T): Array<Omit<T, "body"> & { blob: string; size: number }> => {
      const { body: inline, ...rest } = record;
      const stored = inline !== undefined ? this.state.blobs.write(Buffer.from(inline, "base64")) : { blob: rest.blob ?? "", size: rest.size ?? 0 };
      if (!this.state.blobs.has(stored.blob)) return [];
      referenced.add(stored.blob);
      return [{ ...rest, blob: stored.blob, size: stored.size }];
    };
    for (const b of snapshot?.buckets ?? []) {
      this.state.buckets.set(b.name, {
        ...b,
        objects: new Map(b.objects.flatMap(withBody).map((o) => [o.name, o])),
        uploads: new Map(b.uploads.map((u) => [u.uploadId, { ...u, parts: new Map(u.parts.flatMap(withBody).map((p) => [p.partNumber, p])) }])),
      });
    }
    this.state.blobs.retainOnly(referenced);
  }

  /**
   * A bucket's CORS or lifecycle configuration as a kind of its own: `parse` reads a patched value
   * (null removes it), `shown` is how the control API shows it.
   */
  private configurationKind<K extends "cors" | "lifecycle">(
    field: K,
    o: { what: string; example: string; parse: (value: unknown) => Bucket[K]; shown: (value: NonNullable<Bucket[K]>) => unknown },
  ): ControlledKind {
    return {
      get: (id) => {
        const value = this.state.anyBucket(id)[field];
        if (!value) throw new NoSuchResource(`Bucket "${id}" has no ${o.what} configuration.`);
        return { [field]: o.shown(value) };
      },
      patch: (id, fields: Fields) => {
        const bucket = this.state.anyBucket(id);
        if (!(field in fields)) throw new BadRequest(`Patch {"${field}": ${o.example}} or {"${field}": null}.`);
        bucket[field] = o.parse(fields[field]);
        this.state.touch(bucket);
        const value = bucket[field];
        return { [field]: value ? o.shown(value) : null };
      },
      delete: (id) => void (this.state.anyBucket(id)[field] = null as Bucket[K]),
    };
  }

  private bucketRecord(id: string): Record<string, unknown> {
    const bucket = this.state.anyBucket(id);
    return {
      ...this.state.record(bucket),
      metadata: { ...bucket.metadata },
      cors: bucket.cors ? structuredClone(bucket.cors) : null,
      lifecycle: bucket.lifecycle ? lifecycleXml(bucket.lifecycle) : null,
    };
  }

  /** `{bucket}/{object name}` of any project. */
  private objectById(id: string): { bucket: Bucket; object: StoredObject } {
    const slash = id.indexOf("/");
    if (slash <= 0 || slash === id.length - 1) throw new BadRequest("An object id is {bucket}/{object name}.");
    const bucket = this.state.anyBucket(id.slice(0, slash));
    const object = bucket.objects.get(id.slice(slash + 1));
    if (!object) throw new NoSuchResource(`No object "${id.slice(0, 200)}".`);
    return { bucket, object };
  }

  /** `{bucket}/{key}/{uploadId}` of any project (the upload ID has no `/`, the key may). */
  private uploadById(id: string): { bucket: Bucket; upload: MultipartUpload } {
    const first = id.indexOf("/");
    const last = id.lastIndexOf("/");
    if (first <= 0 || last <= first + 1 || last === id.length - 1) throw new BadRequest("A multipart upload id is {bucket}/{key}/{uploadId}.");
    const bucket = this.state.anyBucket(id.slice(0, first));
    const upload = bucket.uploads.get(id.slice(last + 1));
    if (!upload || upload.key !== id.slice(first + 1, last)) throw new NoSuchResource(`No multipart upload "${id.slice(0, 200)}".`);
    return { bucket, upload };
  }
}

function uploadView(bucket: Bucket, upload: MultipartUpload): Record<string, unknown> {
  return {
    bucket: bucket.name,
    key: upload.key,
    initiated: new Date(upload.initiatedAt).toISOString(),
    upload_id: upload.uploadId,
    content_type: upload.contentType,
    metadata: { ...upload.metadata },
    parts: [...upload.parts.values()]
      .sort((a, b) => a.partNumber - b.partNumber)
      .map((p) => ({ part_number: p.partNumber, etag: p.etag, bytes: p.size, last_modified: new Date(p.lastModified).toISOString() })),
  };
}

function objectView(bucket: Bucket, object: StoredObject): Record<string, unknown> {
  return {
    bucket: bucket.name,
    name: object.name,
    content_type: object.contentType,
    bytes: object.size,
    hash: object.etag,
    last_modified: new Date(object.lastModified).toISOString(),
    created_at: new Date(object.createdAt).toISOString(),
    metadata: { ...object.metadata },
    ...(object.dloManifest !== undefined ? { dlo_manifest: object.dloManifest } : {}),
    ...(object.sloManifest !== undefined ? { slo_manifest: structuredClone(object.sloManifest) } : {}),
  };
}

function onlyFields(fields: Record<string, unknown>, allowed: string[]): void {
  for (const key of Object.keys(fields))
    if (!allowed.includes(key)) throw new BadRequest(`Field "${key}" cannot be patched; patchable: ${allowed.join(", ")}.`);
}

function nonEmpty<T>(list: T[]): T[] | null {
  return list.length > 0 ? list : null;
}

function parseLifecycleField(value: unknown): LifecycleConfiguration | null {
  if (value === null) return null;
  if (typeof value !== "string") throw new BadRequest("lifecycle must be the XML document as a string, or null.");
  return parseLifecycle(value);
}

function mergeMetadata(current: Record<string, string>, patch: unknown): Record<string, string> {
  if (patch === null) return {};
  if (typeof patch !== "object" || Array.isArray(patch)) throw new BadRequest("metadata must be an object (a null value removes a key).");
  const next = { ...current };
  for (const [rawKey, value] of Object.entries(patch as Record<string, unknown>)) {
    const key = rawKey.toLowerCase();
    if (value === null) {
      delete next[key];
      continue;
    }
    if (typeof value !== "string") throw new BadRequest(`metadata.${rawKey} must be a string or null.`);
    validateMetadataEntry(key, value);
    next[key] = value;
  }
  validateMetadataTotal(next);
  return next;
}
