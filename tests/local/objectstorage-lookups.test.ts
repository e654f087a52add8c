/**
 * Lookups (getBucket, getBuckets, getBucketObjects, getObjectStorageInfo, getTempUrl) against the local cloud. They
 * run in the program process and read `pulumi.runtime.getConfig`, then the environment: the
 * harness sets krcloud:localCloudUrl, krcloud:authToken and krcloud:projectId in the program's config.
 */
import { createHash, randomBytes } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import {
  getBucket,
  getBucketObjects,
  getBucketObjectsOutput,
  getBuckets,
  getObjectStorageInfo,
  getTempUrl,
  getTempUrlOutput,
} from "../../provider/objectstorage/functions";
import { createBuckets, putObjects, rejection, type TestCloud } from "../support/local-cloud";
import { testCloudForFile } from "../support/local-cloud/per-file";

let tc: TestCloud;
testCloudForFile({ reset: true }, (c) => (tc = c));

test("getBucket: returns what the bucket resource made, and fails clearly for an unknown bucket", async () => {
  await tc.bucket.up({
    name: "lookup-me",
    encryption: { type: "managed" },
    acl: { public: "read-only", publicReadAllowIpList: ["10.0.0.0/8"] },
    metadata: { owner: "team-a" },
  });
  await tc.sdk.putObject("lookup-me", "a.txt", "abc");
  await tc.sdk.putObject("lookup-me", "b.txt", "defg");

  expect(await getBucket({ name: "lookup-me" })).toMatchObject({
    name: "lookup-me",
    project: tc.projectId,
    type: "STANDARD",
    encrypted: true,
    acl: { public: "read-only", publicReadAllowIpList: ["10.0.0.0/8"] },
    metadata: { owner: "team-a" },
    bytes: 7,
    objectCount: 2,
    url: `${tc.settings.endpoints.objectstorage}/v1/${tc.projectId}/lookup-me`,
  });
  expect((await rejection(getBucket({ name: "no-such-bucket" }))).message).toMatch(/getBucket: reading bucket "no-such-bucket": 404/);
});

test("getBuckets: follows pages until every bucket is listed, with prefix and include filters", async () => {
  // The server's default page is 20 and the client asks for the maximum, 100: 205 buckets need 3 pages.
  const names = Array.from({ length: 205 }, (_, i) => `page-${String(i).padStart(4, "0")}`);
  await createBuckets(tc.sdk, names, 32);

  const cursor = tc.logCursor();
  const all = await getBuckets();
  expect(all.names).toEqual(names);
  expect(new Set(all.names).size).toBe(205);
  expect(tc.requestsSince(cursor).filter((e) => e.operation === "ListBuckets")).toHaveLength(3);

  expect((await getBuckets({ prefix: "page-01" })).names).toEqual(names.slice(100, 200));
  expect((await getBuckets({ include: "-020" })).names).toEqual(names.slice(200, 205));
  const before = tc.totalRequests();
  expect((await rejection(getBuckets({ prefix: "page", include: "01" }))).message).toMatch(/cannot be combined/);
  expect(tc.totalRequests()).toBe(before);
});

test("getBucketObjects: every page of a bucket's objects, under a prefix, one level of a folder tree with a delimiter", async () => {
  await tc.sdk.createBucket({ name: "listing" });
  // 1,005 objects under logs/: the listing's pages hold 1,000, so every one takes two requests.
  const logs = Array.from({ length: 1005 }, (_, i) => `logs/${String(i).padStart(5, "0")}.log`);
  await putObjects(tc.sdk, "listing", logs, 32);
  const reports = {
    "reports/2024/a.csv": "a,1\n",
    "reports/2024/b.csv": "b,2\n",
    "reports/latest.csv": "region,revenue\nkr-central,165\n",
    "reports/old/x.csv": "",
  };
  for (const [key, body] of Object.entries(reports)) await tc.sdk.putObject("listing", key, body, { contentType: "text/csv" });

  const cursor = tc.logCursor();
  const all = await getBucketObjects({ bucket: "listing" });
  expect(all.keys).toEqual([...logs, ...Object.keys(reports)].sort());
  expect(all).toMatchObject({ prefixes: [], truncated: false });
  expect(tc.requestsSince(cursor).filter((e) => e.operation === "ListObjects")).toHaveLength(2);

  // One level under reports/: the object there, and the folders below it.
  const level = await getBucketObjects({ bucket: "listing", prefix: "reports/", delimiter: "/" });
  expect(level).toEqual({
    keys: ["reports/latest.csv"],
    objects: [
      {
        key: "reports/latest.csv",
        size: Buffer.byteLength(reports["reports/latest.csv"]),
        etag: createHash("md5").update(reports["reports/latest.csv"]).digest("hex"),
        contentType: "text/csv",
        lastModified: expect.any(String),
      },
    ],
    prefixes: ["reports/2024/", "reports/old/"],
    truncated: false,
  });
  expect((await getBucketObjects({ bucket: "listing", prefix: "reports/2024/" })).keys).toEqual(["reports/2024/a.csv", "reports/2024/b.csv"]);
  expect((await getBucketObjects({ bucket: "listing", prefix: "nothing/" })).keys).toEqual([]);
});

test("getBucketObjects: maxKeys ends the listing there and says whether entries are left; bad input is refused before any request", async () => {
  await tc.sdk.createBucket({ name: "listing-max" });
  const keys = Array.from({ length: 1003 }, (_, i) => `k/${String(i).padStart(5, "0")}`);
  await putObjects(tc.sdk, "listing-max", keys, 32);

  expect(await getBucketObjects({ bucket: "listing-max", maxKeys: 3 })).toMatchObject({ keys: keys.slice(0, 3), truncated: true });
  // Exactly as many as there are: a full page, then one entry asked for to know that none is left.
  let cursor = tc.logCursor();
  expect(await getBucketObjects({ bucket: "listing-max", maxKeys: 1003 })).toMatchObject({ keys, truncated: false });
  expect(tc.requestsSince(cursor).filter((e) => e.operation === "ListObjects")).toHaveLength(3);
  expect(await getBucketObjects({ bucket: "listing-max", maxKeys: 1002 })).toMatchObject({ keys: keys.slice(0, 1002), truncated: true });
  // Objects and prefixes count together.
  expect(await getBucketObjects({ bucket: "listing-max", delimiter: "/", maxKeys: 1 })).toEqual({ keys: [], objects: [], prefixes: ["k/"], truncated: false });

  cursor = tc.logCursor();
  for (const [args, text] of [
    [{ bucket: "No_Such" }, /bucket.*must be lower-case letters/],
    [{ bucket: "listing-max", delimiter: "" }, /delimiter.*must not be empty/],
    [{ bucket: "listing-max", maxKeys: 0 }, /maxKeys.*must be at least 1/],
    [{ bucket: "listing-max", maxKeys: 1.5 }, /maxKeys.*must be a whole number/],
  ] as const) {
    expect((await rejection(getBucketObjects(args))).message).toMatch(text);
  }
  expect(tc.requestsSince(cursor)).toEqual([]);
  expect((await rejection(getBucketObjects({ bucket: "no-such-bucket" }))).message).toMatch(/getBucketObjects: .*"no-such-bucket".*404/);
});

test("getBucketObjectsOutput: the listing as an Output", async () => {
  await tc.sdk.createBucket({ name: "listing-output" });
  await tc.sdk.putObject("listing-output", "a.txt", "a");
  const r = getBucketObjectsOutput({ bucket: "listing-output" });
  expect(await new Promise<string[]>((resolve) => r.keys.apply(resolve))).toEqual(["a.txt"]);
});

test("getObjectStorageInfo: the capability document's limits", async () => {
  const info = (await getObjectStorageInfo()) as Record<string, any>;
  expect(info.swift).toMatchObject({
    containerListingLimit: 1000,
    maxFileSize: 5368709120,
    maxMetaNameLength: 64,
    maxObjectNameLength: 396,
    maxContainerNameLength: 63,
  });
  expect(info.tempurl).toEqual({ methods: ["GET"] });
});

test("getTempUrl: a token-less download returns the object's bytes until the URL expires", async () => {
  await tc.sdk.createBucket({ name: "shared-files" });
  const bytes = randomBytes(64 * 1024);
  await tc.sdk.putObject("shared-files", "reports/2025 Q1.bin", bytes);

  const periodBefore = Math.floor(Date.now() / 300_000);
  const { url, expiresAt } = await getTempUrl({ bucket: "shared-files", key: "reports/2025 Q1.bin", expiresIn: 300 });
  const again = await getTempUrl({ bucket: "shared-files", key: "reports/2025 Q1.bin", expiresIn: 300 });
  const now = Math.floor(Date.now() / 1000);
  expect(url.startsWith(`${tc.settings.endpoints.objectstorage}/v1/${tc.projectId}/shared-files/`)).toBe(true);
  expect(url).not.toContain(tc.config["krcloud:authToken"]);
  // Valid at least expiresIn, aligned to it, and the same URL on every run within one period.
  expect(expiresAt % 300).toBe(0);
  expect(expiresAt - now).toBeGreaterThanOrEqual(300);
  expect(expiresAt - now).toBeLessThanOrEqual(600);
  if (Math.floor(Date.now() / 300_000) === periodBefore) expect(again).toEqual({ url, expiresAt });

  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);

  tc.cloud.control.advanceClock({ ms: (expiresAt - Math.floor(Date.now() / 1000) + 1) * 1000 });
  const expired = await fetch(url);
  await expired.arrayBuffer();
  expect(expired.status).toBe(401);
});

test("getTempUrlOutput: the signed URL is a secret Output", async () => {
  await tc.sdk.createBucket({ name: "secret-links" });
  await tc.sdk.putObject("secret-links", "a.txt", "abc");
  const r = getTempUrlOutput({ bucket: "secret-links", key: "a.txt" });
  expect(await pulumi.isSecret(r.url)).toBe(true);
  const url = await new Promise<string>((resolve) => r.url.apply(resolve));
  expect(url).toContain("temp_url_sig=");
});
