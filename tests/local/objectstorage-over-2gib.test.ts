/**
 * A file over 2 GiB (the limit of a Node Buffer read with readFileSync) is hashed in check and
 * uploaded in a single streamed PUT: nothing holds the whole file. The service is a loopback server
 * that hashes what arrives and keeps nothing.
 */
import { createHash } from "node:crypto";
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeAllPools } from "../../client/core";
import { EngineResource, TOKENS } from "../support/local-cloud";

const GIB = 1024 ** 3;
let server: http.Server;
let dir: string;
const stored = new Map<string, { etag: string; length: number }>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "krcloud-2gib-"));
  server = http.createServer((req, res) => {
    const path = req.url!.split("?")[0]!;
    if (req.method === "PUT") {
      const h = createHash("md5");
      let length = 0;
      req.on("data", (c: Buffer) => {
        h.update(c);
        length += c.length;
      });
      req.on("end", () => {
        const etag = h.digest("hex");
        stored.set(path, { etag, length });
        res.writeHead(201, { etag }).end();
      });
      return;
    }
    req.resume();
    const s = stored.get(path);
    if (req.method === "HEAD" && s) res.writeHead(200, { etag: s.etag, "content-length": String(s.length), "content-type": "application/octet-stream" }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  await closeAllPools();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

test("a 2.1 GiB file: MD5 in check by chunks, one streamed PUT of every byte, the ETag matches", async () => {
  const file = join(dir, "disk.img");
  const size = Math.floor(2.1 * GIB);
  const fd = openSync(file, "w");
  ftruncateSync(fd, size);
  writeSync(fd, Buffer.from("end of the image"), 0, undefined, size - 16);
  closeSync(fd);

  const object = new EngineResource(TOKENS.object);
  await object.configure({
    "krcloud:objectstorageEndpoint": `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    "krcloud:authToken": "tok",
    "krcloud:projectId": "p-1",
  });
  const state = await object.up({ bucket: "images", key: "disk.img", source: file, multipartThreshold: 3 * GIB });

  const got = stored.get("/v1/p-1/images/disk.img")!;
  expect(got.length).toBe(size);
  expect(state.outputs).toMatchObject({ size, etag: got.etag, contentMd5: got.etag });
}, 120_000);
