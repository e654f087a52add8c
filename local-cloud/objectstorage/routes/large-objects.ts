import { z } from "zod";
import { describeIssues, header, textResponse } from "../../core/http";
import type { ObjectStorageBackend } from "../backend";
import { etagHeader } from "../etag";
import { InvalidManifest } from "../errors";
import { DEFAULT_CONTENT_TYPE } from "../model";
import { LIMITS } from "../limits";
import { metadataHeaders, type ObjectHandler } from "./common";

function sloSchema() {
  return z
    .array(
      z.strictObject({
        path: z.string().min(3),
        etag: z.string().nullish(),
        size_bytes: z.number().int().nonnegative().nullish(),
      }),
    )
    .min(1, "the manifest lists no segments")
    .max(LIMITS.maxSloSegments, `at most ${LIMITS.maxSloSegments} segments`);
}

/** SLO manifest upload (spec 01 §4.5). DLO manifests are plain PUTs with X-Object-Manifest (objects.ts). */
export function largeObjectOperations(backend: ObjectStorageBackend): Record<"PutSloManifest", ObjectHandler> {
  return {
    PutSloManifest(ctx, { bucket, name }) {
      if (ctx.body.length > LIMITS.maxSloManifestSize) throw new InvalidManifest(`The manifest exceeds ${LIMITS.maxSloManifestSize} bytes.`);
      let raw: unknown;
      try {
        raw = JSON.parse(ctx.body.toString("utf8")) as unknown;
      } catch {
        throw new InvalidManifest("The manifest is not valid JSON.");
      }
      const parsed = sloSchema().safeParse(raw);
      if (!parsed.success) throw new InvalidManifest(`Invalid SLO manifest: ${describeIssues(parsed.error.issues)}`);
      const object = backend.largeObjects.putSloManifest(
        bucket,
        name,
        parsed.data.map((s) => ({ path: s.path, ...(s.etag != null ? { etag: s.etag } : {}), ...(s.size_bytes != null ? { size_bytes: s.size_bytes } : {}) })),
        header(ctx, "x-object-content-type") ?? DEFAULT_CONTENT_TYPE,
        metadataHeaders(ctx, "x-object-meta-", { keepEmpty: false }),
      );
      return textResponse(201, "", { Etag: etagHeader(object.etag, true), "Last-Modified": new Date(object.lastModified).toUTCString() });
    },
  };
}
