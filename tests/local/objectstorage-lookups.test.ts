/**
 * Lookups (getBucket, getBuckets, getObjectStorageInfo, getTempUrl) against the local cloud. They
 * run in the program process and read `pulumi.runtime.getConfig`, then the environment: the
 * harness sets krcloud:localCloudUrl, krcloud:authToken and krcloud:projectId in the program's config.
 */
import { randomBytes } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { getBucket, getBuckets, getObjectStorageInfo, getTempUrl, getTempUrlOutput } from "../../provider/objectstorage/functions";
import { createBuckets, rejection, type TestCloud } from "../support/local-cloud";
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
