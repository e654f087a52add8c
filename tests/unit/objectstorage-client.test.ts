/**
 * The client against a scripted loopback server: what goes on the wire (paths, query flags,
 * headers, bodies) and how answers are read. No sleeps: the fake clock makes retries instant.
 */
import * as util from "node:util";
import { closeAllPools, isNotFound, isTransportError, resolveSettings, type Clock } from "../../client/core";
import { isInvalidArgument, ObjectStorageClient } from "../../client/objectstorage";
import { rejection } from "../support/assertions";
import { jsonReply as json, useScriptedServer, type Seen } from "../support/servers/scripted";

const srv = useScriptedServer();
const base = () => `${srv.origin}/object-storage`;

const clock: Clock = { now: () => 0, random: () => 0, sleep: async () => undefined };
const client = (extra: Record<string, unknown> = {}) =>
  new ObjectStorageClient({
    settings: resolveSettings(
      { projectId: "p-1", authToken: "tok-SECRET-1", endpoints: { objectstorage: base() }, retry: { maxAttempts: 2 } },
      () => undefined,
      {},
    ),
    clock,
    ...extra,
  });
const pathOf = (s: Seen) => s.url.split("?")[0];

test("object paths are percent-encoded per segment on the wire and every call carries the token", async () => {
  srv.route = () => ({ status: 201, headers: { etag: "abc" } });
  const r = await client().putObject("b", "dir/a b#1.txt", "hey", { contentType: "text/plain", metadata: { Color: "blue" } });
  expect(r).toEqual({ etag: "abc" });
  expect(srv.seen[0]!.url).toBe("/object-storage/v1/p-1/b/dir/a%20b%231.txt");
  expect(srv.seen[0]!.headers["x-auth-token"]).toBe("tok-SECRET-1");
  expect(srv.seen[0]!.headers["x-object-meta-color"]).toBe("blue");
  expect(srv.seen[0]!.headers["content-length"]).toBe("3");
  expect(srv.seen[0]!.headers["content-type"]).toBe("text/plain");
});

test("errors say what was being done and never contain the token", async () => {
  srv.route = () => json(403, { code: "Forbidden", message: "token tok-SECRET-1 lacks storage.buckets.get" });
  const err = await rejection(client().getBucket("logs"));
  expect(err.message).toMatch(/^reading bucket "logs": 403 Forbidden/);
  expect(err.message).not.toContain("tok-SECRET-1");
});

test("find* return undefined on 404; getLifecycle too; deleteObjectIfExists reports false", async () => {
  srv.route = () => ({ status: 404, body: "Not Found" });
  const c = client();
  expect(await c.findBucket("x")).toBeUndefined();
  expect(await c.findContainer("x")).toBeUndefined();
  expect(await c.findObject("x", "y")).toBeUndefined();
  expect(await c.getLifecycle("x")).toBeUndefined();
  expect(await c.deleteObjectIfExists("x", "y")).toBe(false);
  expect(isNotFound(await rejection(c.deleteObject("x", "y")))).toBe(true);
});

test("createBucket sends the spec's body; encryption sets both encryption_configuration and use_encryption", async () => {
  srv.route = (r) => json(200, { ...JSON.parse(r.body), project: "p-1", createdAt: "2024-01-01T00:00:00Z" });
  const b = await client().createBucket({ name: "logs", encryption: { type: "managed" } });
  expect(srv.seen[0]!.method).toBe("PUT");
  expect(srv.seen[0]!.url).toBe("/object-storage/v1_ext/bucket");
  expect(srv.seen[0]!.headers["content-type"]).toBe("application/json");
  expect(JSON.parse(srv.seen[0]!.body)).toEqual({ name: "logs", type: "STANDARD", use_encryption: true, encryption_configuration: { type: "managed" } });
  expect(b).toMatchObject({ name: "logs", useEncryption: true, project: "p-1" });
  await client().createBucket({ name: "plain" });
  expect(JSON.parse(srv.seen[1]!.body)).toEqual({ name: "plain", type: "STANDARD", use_encryption: false });
});

test("updateBucketAcl sends name and bucket_name; null removes the ACL", async () => {
  srv.route = (r) => json(200, { name: "logs", acl: JSON.parse(r.body).acl });
  const b = await client().updateBucketAcl("logs", { public: "read-only", publicReadAllowIpList: ["10.0.0.1"] });
  expect(JSON.parse(srv.seen[0]!.body)).toEqual({ name: "logs", bucket_name: "logs", acl: { public: "read-only", public_read_allow_ip_list: ["10.0.0.1"] } });
  expect(b.acl).toEqual({ public: "read-only", publicReadAllowIpList: ["10.0.0.1"] });
  await client().updateBucketAcl("logs", null);
  expect(JSON.parse(srv.seen[1]!.body).acl).toBeNull();
});

test("listBuckets validates prefix+include and limit before sending anything", async () => {
  const c = client();
  expect(isInvalidArgument(await rejection(c.listBuckets({ prefix: "a", include: "b" })))).toBe(true);
  expect(isInvalidArgument(await rejection(c.listBuckets({ limit: 101 })))).toBe(true);
  expect(srv.seen).toHaveLength(0);
});

test("listAllBuckets walks offsets until totalCount", async () => {
  const names = Array.from({ length: 7 }, (_, i) => `b${i}`);
  srv.route = (r) => {
    const q = new URL(r.url, "http://x").searchParams;
    const offset = Number(q.get("offset"));
    const limit = Number(q.get("limit"));
    const items = names.slice(offset, offset + limit).map((name) => ({ name }));
    return json(200, { totalCount: names.length, offset, count: items.length, items });
  };
  const all = await client().listAllBuckets({ limit: 3, prefix: "b" });
  expect(all.map((b) => b.name)).toEqual(names);
  expect(srv.seen.map((s) => new URL(s.url, "http://x").search)).toEqual([
    "?offset=0&limit=3&prefix=b",
    "?offset=3&limit=3&prefix=b",
    "?offset=6&limit=3&prefix=b",
  ]);
});

test("putCors tries PUT, falls back to POST on 405 once, and remembers POST", async () => {
  srv.route = (r) => (r.method === "PUT" ? json(405, { message: "method not allowed" }) : json(200, JSON.parse(r.body)));
  const c = client();
  const rules = [{ allowedOrigins: ["https://a.example"], allowedMethods: ["GET" as const], maxAgeSeconds: 5 }];
  expect(await c.putCors("b", rules)).toEqual(rules);
  await c.deleteCors("b");
  expect(srv.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
    "PUT /object-storage/v1_ext/bucket/b/cors",
    "POST /object-storage/v1_ext/bucket/b/cors",
    "POST /object-storage/v1_ext/bucket/b/cors",
  ]);
  expect(JSON.parse(srv.seen[0]!.body)).toEqual({ cors: [{ allowed_origins: ["https://a.example"], allowed_methods: ["GET"], max_age_seconds: 5 }] });
  expect(JSON.parse(srv.seen[2]!.body)).toEqual({ cors: [] });
});

test("putCors does not fall back on other errors", async () => {
  srv.route = () => json(400, { message: "bad origin" });
  await expect(client().putCors("b", [{ allowedOrigins: ["x"], allowedMethods: ["GET"] }])).rejects.toThrow(/setting the CORS policy of bucket "b": 400/);
  expect(srv.seen).toHaveLength(1);
});

test("lifecycle is sent as XML and the echo parsed", async () => {
  srv.route = (r) => ({ status: 200, headers: { "content-type": "application/xml" }, body: r.body });
  const rules = await client().putLifecycle("b", [{ prefix: "tmp/&", status: "Enabled", days: 1 }]);
  expect(srv.seen[0]!.headers["content-type"]).toBe("application/xml");
  expect(srv.seen[0]!.body).toContain("<Prefix>tmp/&amp;</Prefix>");
  expect(rules).toEqual([{ prefix: "tmp/&", status: "Enabled", days: 1 }]);
});

test("headContainer reads the 2.6 headers and metadata", async () => {
  srv.route = () => ({
    status: 204,
    headers: {
      "x-container-object-count": "3",
      "x-container-bytes-used": "30",
      "x-container-bytes-used-actual": "90",
      "x-storage-policy": "default-placement",
      "x-timestamp": "1700000000.12345",
      "x-container-meta-owner": "me",
    },
  });
  expect(await client().headContainer("b")).toMatchObject({
    name: "b",
    objectCount: 3,
    bytesUsed: 30,
    bytesUsedActual: 90,
    storagePolicy: "default-placement",
    timestamp: 1700000000.12345,
    metadata: { owner: "me" },
  });
  expect(srv.seen[0]!.method).toBe("HEAD");
});

test("updateContainerMetadata sets and removes in one request", async () => {
  srv.route = () => ({ status: 204 });
  await client().updateContainerMetadata("b", { Owner: "me" }, ["old"]);
  expect(srv.seen[0]!.headers["x-container-meta-owner"]).toBe("me");
  expect(srv.seen[0]!.headers["x-remove-container-meta-old"]).toBeDefined();
  await expect(client().updateContainerMetadata("b", { a: "1" }, ["A"])).rejects.toThrow(/both set and removed/);
});

test("listAllObjects follows the marker until a short page", async () => {
  const names = Array.from({ length: 5 }, (_, i) => `o${i}`);
  srv.route = (r) => {
    const q = new URL(r.url, "http://x").searchParams;
    const marker = q.get("marker") ?? "";
    const page = names.filter((n) => n > marker).slice(0, Number(q.get("limit")));
    return json(
      200,
      page.map((name) => ({ name, bytes: 1, hash: "h", content_type: "x", last_modified: "t" })),
    );
  };
  const all = await client().listAllObjects("b", { limit: 2, prefix: "o" });
  expect(all.map((e) => (e.kind === "object" ? e.name : e.subdir))).toEqual(names);
  expect(srv.seen.map((s) => new URL(s.url, "http://x").searchParams.get("marker"))).toEqual([null, "o1", "o3"]);
  expect(new URL(srv.seen[0]!.url, "http://x").searchParams.get("format")).toBe("json");
});

test("listAllObjects ends at a full page when the answer's object count says every object is listed; without the count, with a count that lags, a delimiter or toShortPage, it goes on to the short page", async () => {
  const names = ["a0", "a1", "a2", "a3"];
  /** A bucket of `names` whose listing answers carry `count` (none: no header), 2 a page. */
  const walk = async (count: number | undefined, o: { prefix?: string; delimiter?: string; toShortPage?: boolean } = {}) => {
    srv.seen.length = 0;
    srv.route = (r) => {
      const q = new URL(r.url, "http://x").searchParams;
      const page = names.filter((n) => n > (q.get("marker") ?? "") && n.startsWith(q.get("prefix") ?? "")).slice(0, Number(q.get("limit")));
      const body = page.map((name) => ({ name, bytes: 1, hash: "h", content_type: "x", last_modified: "t" }));
      return json(200, body, count === undefined ? {} : { "x-container-object-count": String(count) });
    };
    const all = await client().listAllObjects("b", { limit: 2, ...o });
    return { names: all.map((e) => (e.kind === "object" ? e.name : e.subdir)), requests: srv.seen.length };
  };
  // 4 objects, 2 a page: the count ends the walk after the second (full) page.
  expect(await walk(4)).toEqual({ names, requests: 2 });
  // Without the header (the spec names it for HEAD only): the empty third page, as before.
  expect(await walk(undefined)).toEqual({ names, requests: 3 });
  // A count below what was listed lags behind the listing: it proves nothing.
  expect(await walk(3)).toEqual({ names, requests: 3 });
  // Objects outside the prefix: the bucket's count is more than the prefix holds.
  expect(await walk(6, { prefix: "a" })).toEqual({ names, requests: 3 });
  expect(await walk(4, { prefix: "a" })).toEqual({ names, requests: 2 });
  expect(await walk(4, { toShortPage: true })).toEqual({ names, requests: 3 });
  expect((await walk(4, { delimiter: "/" })).requests).toBe(3);
});

test("copy and move send Destination as /{bucket}/{path} (or bucket/path when configured)", async () => {
  srv.route = () => ({ status: 201 });
  await client().copyObject("a", "x y", "b", "d/z w");
  expect(srv.seen[0]!.method).toBe("COPY");
  expect(srv.seen[0]!.headers.destination).toBe("/b/d/z%20w");
  await client({ destinationStyle: "relative" }).moveObject("a", "x", "b", "y");
  expect(srv.seen[1]!.method).toBe("MOVE");
  expect(srv.seen[1]!.headers.destination).toBe("b/y");
});

test("moveObject falls back to copy + delete on 405 only when asked", async () => {
  srv.route = (r) => (r.method === "MOVE" ? { status: 405 } : { status: r.method === "COPY" ? 201 : 204 });
  await expect(client().moveObject("a", "x", "b", "y")).rejects.toThrow(/moving object "a\/x" to "b\/y": 405/);
  srv.seen.length = 0;
  await client().moveObject("a", "x", "b", "y", { fallbackToCopy: true });
  expect(srv.seen.map((s) => s.method)).toEqual(["MOVE", "COPY", "DELETE"]);
});

test("uploadLarge: initiate, parts, complete with quoted ETags", async () => {
  srv.route = (r) => {
    const q = new URL(r.url, "http://x").searchParams;
    if (r.method === "POST") return { status: 201, body: "<InitiateMultipartUploadResult><UploadId>U1</UploadId></InitiateMultipartUploadResult>" };
    if (q.has("partNumber")) return { status: 200, headers: { etag: `"e${q.get("partNumber")}"` } };
    return { status: 201, headers: { etag: "final" } };
  };
  const progress: number[] = [];
  const size = 5 * 1024 * 1024;
  const r = await client().uploadLarge("b", "big.bin", Buffer.alloc(size * 2 + 10), {
    partSize: size,
    metadata: { k: "v" },
    contentType: "application/x-test",
    onProgress: (n) => progress.push(n),
  });
  expect(r).toEqual({ etag: "final", parts: 3 });
  expect(srv.seen[0]!.url).toBe("/object-storage/v1/p-1/b/big.bin?uploads");
  expect(srv.seen[0]!.headers["x-object-meta-k"]).toBe("v");
  const parts = srv.seen.filter((s) => s.url.includes("partNumber"));
  expect(parts.map((s) => s.headers["content-length"]).sort()).toEqual([String(size), String(size), "10"].sort());
  expect(parts.every((s) => new URL(s.url, "http://x").searchParams.get("uploadId") === "U1")).toBe(true);
  const complete = srv.seen[srv.seen.length - 1]!;
  expect(complete.url).toBe("/object-storage/v1/p-1/b/big.bin?uploadId=U1");
  expect(complete.body).toContain('<Part><PartNumber>1</PartNumber><ETag>"e1"</ETag></Part><Part><PartNumber>2</PartNumber><ETag>"e2"</ETag></Part>');
  expect(progress).toEqual([1, 2, 3]);
});

test("uploadLarge aborts the upload when a part fails and rethrows the part's error", async () => {
  srv.route = (r) => {
    const q = new URL(r.url, "http://x").searchParams;
    if (r.method === "POST") return { status: 201, body: "<InitiateMultipartUploadResult><UploadId>U2</UploadId></InitiateMultipartUploadResult>" };
    if (r.method === "DELETE") return { status: 204 };
    return q.get("partNumber") === "2" ? json(400, { message: "bad part" }) : { status: 200, headers: { etag: "e" } };
  };
  const size = 5 * 1024 * 1024;
  await expect(client().uploadLarge("b", "k", Buffer.alloc(size * 3), { partSize: size, concurrency: 1 })).rejects.toThrow(/uploading part 2 of "b\/k": 400/);
  const last = srv.seen[srv.seen.length - 1]!;
  expect(`${last.method} ${last.url}`).toBe("DELETE /object-storage/v1/p-1/b/k?uploadId=U2");
  expect(srv.seen.some((s) => s.url.includes("partNumber=3"))).toBe(false);
});

test("uploadLarge refuses parts under 5 MiB before sending anything", async () => {
  expect(isInvalidArgument(await rejection(client().uploadLarge("b", "k", Buffer.alloc(10), { partSize: 1024 })))).toBe(true);
  expect(srv.seen).toHaveLength(0);
});

test("emptyBucket deletes every listed object over all pages, at most 8 at a time, 404 counting as gone", async () => {
  let objects = Array.from({ length: 1500 }, (_, i) => `o${String(i).padStart(4, "0")}`);
  srv.route = async (r) => {
    if (r.method === "GET") {
      const q = new URL(r.url, "http://x").searchParams;
      const marker = q.get("marker") ?? "";
      const page = objects.filter((n) => n > marker).slice(0, Number(q.get("limit")));
      return json(200, [...page.map((name) => ({ name, bytes: 0, hash: "h", content_type: "x", last_modified: "t" }))]);
    }
    const name = decodeURIComponent(pathOf(r)!.split("/").pop()!);
    await new Promise((res) => setImmediate(res));
    const existed = objects.includes(name) && name !== "o0007";
    objects = objects.filter((n) => n !== name);
    return { status: existed ? 204 : 404 };
  };
  const progress: number[] = [];
  const deleted = await client().emptyBucket("b", { onProgress: (n) => progress.push(n) });
  expect(deleted).toBe(1499);
  expect(objects).toEqual([]);
  expect(progress[progress.length - 1]).toBe(1499);
  expect(srv.maxInFlight).toBeLessThanOrEqual(8);
  expect(srv.maxInFlight).toBeGreaterThan(1);
});

test("createTempUrl resolves the returned path against the endpoint; the download is sent without the token", async () => {
  srv.route = (r) => {
    if (r.url.includes("temp_url&")) return json(200, { url: "/v1/p-1/b/f.txt?temp_url_sig=abcd1234&temp_url_expires=1900000000", sig: "abcd1234" });
    return { status: 200, headers: { "content-type": "text/plain", "content-disposition": 'attachment; filename="n.txt"' }, body: "data" };
  };
  const c = client();
  const t = await c.createTempUrl("b", "f.txt", 1_900_000_000);
  expect(srv.seen[0]!.url).toBe("/object-storage/v1/p-1/b/f.txt?temp_url&temp_url_expires=1900000000");
  expect(t.absoluteUrl).toBe(`${base()}/v1/p-1/b/f.txt?temp_url_sig=abcd1234&temp_url_expires=1900000000`);
  const d = await c.downloadWithTempUrl(t.absoluteUrl, "n.txt");
  expect(d.body.toString()).toBe("data");
  expect(d.contentDisposition).toContain("n.txt");
  expect(srv.seen[1]!.headers["x-auth-token"]).toBeUndefined();
  expect(new URL(srv.seen[1]!.url, "http://x").searchParams.get("filename")).toBe("n.txt");
});

test("getInfo is sent without the token", async () => {
  srv.route = () => json(200, { swift: { version: "1" } });
  expect((await client().getInfo()).swift.version).toBe("1");
  expect(srv.seen[0]!.headers["x-auth-token"]).toBeUndefined();
  expect(srv.seen[0]!.url).toBe("/object-storage/info");
});

test("SLO and DLO manifests", async () => {
  srv.route = () => ({ status: 201 });
  const c = client();
  await c.putSloManifest("b", "big", [{ path: "seg/1", etag: "e1", sizeBytes: 5 }]);
  expect(srv.seen[0]!.url).toBe("/object-storage/v1/p-1/b/big?multipart-manifest=put");
  expect(JSON.parse(srv.seen[0]!.body)).toEqual([{ path: "seg/1", etag: "e1", size_bytes: 5 }]);
  await c.putDloManifest("b", "dlo", "dlo/seg-");
  expect(srv.seen[1]!.headers["x-object-manifest"]).toBe("b/dlo/seg-");
  srv.route = () => json(200, { "Number Deleted": 3, "Number Not Found": 0, "Response Status": "200 OK", "Response Body": "", Errors: [] });
  expect(await c.deleteSlo("b", "big")).toEqual({ deleted: 3, notFound: 0 });
  srv.route = () => json(200, { "Number Deleted": 0, "Response Status": "400 Bad Request", "Response Body": "", Errors: [["/b/seg/1", "409 Conflict"]] });
  await expect(c.deleteSlo("b", "big")).rejects.toThrow(/deleting static large object "b\/big" and its segments: 400/);
});

describe("each operation declares whether it may be repeated", () => {
  const upload = { bucket: "b", key: "k", uploadId: "u-1" };
  // [operation, call, repeatable]: repeatable ones are retried on a 500 (maxAttempts 2 here).
  const table: [string, (c: ObjectStorageClient) => Promise<unknown>, boolean][] = [
    ["GetBucketMeta", (c) => c.getBucket("b"), true],
    // Same name, same body: a repeat meets our own bucket (409, recognised by earlierAttemptMayHaveApplied).
    ["CreateBucket", (c) => c.createBucket({ name: "bucket" }), true],
    ["DeleteBucket", (c) => c.deleteBucket("b"), true],
    ["ListBuckets", (c) => c.listBuckets(), true],
    // POST that sets the ACL to absolute values.
    ["UpdateBucketAcl", (c) => c.updateBucketAcl("b", { public: "read-only" }), true],
    ["PutBucketLifecycleConfiguration", (c) => c.putLifecycle("b", []), true],
    ["GetBucketLifecycleConfiguration", (c) => c.getLifecycle("b"), true],
    ["DeleteBucketLifecycleConfiguration", (c) => c.deleteLifecycle("b"), true],
    ["GetBucketCors", (c) => c.getCors("b"), true],
    ["PutBucketCors", (c) => c.putCors("b", []), true],
    ["ListContainers", (c) => c.getAccount(), true],
    ["HeadContainer", (c) => c.headContainer("b"), true],
    ["CreateContainer", (c) => c.createContainer("b"), true],
    ["DeleteContainer", (c) => c.deleteContainer("b"), true],
    ["UpdateContainerMetadata", (c) => c.updateContainerMetadata("b", { a: "1" }, ["z"]), true],
    ["UpdateAccountMetadata (temp URL key)", (c) => c.setTempUrlKey("k-123456"), true],
    ["CreateFolder", (c) => c.createFolder("b", "d"), true],
    ["PutObject", (c) => c.putObject("b", "k", "x"), true],
    ["HeadObject", (c) => c.headObject("b", "k"), true],
    ["UpdateObjectMetadata", (c) => c.setObjectMetadata("b", "k", { a: "1" }), true],
    ["ListObjects", (c) => c.listObjects("b"), true],
    ["GetObject", (c) => c.getObject("b", "k"), true],
    ["DeleteObject", (c) => c.deleteObject("b", "k"), true],
    ["CopyObject", (c) => c.copyObject("b", "k", "b", "k2"), true],
    // After a MOVE that was applied, the source is gone: a repeat fails with 404.
    ["MoveObject", (c) => c.moveObject("b", "k", "b", "k2"), false],
    // A new upload id per call.
    ["InitiateMultipartUpload", (c) => c.initiateMultipartUpload("b", "k"), false],
    ["UploadPart", (c) => c.uploadPart(upload, 1, Buffer.from("x")), true],
    ["CompleteMultipartUpload", (c) => c.completeMultipartUpload(upload, [{ partNumber: 1, etag: "e" }]), false],
    ["AbortMultipartUpload", (c) => c.abortMultipartUpload(upload), true],
    ["PutDloManifest", (c) => c.putDloManifest("b", "k", "seg/"), true],
    ["PutSloManifest", (c) => c.putSloManifest("b", "k", [{ path: "b/seg/1" }]), false],
    ["GetSloManifest", (c) => c.getSloManifest("b", "k"), true],
    ["DeleteSlo", (c) => c.deleteSlo("b", "k"), true],
    ["CreateTempUrl", (c) => c.createTempUrl("b", "k", 1_900_000_000), true],
    ["DownloadWithTempUrl", (c) => c.downloadWithTempUrl("/v1/p-1/b/k?temp_url_sig=abcdef0123&temp_url_expires=1"), true],
    ["ListCapability", (c) => c.getInfo(), true],
  ];
  test.each(table)("%s", async (_op, call, repeatable) => {
    srv.route = () => ({ status: 500, body: "boom" });
    await rejection(call(client()));
    expect(srv.seen).toHaveLength(repeatable ? 2 : 1);
  });
});

test("a lost answer to CompleteMultipartUpload is not repeated: a transport error, not a 404 for an upload that was completed", async () => {
  await closeAllPools(); // a fresh connection: the reused-connection rule does not apply
  let n = 0;
  srv.route = () => (++n === 1 ? { status: 200, destroy: true } : { status: 404, body: "NoSuchUpload" });
  const err = await rejection(client().completeMultipartUpload({ bucket: "b", key: "k", uploadId: "u-1" }, [{ partNumber: 1, etag: "e" }]));
  expect(isTransportError(err)).toBe(true);
  expect(err.neverSent).toBe(false);
  expect(err.message).toMatch(/^completing the multipart upload of "b\/k"/);
  expect(srv.seen).toHaveLength(1);
});

test("debug lines name metadata headers but never show their values; temp URL keys neither", async () => {
  srv.route = () => ({ status: 201 });
  const lines: string[] = [];
  const c = client({ debug: (l: string) => lines.push(l) });
  await c.putObject("b", "k", "x", { metadata: { password: "hunter2-object" } });
  await c.updateContainerMetadata("b", { apikey: "hunter2-container" });
  await c.setTempUrlKey("hunter2-tempurlkey");
  await c.setTempUrlKey("hunter2-bucketkey", { bucket: "b" });
  const all = lines.join("\n");
  expect(all).toContain("x-object-meta-password");
  expect(all).toContain("x-container-meta-apikey");
  expect(all).toContain("x-account-meta-temp-url-key");
  expect(all).not.toMatch(/hunter2/);
  expect(all).not.toContain("tok-SECRET-1");
});

test("no field of an error holds the token or a temp URL signature (JSON.stringify, util.inspect)", async () => {
  srv.route = (r) => json(403, { code: "Forbidden", message: `token ${String(r.headers["x-auth-token"])} may not read ${r.url}` });
  const c = client();
  const e1 = await rejection(c.getObject("b", "k"));
  const e2 = await rejection(c.downloadWithTempUrl("/v1/p-1/b/k?temp_url_sig=deadbeef0123&temp_url_expires=1900000000"));
  for (const e of [e1, e2]) {
    expect(e.status).toBe(403);
    for (const text of [JSON.stringify(e), util.inspect(e, { depth: 10 }), String(e.stack)]) {
      expect(text).not.toContain("tok-SECRET-1");
      expect(text).not.toContain("deadbeef0123");
    }
  }
  expect(e2.path).toContain("temp_url_sig=[redacted]");
  expect(e1.apiMessage).toContain("token [redacted]");
});
