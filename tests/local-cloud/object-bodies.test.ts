import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { request } from "undici";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";

async function call(method: string, url: string, options: { headers?: Record<string, string>; body?: string | Buffer } = {}) {
  const res = await request(url, { method: method as "GET", headers: options.headers ?? {}, body: options.body ?? null });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body, text: body.toString("utf8") };
}

const md5 = (data: Buffer | string): string => createHash("md5").update(data).digest("hex");

function tokenFor(cloud: LocalCloud, projectId: string): Record<string, string> {
  const issued = cloud.control.issueCredentials({ projectId });
  return { "X-Auth-Token": issued.kind === "token" ? issued.token : "" };
}

describe("local cloud: object bodies live on disk", () => {
  test("a temporary data directory by default, removed on close; bodies are files there, not in the snapshot", async () => {
    const cloud = await startLocalCloud({ port: 0 });
    const auth = tokenFor(cloud, "bodies");
    const base = `${cloud.endpoints["object-storage"]!}/v1/bodies`;
    try {
      await call("PUT", `${base}/tmp-bucket`, { headers: auth });
      expect((await call("PUT", `${base}/tmp-bucket/a.txt`, { headers: auth, body: "on-disk-marker" })).status).toBe(201);
      const blobs = join(cloud.dataDir, "object-storage");
      expect(readdirSync(blobs).map((f) => readFileSync(join(blobs, f), "utf8"))).toEqual(["on-disk-marker"]);
      cloud.control.reset();
      expect(readdirSync(blobs)).toEqual([]);
    } finally {
      await cloud.close();
    }
    expect(existsSync(cloud.dataDir)).toBe(false);
  });

  test("with persistence the bodies sit next to the snapshot and survive a restart (objects, parts, assembled uploads)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "krcloud-bodies-"));
    const file = join(dir, "state.json");
    const part1 = randomBytes(5 * 1024 * 1024);
    const part2 = Buffer.from("last part");
    const binary = Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]);
    try {
      const first = await startLocalCloud({ port: 0, persistPath: file });
      const auth = tokenFor(first, "kept");
      const base1 = `${first.endpoints["object-storage"]!}/v1/kept`;
      await call("PUT", `${base1}/keep-bucket`, { headers: auth });
      await call("PUT", `${base1}/keep-bucket/bin.dat`, { headers: auth, body: binary });
      await call("PUT", `${base1}/keep-bucket/dir/`, { headers: auth });
      const init = await call("POST", `${base1}/keep-bucket/big.bin?uploads`, { headers: auth });
      const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(init.text)![1]!;
      const p1 = await call("PUT", `${base1}/keep-bucket/big.bin?uploadId=${uploadId}&partNumber=1`, { headers: auth, body: part1 });
      expect(p1.status).toBe(200);
      expect(first.dataDir).toBe(`${file}.data`);
      await first.close();
      expect(readFileSync(file, "utf8")).not.toContain(binary.toString("base64"));
      expect(readFileSync(file).length).toBeLessThan(8192);

      const second = await startLocalCloud({ port: 0, persistPath: file });
      try {
        const base2 = `${second.endpoints["object-storage"]!}/v1/kept`;
        const got = await call("GET", `${base2}/keep-bucket/bin.dat`, { headers: auth });
        expect([got.status, got.body.equals(binary), got.headers.etag]).toEqual([200, true, md5(binary)]);
        expect((await call("GET", `${base2}/keep-bucket/dir/`, { headers: auth })).body.length).toBe(0);
        // The part uploaded before the restart is still there: the upload completes after it.
        const p2 = await call("PUT", `${base2}/keep-bucket/big.bin?uploadId=${uploadId}&partNumber=2`, { headers: auth, body: part2 });
        const done = await call("PUT", `${base2}/keep-bucket/big.bin?uploadId=${uploadId}`, {
          headers: { ...auth, "Content-Type": "application/xml" },
          body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${p1.headers.etag as string}</ETag></Part><Part><PartNumber>2</PartNumber><ETag>${p2.headers.etag as string}</ETag></Part></CompleteMultipartUpload>`,
        });
        expect(done.status).toBe(201);
        const big = await call("GET", `${base2}/keep-bucket/big.bin`, { headers: auth });
        expect(big.body.equals(Buffer.concat([part1, part2]))).toBe(true);
        const ranged = await call("GET", `${base2}/keep-bucket/big.bin`, { headers: { ...auth, Range: `bytes=${part1.length - 2}-${part1.length + 3}` } });
        expect([ranged.status, ranged.body.equals(Buffer.concat([part1, part2]).subarray(part1.length - 2, part1.length + 4))]).toEqual([206, true]);
        // Parts were merged into one body and released: one file per object remains.
        expect(readdirSync(join(second.dataDir, "object-storage"))).toHaveLength(3);
      } finally {
        await second.close();
      }
      expect(existsSync(`${file}.data`)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a restart reconciles the snapshot with the body files: lost bodies drop their records, old inline bodies are converted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "krcloud-bodies-"));
    const file = join(dir, "state.json");
    try {
      const first = await startLocalCloud({ port: 0, persistPath: file });
      const auth = tokenFor(first, "crashy");
      const base1 = `${first.endpoints["object-storage"]!}/v1/crashy`;
      await call("PUT", `${base1}/crash-bucket`, { headers: auth });
      await call("PUT", `${base1}/crash-bucket/lost.txt`, { headers: auth, body: "lost" });
      await call("PUT", `${base1}/crash-bucket/inline.txt`, { headers: auth, body: "placeholder" });
      await first.close();

      // As after a crash: one body file deleted after the last snapshot; another record in the
      // pre-disk snapshot format, its body inline as base64.
      const state = JSON.parse(readFileSync(file, "utf8"));
      const objects = state.services["object-storage"].buckets[0].objects as Array<Record<string, unknown>>;
      const lost = objects.find((o) => o.name === "lost.txt")!;
      const inline = objects.find((o) => o.name === "inline.txt")!;
      rmSync(join(`${file}.data`, "object-storage", lost.blob as string));
      rmSync(join(`${file}.data`, "object-storage", inline.blob as string));
      delete inline.blob;
      delete inline.size;
      inline.body = Buffer.from("inline body").toString("base64");
      writeFileSync(file, JSON.stringify(state));

      const second = await startLocalCloud({ port: 0, persistPath: file });
      try {
        const base2 = `${second.endpoints["object-storage"]!}/v1/crashy`;
        expect((await call("GET", `${base2}/crash-bucket/lost.txt`, { headers: auth })).status).toBe(404);
        expect((await call("GET", `${base2}/crash-bucket/inline.txt`, { headers: auth })).text).toBe("inline body");
        expect(second.control.inventory().map((e) => e.id)).toEqual(["crash-bucket", "crash-bucket/inline.txt"]);
        // The next snapshot written carries the converted record as a body id only.
        await call("PUT", `${base2}/crash-bucket/later.txt`, { headers: auth, body: "later" });
      } finally {
        await second.close();
      }
      expect(readFileSync(file, "utf8")).not.toContain(Buffer.from("inline body").toString("base64"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a 50 MB object round-trips byte-identical, and neither storing nor downloading it holds it in memory", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const used = (): number => {
      gc();
      gc();
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const SIZE = 50 * 1024 * 1024;
    const LIMIT = 16 * 1024 * 1024;
    const cloud = await startLocalCloud({ port: 0 });
    try {
      const auth = tokenFor(cloud, "large");
      const url = `${cloud.endpoints["object-storage"]!}/v1/large/big-bucket/fifty.bin`;
      await call("PUT", `${cloud.endpoints["object-storage"]!}/v1/large/big-bucket`, { headers: auth });

      // The upload is generated and hashed chunk by chunk, so the test itself never holds 50 MB.
      const beforeUpload = used();
      const sha = createHash("sha256");
      const md = createHash("md5");
      async function* chunks(): AsyncGenerator<Buffer> {
        for (let i = 0; i < SIZE / (1024 * 1024); i += 1) {
          const chunk = randomBytes(1024 * 1024);
          sha.update(chunk);
          md.update(chunk);
          yield chunk;
        }
      }
      const put = await request(url, { method: "PUT", headers: { ...auth, "Content-Length": String(SIZE) }, body: Readable.from(chunks()) });
      await put.body.dump();
      const [digest, etag] = [sha.digest("hex"), md.digest("hex")];
      expect([put.statusCode, put.headers.etag]).toEqual([201, etag]);
      const stored = used();
      expect(stored - beforeUpload).toBeLessThan(LIMIT);

      const res = await request(url, { method: "GET", headers: auth });
      expect([res.statusCode, res.headers["content-length"], res.headers.etag]).toEqual([200, String(SIZE), etag]);
      const hash = createHash("sha256");
      let received = 0;
      let during: number | undefined;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        hash.update(chunk);
        received += chunk.length;
        if (during === undefined && received >= SIZE / 2) during = used();
      }
      expect([received, hash.digest("hex")]).toEqual([SIZE, digest]);
      expect(during! - stored).toBeLessThan(LIMIT);
    } finally {
      await cloud.close();
    }
  });
});
