import { createHash } from "node:crypto";
import { request } from "undici";
import { startLocalCloud, type LocalCloud } from "../../emulator";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  json: () => any;
}

async function call(method: string, url: string, options: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Reply> {
  const res = await request(url, { method: method as "GET", headers: options.headers ?? {}, body: options.body ?? null });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body, text: body.toString("utf8"), json: () => JSON.parse(body.toString("utf8")) };
}

const md5 = (data: Buffer | string): string => createHash("md5").update(data).digest("hex");
const START = Date.UTC(2025, 0, 10, 12, 0, 0);

describe("local cloud: object storage (seed 01)", () => {
  let cloud: LocalCloud;
  let base: string;
  let token: string;
  let project: string;
  let auth: Record<string, string>;
  const json = { "Content-Type": "application/json" };

  const ext = (path = ""): string => `${base}/v1_ext/bucket${path}`;
  const swift = (path = ""): string => `${base}/v1/${project}${path}`;
  const createBucket = async (name: string, extra: Record<string, unknown> = {}): Promise<Reply> =>
    call("PUT", ext(), { headers: { ...auth, ...json }, body: JSON.stringify({ name, type: "STANDARD", ...extra }) });
  const put = (path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> =>
    call("PUT", swift(path), { headers: { ...auth, ...headers }, body });

  beforeAll(async () => {
    cloud = await startLocalCloud({ port: 0, clock: () => START, trustForwardedFor: true });
    base = cloud.endpoints["object-storage"]!;
  });
  afterAll(async () => {
    await cloud.close();
  });
  beforeEach(() => {
    cloud.control.reset({ credentials: true });
    const issued = cloud.control.issueCredentials({ projectId: "proj0001" });
    if (issued.kind !== "token") throw new Error("expected a token");
    token = issued.token;
    project = issued.projectId;
    auth = { "X-Auth-Token": token };
  });

  describe("authentication and permissions", () => {
    test("missing or invalid token is 401 (JSON on /v1_ext, text on /v1); every response carries a tx request id", async () => {
      const missing = await call("GET", ext());
      expect(missing.status).toBe(401);
      expect(missing.headers["content-type"]).toMatch(/^application\/json/);
      expect(missing.json()).toMatchObject({ code: "Unauthorized", requestId: missing.headers["x-trans-id"] });
      expect(missing.headers["x-trans-id"]).toMatch(/^tx[0-9a-f]{21}-[0-9a-f]{10}$/);
      expect(missing.headers["x-openstack-request-id"]).toBe(missing.headers["x-trans-id"]);
      const invalid = await call("GET", swift(), { headers: { "X-Auth-Token": "nope" } });
      expect(invalid.status).toBe(401);
      expect(invalid.headers["content-type"]).toMatch(/^text\/plain/);
      expect(invalid.text).toMatch(/not valid/);
    });

    test("a token without the named permission, or for another account, is 403", async () => {
      expect((await createBucket("perm-bucket")).status).toBe(200);
      const limited = cloud.control.issueCredentials({ projectId: project, permissions: ["storage.buckets.get"] });
      const limitedAuth = { "X-Auth-Token": limited.kind === "token" ? limited.token : "" };
      expect((await call("GET", ext("/perm-bucket"), { headers: limitedAuth })).status).toBe(200);
      const denied = await call("DELETE", ext("/perm-bucket"), { headers: limitedAuth });
      expect(denied.status).toBe(403);
      expect(denied.json().code).toBe("AccessDenied");
      expect((await call("GET", ext("/perm-bucket/cors"), { headers: limitedAuth })).status).toBe(403);
      const other = cloud.control.issueCredentials({ projectId: "otherproj" });
      const foreign = await call("GET", swift("/perm-bucket"), { headers: { "X-Auth-Token": other.kind === "token" ? other.token : "" } });
      expect(foreign.status).toBe(403);
      const accessKey = cloud.control.issueCredentials({ projectId: project, kind: "access-key" });
      if (accessKey.kind !== "access-key") throw new Error("expected an access key");
      const wrongScheme = await call("GET", ext(), { headers: { "Credential-ID": accessKey.credentialId, "Credential-Secret": accessKey.credentialSecret } });
      expect(wrongScheme.status).toBe(401);
    });

    test("/info needs no token and reports the seed 2.5 limits", async () => {
      const info = await call("GET", `${base}/info`);
      expect(info.status).toBe(200);
      const doc = info.json();
      expect(doc.swift).toMatchObject({ max_file_size: 5368709120, max_object_name_length: 396, min_container_name_length: 4, container_listing_limit: 1000 });
      expect(doc.slo).toEqual({ max_manifest_segments: 1000, min_segment_size: 1, max_manifest_size: 8392704 });
      expect(doc.tempurl.methods).toEqual(["GET"]);
      expect(doc.tempauth).toEqual({});
    });
  });

  describe("buckets", () => {
    test("create returns the 2.1 record; get adds X-Container-Meta headers; list pages; delete", async () => {
      const created = await createBucket("alpha-one", { use_encryption: true });
      expect(created.status).toBe(200);
      expect(created.json()).toEqual({
        project,
        account: project,
        name: "alpha-one",
        type: "STANDARD",
        bytes: 0,
        objectCount: 0,
        createdAt: "2025-01-10T12:00:00Z",
        lastModified: "2025-01-10T12:00:00Z",
        use_encryption: true,
        encryption_type: "managed",
        storageClass: "STANDARD",
        storagePolicy: "default-placement",
        acl: { public: "deny", public_read_allow_ip_list: null, permissions: null },
      });
      expect((await createBucket("alpha-one")).status).toBe(409);
      expect((await call("POST", swift("/alpha-one"), { headers: { ...auth, "X-Container-Meta-Owner": "team-a" } })).status).toBe(204);
      await put("/alpha-one/x.txt", "hello");
      const meta = await call("GET", ext("/alpha-one"), { headers: auth });
      expect(meta.status).toBe(200);
      expect(meta.headers["x-container-meta-owner"]).toBe("team-a");
      expect(meta.json()).toMatchObject({ bytes: 5, objectCount: 1 });

      for (const name of ["beta-two", "beta-three", "gamma-four"]) expect((await createBucket(name)).status).toBe(200);
      const page = await call("GET", ext("?offset=1&limit=2"), { headers: auth });
      expect(page.json()).toMatchObject({ totalCount: 4, offset: 1, count: 2 });
      expect(page.json().items.map((b: { name: string }) => b.name)).toEqual(["beta-three", "beta-two"]);
      expect((await call("GET", ext("?prefix=beta"), { headers: auth })).json().totalCount).toBe(2);
      expect((await call("GET", ext("?include=a-t&by=bucket_name&direct=desc"), { headers: auth })).json().items.map((b: { name: string }) => b.name)).toEqual([
        "beta-two",
        "beta-three",
      ]);
      expect((await call("GET", ext("?prefix=a&include=b"), { headers: auth })).status).toBe(400);
      expect((await call("GET", ext("?limit=101"), { headers: auth })).status).toBe(400);
      expect((await call("GET", ext("?by=size"), { headers: auth })).status).toBe(400);

      expect((await call("DELETE", ext("/beta-two"), { headers: auth })).status).toBe(204);
      const gone = await call("GET", ext("/beta-two"), { headers: auth });
      expect(gone.status).toBe(404);
      expect(gone.json().code).toBe("NoSuchBucket");
    });

    test("bucket names and create bodies are validated (400)", async () => {
      for (const name of ["abc", "a".repeat(64), "Upper-Case", "-dash-first", "dash-last-", "under_score"]) {
        const res = await createBucket(name);
        expect([name, res.status]).toEqual([name, 400]);
        expect(res.json().code).toBe("InvalidBucketName");
      }
      expect((await createBucket("abcd")).status).toBe(200);
      expect((await createBucket("a".repeat(63))).status).toBe(200);
      expect((await call("PUT", ext(), { headers: { ...auth, ...json }, body: JSON.stringify({ name: "no-type-given" }) })).status).toBe(400);
      expect((await createBucket("bad-enc", { encryption_configuration: { type: "kms" } })).status).toBe(400);
      expect((await call("PUT", ext(), { headers: { ...auth, ...json }, body: "{not json" })).json().code).toBe("MalformedJSON");
      expect((await call("PUT", ext(), { headers: auth, body: JSON.stringify({ name: "no-content-type", type: "STANDARD" }) })).status).toBe(415);
      expect((await call("PUT", swift("/Bad_Name"), { headers: auth })).status).toBe(400);
    });

    test("a bucket with objects cannot be deleted (409), on either API", async () => {
      await createBucket("full-bucket");
      await put("/full-bucket/keep.txt", "x");
      const ext409 = await call("DELETE", ext("/full-bucket"), { headers: auth });
      expect(ext409.status).toBe(409);
      expect(ext409.json().code).toBe("BucketNotEmpty");
      expect((await call("DELETE", swift("/full-bucket"), { headers: auth })).status).toBe(409);
      expect((await call("DELETE", swift("/full-bucket/keep.txt"), { headers: auth })).status).toBe(204);
      expect((await call("DELETE", swift("/full-bucket"), { headers: auth })).status).toBe(204);
    });

    test("metadata limits of section 8 give 400 with a message", async () => {
      await createBucket("meta-bucket");
      const short = await call("POST", swift("/meta-bucket"), { headers: { ...auth, "X-Container-Meta-A": "v" } });
      expect(short.status).toBe(400);
      expect(short.text).toMatch(/2 to 64/);
      expect((await call("POST", swift("/meta-bucket"), { headers: { ...auth, [`X-Container-Meta-${"k".repeat(65)}`]: "v" } })).status).toBe(400);
      expect((await call("POST", swift("/meta-bucket"), { headers: { ...auth, "X-Container-Meta-Big": "v".repeat(513) } })).status).toBe(400);
      const many: Record<string, string> = {};
      for (let i = 0; i < 9; i += 1) many[`X-Container-Meta-Key${i}`] = "v".repeat(500);
      expect((await call("POST", swift("/meta-bucket"), { headers: { ...auth, ...many } })).status).toBe(400);
      expect((await call("POST", swift("/meta-bucket"), { headers: { ...auth, "X-Container-Meta-Ok": "v".repeat(512) } })).status).toBe(204);
      expect((await call("POST", swift("/meta-bucket"), { headers: { ...auth, "X-Remove-Container-Meta-Ok": "x" } })).status).toBe(204);
      expect((await call("HEAD", swift("/meta-bucket"), { headers: auth })).headers["x-container-meta-ok"]).toBeUndefined();
      expect((await put("/meta-bucket/o", "x", { "X-Object-Meta-Z": "1" })).status).toBe(400);
      expect((await put("/meta-bucket/" + "n".repeat(397), "x")).status).toBe(400);
      expect((await put("/meta-bucket/" + "n".repeat(396), "x")).status).toBe(201);
    });
  });

  describe("ACL and public reads", () => {
    test("read-only buckets allow token-less GET/HEAD and listing, only from listed addresses", async () => {
      await createBucket("pub-bucket");
      await put("/pub-bucket/doc.txt", "public data");
      const anon = (ip: string, path = "/pub-bucket/doc.txt") => call("GET", swift(path), { headers: { "X-Forwarded-For": ip } });
      expect((await anon("10.1.2.3")).status).toBe(401);
      const acl = (body: unknown) => call("POST", ext("/pub-bucket"), { headers: { ...auth, ...json }, body: JSON.stringify(body) });
      const set = await acl({ name: "pub-bucket", acl: { public: "read-only", public_read_allow_ip_list: ["10.0.0.0/8", "2001:db8::1"] } });
      expect(set.status).toBe(200);
      expect(set.json().acl).toEqual({ public: "read-only", public_read_allow_ip_list: ["10.0.0.0/8", "2001:db8::1"], permissions: null });
      const ok = await anon("10.1.2.3");
      expect(ok.status).toBe(200);
      expect(ok.text).toBe("public data");
      expect((await anon("10.1.2.3", "/pub-bucket")).text).toBe("doc.txt\n");
      expect((await anon("2001:db8::1")).status).toBe(200);
      expect((await anon("192.168.1.1")).status).toBe(401);
      expect((await call("PUT", swift("/pub-bucket/new.txt"), { headers: { "X-Forwarded-For": "10.1.2.3" }, body: "x" })).status).toBe(401);
      expect((await acl({ name: "pub-bucket", acl: { public: "read-only", public_read_allow_ip_list: ["10.0.0.0/33"] } })).status).toBe(400);
      expect((await acl({ name: "pub-bucket", acl: { public: "read-only", public_read_allow_ip_list: ["not-an-ip"] } })).status).toBe(400);
      expect((await acl({ name: "pub-bucket", acl: { public: "everyone" } })).status).toBe(400);
      expect((await acl({ name: "other-name", acl: null })).status).toBe(400);
      expect((await acl({ name: "pub-bucket", acl: { public: "read-only" } })).status).toBe(200);
      expect((await anon("192.168.1.1")).status).toBe(200);
      const cleared = await acl({ bucket_name: "pub-bucket", acl: null });
      expect(cleared.json().acl).toEqual({ public: "deny", public_read_allow_ip_list: null, permissions: null });
      expect((await anon("10.1.2.3")).status).toBe(401);
    });
  });

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
      expect(init.text).toContain(`<Tenant>${project}</Tenant><Bucket>mp-bucket</Bucket><Key>big.bin</Key>`);
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
      expect(url).toBe(`/v1/${project}/tmp-bucket/dir/report.pdf?temp_url_sig=${sig}&temp_url_expires=${expires}`);
      const download = await call("GET", `${base}${url}&filename=${encodeURIComponent("보고서.pdf")}`);
      expect(download.status).toBe(200);
      expect(download.text).toBe("PDFDATA");
      expect(download.headers["content-disposition"]).toBe(`attachment; filename="___.pdf"; filename*=UTF-8''${encodeURIComponent("보고서.pdf")}`);
      expect(download.headers.etag).toBe(md5("PDFDATA"));
      const altered = url.replace(/temp_url_sig=(.)/, (_m, c: string) => `temp_url_sig=${c === "0" ? "1" : "0"}`);
      expect((await call("GET", `${base}${altered}`)).status).toBe(401);
      expect((await call("GET", `${base}${url.replace(`${expires}`, `${expires + 1}`)}`)).status).toBe(401);
      expect((await call("HEAD", `${base}${url}`)).status).toBe(401);
      expect((await call("GET", swift(`/missing-bkt/x?temp_url&temp_url_expires=${expires}`), { headers: auth })).status).toBe(404);
      expect((await call("GET", swift(`/tmp-bucket/x?temp_url`), { headers: auth })).status).toBe(400);
      cloud.control.advanceClock({ ms: 3601_000 });
      const expired = await call("GET", `${base}${url}`);
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

  describe("CORS", () => {
    const policies = {
      cors: [
        {
          allowed_origins: ["https://*.example.com"],
          allowed_methods: ["GET", "PUT"],
          allowed_headers: ["X-Auth-Token", "Content-Type"],
          expose_headers: ["Etag"],
          max_age_seconds: 600,
        },
        { allowed_origins: ["https://a.com:443"], allowed_methods: ["GET"] },
      ],
    };

    test("GET without configuration is 200 {cors: []}; PUT and POST set; invalid policies are 400", async () => {
      await createBucket("cors-bucket");
      const empty = await call("GET", ext("/cors-bucket/cors"), { headers: { ...auth, ...json } });
      expect([empty.status, empty.json()]).toEqual([200, { cors: [] }]);
      const set = await call("PUT", ext("/cors-bucket/cors"), { headers: { ...auth, ...json }, body: JSON.stringify(policies) });
      expect(set.status).toBe(200);
      expect(set.json().cors[1]).toEqual({ allowed_origins: ["https://a.com:443"], allowed_methods: ["GET"], allowed_headers: [], expose_headers: [] });
      expect((await call("POST", ext("/cors-bucket/cors"), { headers: { ...auth, ...json }, body: JSON.stringify(policies) })).status).toBe(200);
      const policy = (p: Record<string, unknown>) => ({ cors: [{ allowed_origins: ["https://ok.com"], allowed_methods: ["GET"], ...p }] });
      const invalid = [
        { cors: Array.from({ length: 11 }, () => policies.cors[1]) },
        policy({ allowed_origins: ["ftp://x.com"] }),
        policy({ allowed_origins: ["example.com"] }),
        policy({ allowed_origins: ["https://*.*.com"] }),
        policy({ allowed_origins: [`https://${"a".repeat(200)}.com`] }),
        policy({ allowed_methods: ["PATCH"] }),
        policy({ allowed_methods: [] }),
      ];
      for (const body of invalid) {
        const res = await call("PUT", ext("/cors-bucket/cors"), { headers: { ...auth, ...json }, body: JSON.stringify(body) });
        expect(res.status).toBe(400);
        expect(res.json().code).toBe("InvalidCorsConfiguration");
      }
      expect((await call("GET", ext("/cors-bucket/cors"), { headers: { ...auth, ...json } })).json()).toEqual(set.json());
    });

    test("preflight: 204 with Access-Control-* for a matching origin (wildcard), 403 otherwise; explicit port rule", async () => {
      await createBucket("pre-bucket");
      await put("/pre-bucket/file.txt", "cors");
      const preflight = (origin: string, method = "GET", headers = "X-Auth-Token") =>
        call("OPTIONS", swift("/pre-bucket/file.txt"), {
          headers: { Origin: origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers },
        });
      expect((await preflight("https://app.example.com")).status).toBe(403);
      await call("PUT", ext("/pre-bucket/cors"), { headers: { ...auth, ...json }, body: JSON.stringify(policies) });
      const ok = await preflight("https://app.example.com", "PUT", "x-auth-token, content-type");
      expect(ok.status).toBe(204);
      expect(ok.headers).toMatchObject({
        "access-control-allow-origin": "https://app.example.com",
        "access-control-allow-methods": "GET, PUT",
        "access-control-allow-headers": "x-auth-token, content-type",
        "access-control-expose-headers": "Etag",
        "access-control-max-age": "600",
        "access-control-allow-credentials": "true",
      });
      expect((await preflight("https://app.example.com", "DELETE")).status).toBe(403);
      expect((await preflight("https://app.example.com", "GET", "X-Custom")).status).toBe(403);
      expect((await preflight("https://example.org")).status).toBe(403);
      expect((await preflight("http://app.example.com")).status).toBe(403);
      expect((await preflight("https://a.com", "GET", "")).status).toBe(403);
      expect((await preflight("https://a.com:443", "GET", "")).status).toBe(204);
      const actual = await call("GET", swift("/pre-bucket/file.txt"), { headers: { ...auth, Origin: "https://cdn.example.com" } });
      expect(actual.headers["access-control-allow-origin"]).toBe("https://cdn.example.com");
      expect(actual.headers["access-control-expose-headers"]).toBe("Etag");
      const foreign = await call("GET", swift("/pre-bucket/file.txt"), { headers: { ...auth, Origin: "https://a.com" } });
      expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    });
  });

  describe("lifecycle", () => {
    const xml = (rules: string) => `<?xml version="1.0" encoding="UTF-8"?><LifecycleConfiguration>${rules}</LifecycleConfiguration>`;
    const putLifecycle = (bucket: string, body: string) =>
      call("PUT", ext(`/${bucket}/lifecycle`), { headers: { ...auth, "Content-Type": "application/xml" }, body });

    test("PUT echoes, GET returns the same XML, entities in Prefix round-trip; invalid rules are 400; none is 404", async () => {
      await createBucket("lc-bucket");
      const none = await call("GET", ext("/lc-bucket/lifecycle"), { headers: auth });
      expect([none.status, none.json().code]).toEqual([404, "NoSuchLifecycleConfiguration"]);
      const prefix = "a&apos;b&quot;c&amp;d&lt;e&gt;f&#13;g&#10;h";
      const body = xml(
        `<Rule><ID>r1</ID><Prefix>${prefix}</Prefix><Status>Enabled</Status><Expiration><Days>3</Days></Expiration></Rule>` +
          `<Rule><ID>r2</ID><Filter><Prefix>logs/</Prefix></Filter><Status>Disabled</Status><Expiration><Date>2025-02-01T00:00:00.000Z</Date></Expiration></Rule>`,
      );
      const echoed = await putLifecycle("lc-bucket", body);
      expect(echoed.status).toBe(200);
      expect(echoed.headers["content-type"]).toMatch(/^application\/xml/);
      expect(echoed.text).toContain(`<Prefix>${prefix}</Prefix>`);
      expect(echoed.text).toContain("<Filter><Prefix>logs/</Prefix></Filter>");
      const got = await call("GET", ext("/lc-bucket/lifecycle"), { headers: auth });
      expect(got.text).toBe(echoed.text);
      const rule = (inner: string) => xml(`<Rule>${inner}</Rule>`);
      const invalid = [
        rule("<Prefix>x</Prefix><Status>Enabled</Status><Expiration><Days>0</Days></Expiration>"),
        rule("<Prefix>x</Prefix><Status>Enabled</Status><Expiration><Days>1.5</Days></Expiration>"),
        rule("<Prefix>x</Prefix><Status>Enabled</Status><Expiration><Date>2025-02-01T00:00:00Z</Date></Expiration>"),
        rule("<Prefix>x</Prefix><Status>Enabled</Status><Expiration><Date>2025-02-30T00:00:00.000Z</Date></Expiration>"),
        rule("<Prefix>x</Prefix><Status>Enabled</Status><Expiration><Days>1</Days><Date>2025-02-01T00:00:00.000Z</Date></Expiration>"),
        rule("<Prefix>x</Prefix><Status>On</Status><Expiration><Days>1</Days></Expiration>"),
        rule("<Status>Enabled</Status><Expiration><Days>1</Days></Expiration>"),
        rule(`<ID>${"i".repeat(256)}</ID><Prefix>x</Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>`),
        xml(
          "<Rule><ID>d</ID><Prefix>x</Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule><Rule><ID>d</ID><Prefix>y</Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>",
        ),
        xml(""),
      ];
      for (const bad of invalid) expect((await putLifecycle("lc-bucket", bad)).status).toBe(400);
      const malformed = await putLifecycle("lc-bucket", "<LifecycleConfiguration><Rule>");
      expect([malformed.status, malformed.json().code]).toEqual([400, "MalformedXML"]);
      expect((await call("DELETE", ext("/lc-bucket/lifecycle"), { headers: auth })).status).toBe(200);
      expect((await call("GET", ext("/lc-bucket/lifecycle"), { headers: auth })).status).toBe(404);
    });

    test("expiry runs when the clock passes 00:00 UTC: Days counts from creation, only Enabled rules, only under the prefix", async () => {
      await createBucket("exp-bucket");
      await put("/exp-bucket/tmp/old.txt", "x");
      await put("/exp-bucket/keep/old.txt", "x");
      await put("/exp-bucket/logs/a.txt", "x");
      await putLifecycle(
        "exp-bucket",
        xml(
          "<Rule><ID>tmp</ID><Prefix>tmp/</Prefix><Status>Enabled</Status><Expiration><Days>2</Days></Expiration></Rule>" +
            "<Rule><ID>logs</ID><Filter><Prefix>logs/</Prefix></Filter><Status>Disabled</Status><Expiration><Days>1</Days></Expiration></Rule>",
        ),
      );
      const names = async () => (await call("GET", swift("/exp-bucket"), { headers: auth })).text;
      cloud.control.advanceClock({ days: 1 });
      expect(await names()).toBe("keep/old.txt\nlogs/a.txt\ntmp/old.txt\n");
      cloud.control.advanceClock({ days: 1 });
      expect(await names()).toBe("keep/old.txt\nlogs/a.txt\ntmp/old.txt\n");
      cloud.control.advanceClock({ ms: 12 * 3600_000 });
      expect(await names()).toBe("keep/old.txt\nlogs/a.txt\n");
    });

    test("Date rules expire everything under the prefix once the date has passed at a day boundary", async () => {
      await createBucket("date-bucket");
      await put("/date-bucket/a.txt", "x");
      await putLifecycle(
        "date-bucket",
        xml("<Rule><Prefix></Prefix><Status>Enabled</Status><Expiration><Date>2025-01-12T00:00:00.000Z</Date></Expiration></Rule>"),
      );
      await call("POST", `${cloud.controlUrl}/clock/advance`, { headers: json, body: JSON.stringify({ days: 1 }) });
      expect((await call("HEAD", swift("/date-bucket/a.txt"), { headers: auth })).status).toBe(200);
      await call("POST", `${cloud.controlUrl}/clock/advance`, { headers: json, body: JSON.stringify({ ms: 12 * 3600_000 }) });
      expect((await call("HEAD", swift("/date-bucket/a.txt"), { headers: auth })).status).toBe(404);
    });
  });
});
