/**
 * The local cloud's object storage over HTTP, as spec 01 describes it: objects (headers, folders,
 * metadata, COPY, delete) and listings; large objects (multipart uploads, SLO and DLO manifests);
 * temporary URLs; MOVE.
 */
import { createHash } from "node:crypto";
import { call, START, useObjectStorageCloud } from "../support/local-cloud/objectstorage";

const md5 = (data: Buffer | string): string => createHash("md5").update(data).digest("hex");

describe("local cloud: object storage (spec 01)", () => {
  const os = useObjectStorageCloud();
  const { auth, swift, createBucket, put } = os;

  describe("objects and listings", () => {
    test("object headers of 2.6, folders, POST metadata, COPY and delete", async () => {
      await createBucket("obj-bucket");
      const created = await put("/obj-bucket/docs/readme.txt", "hello world", { "Content-Type": "text/plain", "X-Object-Meta-Owner": "ann" });
      expect(created.status).toBe(201);
      expect(created.headers.etag).toBe(md5("hello world"));
      const head = await call("HEAD", swift("/obj-bucket/docs/readme.txt"), { headers: auth });
      expect(head.status).toBe(200);
      expect(head.headers).toMatchObject({
        "content-type": "text/plain",
        "content-length": "11",
        "accept-ranges": "bytes",
        etag: md5("hello world"),
        "x-object-storage-class": "STANDARD",
        "x-rgw-object-type": "Normal",
        "x-object-meta-owner": "ann",
        "last-modified": new Date(START).toUTCString(),
      });
      expect(head.body.length).toBe(0);
      const folder = await put("/obj-bucket/docs/", "", { "Content-Type": "application/directory" });
      expect(folder.status).toBe(201);
      const folderGet = await call("GET", swift("/obj-bucket/docs/"), { headers: auth });
      expect(folderGet.headers["content-type"]).toBe("application/directory");
      expect(folderGet.headers["content-length"]).toBe("0");
      expect((await call("POST", swift("/obj-bucket/docs/readme.txt"), { headers: { ...auth, "X-Object-Meta-Reviewer": "bob" } })).status).toBe(200);
      const after = await call("HEAD", swift("/obj-bucket/docs/readme.txt"), { headers: auth });
      expect(after.headers["x-object-meta-reviewer"]).toBe("bob");
      expect(after.headers["x-object-meta-owner"]).toBeUndefined();
      const range = await call("GET", swift("/obj-bucket/docs/readme.txt"), { headers: { ...auth, Range: "bytes=6-" } });
      expect([range.status, range.text, range.headers["content-range"]]).toEqual([206, "world", "bytes 6-10/11"]);
      const copy = await call("COPY", swift("/obj-bucket/docs/readme.txt"), { headers: { ...auth, Destination: "obj-bucket/copy.txt" } });
      expect(copy.status).toBe(201);
      expect((await call("GET", swift("/obj-bucket/copy.txt"), { headers: auth })).text).toBe("hello world");
      expect((await call("COPY", swift("/obj-bucket/docs/readme.txt"), { headers: auth })).status).toBe(400);
      expect((await call("COPY", swift("/obj-bucket/missing"), { headers: { ...auth, Destination: "/obj-bucket/x" } })).status).toBe(404);
      expect((await call("DELETE", swift("/obj-bucket/copy.txt"), { headers: auth })).status).toBe(204);
      const missing = await call("GET", swift("/obj-bucket/copy.txt"), { headers: auth });
      expect([missing.status, missing.headers["content-type"]]).toEqual([404, "text/plain; charset=utf-8"]);
      expect(missing.text).toMatch(/does not exist/);
      const account = await call("GET", swift(), { headers: auth });
      expect(account.text).toBe("obj-bucket\n");
      expect(account.headers).toMatchObject({ "x-account-container-count": "1", "x-account-object-count": "2", "x-account-bytes-used": "11" });
      const container = await call("HEAD", swift("/obj-bucket"), { headers: auth });
      expect(container.headers).toMatchObject({ "x-container-object-count": "2", "x-container-bytes-used": "11", "x-storage-policy": "default-placement" });
      // The listing answers them too, as Swift does (the client ends a walk at a full page by the count).
      const listing = await call("GET", swift("/obj-bucket?format=json&prefix=docs/"), { headers: auth });
      expect(listing.headers).toMatchObject({ "x-container-object-count": "2", "x-container-bytes-used": "11" });
    });

    test("listings in plain, json and xml with prefix, delimiter, marker and limit", async () => {
      await createBucket("list-bucket");
      for (const name of ["a/1.txt", "a/2.txt", "a/b/3.txt", "b.txt", "c/4.txt", "d.txt"]) await put(`/list-bucket/${name}`, name);
      const list = (query: string) => call("GET", swift(`/list-bucket?${query}`), { headers: auth });
      expect((await list("")).text).toBe("a/1.txt\na/2.txt\na/b/3.txt\nb.txt\nc/4.txt\nd.txt\n");
      expect((await list("delimiter=/")).text).toBe("a/\nb.txt\nc/\nd.txt\n");
      expect((await list("prefix=a/&delimiter=/")).text).toBe("a/1.txt\na/2.txt\na/b/\n");
      const asJson = (await list("format=json&delimiter=/&limit=2")).json();
      expect(asJson).toEqual([
        { subdir: "a/" },
        { name: "b.txt", hash: md5("b.txt"), bytes: 5, content_type: "application/octet-stream", last_modified: new Date(START).toISOString() },
      ]);
      expect((await list("delimiter=/&marker=b.txt")).text).toBe("c/\nd.txt\n");
      expect((await list("delimiter=/&marker=a/")).text).toBe("b.txt\nc/\nd.txt\n");
      const pages: string[] = [];
      let marker = "";
      for (;;) {
        const page = (await list(`limit=2&marker=${encodeURIComponent(marker)}`)).text.split("\n").filter((l) => l !== "");
        if (page.length === 0) break;
        pages.push(page.join(","));
        marker = page[page.length - 1]!;
      }
      expect(pages).toEqual(["a/1.txt,a/2.txt", "a/b/3.txt,b.txt", "c/4.txt,d.txt"]);
      const xml = (await list("format=xml&prefix=c")).text;
      expect(xml).toContain('<container name="list-bucket"><object><name>c/4.txt</name>');
      expect((await list("format=xml&delimiter=/&prefix=c")).text).toContain('<subdir name="c/"><name>c/</name></subdir>');
      expect((await list("limit=1001")).status).toBe(400);
      expect((await list("format=yaml")).status).toBe(400);
    });
  });

  describe("large objects", () => {
    test("multipart upload: initiate (XML), parts, list parts, complete assembles; small non-last parts refused", async () => {
      await createBucket("mp-bucket");
      const init = await call("POST", swift("/mp-bucket/big.bin?uploads"), { headers: { ...auth, "Content-Type": "application/x-test" } });
      expect(init.status).toBe(201);
      expect(init.text).toContain(`<Tenant>${os.project}</Tenant><Bucket>mp-bucket</Bucket><Key>big.bin</Key>`);
      const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(init.text)![1]!;
      const part1 = Buffer.alloc(5 * 1024 * 1024, "a");
      const part2 = Buffer.from("tail");
      const partUrl = (n: number) => swift(`/mp-bucket/big.bin?uploadId=${encodeURIComponent(uploadId)}&partNumber=${n}`);
      const p1 = await call("PUT", partUrl(1), { headers: { ...auth, "Content-Type": "application/octet-stream" }, body: part1 });
      const p2 = await call("PUT", partUrl(2), { headers: { ...auth, "Content-Type": "application/octet-stream" }, body: part2 });
      expect([p1.status, p1.headers.etag]).toEqual([200, `"${md5(part1)}"`]);
      expect((await call("PUT", partUrl(0), { headers: auth, body: "x" })).status).toBe(400);
      expect((await call("PUT", partUrl(10001), { headers: auth, body: "x" })).status).toBe(400);
      const parts = await call("GET", swift(`/mp-bucket/big.bin?uploadId=${encodeURIComponent(uploadId)}`), { headers: auth });
      expect(parts.text).toContain("<PartNumber>1</PartNumber>");
      expect(parts.text).toContain(`<Size>${part2.length}</Size>`);
      const complete = (xmlParts: Array<[number, string]>) =>
        call("PUT", swift(`/mp-bucket/big.bin?uploadId=${encodeURIComponent(uploadId)}`), {
          headers: { ...auth, "Content-Type": "application/xml" },
          body: `<CompleteMultipartUpload>${xmlParts.map(([n, e]) => `<Part><PartNumber>${n}</PartNumber><ETag>${e}</ETag></Part>`).join("")}</CompleteMultipartUpload>`,
        });
      const outOfOrder = await complete([
        [2, p2.headers.etag as string],
        [1, p1.headers.etag as string],
      ]);
      expect([outOfOrder.status, outOfOrder.text]).toEqual([400, expect.stringMatching(/ascending/)]);
      const wrongEtag = await complete([[1, '"0000"']]);
      expect([wrongEtag.status, wrongEtag.text]).toEqual([400, expect.stringMatching(/does not match/)]);
      const done = await complete([
        [1, p1.headers.etag as string],
        [2, p2.headers.etag as string],
      ]);
      expect(done.status).toBe(201);
      // S3's multipart ETag, computed here from the part bytes: MD5 of the binary part MD5s, "-", part count.
      const binaryMd5 = (data: Buffer): Buffer => createHash("md5").update(data).digest();
      const multipartEtag = `"${md5(Buffer.concat([binaryMd5(part1), binaryMd5(part2)]))}-2"`;
      expect(done.headers.etag).toBe(multipartEtag);
      expect(done.text).toContain(`<ETag>${multipartEtag.replace(/"/g, "&quot;")}</ETag>`);
      const whole = Buffer.concat([part1, part2]);
      const got = await call("GET", swift("/mp-bucket/big.bin"), { headers: auth });
      expect(got.body.equals(whole)).toBe(true);
      expect(got.headers.etag).toBe(multipartEtag);
      expect(got.headers.etag).not.toContain(md5(whole));
      expect((await call("HEAD", swift("/mp-bucket/big.bin"), { headers: auth })).headers.etag).toBe(multipartEtag);
      const listed = (await call("GET", swift("/mp-bucket?format=json"), { headers: auth })).json();
      expect(listed).toEqual([expect.objectContaining({ name: "big.bin", hash: multipartEtag.slice(1, -1), bytes: whole.length })]);
      expect(got.headers["content-type"]).toBe("application/x-test");
      expect((await complete([[1, p1.headers.etag as string]])).status).toBe(404);

      const init2 = await call("POST", swift("/mp-bucket/small.bin?uploads"), { headers: auth });
      const id2 = /<UploadId>([^<]+)<\/UploadId>/.exec(init2.text)![1]!;
      const s1 = await call("PUT", swift(`/mp-bucket/small.bin?uploadId=${id2}&partNumber=1`), { headers: auth, body: "tiny" });
      const s2 = await call("PUT", swift(`/mp-bucket/small.bin?uploadId=${id2}&partNumber=2`), { headers: auth, body: "tail" });
      const tooSmall = await call("PUT", swift(`/mp-bucket/small.bin?uploadId=${id2}`), {
        headers: { ...auth, "Content-Type": "application/xml" },
        body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${s1.headers.etag as string}</ETag></Part><Part><PartNumber>2</PartNumber><ETag>${s2.headers.etag as string}</ETag></Part></CompleteMultipartUpload>`,
      });
      expect(tooSmall.status).toBe(400);
      expect(tooSmall.text).toMatch(/at least 5242880 bytes/);
      expect((await call("DELETE", swift(`/mp-bucket/small.bin?uploadId=${id2}`), { headers: auth })).status).toBe(204);
      expect((await call("GET", swift(`/mp-bucket/small.bin?uploadId=${id2}`), { headers: auth })).status).toBe(404);
    });

    test("SLO: mismatched etag or size creates no manifest; a valid one assembles, returns its manifest and deletes with segments", async () => {
      await createBucket("slo-bucket");
      await put("/slo-bucket/seg/1", "first-");
      await put("/slo-bucket/seg/2", "second");
      const manifest = (segments: unknown) => put("/slo-bucket/whole?multipart-manifest=put", JSON.stringify(segments), { "Content-Type": "application/json" });
      const badEtag = await manifest([
        { path: "slo-bucket/seg/1", etag: md5("nope"), size_bytes: 6 },
        { path: "slo-bucket/seg/2", etag: md5("second"), size_bytes: 6 },
      ]);
      expect(badEtag.status).toBe(400);
      expect(badEtag.text).toMatch(/etag mismatch/);
      expect((await manifest([{ path: "slo-bucket/seg/1", size_bytes: 7 }])).status).toBe(400);
      expect((await manifest([{ path: "slo-bucket/seg/9" }])).status).toBe(400);
      expect((await call("HEAD", swift("/slo-bucket/whole"), { headers: auth })).status).toBe(404);
      const ok = await manifest([
        { path: "/slo-bucket/seg/1", etag: md5("first-"), size_bytes: 6 },
        { path: "slo-bucket/seg/2", etag: null, size_bytes: null },
      ]);
      expect(ok.status).toBe(201);
      // Swift's SLO ETag: MD5 of the segment ETags concatenated as hex text, quoted.
      const sloEtag = `"${md5(md5("first-") + md5("second"))}"`;
      expect(ok.headers.etag).toBe(sloEtag);
      const got = await call("GET", swift("/slo-bucket/whole"), { headers: auth });
      expect([got.status, got.text, got.headers["x-static-large-object"], got.headers.etag]).toEqual([200, "first-second", "True", sloEtag]);
      expect((await call("HEAD", swift("/slo-bucket/whole"), { headers: auth })).headers.etag).toBe(sloEtag);
      // A range across the segment boundary is cut from both segments' bodies.
      const ranged = await call("GET", swift("/slo-bucket/whole"), { headers: { ...auth, Range: "bytes=4-8" } });
      expect([ranged.status, ranged.text, ranged.headers["content-range"]]).toEqual([206, "t-sec", "bytes 4-8/12"]);
      const raw = await call("GET", swift("/slo-bucket/whole?multipart-manifest=get"), { headers: auth });
      expect(raw.json()).toEqual([
        { path: "slo-bucket/seg/1", etag: md5("first-"), size_bytes: 6 },
        { path: "slo-bucket/seg/2", etag: md5("second"), size_bytes: 6 },
      ]);
      expect(raw.headers.etag).toBe(md5(raw.body));
      const deleted = await call("DELETE", swift("/slo-bucket/whole?multipart-manifest=delete"), { headers: auth });
      expect(deleted.json()["Number Deleted"]).toBe(3);
      expect((await call("GET", swift("/slo-bucket"), { headers: auth })).text).toBe("");
    });

    test("DLO: GET assembles segments by prefix in name order (manifest may come first)", async () => {
      await createBucket("dlo-bucket");
      expect((await put("/dlo-bucket/movie", "", { "X-Object-Manifest": "dlo-bucket/movie-parts/" })).status).toBe(201);
      await put("/dlo-bucket/movie-parts/002", "BBB");
      await put("/dlo-bucket/movie-parts/001", "AAA");
      await put("/dlo-bucket/movie-parts/010", "CCC");
      const got = await call("GET", swift("/dlo-bucket/movie"), { headers: auth });
      expect([got.status, got.text, got.headers["x-object-manifest"]]).toEqual([200, "AAABBBCCC", "dlo-bucket/movie-parts/"]);
      // Swift's DLO ETag: MD5 of the current segments' ETags in name order, quoted; it follows the segments.
      expect(got.headers.etag).toBe(`"${md5(md5("AAA") + md5("BBB") + md5("CCC"))}"`);
      await put("/dlo-bucket/movie-parts/011", "DD");
      expect((await call("HEAD", swift("/dlo-bucket/movie"), { headers: auth })).headers.etag).toBe(
        `"${md5(md5("AAA") + md5("BBB") + md5("CCC") + md5("DD"))}"`,
      );
      await createBucket("enc-dlo", { encryption_configuration: { type: "managed" } });
      expect((await put("/enc-dlo/m", "", { "X-Object-Manifest": "enc-dlo/p/" })).status).toBe(400);
    });
  });

  describe("temporary URLs", () => {
    test("valid download without a token, filename sets Content-Disposition; expired or altered is 401", async () => {
      await createBucket("tmp-bucket");
      await put("/tmp-bucket/dir/report.pdf", "PDFDATA", { "Content-Type": "application/pdf" });
      const expires = Math.floor(START / 1000) + 3600;
      const created = await call("GET", swift(`/tmp-bucket/dir/report.pdf?temp_url&temp_url_expires=${expires}`), { headers: auth });
      expect(created.status).toBe(200);
      const { url, sig } = created.json() as { url: string; sig: string };
      expect(url).toBe(`/v1/${os.project}/tmp-bucket/dir/report.pdf?temp_url_sig=${sig}&temp_url_expires=${expires}`);
      const download = await call("GET", `${os.base}${url}&filename=${encodeURIComponent("보고서.pdf")}`);
      expect(download.status).toBe(200);
      expect(download.text).toBe("PDFDATA");
      expect(download.headers["content-disposition"]).toBe(`attachment; filename="___.pdf"; filename*=UTF-8''${encodeURIComponent("보고서.pdf")}`);
      expect(download.headers.etag).toBe(md5("PDFDATA"));
      const altered = url.replace(/temp_url_sig=(.)/, (_m, c: string) => `temp_url_sig=${c === "0" ? "1" : "0"}`);
      expect((await call("GET", `${os.base}${altered}`)).status).toBe(401);
      expect((await call("GET", `${os.base}${url.replace(`${expires}`, `${expires + 1}`)}`)).status).toBe(401);
      expect((await call("HEAD", `${os.base}${url}`)).status).toBe(401);
      expect((await call("GET", swift(`/missing-bkt/x?temp_url&temp_url_expires=${expires}`), { headers: auth })).status).toBe(404);
      expect((await call("GET", swift(`/tmp-bucket/x?temp_url`), { headers: auth })).status).toBe(400);
      os.cloud.control.advanceClock({ ms: 3601_000 });
      const expired = await call("GET", `${os.base}${url}`);
      expect(expired.status).toBe(401);
      expect(expired.text).toMatch(/expired/);
    });
  });

  describe("MOVE", () => {
    test("moves between plain buckets; refused (400) on encrypted buckets", async () => {
      await createBucket("move-src");
      await createBucket("move-dst");
      await put("/move-src/a.txt", "moving");
      const moved = await call("MOVE", swift("/move-src/a.txt"), { headers: { ...auth, Destination: "/move-dst/b.txt" } });
      expect(moved.status).toBe(201);
      expect((await call("GET", swift("/move-dst/b.txt"), { headers: auth })).text).toBe("moving");
      expect((await call("HEAD", swift("/move-src/a.txt"), { headers: auth })).status).toBe(404);
      await createBucket("move-enc", { use_encryption: true });
      await put("/move-enc/secret.txt", "s");
      const refused = await call("MOVE", swift("/move-enc/secret.txt"), { headers: { ...auth, Destination: "/move-dst/secret.txt" } });
      expect(refused.status).toBe(400);
      expect(refused.text).toMatch(/encrypted/);
      expect((await call("HEAD", swift("/move-enc/secret.txt"), { headers: auth })).status).toBe(200);
      expect((await call("HEAD", swift("/move-dst/secret.txt"), { headers: auth })).status).toBe(404);
      expect((await call("MOVE", swift("/move-dst/b.txt"), { headers: { ...auth, Destination: "/move-enc/b.txt" } })).status).toBe(400);
    });
  });
});
