import { hasPermission } from "../../core/credentials";
import { emptyResponse, header, jsonResponse, textResponse, type ApiResponse, type HeaderValue, type RequestContext } from "../../core/http";
import type { ObjectStorageBackend } from "../backend";
import { md5Hex } from "../etag";
import { AccessDenied, BadDigest, EntityTooLarge, InvalidArgument, InvalidRange, MissingDestination, PreconditionFailed, TempUrlDenied } from "../errors";
import { DEFAULT_CONTENT_TYPE, FOLDER_CONTENT_TYPE, swiftTimestamp, validateObjectName, type Bucket, type StoredObject } from "../model";
import { LIMITS } from "../limits";
import { contentHeadersOf, encodePath, metadataHeaders, metaResponseHeaders, safeDecode, type ObjectHandler } from "./common";
import { withCors } from "./cors";

function objectHeaders(object: StoredObject, length: number, etag: string): Record<string, HeaderValue> {
  return {
    "Content-Type": object.contentType,
    ...(object.contentHeaders ?? {}),
    "Content-Length": String(length),
    "Accept-Ranges": "bytes",
    Etag: etag,
    "Last-Modified": new Date(object.lastModified).toUTCString(),
    "X-Timestamp": swiftTimestamp(object.lastModified),
    "X-Object-Storage-Class": "STANDARD",
    "X-Rgw-Object-Type": "Normal",
    ...(object.dloManifest !== undefined ? { "X-Object-Manifest": encodePath(object.dloManifest) } : {}),
    ...(object.sloManifest !== undefined ? { "X-Static-Large-Object": "True" } : {}),
    ...metaResponseHeaders("X-Object-Meta-", object.metadata),
  };
}

/** Single `bytes=a-b`, `bytes=a-` or `bytes=-n` range; anything else is ignored (full body), as HTTP allows. */
function parseRange(value: string | undefined, size: number): { start: number; end: number } | undefined {
  if (!value) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) throw new InvalidRange(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return undefined;
  }
  if (start >= size) throw new InvalidRange(size);
  return { start, end };
}

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** `Destination: /{bucket}/{path}` of COPY and MOVE. */
function destination(ctx: RequestContext): { bucket: string; name: string } {
  const raw = header(ctx, "destination");
  if (!raw) throw new MissingDestination();
  const decoded = safeDecode(raw.trim());
  if (decoded === undefined) throw new MissingDestination("The Destination header is not validly percent-encoded.");
  const path = decoded.startsWith("/") ? decoded.slice(1) : decoded;
  const slash = path.indexOf("/");
  if (slash <= 0 || slash === path.length - 1) throw new MissingDestination();
  const name = path.slice(slash + 1);
  validateObjectName(name);
  return { bucket: path.slice(0, slash), name };
}

/** Swift object operations, plus the token-less temporary URL download. */
export function objectOperations(backend: ObjectStorageBackend): {
  handlers: Record<string, ObjectHandler>;
  tempUrlDownload: (ctx: RequestContext, account: string, bucketName: string, name: string) => ApiResponse;
} {
  const api = backend.objects;

  const download = (ctx: RequestContext, bucket: Bucket, name: string, extra: Record<string, string>): ApiResponse => {
    const content = api.getObject(bucket, name);
    const { object, size, etag } = content;
    if (ctx.query.get("multipart-manifest") === "get" && object.sloManifest) {
      // Swift answers the manifest document itself, with its own MD5 as the ETag.
      const manifest = JSON.stringify(object.sloManifest);
      return jsonResponse(200, object.sloManifest, { "X-Static-Large-Object": "True", Etag: md5Hex(Buffer.from(manifest)), ...extra });
    }
    const headers = { ...objectHeaders(object, size, etag), ...extra };
    if (ctx.method === "HEAD") return { status: 200, headers };
    const range = parseRange(header(ctx, "range"), size);
    if (range) {
      return {
        status: 206,
        headers: { ...headers, "Content-Length": String(range.end - range.start + 1), "Content-Range": `bytes ${range.start}-${range.end}/${size}` },
        stream: api.readContent(content, range.start, range.end),
      };
    }
    return { status: 200, headers, stream: api.readContent(content, 0, size - 1) };
  };

  const tempUrlDownload = (ctx: RequestContext, account: string, bucketName: string, name: string): ApiResponse => {
    if (ctx.method !== "GET") throw new TempUrlDenied("only GET is allowed through temporary URLs");
    const sig = ctx.query.get("temp_url_sig") ?? "";
    const expires = ctx.query.get("temp_url_expires") ?? "";
    backend.auth.verifyTempUrl(account, bucketName, name, sig, expires, ctx.now);
    const bucket = backend.state.bucket(account, bucketName);
    const filename =
      ctx.query.get("filename") ??
      name
        .split("/")
        .filter((s) => s !== "")
        .pop() ??
      name;
    return download(ctx, bucket, name, { "Content-Disposition": contentDisposition(filename) });
  };

  const getObject: ObjectHandler = (ctx, { bucket, name }) => withCors(ctx, bucket, download(ctx, bucket, name, {}));

  const handlers: Record<string, ObjectHandler> = {
    GetObject: getObject,
    HeadObject: getObject,
    CreateTempUrl(ctx, { account, bucket, name }) {
      const expires = ctx.query.get("temp_url_expires");
      if (expires === null || !/^\d{1,12}$/.test(expires)) throw new InvalidArgument("temp_url_expires must be a Unix timestamp in seconds.");
      return jsonResponse(200, backend.auth.createTempUrl(account, bucket, name, Number(expires)));
    },
    PutObject(ctx, { bucket, name }) {
      const declared = Number(header(ctx, "content-length"));
      if (Number.isFinite(declared) && declared > LIMITS.maxFileSize)
        throw new EntityTooLarge(`A single upload is limited to ${LIMITS.maxFileSize} bytes; use multipart upload.`);
      const folder = name.endsWith("/");
      if (folder && ctx.body.length > 0) throw new InvalidArgument('A folder (a name ending in "/") has no content.');
      // Swift's conditional create: `If-None-Match: *` refuses to overwrite an object that exists.
      const ifNoneMatch = header(ctx, "if-none-match");
      if (ifNoneMatch !== undefined) {
        if (ifNoneMatch.trim() !== "*") throw new InvalidArgument('If-None-Match on a PUT must be "*".');
        if (bucket.objects.has(name)) throw new PreconditionFailed(`Object "${name.slice(0, 200)}" exists (If-None-Match: *).`);
      }
      const expectedEtag = header(ctx, "etag");
      if (expectedEtag !== undefined && expectedEtag.replace(/"/g, "").toLowerCase() !== md5Hex(ctx.body)) {
        throw new BadDigest();
      }
      const manifestHeader = header(ctx, "x-object-manifest");
      let dloManifest: string | undefined;
      if (manifestHeader !== undefined) {
        const decoded = safeDecode(manifestHeader.trim());
        const slash = decoded?.indexOf("/") ?? -1;
        if (decoded === undefined || slash <= 0) throw new InvalidArgument("X-Object-Manifest must be {bucket}/{prefix}.");
        dloManifest = decoded.replace(/^\/+/, "");
      }
      const object = api.putObject(bucket, name, {
        body: ctx.body,
        contentType: folder ? FOLDER_CONTENT_TYPE : (header(ctx, "content-type") ?? DEFAULT_CONTENT_TYPE),
        metadata: metadataHeaders(ctx, "x-object-meta-", { keepEmpty: false }),
        contentHeaders: contentHeadersOf(ctx),
        ...(dloManifest !== undefined ? { dloManifest } : {}),
      });
      return withCors(ctx, bucket, textResponse(201, "", { Etag: object.etag, "Last-Modified": new Date(object.lastModified).toUTCString() }));
    },
    PostObject(ctx, { bucket, name }) {
      const contentType = header(ctx, "content-type");
      api.postObject(bucket, name, metadataHeaders(ctx, "x-object-meta-", { keepEmpty: false }), contentType, contentHeadersOf(ctx));
      return withCors(ctx, bucket, emptyResponse(200, { "Content-Length": "0" }));
    },
    DeleteObject(ctx, { bucket, name }) {
      if (ctx.query.get("multipart-manifest") === "delete") {
        const result = backend.largeObjects.deleteSloManifest(bucket, name);
        return jsonResponse(200, {
          "Number Deleted": result.deleted,
          "Number Not Found": result.notFound,
          Errors: [],
          "Response Status": "200 OK",
          "Response Body": "",
        });
      }
      api.deleteObject(bucket, name);
      return withCors(ctx, bucket, emptyResponse(204));
    },
  };

  /** COPY and MOVE differ only in the backend call; both need create permission on the destination. */
  const copyOrMove =
    (op: "CopyObject" | "MoveObject"): ObjectHandler =>
    (ctx, { account, bucket, name, access }) => {
      const target = destination(ctx);
      const identity = access.kind === "identity" ? access.identity : undefined;
      if (!identity || !hasPermission(identity, "storage.objects.create")) {
        throw new AccessDenied(`The credential lacks permission storage.objects.create on the destination bucket.`);
      }
      const targetBucket = backend.state.bucket(account, target.bucket);
      const source = backend.state.object(bucket, name);
      const object =
        op === "CopyObject"
          ? api.copyObject(bucket, name, targetBucket, target.name, metadataHeaders(ctx, "x-object-meta-", { keepEmpty: false }))
          : api.moveObject(bucket, name, targetBucket, target.name);
      return textResponse(201, "", {
        Etag: object.etag,
        "Last-Modified": new Date(object.lastModified).toUTCString(),
        "X-Copied-From": encodePath(`${bucket.name}/${name}`),
        "X-Copied-From-Last-Modified": new Date(source.lastModified).toUTCString(),
      });
    };
  handlers.CopyObject = copyOrMove("CopyObject");
  handlers.MoveObject = copyOrMove("MoveObject");

  return { handlers, tempUrlDownload };
}
