/**
 * The local cloud's object storage over HTTP, as spec 01 describes it: authentication and
 * permissions, buckets (records, validation, deletion, metadata limits), ACLs and public reads.
 * Objects and large objects are in objectstorage-objects.test.ts, CORS and lifecycle in
 * objectstorage-bucket-config.test.ts.
 */
import { call, useObjectStorageCloud } from "../support/local-cloud/objectstorage";

describe("local cloud: object storage (spec 01)", () => {
  const os = useObjectStorageCloud();
  const { auth, ext, swift, createBucket, put } = os;
  const json = { "Content-Type": "application/json" };

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
      const limited = os.cloud.control.issueCredentials({ projectId: os.project, permissions: ["storage.buckets.get"] });
      const limitedAuth = { "X-Auth-Token": limited.kind === "token" ? limited.token : "" };
      expect((await call("GET", ext("/perm-bucket"), { headers: limitedAuth })).status).toBe(200);
      const denied = await call("DELETE", ext("/perm-bucket"), { headers: limitedAuth });
      expect(denied.status).toBe(403);
      expect(denied.json().code).toBe("AccessDenied");
      expect((await call("GET", ext("/perm-bucket/cors"), { headers: limitedAuth })).status).toBe(403);
      const other = os.cloud.control.issueCredentials({ projectId: "otherproj" });
      const foreign = await call("GET", swift("/perm-bucket"), { headers: { "X-Auth-Token": other.kind === "token" ? other.token : "" } });
      expect(foreign.status).toBe(403);
      const accessKey = os.cloud.control.issueCredentials({ projectId: os.project, kind: "access-key" });
      if (accessKey.kind !== "access-key") throw new Error("expected an access key");
      const wrongScheme = await call("GET", ext(), { headers: { "Credential-ID": accessKey.credentialId, "Credential-Secret": accessKey.credentialSecret } });
      expect(wrongScheme.status).toBe(401);
    });

    test("/info needs no token and reports the spec 2.5 limits", async () => {
      const info = await call("GET", `${os.base}/info`);
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
        project: os.project,
        account: os.project,
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
});
