/**
 * krcloud:objectstorage:BucketObject driven as the Pulumi engine drives it, against the local
 * cloud over loopback HTTP: basic (content, source, folder), content change -> re-upload,
 * metadata-only change -> no re-upload, replace, disappears, bad input, drift.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { resetProjectChecks } from "../../client/core";
import { rejection, type TestCloud } from "../support/local-cloud";
import { expectCheckNames, testCloudForFile, tempDirForFile } from "../support/local-cloud/per-file";

/** The ownership marker a create writes into the object's metadata (never an output). */
const OWNED = { "krcloud-owner": expect.stringMatching(/^[0-9a-f]{16}$/) as unknown as string };

let tc: TestCloud;
let dir: string;
testCloudForFile({ bucket: "site-files" }, (c) => (tc = c));
tempDirForFile("krcloud-object-test-", (d) => (dir = d));

const md5 = (b: Buffer | string) => createHash("md5").update(b).digest("hex");
const README = { bucket: "site-files", key: "docs/readme.txt", content: "hello, world\n", contentType: "text/plain", metadata: { owner: "docs-team" } };

test("basic (content): the object is uploaded once, read returns it, refresh shows no diff", async () => {
  const before = tc.counts();
  const state = await tc.object.up(README);

  expect(tc.countsSince(before).PutObject).toBe(1);
  expect(state.id).toBe("site-files/docs/readme.txt");
  expect(state.outputs).toMatchObject({
    bucket: "site-files",
    key: "docs/readme.txt",
    etag: md5(README.content),
    size: Buffer.byteLength(README.content),
    contentType: "text/plain",
    metadata: { owner: "docs-team" },
    url: `${tc.settings.endpoints.objectstorage}/v1/${tc.projectId}/site-files/docs/readme.txt`,
    __provider: tc.object.providerText,
  });
  // Inline content is compared as itself: no digest of it (it may be secret) among the inputs.
  expect(state.outputs.contentMd5).toBeUndefined();
  expect(state.inputs.contentMd5).toBeUndefined();
  const got = await tc.sdk.getObject("site-files", "docs/readme.txt");
  expect(got.body.toString("utf8")).toBe(README.content);
  expect(got.contentType).toBe("text/plain");
  expect(got.metadata).toEqual({ owner: "docs-team", ...OWNED });

  expect(await tc.object.read(state.id, state.outputs)).toMatchObject({ id: state.id, props: { etag: md5(README.content), size: 13 } });
  const refreshed = (await tc.object.refresh(state))!;
  expect((await tc.object.plan(refreshed, README)).diff.changes).toBe(false);
});

test("basic (source file and folder)", async () => {
  const file = join(dir, "logo.bin");
  const bytes = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31) % 256));
  writeFileSync(file, bytes);

  const state = await tc.object.up({ bucket: "site-files", key: "img/logo.bin", source: file });
  expect(state.outputs).toMatchObject({ contentMd5: md5(bytes), etag: md5(bytes), size: 4096 });
  expect((await tc.sdk.getObject("site-files", "img/logo.bin")).body.equals(bytes)).toBe(true);

  const folder = await tc.object.up({ bucket: "site-files", key: "uploads", folder: true });
  expect(folder.id).toBe("site-files/uploads/");
  const head = await tc.sdk.headObject("site-files", "uploads/");
  expect(head.contentType).toBe("application/directory");
  expect(head.contentLength).toBe(0);
  const refreshed = (await tc.object.refresh(folder))!;
  expect((await tc.object.plan(refreshed, { bucket: "site-files", key: "uploads", folder: true })).diff.changes).toBe(false);
});

test("content change: diff updates in place, the object is re-uploaded", async () => {
  const state = await tc.object.up(README);
  const v2 = { ...README, content: "hello, world v2\n" };

  const { inputs, diff } = await tc.object.plan(state, v2);
  expect(inputs.contentMd5).toBeUndefined();
  expect(diff).toMatchObject({ changes: true, replaces: [] });

  const before = tc.counts();
  const next = await tc.object.apply(state, v2);
  expect(tc.countsSince(before).PutObject).toBe(1);
  expect(next.outputs).toMatchObject({ etag: md5(v2.content) });
  expect(next.outputs.contentMd5).toBeUndefined();
  expect((await tc.sdk.getObject("site-files", "docs/readme.txt")).body.toString("utf8")).toBe(v2.content);
});

test("a changed source file with unchanged arguments is a diff, and re-uploads", async () => {
  const file = join(dir, "page.html");
  writeFileSync(file, "<h1>v1</h1>");
  const args = { bucket: "site-files", key: "index.html", source: file, contentType: "text/html" };
  const state = await tc.object.up(args);

  writeFileSync(file, "<h1>v2</h1>");
  const { diff } = await tc.object.plan(state, args);
  expect(diff).toMatchObject({ changes: true, replaces: [] });

  const before = tc.counts();
  await tc.object.apply(state, args);
  expect(tc.countsSince(before).PutObject).toBe(1);
  expect((await tc.sdk.getObject("site-files", "index.html")).body.toString("utf8")).toBe("<h1>v2</h1>");
});

test("metadata-only change: metadata is updated without re-uploading the content", async () => {
  const state = await tc.object.up(README);
  const before = tc.counts();

  const next = await tc.object.apply(state, { ...README, metadata: { owner: "web-team", reviewed: "yes" } });

  expect(next.diff).toMatchObject({ changes: true, replaces: [] });
  const sent = tc.countsSince(before);
  expect(sent.PostObject).toBe(1);
  expect(sent.PutObject).toBeUndefined();
  expect(sent.InitiateMultipartUpload).toBeUndefined();
  const got = await tc.sdk.getObject("site-files", "docs/readme.txt");
  // A metadata update keeps the ownership marker the create wrote.
  expect(got.metadata).toEqual({ owner: "web-team", reviewed: "yes", ...OWNED });
  expect(got.body.toString("utf8")).toBe(README.content);
  expect(got.contentType).toBe("text/plain");
});

test("replace: bucket, key or folder changes replace the object", async () => {
  const state = await tc.object.up(README);

  const key = await tc.object.plan(state, { ...README, key: "docs/README.txt" });
  expect(key.diff).toMatchObject({ changes: true, replaces: ["key"], deleteBeforeReplace: false });
  expect((await tc.object.plan(state, { ...README, bucket: "other-bucket" })).diff.replaces).toEqual(["bucket"]);
  expect((await tc.object.plan(state, { bucket: "site-files", key: "docs/readme.txt", folder: true })).diff.replaces).toEqual(
    expect.arrayContaining(["folder"]),
  );

  // The engine's create-before-delete sequence.
  const replacement = await tc.object.create(key.inputs);
  await tc.object.destroy(state);
  expect(replacement.id).toBe("site-files/docs/README.txt");
  expect((await tc.sdk.listAllObjects("site-files")).map((e) => (e.kind === "object" ? e.name : e.subdir))).toEqual(["docs/README.txt"]);
});

test("disappears: an object deleted behind the provider's back reads as gone and deletes cleanly", async () => {
  const state = await tc.object.up(README);
  expect((await tc.controlApi("DELETE", "/resources/object-storage/object/site-files/docs/readme.txt")).status).toBe(204);

  expect(await tc.object.read(state.id, state.outputs)).toMatchObject({ id: "" });
  expect(await tc.object.refresh(state)).toBeUndefined();
  await expect(tc.object.destroy(state)).resolves.toBeUndefined();
});

describe("bad input is rejected in check with the property path, and no request is sent", () => {
  const cases: [string, () => Record<string, unknown>, string, RegExp][] = [
    ["both source and content", () => ({ source: join(dir, "x"), content: "x" }), "source", /exactly one of source and content/],
    ["neither source nor content", () => ({}), "source", /exactly one of source and content/],
    ["partSize under 5 MiB", () => ({ content: "x", partSize: 4 * 1024 * 1024 }), "partSize", /at least 5 MiB/],
    [
      "multipartThreshold under 5 MiB",
      () => ({ content: "x", multipartThreshold: 1024 }),
      "multipartThreshold",
      /^multipartThreshold: must be at least 5 MiB \(5242880 bytes\)/,
    ],
    ["missing source file", () => ({ source: join(dir, "does-not-exist.bin") }), "source", /does not exist/],
    ["source is a directory", () => ({ source: dir }), "source", /not a regular file/],
    ["folder with content", () => ({ folder: true, content: "x" }), "folder", /folder has no source or content/],
    ["key over 396 characters", () => ({ key: "k".repeat(397), content: "x" }), "key", /1 to 396/],
    ["key with a NUL character", () => ({ key: "a\u0000b", content: "x" }), "key", /NUL/],
  ];

  test.each(cases)("%s", async (_what, args, property, reason) => {
    await expectCheckNames(tc, tc.object, "obj", { bucket: "site-files", key: "a.txt", ...args() }, property, reason);
  });
});

test("drift: content replaced outside Pulumi shows as a changed MD5 after refresh, and the next up restores it", async () => {
  const state = await tc.object.up(README);
  const patched = await tc.controlApi("PATCH", "/resources/object-storage/object/site-files/docs/readme.txt", { content: "defaced" });
  expect(patched.status).toBe(200);

  const refreshed = (await tc.object.refresh(state))!;
  expect(refreshed.outputs.contentMd5).toBe(md5("defaced"));
  const { diff } = await tc.object.plan(refreshed, README);
  expect(diff).toMatchObject({ changes: true, replaces: [] });

  const before = tc.counts();
  await tc.object.apply(refreshed, README);
  expect(tc.countsSince(before).PutObject).toBe(1);
  expect((await tc.sdk.getObject("site-files", "docs/readme.txt")).body.toString("utf8")).toBe(README.content);
});

test("a refresh reads each object with one request (its path names the project); another project's token is refused, never read as gone", async () => {
  const states = [];
  for (const key of ["a.txt", "b.txt", "c.txt"]) states.push(await tc.object.up({ bucket: "site-files", key, content: key }));
  resetProjectChecks(); // as in a new provider process
  let before = tc.counts();
  await Promise.all(states.map((s) => tc.object.read(s.id, s.outputs)));
  expect(tc.countsSince(before)).toEqual({ HeadObject: 3 });

  // An object gone is confirmed as gone with the token checked: one HEAD of the account more.
  await tc.sdk.deleteObject("site-files", "c.txt");
  before = tc.counts();
  expect((await tc.object.read(states[2]!.id, states[2]!.outputs)).id).toBe("");
  expect(tc.countsSince(before)).toEqual({ HeadObject: 1, HeadAccount: 1 });

  const other = tc.cloud.control.issueCredentials({ projectId: "krcloudtestother000000000000000b" });
  if (other.kind !== "token") throw new Error("expected a token credential");
  await tc.object.configure({ ...tc.config, "krcloud:authToken": other.token });
  try {
    const err = await rejection(tc.object.read(states[0]!.id, states[0]!.outputs));
    expect(err.message).toMatch(/403|does not belong to project/);
  } finally {
    await tc.object.configure(tc.config);
    resetProjectChecks();
  }
});

test("an object this stack did not upload is never overwritten by a create: refused naming adopt, with one conditional PUT; adopt: true overwrites it", async () => {
  await tc.sdk.putObject("site-files", "docs/readme.txt", "theirs\n", { contentType: "text/plain" });
  const before = tc.counts();
  const err = await rejection(tc.object.up(README));
  expect(err.message).toMatch(
    /creating object "site-files\/docs\/readme.txt": an object with this key exists, and it does not carry this stack's ownership marker.*Set adopt: true/,
  );
  expect(tc.countsSince(before)).toMatchObject({ PutObject: 1, HeadObject: 1 });
  expect((await tc.sdk.getObject("site-files", "docs/readme.txt")).body.toString()).toBe("theirs\n");

  const adopted = await tc.object.up({ ...README, adopt: true });
  expect((await tc.sdk.getObject("site-files", "docs/readme.txt")).body.toString()).toBe(README.content);
  expect(adopted.outputs).toMatchObject({ adopt: true, etag: md5(README.content) });
});

test("a create whose answer was lost finds its own object (it carries this create's marker) and finishes: one object, the content once", async () => {
  const fault = await tc.controlApi("POST", "/faults", { service: "object-storage", operation: "PutObject", action: "lose-response", times: 1 });
  expect(fault.status).toBe(201);
  const state = await tc.object.up(README);
  expect(state.outputs).toMatchObject({ etag: md5(README.content) });
  expect((await tc.sdk.getObject("site-files", "docs/readme.txt")).body.toString()).toBe(README.content);
});
