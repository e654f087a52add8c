/**
 * BucketObject content and headers against the local cloud, driven as the engine drives it:
 * Pulumi assets (as the engine serialises them), contentBase64, cache-control and friends, the
 * folder that used to diff forever, read from the id alone (import), deletes that wait.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { serializeProperty } from "@pulumi/pulumi/runtime/rpc";
import { type TestCloud } from "../support/local-cloud";
import { testCloudForFile, tempDirForFile } from "../support/local-cloud/per-file";

let tc: TestCloud;
let dir: string;
testCloudForFile({ bucket: "site-files" }, (c) => (tc = c));
tempDirForFile("krcloud-content-test-", (d) => (dir = d));

const md5 = (b: Buffer | string) => createHash("md5").update(b).digest("hex");
const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
const SIG = "4dabf18193072939515e22adb298388d";
type Wire = Record<string, unknown>;
/** An asset as the Node SDK serialises it for the engine. */
const wireAsset = (a: pulumi.asset.Asset) => serializeProperty("source", a, new Set()) as Promise<Wire>;
/**
 * An asset as the engine hands it to a dynamic provider's check, create and update (Pulumi 3.259,
 * seen in a real run): the SDK's form without its brand, plus the SHA-256 `hash` of the content.
 */
const engineAsset = async (a: pulumi.asset.Asset, content: string | Buffer): Promise<Wire> => {
  const { __pulumiAsset: _brand, ...rest } = await wireAsset(a);
  return { ...rest, hash: sha256(content) };
};
/** The same asset as diff, read and update's olds get it: contents elided, the hash kept. */
const elided = (props: Wire): Wire =>
  Object.fromEntries(
    Object.entries(props).map(([k, v]) => [
      k,
      v !== null && typeof v === "object" && SIG in (v as Wire) ? { [SIG]: (v as Wire)[SIG], hash: (v as Wire).hash } : v,
    ]),
  );

test("a folder with a contentType shows no diff after it is created and refreshed", async () => {
  const args = { bucket: "site-files", key: "assets", folder: true, contentType: "text/plain" };
  const state = await tc.object.up(args);
  expect((await tc.object.plan(state, args)).diff.changes).toBe(false);
  const refreshed = (await tc.object.refresh(state))!;
  expect((await tc.object.plan(refreshed, args)).diff.changes).toBe(false);
  expect((await tc.sdk.headObject("site-files", "assets/")).contentType).toBe("application/directory");
});

test("FileAsset, file:// RemoteAsset and StringAsset sources upload their content and show no diff on the next plan", async () => {
  const file = join(dir, "hello.txt");
  writeFileSync(file, "from a file asset\n");
  const fileAsset = await wireAsset(new pulumi.asset.FileAsset(file));
  expect(fileAsset).toEqual({ "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17", path: file, __pulumiAsset: true });

  const a = await tc.object.up({ bucket: "site-files", key: "a.txt", source: fileAsset });
  expect(a.outputs).toMatchObject({ contentMd5: md5("from a file asset\n"), etag: md5("from a file asset\n") });
  expect(a.outputs.source).toEqual({ [SIG]: "c44067f5952c0a294b673a41bacd8c17", path: file });

  const remote = await wireAsset(new pulumi.asset.RemoteAsset(`file://${file}`));
  const b = await tc.object.up({ bucket: "site-files", key: "b.txt", source: remote });
  expect(b.outputs.etag).toBe(md5("from a file asset\n"));

  const text = await wireAsset(new pulumi.asset.StringAsset("inline text asset"));
  const c = await tc.object.up({ bucket: "site-files", key: "c.txt", source: text });
  expect((await tc.sdk.getObject("site-files", "c.txt")).body.toString()).toBe("inline text asset");
  expect(c.outputs.contentMd5).toBeUndefined();
  const refreshed = (await tc.object.refresh(c))!;
  expect((await tc.object.plan(refreshed, { bucket: "site-files", key: "c.txt", source: text })).diff.changes).toBe(false);
});

test("an http(s) RemoteAsset is refused in check, naming the property, with no request", async () => {
  const before = tc.totalRequests();
  const { failures } = await tc.object.check(
    {},
    { bucket: "site-files", key: "r.txt", source: await wireAsset(new pulumi.asset.RemoteAsset("https://example.com/x")) },
  );
  expect(failures).toEqual([
    { property: "source", reason: expect.stringMatching(/^source: RemoteAsset "https:\/\/example.com\/x" is not supported: only file:\/\/ URIs/) },
  ]);
  expect(tc.totalRequests()).toBe(before);
});

test("contentBase64 stores the decoded bytes; a change re-uploads; bad Base64 fails check", async () => {
  const bytes = Buffer.from([0, 1, 2, 250, 255]);
  const state = await tc.object.up({ bucket: "site-files", key: "bin.dat", contentBase64: bytes.toString("base64") });
  expect((await tc.sdk.getObject("site-files", "bin.dat")).body.equals(bytes)).toBe(true);
  expect(state.outputs).toMatchObject({ size: 5, etag: md5(bytes) });
  expect(
    (await tc.object.plan((await tc.object.refresh(state))!, { bucket: "site-files", key: "bin.dat", contentBase64: bytes.toString("base64") })).diff.changes,
  ).toBe(false);
  const { failures } = await tc.object.check({}, { bucket: "site-files", key: "x", contentBase64: "not base64!" });
  expect(failures[0]).toMatchObject({ property: "contentBase64", reason: "contentBase64: must be Base64 (RFC 4648)" });
});

test("multipart limits are checked against the file's size, naming the property and the rule", async () => {
  const { failures } = await tc.object.check({}, { bucket: "site-files", key: "x", content: "x", multipartThreshold: 6 * 1024 ** 3 });
  expect(failures[0]).toMatchObject({ property: "multipartThreshold", reason: expect.stringMatching(/at most 5368709120 bytes \(5 GiB\)/) });
  const big = await tc.object.check({}, { bucket: "site-files", key: "x", content: "x", partSize: 6 * 1024 ** 3 });
  expect(big.failures[0]).toMatchObject({ property: "partSize", reason: expect.stringMatching(/at most 5368709120 bytes/) });
});

test("read from the id alone (import): bucket, key, folder and content type come from the id and the service", async () => {
  const state = await tc.object.up({ bucket: "site-files", key: "docs/a.txt", content: "abc", contentType: "text/plain", metadata: { team: "web" } });
  const read = await tc.object.read(state.id, {});
  expect(read.id).toBe("site-files/docs/a.txt");
  expect(read.props).toMatchObject({
    bucket: "site-files",
    key: "docs/a.txt",
    folder: false,
    contentType: "text/plain",
    metadata: { team: "web" },
    etag: md5("abc"),
    size: 3,
  });

  const folder = await tc.object.up({ bucket: "site-files", key: "uploads", folder: true });
  expect((await tc.object.read(folder.id, {})).props).toMatchObject({ bucket: "site-files", key: "uploads", folder: true });
});

test("after an import, the program's content stands where the ETag is its MD5: no upload; other content is uploaded", async () => {
  await tc.object.up({ bucket: "site-files", key: "docs/imported.txt", content: "same text", contentType: "text/plain" });
  const read = await tc.object.read("site-files/docs/imported.txt", {});
  const imported = { id: read.id, inputs: read.inputs!, outputs: read.props };
  const declare = async (content: Record<string, unknown>) => {
    const { inputs } = await tc.object.check(imported.inputs, { bucket: "site-files", key: "docs/imported.txt", contentType: "text/plain", ...content });
    return (await tc.object.diff(imported.id, imported.outputs, inputs)).changes;
  };
  expect(await declare({ content: "same text" })).toBe(false);
  expect(await declare({ contentBase64: Buffer.from("same text").toString("base64") })).toBe(false);
  const file = join(dir, "imported.txt");
  writeFileSync(file, "same text");
  expect(await declare({ source: file })).toBe(false);
  expect(await declare({ content: "other text" })).toBe(true);
  writeFileSync(file, "other text");
  expect(await declare({ source: file })).toBe(true);
});

test("delete waits until the object is gone (a HEAD after the DELETE says so); gone already is success", async () => {
  const state = await tc.object.up({ bucket: "site-files", key: "w.txt", content: "w" });
  const cursor = tc.logCursor();
  await tc.object.destroy(state);
  // First the bucket's metadata: a BucketFolder that took the object over would hold it there (folder/handover.ts).
  expect(tc.requestsSince(cursor).map((e) => `${e.operation} ${e.status}`)).toEqual(["HeadContainer 200", "DeleteObject 204", "HeadObject 404"]);
  await expect(tc.object.destroy(state)).resolves.toBeUndefined();
});

test("read from the id alone works for Bucket, BucketCors and BucketLifecycle, and their deletes wait until gone", async () => {
  const bucket = await tc.bucket.up({ name: "imported-b", metadata: { ab: "1" } });
  expect((await tc.bucket.read("imported-b", {})).props).toMatchObject({ name: "imported-b", metadata: { ab: "1" }, acl: { public: "deny" } });
  const cors = await tc.cors.up({ bucket: "imported-b", rules: [{ allowedOrigins: ["https://a.example"], allowedMethods: ["GET"] }] });
  expect((await tc.cors.read("imported-b", {})).props).toMatchObject({
    bucket: "imported-b",
    rules: [{ allowedOrigins: ["https://a.example"], allowedMethods: ["GET"] }],
  });
  const lc = await tc.lifecycle.up({ bucket: "imported-b", rules: [{ prefix: "logs/", expirationDays: 3 }] });
  expect((await tc.lifecycle.read("imported-b", {})).props).toMatchObject({
    bucket: "imported-b",
    rules: [{ prefix: "logs/", status: "Enabled", expirationDays: 3 }],
  });

  const cursor = tc.logCursor();
  await tc.lifecycle.destroy(lc);
  await tc.cors.destroy(cors);
  await tc.bucket.destroy(bucket);
  expect(tc.requestsSince(cursor).map((e) => e.operation)).toEqual([
    "DeleteBucketLifecycleConfiguration",
    "GetBucketLifecycleConfiguration",
    "PutBucketCors",
    "GetBucketCors",
    "DeleteBucket",
    "GetBucketMeta",
  ]);
});

test("as the engine runs it: assets elided to their hash in diff, read and update's olds; a metadata change does not re-upload, a content change does", async () => {
  const file = join(dir, "engine.txt");
  writeFileSync(file, "v1");
  const v1 = { bucket: "site-files", key: "engine.txt", source: await engineAsset(new pulumi.asset.FileAsset(file), "v1") };
  const created = await tc.object.up(v1);
  expect(created.outputs.source).toEqual(v1.source);

  // Preview with nothing changed: the engine diffs elided olds against elided news.
  const same = await tc.object.check(created.inputs, v1);
  expect((await tc.object.diff(created.id, elided(created.outputs), elided(same.inputs))).changes).toBe(false);
  // Refresh reads with elided props, and reports no drift.
  const read = await tc.object.read(created.id, elided(created.outputs));
  expect((await tc.object.diff(created.id, read.props, elided(same.inputs))).changes).toBe(false);

  // A metadata change: update gets elided olds and full news, and only posts the metadata.
  const withMeta = await tc.object.check(created.inputs, { ...v1, metadata: { team: "web" } });
  let before = tc.counts();
  await tc.object.update(created.id, elided(created.outputs), withMeta.inputs);
  expect(tc.countsSince(before)).toMatchObject({ PostObject: 1 });
  expect(tc.countsSince(before).PutObject).toBeUndefined();

  // A content change: a new hash, and an upload.
  writeFileSync(file, "v2");
  const v2 = { ...v1, metadata: { team: "web" }, source: await engineAsset(new pulumi.asset.FileAsset(file), "v2") };
  const changed = await tc.object.check(created.inputs, v2);
  expect((await tc.object.diff(created.id, elided(created.outputs), elided(changed.inputs))).changes).toBe(true);
  before = tc.counts();
  const outs = await tc.object.update(created.id, elided(created.outputs), changed.inputs);
  expect(tc.countsSince(before).PutObject).toBe(1);
  expect(outs).toMatchObject({ etag: md5("v2"), contentMd5: md5("v2") });
  expect((await tc.sdk.getObject("site-files", "engine.txt")).body.toString()).toBe("v2");
});

test("a file changed between check and create is refused by the service (ETag header from check), and nothing is stored", async () => {
  const file = join(dir, "racy.txt");
  writeFileSync(file, "checked content");
  const { inputs } = await tc.object.check({}, { bucket: "site-files", key: "racy.txt", source: file });
  writeFileSync(file, "content written after check");

  await expect(tc.object.create(inputs)).rejects.toThrow(/changed since it was checked; run again/);
  expect(await tc.sdk.findObject("site-files", "racy.txt")).toBeUndefined();
});

test("the local cloud keeps the content headers: no diff after a refresh; a change is a POST, not an upload; a POST without them drops them", async () => {
  await tc.sdk.createBucket({ name: "header-files" }).catch(() => undefined);
  const args = {
    bucket: "header-files",
    key: "report.csv.gz",
    content: "a,b\n",
    cacheControl: "max-age=60",
    contentDisposition: 'attachment; filename="report.csv"',
    contentEncoding: "gzip",
  };
  const state = await tc.object.up(args);
  const head = await tc.sdk.headObject("header-files", "report.csv.gz");
  expect(head).toMatchObject({ cacheControl: "max-age=60", contentDisposition: 'attachment; filename="report.csv"', contentEncoding: "gzip" });
  const refreshed = (await tc.object.refresh(state))!;
  expect((await tc.object.plan(refreshed, args)).diff.changes).toBe(false);

  const before = tc.counts();
  await tc.object.apply(refreshed, { ...args, cacheControl: "no-cache" });
  const sent = tc.countsSince(before);
  expect(sent.PutObject).toBeUndefined();
  expect(sent.PostObject).toBe(1);
  expect((await tc.sdk.headObject("header-files", "report.csv.gz")).cacheControl).toBe("no-cache");

  await tc.sdk.setObjectMetadata("header-files", "report.csv.gz", { owner: "x" });
  expect((await tc.sdk.headObject("header-files", "report.csv.gz")).cacheControl).toBeUndefined();
});
