import { isApiError } from "../../core/errors";
import { emptyResponse, header, parseIntegerParam, xmlResponse, type RequestContext } from "../../core/http";
import { buildXml, elementKeys, parseXml } from "../../core/xml";
import type { ObjectStorageBackend } from "../backend";
import { MalformedXml } from "../errors";
import { DEFAULT_CONTENT_TYPE } from "../model";
import { LIMITS } from "../limits";
import { contentHeadersOf, metadataHeaders, type ContainerHandler, type ObjectHandler } from "./common";

const uploadIdOf = (ctx: RequestContext): string => ctx.query.get("uploadId") ?? "";

const multipartXml = (root: string, fields: Record<string, unknown>): string =>
  buildXml({ [root]: { "@_xmlns": "http://s3.amazonaws.com/doc/2006-03-01/", ...fields } });

function parseCompleteBody(ctx: RequestContext): Array<{ partNumber: number; etag: string }> {
  let doc: Record<string, unknown>;
  try {
    doc = parseXml(ctx.body.toString("utf8"), (p) => p === "CompleteMultipartUpload.Part");
  } catch (error) {
    if (isApiError(error)) throw new MalformedXml(error.message);
    throw error;
  }
  const root = doc.CompleteMultipartUpload;
  if (elementKeys(doc).length !== 1 || root === undefined) throw new MalformedXml("The root element must be <CompleteMultipartUpload>.");
  const parts = (typeof root === "object" && root !== null ? ((root as Record<string, unknown>).Part ?? []) : []) as unknown[];
  return parts.map((part, index) => {
    const p = (typeof part === "object" && part !== null ? part : {}) as Record<string, unknown>;
    const number = typeof p.PartNumber === "string" ? p.PartNumber.trim() : "";
    const etag = typeof p.ETag === "string" ? p.ETag.trim() : "";
    if (!/^\d{1,5}$/.test(number) || etag === "") throw new MalformedXml(`Part ${index + 1} needs a PartNumber and an ETag.`);
    return { partNumber: Number(number), etag };
  });
}

/** Multipart upload (spec 01 §4.4; ListParts, Abort and ListMultipartUploads in S3's shape). */
export function multipartOperations(backend: ObjectStorageBackend): {
  objectHandlers: Record<string, ObjectHandler>;
  containerHandlers: Record<string, ContainerHandler>;
} {
  const api = backend.multipart;
  const objectHandlers: Record<string, ObjectHandler> = {
    InitiateMultipartUpload(ctx, { account, bucket, name }) {
      const upload = api.initiateMultipartUpload(
        bucket,
        name,
        header(ctx, "content-type") ?? DEFAULT_CONTENT_TYPE,
        metadataHeaders(ctx, "x-object-meta-", { keepEmpty: false }),
        contentHeadersOf(ctx),
      );
      return xmlResponse(201, multipartXml("InitiateMultipartUploadResult", { Tenant: account, Bucket: bucket.name, Key: name, UploadId: upload.uploadId }));
    },
    UploadPart(ctx, { bucket, name }) {
      const partNumber = parseIntegerParam(ctx.query.get("partNumber"), "partNumber", { min: 1, max: LIMITS.maxPartNumber, fallback: 0 });
      const part = api.uploadPart(bucket, name, uploadIdOf(ctx), partNumber, ctx.body);
      return emptyResponse(200, { ETag: `"${part.etag}"`, "Content-Length": "0" });
    },
    CompleteMultipartUpload(ctx, { account, bucket, name }) {
      const parts = parseCompleteBody(ctx);
      const object = api.completeMultipartUpload(bucket, name, uploadIdOf(ctx), parts);
      return xmlResponse(
        201,
        multipartXml("CompleteMultipartUploadResult", {
          Location: `/v1/${account}/${bucket.name}/${name}`,
          Tenant: account,
          Bucket: bucket.name,
          Key: name,
          ETag: `"${object.etag}"`,
        }),
        { Etag: `"${object.etag}"` },
      );
    },
    AbortMultipartUpload(ctx, { bucket, name }) {
      api.abortMultipartUpload(bucket, name, uploadIdOf(ctx));
      return emptyResponse(204);
    },
    ListParts(ctx, { account, bucket, name }) {
      const upload = api.listParts(bucket, name, uploadIdOf(ctx));
      const maxParts = parseIntegerParam(ctx.query.get("max-parts"), "max-parts", { min: 0, max: 1000, fallback: 1000 });
      const marker = parseIntegerParam(ctx.query.get("part-number-marker"), "part-number-marker", { min: 0, max: LIMITS.maxPartNumber, fallback: 0 });
      const all = [...upload.parts.values()].filter((p) => p.partNumber > marker).sort((a, b) => a.partNumber - b.partNumber);
      const page = all.slice(0, maxParts);
      const truncated = all.length > page.length;
      return xmlResponse(
        200,
        multipartXml("ListPartsResult", {
          Tenant: account,
          Bucket: bucket.name,
          Key: name,
          UploadId: upload.uploadId,
          StorageClass: "STANDARD",
          PartNumberMarker: marker,
          NextPartNumberMarker: page.length > 0 ? page[page.length - 1]!.partNumber : marker,
          MaxParts: maxParts,
          IsTruncated: truncated ? "true" : "false",
          Part: page.map((p) => ({ PartNumber: p.partNumber, LastModified: new Date(p.lastModified).toISOString(), ETag: `"${p.etag}"`, Size: p.size })),
        }),
      );
    },
  };
  const containerHandlers: Record<string, ContainerHandler> = {
    ListMultipartUploads(ctx, { account, name }) {
      const bucket = backend.state.bucket(account, name);
      const uploads = api.listMultipartUploads(bucket, ctx.query.get("prefix") ?? "");
      return xmlResponse(
        200,
        buildXml({
          ListMultipartUploadsResult: {
            Tenant: account,
            Bucket: bucket.name,
            Upload: uploads.map((u) => ({ Key: u.key, UploadId: u.uploadId, Initiated: new Date(u.initiatedAt).toISOString() })),
          },
        }),
      );
    },
  };
  return { objectHandlers, containerHandlers };
}
