/**
 * Acceptance: a 20 MiB object goes up by multipart and comes back byte-identical; a bucket of
 * 1,500 objects is listed completely (across pages) and destroyed with forceDestroy.
 */
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { getBuckets } from "../../provider/objectstorage/functions";
import { putObjects, rejection, type TestCloud } from "../support/local-cloud";
import { testCloudForFile, tempDirForFile } from "../support/local-cloud/per-file";

let tc: TestCloud;
let dir: string;
testCloudForFile({ reset: true }, (c) => (tc = c));
tempDirForFile("krcloud-acceptance-", (d) => (dir = d));

const MIB = 1024 * 1024;
const md5 = (b: Buffer) => createHash("md5").update(b).digest("hex");

test("a 20 MiB source file is uploaded by multipart and downloads byte-identical", async () => {
  await tc.sdk.createBucket({ name: "big-files" });
  const bytes = randomBytes(20 * MIB);
  const file = join(dir, "blob.bin");
  writeFileSync(file, bytes);
  const args = { bucket: "big-files", key: "archive/blob.bin", source: file, metadata: { kind: "backup" } };

  const cursor = tc.logCursor();
  const state = await tc.object.up(args);

  const ops = tc.requestsSince(cursor).map((e) => `${e.operation} ${e.status}`);
  // Default threshold 16 MiB, parts of 8 MiB: 8 + 8 + 4.
  expect(ops.filter((o) => o.startsWith("InitiateMultipartUpload"))).toEqual(["InitiateMultipartUpload 201"]);
  expect(ops.filter((o) => o.startsWith("UploadPart"))).toEqual(["UploadPart 200", "UploadPart 200", "UploadPart 200"]);
  expect(ops.filter((o) => o.startsWith("CompleteMultipartUpload"))).toEqual(["CompleteMultipartUpload 201"]);
  expect(ops.filter((o) => o.startsWith("PutObject"))).toEqual([]);
  expect(state.outputs).toMatchObject({ size: bytes.length, contentMd5: md5(bytes), metadata: { kind: "backup" } });
  expect(tc.progress()).toEqual(
    expect.arrayContaining([`uploading "big-files/archive/blob.bin" (${20 * MIB} bytes) in 3 parts`, '"big-files/archive/blob.bin": part 3/3 uploaded']),
  );

  const got = await tc.sdk.getObject("big-files", "archive/blob.bin");
  expect(got.body.length).toBe(bytes.length);
  expect(got.body.equals(bytes)).toBe(true);
  // A multipart upload carries the ownership marker too (metadata set at initiation).
  expect(got.metadata).toEqual({ kind: "backup", "krcloud-owner": expect.stringMatching(/^[0-9a-f]{16}$/) });

  // The ETag of a multipart object is not the content's MD5 (S3-style `md5-of-part-md5s-3`), so the
  // provider's non-MD5 path is what runs here: a refresh is not mistaken for a content change...
  expect(state.outputs.etag).toMatch(/^[0-9a-f]{32}-3$/);
  const refreshed = (await tc.object.refresh(state))!;
  expect(refreshed.outputs.contentMd5).toBe(md5(bytes));
  expect((await tc.object.plan(refreshed, args)).diff.changes).toBe(false);
  // ...while content replaced behind Pulumi's back (a new ETag) is.
  await tc.sdk.putObject("big-files", "archive/blob.bin", "replaced");
  const drifted = (await tc.object.refresh(refreshed))!;
  expect(drifted.outputs.contentMd5).toBe(md5(Buffer.from("replaced")));
  expect((await tc.object.plan(drifted, args)).diff).toMatchObject({ changes: true, replaces: [] });

  // A smaller partSize is honoured: 20 MiB in 5 MiB parts is 4 parts.
  const cursor2 = tc.logCursor();
  await tc.object.up({ ...args, key: "archive/blob-5.bin", partSize: 5 * MIB });
  expect(tc.requestsSince(cursor2).filter((e) => e.operation === "UploadPart")).toHaveLength(4);
  expect((await tc.sdk.getObject("big-files", "archive/blob-5.bin")).body.equals(bytes)).toBe(true);
});

test("a bucket of 1,500 objects is listed completely and destroyed with forceDestroy", async () => {
  const state = await tc.bucket.up({ name: "many-objects", forceDestroy: false }, "many");
  // Some names outside ASCII and with spaces, so paging markers are exercised with encoding.
  const keys = Array.from({ length: 1500 }, (_, i) => {
    const n = String(i).padStart(4, "0");
    return i % 100 === 7 ? `보고서/file ${n}.txt` : `data/${n}.json`;
  });
  await putObjects(tc.sdk, "many-objects", keys, 32);

  const cursor = tc.logCursor();
  const listed = await tc.sdk.listAllObjects("many-objects");
  const names = listed.map((e) => (e.kind === "object" ? e.name : e.subdir));
  expect(names).toHaveLength(1500);
  expect([...names].sort()).toEqual([...keys].sort());
  expect(tc.requestsSince(cursor).filter((e) => e.operation === "ListObjects")).toHaveLength(2);

  const { buckets } = await getBuckets({ prefix: "many-" });
  expect(buckets).toEqual([expect.objectContaining({ name: "many-objects", objectCount: 1500 })]);

  // Without forceDestroy the bucket stays; with it, every object goes first.
  expect((await rejection(tc.bucket.destroy(state))).message).toMatch(/not empty.*forceDestroy/);
  const forced = await tc.bucket.apply(state, { name: "many-objects", forceDestroy: true }, "many");
  const before = tc.counts();
  await tc.bucket.destroy(forced);

  const sent = tc.countsSince(before);
  expect(sent.DeleteObject).toBe(1500);
  expect(sent.DeleteBucket).toBe(1);
  expect(tc.progress()).toContain('bucket "many-objects": 1500 objects deleted');
  expect(await tc.sdk.findBucket("many-objects")).toBeUndefined();
  expect(tc.cloud.control.inventory()).toEqual([]);
});
