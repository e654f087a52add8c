/**
 * The object storage providers against a scripted loopback service that does what the local cloud
 * does not (yet): keeps Cache-Control / Content-Disposition / Content-Encoding, lags behind a delete,
 * lacks ListMultipartUploads. Driven as the engine drives them (tests/support/local-cloud/).
 */
import { createHash } from "node:crypto";
import { closeAllPools } from "../../client/core";
import { EngineResource, TOKENS } from "../support/local-cloud";
import { startScriptedServer, type Reply, type ScriptedServer, type Seen } from "../support/servers/scripted";

let server: ScriptedServer;
let object: EngineResource;
let bucket: EngineResource;

beforeAll(async () => {
  server = await startScriptedServer();
  const config = { "krcloud:objectstorageEndpoint": server.origin, "krcloud:authToken": "tok", "krcloud:projectId": "p-1" };
  object = new EngineResource(TOKENS.object);
  bucket = new EngineResource(TOKENS.bucket);
  await object.configure(config);
  await bucket.configure(config);
});
afterAll(async () => {
  await closeAllPools();
  await server.close();
});

const CONTENT_HEADERS = ["content-type", "cache-control", "content-disposition", "content-encoding"];
interface Stored {
  etag: string;
  length: number;
  headers: Record<string, string>;
}

/** A Swift-like object store: PUT keeps the content headers and metadata, POST replaces them, HEAD answers them. */
function swiftLike(store: Map<string, Stored>, o: { headsAfterDelete?: number } = {}) {
  const lingering = new Map<string, number>();
  return (r: Seen): Reply => {
    const path = r.url.split("?")[0]!;
    const keep = (h: Seen["headers"]) =>
      Object.fromEntries(Object.entries(h).filter(([k]) => CONTENT_HEADERS.includes(k) || k.startsWith("x-object-meta-")) as [string, string][]);
    switch (r.method) {
      case "PUT": {
        const etag = createHash("md5").update(r.body).digest("hex");
        store.set(path, { etag, length: Buffer.byteLength(r.body), headers: keep(r.headers) });
        return { status: 201, headers: { etag } };
      }
      case "POST": {
        const s = store.get(path);
        if (!s) return { status: 404 };
        s.headers = { "content-type": s.headers["content-type"] ?? "application/octet-stream", ...keep(r.headers) };
        return { status: 202 };
      }
      case "HEAD": {
        const left = lingering.get(path);
        if (left !== undefined && left > 0) {
          lingering.set(path, left - 1);
          return { status: 200, headers: { etag: "gone-soon", "content-length": "0" } };
        }
        const s = store.get(path);
        return s ? { status: 200, headers: { ...s.headers, etag: s.etag, "content-length": String(s.length) } } : { status: 404 };
      }
      case "DELETE": {
        if (!store.delete(path)) return { status: 404 };
        if (o.headsAfterDelete) lingering.set(path, o.headsAfterDelete);
        return { status: 204 };
      }
      default:
        return { status: 405 };
    }
  };
}

const ARGS = {
  bucket: "web-site",
  key: "report.pdf",
  content: "%PDF-1.7 pretend",
  contentType: "application/pdf",
  cacheControl: "max-age=3600",
  contentDisposition: 'attachment; filename="report.pdf"',
  contentEncoding: "identity",
};

test("cacheControl, contentDisposition and contentEncoding are sent on upload, read back, changed by POST alone, and drift shows", async () => {
  server.reset();
  const store = new Map<string, Stored>();
  server.route = swiftLike(store);

  const state = await object.up(ARGS);
  const put = server.seen.find((s) => s.method === "PUT")!;
  expect(put.headers).toMatchObject({
    "cache-control": "max-age=3600",
    "content-disposition": 'attachment; filename="report.pdf"',
    "content-encoding": "identity",
  });
  expect(state.outputs).toMatchObject({ cacheControl: "max-age=3600", contentDisposition: 'attachment; filename="report.pdf"', contentEncoding: "identity" });
  const refreshed = (await object.refresh(state))!;
  expect((await object.plan(refreshed, ARGS)).diff.changes).toBe(false);

  server.seen.length = 0;
  const next = await object.apply(refreshed, { ...ARGS, cacheControl: "no-cache" });
  expect(next.diff).toMatchObject({ changes: true, replaces: [] });
  expect(server.seen.map((s) => s.method)).toEqual(["HEAD", "POST", "HEAD"]);
  expect(server.seen[1]!.headers).toMatchObject({
    "cache-control": "no-cache",
    "content-disposition": 'attachment; filename="report.pdf"',
    "content-encoding": "identity",
    "content-type": "application/pdf",
  });
  expect(next.outputs.cacheControl).toBe("no-cache");

  store.get("/v1/p-1/web-site/report.pdf")!.headers["cache-control"] = "public";
  const drifted = (await object.refresh(next))!;
  expect(drifted.outputs.cacheControl).toBe("public");
  expect((await object.plan(drifted, { ...ARGS, cacheControl: "no-cache" })).diff.changes).toBe(true);
});

test("delete waits while the service still shows the object, and ends when it is gone", async () => {
  server.reset();
  const store = new Map<string, Stored>();
  server.route = swiftLike(store, { headsAfterDelete: 1 });
  const state = await object.up({ bucket: "web-site", key: "a.txt", content: "a" });
  server.seen.length = 0;

  await object.destroy(state);

  // The bucket's metadata first (a BucketFolder's claim on the key would leave the object), then the delete and its wait.
  expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
    "HEAD /v1/p-1/web-site",
    "DELETE /v1/p-1/web-site/a.txt",
    "HEAD /v1/p-1/web-site/a.txt",
    "HEAD /v1/p-1/web-site/a.txt",
  ]);
});

test("forceDestroy on a service without ListMultipartUploads (405) still empties and deletes the bucket, and waits for it to be gone", async () => {
  server.reset();
  let exists = true;
  server.route = (r) => {
    if (r.url.startsWith("/v1_ext/bucket/old-logs")) {
      if (r.method === "DELETE") {
        exists = false;
        return { status: 204 };
      }
      return exists
        ? { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "old-logs", project: "p-1" }) }
        : { status: 404 };
    }
    if (r.url.includes("?uploads")) return { status: 405 };
    if (r.method === "GET") return { status: 200, headers: { "content-type": "application/json" }, body: "[]" };
    return { status: 500 };
  };

  await bucket.destroy({ id: "old-logs", inputs: {}, outputs: { name: "old-logs", forceDestroy: true } });

  expect(server.seen.map((s) => `${s.method} ${s.url.split("?")[0]}${s.url.includes("?uploads") ? "?uploads" : ""}`)).toEqual([
    "GET /v1/p-1/old-logs",
    "GET /v1/p-1/old-logs?uploads",
    "DELETE /v1_ext/bucket/old-logs",
    "GET /v1_ext/bucket/old-logs",
  ]);
});
