/**
 * Preview with inputs that come from other resources' outputs: the engine sends each unknown value
 * as a sentinel string, whatever its type. check and diff of the real object storage resources, no
 * network (neither may send a request).
 */
import { provider } from "../../provider/runtime";
import { UNKNOWN } from "../../provider/core";
import { configuredProvider } from "../support/servers/configured";

configuredProvider();

const PROVIDER = "stub";
const bucket = provider("krcloud:objectstorage:Bucket");
const object = provider("krcloud:objectstorage:BucketObject");
const cors = provider("krcloud:objectstorage:BucketCors");

const bucketState = {
  name: "site-bucket",
  type: "STANDARD",
  acl: { public: "deny" },
  metadata: { team: "web" },
  forceDestroy: false,
  adopt: false,
  project: "p",
  url: "u",
  createdAt: "t",
  bytes: 0,
  objectCount: 0,
};

test("Bucket: an unknown acl or metadata plans an in-place update, never a replacement (type keeps its default)", async () => {
  for (const unknownInput of [{ acl: UNKNOWN }, { metadata: UNKNOWN }, { acl: { public: "read-only", publicReadAllowIpList: UNKNOWN } }]) {
    const { inputs, failures } = await bucket.check({ ...bucketState }, { name: "site-bucket", ...unknownInput, __provider: PROVIDER });
    expect(failures).toBeUndefined();
    expect(inputs).toMatchObject({ type: "STANDARD", forceDestroy: false, adopt: false, ...unknownInput });
    const d = await bucket.diff("site-bucket", bucketState, inputs);
    expect(d).toMatchObject({ changes: true, replaces: [] });
  }
});

test("Bucket: a known bad value beside an unknown one is still rejected", async () => {
  const { failures } = await bucket.check({}, { name: "x", metadata: UNKNOWN, acl: { public: "sometimes" }, __provider: PROVIDER });
  // A nested failure names the top-level input (the engine prints that input's value) and the full path in the reason.
  expect(failures?.map((f) => f.property)).toEqual(["name", "acl"]);
  expect(failures?.[1]?.reason).toMatch(/^acl\.public: /);
});

test("BucketObject: an unknown source is not opened, and its MD5 is unknown (so the diff shows a possible change)", async () => {
  const { inputs, failures } = await object.check({}, { bucket: "site-bucket", key: "index.html", source: UNKNOWN, __provider: PROVIDER });
  expect(failures).toBeUndefined();
  expect(inputs).toMatchObject({ source: UNKNOWN, contentMd5: UNKNOWN, folder: false, metadata: {} });
});

/** What state records for an object of inline content "hi" in site-bucket. */
const OBJECT_OUTPUTS = {
  bucket: "site-bucket",
  key: "a.txt",
  content: "hi",
  folder: false,
  metadata: {},
  multipartThreshold: 16777216,
  partSize: 8388608,
  etag: "e",
  size: 2,
  url: "u",
};

test("BucketObject: unknown content gets no made-up digest; unknown metadata keeps folder's default, so no replacement", async () => {
  const { inputs } = await object.check({}, { bucket: "site-bucket", key: "a.txt", content: UNKNOWN, __provider: PROVIDER });
  expect(inputs.content).toBe(UNKNOWN);
  expect(inputs).not.toHaveProperty("contentMd5");

  const next = await object.check(OBJECT_OUTPUTS, { bucket: "site-bucket", key: "a.txt", content: "hi", metadata: UNKNOWN, __provider: PROVIDER });
  expect(next.inputs).toMatchObject({ folder: false, metadata: UNKNOWN });
  expect(await object.diff("site-bucket/a.txt", OBJECT_OUTPUTS, next.inputs)).toMatchObject({ changes: true, replaces: [] });
});

test("BucketCors: unknown rules are kept, not normalised; an unknown origin inside a rule is kept in place", async () => {
  const whole = await cors.check({}, { bucket: "site-bucket", rules: UNKNOWN, __provider: PROVIDER });
  expect(whole.failures).toBeUndefined();
  expect(whole.inputs.rules).toBe(UNKNOWN);
  const inner = await cors.check(
    {},
    { bucket: "site-bucket", rules: [{ allowedOrigins: [UNKNOWN], allowedMethods: ["GET"], allowedHeaders: [] }], __provider: PROVIDER },
  );
  expect(inner.failures).toBeUndefined();
  expect(inner.inputs.rules).toEqual([{ allowedOrigins: [UNKNOWN], allowedMethods: ["GET"], allowedHeaders: [] }]);
});

test("a replace-on value that is unknown may differ: it plans a replacement", async () => {
  const { inputs } = await object.check({}, { bucket: UNKNOWN, key: "a.txt", content: "hi", __provider: PROVIDER });
  expect(await object.diff("site-bucket/a.txt", OBJECT_OUTPUTS, inputs)).toMatchObject({ changes: true, replaces: ["bucket"] });
});
