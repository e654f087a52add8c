import {
  buildCompleteXml,
  expandSloManifest,
  flattenBucket,
  flattenBucketPage,
  flattenCapabilities,
  flattenObjectListing,
  flattenSloManifest,
  parseInitiateResult,
} from "../../client/objectstorage";

describe("bucket record (2.1)", () => {
  const record = {
    project: "p-1",
    account: "p-1",
    name: "logs",
    type: "STANDARD",
    bytes: "1024",
    objectCount: 3,
    createdAt: "2024-01-01T00:00:00Z",
    lastModified: "2024-01-02T00:00:00Z",
    use_encryption: true,
    encryption_type: "managed",
    storageClass: "STANDARD",
    storagePolicy: "default-placement",
    acl: { public: "read-only", public_read_allow_ip_list: ["10.0.0.0/8"], permissions: null },
    somethingNew: { x: 1 },
  };

  test("flattens to camelCase, bytes as a numeric string, metadata from headers with lower-cased keys", () => {
    const b = flattenBucket(
      record,
      { "x-container-meta-owner": "team-a", "x-container-meta-temp-url-key": "secret", "x-trans-id": "t" },
      { name: "logs" },
      "reading",
    );
    expect(b).toMatchObject({
      project: "p-1",
      name: "logs",
      bytes: 1024,
      objectCount: 3,
      useEncryption: true,
      encryptionType: "managed",
      storagePolicy: "default-placement",
      acl: { public: "read-only", publicReadAllowIpList: ["10.0.0.0/8"], permissions: null },
      metadata: { owner: "team-a" },
    });
    expect(b.raw.somethingNew).toEqual({ x: 1 });
  });

  test("temp URL keys never enter the metadata map (they are credentials)", () => {
    const b = flattenBucket(record, { "x-container-meta-temp-url-key": "secret", "x-container-meta-temp-url-key-2": "s2" }, { name: "logs" }, "reading");
    expect(b.metadata).toEqual({});
  });

  test("the deprecated account is used only when project is absent; then the client's project", () => {
    expect(flattenBucket({ account: "acc", name: "x" }, {}, { name: "x" }, "r").project).toBe("acc");
    expect(flattenBucket({ name: "x" }, {}, { name: "x", project: "mine" }, "r").project).toBe("mine");
    expect(flattenBucket({ project: "new", account: "old" }, {}, { name: "x" }, "r").project).toBe("new");
  });

  test("a record of the wrong shape is a clear error", () => {
    expect(() => flattenBucket({ bytes: "lots" }, {}, { name: "x" }, 'reading bucket "x"')).toThrow(/reading bucket "x": unexpected bucket record/);
  });

  test("ListBuckets items of unknown shape are tolerated", () => {
    const page = flattenBucketPage({ totalCount: "4", offset: 0, count: 4, items: [{ name: "a", bytes: 5 }, "b", 42, { name: 7 }] }, "listing");
    expect(page.totalCount).toBe(4);
    expect(page.items.map((i) => i.name)).toEqual(["a", "b", undefined, undefined]);
    expect(page.items[0]!.bytes).toBe(5);
    expect(page.items[2]!.raw).toBe(42);
  });
});

describe("object listing (2.2)", () => {
  test("object and subdir entries, bytes as integer or string, Swift's zone-less timestamps kept", () => {
    const body = Buffer.from(
      JSON.stringify([
        { name: "a.txt", content_type: "text/plain", bytes: 3, hash: "900150983cd24fb0d6963f7d28e17f72", last_modified: "2024-05-01T10:00:00.123456" },
        { name: "big", bytes: "5368709120", hash: "x", content_type: "application/octet-stream", last_modified: "2024-05-01T10:00:00Z" },
        { subdir: "dir/" },
      ]),
    );
    expect(flattenObjectListing(body, "listing")).toEqual([
      {
        kind: "object",
        name: "a.txt",
        contentType: "text/plain",
        bytes: 3,
        hash: "900150983cd24fb0d6963f7d28e17f72",
        lastModified: "2024-05-01T10:00:00.123456",
      },
      { kind: "object", name: "big", bytes: 5368709120, hash: "x", contentType: "application/octet-stream", lastModified: "2024-05-01T10:00:00Z" },
      { kind: "subdir", subdir: "dir/" },
    ]);
  });

  test("an empty body (Swift's 204) is an empty listing; non-JSON is an error", () => {
    expect(flattenObjectListing(Buffer.alloc(0), "l")).toEqual([]);
    expect(() => flattenObjectListing(Buffer.from("a.txt\nb.txt\n"), "listing objects")).toThrow(/not JSON/);
  });
});

describe("capabilities (2.5)", () => {
  test("the spec's capitalised keys and Swift's lower-case ones are both read; unknown keys kept", () => {
    const seed = flattenCapabilities({
      swift: { version: "2.30", Account_listing_limit: 1000, max_Account_name_length: 32, policies: [{ name: "default-placement", default: true }], future: 1 },
      tempurl: { methods: ["GET"] },
      slo: { max_manifest_segments: 1000, min_segment_size: 1, max_manifest_size: 8392704 },
      tempauth: {},
    });
    expect(seed.swift).toEqual({
      version: "2.30",
      accountListingLimit: 1000,
      maxAccountNameLength: 32,
      policies: [{ name: "default-placement", default: true }],
    });
    expect(seed.tempurl).toEqual({ methods: ["GET"] });
    expect(seed.slo).toEqual({ maxManifestSegments: 1000, minSegmentSize: 1, maxManifestSize: 8392704 });
    expect(seed.raw.tempauth).toEqual({});
    const swift = flattenCapabilities({
      swift: { account_listing_limit: 10000, max_account_name_length: 256, max_meta_overall_size: 4096, policies: [{ name: "gold", aliases: "gold" }] },
    });
    expect(swift.swift.accountListingLimit).toBe(10000);
    expect(swift.swift.maxAccountNameLength).toBe(256);
    expect(swift.swift.maxMetaLength).toBe(4096);
    expect(swift.swift.policies).toEqual([{ name: "gold" }]);
  });
});

describe("large objects (4.5)", () => {
  test("SLO manifests are written as [{path, etag, size_bytes}]", () => {
    expect(expandSloManifest([{ path: "b/seg1", etag: '"abc"', sizeBytes: 3 }, { path: "/b/seg2" }])).toEqual([
      { path: "b/seg1", etag: "abc", size_bytes: 3 },
      { path: "b/seg2" },
    ]);
    expect(() => expandSloManifest([{ path: "noslash" }])).toThrow(/must be \{bucket\}\/\{object\}/);
    expect(() => expandSloManifest([])).toThrow(/at least one segment/);
  });

  test("manifests are read in the spec's form and in Swift's stored form", () => {
    const seedForm = Buffer.from(JSON.stringify([{ path: "b/s1", etag: "e1", size_bytes: 1 }]));
    const swiftForm = Buffer.from(JSON.stringify([{ name: "/b/s1", hash: "e1", bytes: 1, content_type: "x", last_modified: "t" }]));
    expect(flattenSloManifest(seedForm, "r")).toEqual([{ path: "b/s1", etag: "e1", sizeBytes: 1 }]);
    expect(flattenSloManifest(swiftForm, "r")).toEqual([{ path: "b/s1", etag: "e1", sizeBytes: 1 }]);
    expect(() => flattenSloManifest(Buffer.from("plain bytes"), "reading")).toThrow(/not a JSON manifest/);
  });
});

describe("multipart documents (4.4)", () => {
  test("InitiateMultipartUploadResult with or without a namespace", () => {
    const xml =
      '<?xml version="1.0"?><InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Tenant>p-1</Tenant><Bucket>b</Bucket><Key>k/x</Key><UploadId>u-1</UploadId></InitiateMultipartUploadResult>';
    expect(parseInitiateResult(xml, "a")).toEqual({ uploadId: "u-1", tenant: "p-1", bucket: "b", key: "k/x" });
    expect(() => parseInitiateResult("<InitiateMultipartUploadResult/>", "starting")).toThrow(/starting: .*UploadId/);
  });

  test("CompleteMultipartUpload lists parts in order with quoted ETags", () => {
    expect(
      buildCompleteXml([
        { partNumber: 2, etag: "bb" },
        { partNumber: 1, etag: '"aa"' },
      ]),
    ).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"aa"</ETag></Part><Part><PartNumber>2</PartNumber><ETag>"bb"</ETag></Part></CompleteMultipartUpload>',
    );
    expect(() =>
      buildCompleteXml([
        { partNumber: 1, etag: "a" },
        { partNumber: 1, etag: "b" },
      ]),
    ).toThrow(/listed twice/);
    expect(() => buildCompleteXml([{ partNumber: 10001, etag: "a" }])).toThrow(/outside/);
  });
});
