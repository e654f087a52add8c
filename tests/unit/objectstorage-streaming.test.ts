/**
 * Uploads streamed from files, and the unfinished multipart uploads that forceDestroy aborts,
 * against a scripted loopback server: bytes and headers on the wire, retries that reopen the
 * stream, the S3-style ListMultipartUploads reading and its absence (404/405).
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeAllPools, resolveSettings, type Clock } from "../../client/core";
import { fileSource, isInvalidArgument, MAX_SINGLE_UPLOAD_BYTES, MIN_PART_SIZE, ObjectStorageClient } from "../../client/objectstorage";
import { rejection } from "../support/assertions";
import { tempDirForFile } from "../support/local-cloud/per-file";
import { startScriptedServer, type ScriptedServer } from "../support/servers/scripted";

let server: ScriptedServer;
let dir: string;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await closeAllPools();
  await server.close();
});
tempDirForFile("krcloud-streaming-", (d) => (dir = d));
beforeEach(() => server.reset());

const clock: Clock = { now: () => 0, random: () => 0, sleep: async () => undefined };
const client = () =>
  new ObjectStorageClient({
    settings: resolveSettings(
      { projectId: "p-1", authToken: "tok", endpoints: { objectstorage: server.origin }, retry: { maxAttempts: 3 } },
      () => undefined,
      {},
    ),
    clock,
  });
const md5 = (s: string | Buffer) => createHash("md5").update(s).digest("hex");

test("putObject streams a file: its bytes, content-length and the content headers go on the wire; a retry reopens the file", async () => {
  const file = join(dir, "page.html");
  writeFileSync(file, "<h1>streamed</h1>");
  let n = 0;
  server.route = () => (++n === 1 ? { status: 503 } : { status: 201, headers: { etag: md5("<h1>streamed</h1>") } });

  const r = await client().putObject("b", "index.html", fileSource(file, 17), {
    contentType: "text/html",
    cacheControl: "max-age=60",
    contentDisposition: "inline",
    contentEncoding: "identity",
  });

  expect(r.etag).toBe(md5("<h1>streamed</h1>"));
  expect(server.seen).toHaveLength(2);
  for (const s of server.seen) {
    expect(s.body).toBe("<h1>streamed</h1>");
    expect(s.headers).toMatchObject({
      "content-length": "17",
      "content-type": "text/html",
      "cache-control": "max-age=60",
      "content-disposition": "inline",
      "content-encoding": "identity",
    });
  }
});

test("putObject refuses more than the 5 GiB single-upload limit before sending anything", async () => {
  const huge = {
    size: MAX_SINGLE_UPLOAD_BYTES + 1,
    open: () => {
      throw new Error("must not be opened");
    },
  };
  const err = await rejection(client().putObject("b", "k", huge));
  expect(isInvalidArgument(err)).toBe(true);
  expect(err.message).toMatch(/5368709120 bytes \(5 GiB\)/);
  expect(server.seen).toHaveLength(0);
});

test("uploadLarge streams each part from its byte range of the file and sends the content headers at initiate", async () => {
  const bytes = Buffer.alloc(MIN_PART_SIZE * 2 + 3);
  for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i / 4096) % 251;
  const file = join(dir, "big.bin");
  writeFileSync(file, bytes);
  server.route = (r) => {
    const q = new URL(r.url, "http://x").searchParams;
    if (q.has("uploads")) return { status: 201, body: "<InitiateMultipartUploadResult><UploadId>u-1</UploadId></InitiateMultipartUploadResult>" };
    if (q.has("partNumber")) return { status: 200, headers: { etag: `"p${q.get("partNumber")}"` } };
    return { status: 201, headers: { etag: "final-3" } };
  };

  const r = await client().uploadLarge("b", "big.bin", fileSource(file, bytes.length), { partSize: MIN_PART_SIZE, concurrency: 2, cacheControl: "no-cache" });

  expect(r).toEqual({ etag: "final-3", parts: 3 });
  expect(server.seen[0]!.headers["cache-control"]).toBe("no-cache");
  const lengths = server.seen
    .filter((s) => s.url.includes("partNumber"))
    .map((s) => Number(s.headers["content-length"]))
    .sort((a, b) => a - b);
  expect(lengths).toEqual([3, MIN_PART_SIZE, MIN_PART_SIZE]);
  const received = server.seen.filter((s) => s.url.includes("partNumber")).map((s) => Buffer.byteLength(s.body, "utf8") > 0);
  expect(received).toEqual([true, true, true]);
});

const uploadsXml = (uploads: [string, string][], next?: [string, string]) =>
  `<ListMultipartUploadsResult><Bucket>b</Bucket>${uploads.map(([k, u]) => `<Upload><Key>${k}</Key><UploadId>${u}</UploadId><Initiated>2026-01-01T00:00:00.000Z</Initiated></Upload>`).join("")}` +
  (next
    ? `<IsTruncated>true</IsTruncated><NextKeyMarker>${next[0]}</NextKeyMarker><NextUploadIdMarker>${next[1]}</NextUploadIdMarker>`
    : "<IsTruncated>false</IsTruncated>") +
  "</ListMultipartUploadsResult>";

test("abortAllMultipartUploads lists GET ?uploads page by page and aborts each with DELETE ?uploadId=; one already gone is not counted", async () => {
  server.route = (r) => {
    const u = new URL(r.url, "http://x");
    if (r.method === "GET" && !u.searchParams.has("key-marker"))
      return {
        status: 200,
        body: uploadsXml(
          [
            ["a.bin", "u-1"],
            ["b.bin", "u-2"],
          ],
          ["b.bin", "u-2"],
        ),
      };
    if (r.method === "GET") return { status: 200, body: uploadsXml([["c/d.bin", "u-3"]]) };
    return { status: u.searchParams.get("uploadId") === "u-2" ? 404 : 204 };
  };

  expect(await client().abortAllMultipartUploads("b")).toBe(2);

  const lists = server.seen.filter((s) => s.method === "GET").map((s) => s.url);
  expect(lists).toEqual(["/v1/p-1/b?uploads", "/v1/p-1/b?uploads&key-marker=b.bin&upload-id-marker=u-2"]);
  const aborts = server.seen
    .filter((s) => s.method === "DELETE")
    .map((s) => s.url)
    .sort();
  expect(aborts).toEqual(["/v1/p-1/b/a.bin?uploadId=u-1", "/v1/p-1/b/b.bin?uploadId=u-2", "/v1/p-1/b/c/d.bin?uploadId=u-3"]);
});

test.each([404, 405])("a service answering %i to ListMultipartUploads has none: nothing is aborted, no error", async (status) => {
  server.route = () => ({ status });
  expect(await client().listMultipartUploads("b")).toEqual([]);
  expect(await client().abortAllMultipartUploads("b")).toBe(0);
  expect(server.seen.every((s) => s.method === "GET")).toBe(true);
});

test("emptyBucket deletes page by page: the next page is listed after the previous one is deleted", async () => {
  const names = Array.from({ length: 1500 }, (_, i) => `o-${String(i).padStart(4, "0")}`);
  const alive = new Set(names);
  const events: string[] = [];
  server.route = (r) => {
    const u = new URL(r.url, "http://x");
    if (r.method === "GET") {
      const marker = u.searchParams.get("marker") ?? "";
      const page = [...alive]
        .filter((n) => n > marker)
        .sort()
        .slice(0, Number(u.searchParams.get("limit") ?? 1000));
      events.push(`list ${marker || "-"} ${page.length} (${alive.size} left)`);
      return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(page.map((name) => ({ name, bytes: 1 }))) };
    }
    alive.delete(decodeURIComponent(u.pathname.split("/").pop()!));
    return { status: 204 };
  };

  expect(await client().emptyBucket("b")).toBe(1500);
  expect(events).toEqual(["list - 1000 (1500 left)", "list o-0999 500 (500 left)", "list - 0 (0 left)"]);
});
