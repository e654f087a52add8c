/**
 * krcloud:objectstorage:BucketFolder driven as the Pulumi engine drives it, against the local cloud
 * over loopback HTTP: basic, update in place (only changed files go up), replace, disappears,
 * drift per key, adopt, bad input with no request, partial failure, lost answer, a killed create
 * run again, an encrypted bucket.
 */
import { createHash } from "node:crypto";
import { unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckFailed, rejection, type EngineResource, type ResourceState, type TestCloud } from "../support/local-cloud";
import { folderTestsForFile } from "../support/local-cloud/folder";

const OWNED = expect.stringMatching(/^[0-9a-f]{16}$/) as unknown as string;

let tc: TestCloud;
let folder: EngineResource;

const { makeFolder, root } = folderTestsForFile("krcloud-folder-test-", (c, f) => {
  tc = c;
  folder = f;
});

const md5 = (b: Buffer | string) => createHash("md5").update(b).digest("hex");

async function keys(bucket = "site-files", prefix?: string): Promise<string[]> {
  const page = await tc.sdk.listObjects(bucket, { prefix });
  return page.entries.flatMap((e) => (e.kind === "object" ? [e.name] : [])).sort();
}

const SITE = { "index.html": "<h1>hi</h1>\n", "css/site.css": "h1{}\n", "data/x.unknownext": "x", ".hidden": "secret-ish\n" };

test("basic: every selected file goes up once with its content type and the marker; refresh shows no change", async () => {
  const path = makeFolder(SITE);
  const args = { bucket: "site-files", path, prefix: "www/", contentTypes: { ".unknownext": "text/x-custom" }, cacheControl: "max-age=60" };
  const before = tc.counts();
  const state = await folder.up(args);
  expect(tc.countsSince(before).PutObject).toBe(3);
  expect(state.id).toBe("site-files/www/");
  expect(await keys()).toEqual(["www/css/site.css", "www/data/x.unknownext", "www/index.html"]);
  expect(state.outputs.manifest).toEqual({
    "www/css/site.css": `${md5(SITE["css/site.css"])} 5 text/css`,
    "www/data/x.unknownext": `${md5("x")} 1 text/x-custom`,
    "www/index.html": `${md5(SITE["index.html"])} 12 text/html`,
  });
  // The engine compares a digest of the manifest, never the manifest itself: it is no input.
  expect(state.inputs.manifest).toBeUndefined();
  expect(state.inputs.manifestDigest).toBe(state.outputs.manifestDigest);
  expect(state.outputs).toMatchObject({ fileCount: 3, totalBytes: 18 });
  const got = await tc.sdk.getObject("site-files", "www/index.html");
  expect(got.body.toString()).toBe(SITE["index.html"]);
  expect(got.cacheControl).toBe("max-age=60");
  expect(got.metadata).toEqual({ "krcloud-owner": OWNED });

  const cursor = tc.logCursor();
  const refreshed = (await folder.refresh(state))!;
  expect(tc.requestsSince(cursor).map((r) => r.operation)).toEqual(["ListObjects"]);
  expect((await folder.plan(refreshed, args)).diff.changes).toBe(false);

  const hidden = await folder.up({ ...args, prefix: "all/", hidden: true });
  expect(Object.keys(hidden.outputs.manifest as object)).toContain("all/.hidden");
});

test("the listing floor: a deploy from a fresh clone of 1,000 and of 2,000 unchanged files reads 1 and 2 listing pages (the answer's object count ends the walk at a full page) and uploads nothing; so does a refresh", async () => {
  const deployed: Record<number, ResourceState> = {};
  for (const n of [1000, 2000]) {
    const bucket = `floor-${n}`;
    await tc.sdk.createBucket({ name: bucket });
    const files: Record<string, string> = {};
    for (let i = 0; i < n; i++) files[`d${i % 10}/f${i}.txt`] = `file ${i}\n`;
    const args = { bucket, path: makeFolder(files), prefix: "site/" };
    const state = await folder.up(args);
    expect(state.outputs.fileCount).toBe(n);
    // A fresh clone: the same files at another path, each new, no hash kept for them.
    const cursor = tc.logCursor();
    const next = await folder.apply(state, { ...args, path: makeFolder(files) });
    expect(next.diff.changes).toBe(true);
    expect(tc.requestsSince(cursor).map((r) => r.operation)).toEqual(Array<string>(n / 1000).fill("ListObjects"));
    const refreshed = tc.logCursor();
    expect((await folder.refresh(next))!.outputs.fileCount).toBe(n);
    expect(tc.requestsSince(refreshed).map((r) => r.operation)).toEqual(Array<string>(n / 1000).fill("ListObjects"));
    deployed[n] = next;
  }
  // Beside an object outside the prefix the bucket's count cannot say the prefix is done: one page more.
  await tc.sdk.putObject("floor-1000", "elsewhere.txt", "x");
  const cursor = tc.logCursor();
  await folder.refresh(deployed[1000]!);
  expect(tc.requestsSince(cursor).map((r) => r.operation)).toEqual(["ListObjects", "ListObjects"]);
  // 3,000 uploads and 6,000 files hashed: about 25 s on the shared 2-core machine, more under load.
}, 180_000);

test("update in place: one changed, one added, one removed is 2 PUTs and 1 DELETE; nothing else is touched", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) files[`p/${i}.txt`] = `file ${i}\n`;
  const path = makeFolder(files);
  const args = { bucket: "site-files", path };
  const state = await folder.up(args);
  writeFileSync(join(path, "p/3.txt"), "changed\n");
  writeFileSync(join(path, "p/new.txt"), "added\n");
  unlinkSync(join(path, "p/7.txt"));

  const before = tc.counts();
  const next = await folder.apply(state, args);
  expect(next.diff.changes).toBe(true);
  expect(next.diff.replaces ?? []).toEqual([]);
  expect(next.diff.diffs).toEqual(["manifestDigest"]);
  // The preview names the files, as the digest does not.
  expect(next.diff.notes).toEqual(['folder "site-files/": 3 files differ (1 changed, 1 added, 1 removed): ~p/3.txt, +p/new.txt, -p/7.txt']);
  const ops = tc.countsSince(before);
  expect(ops.PutObject).toBe(2);
  expect(ops.DeleteObject).toBe(1);
  expect((await tc.sdk.getObject("site-files", "p/3.txt")).body.toString()).toBe("changed\n");
  expect(await keys()).toHaveLength(30);
  expect(await keys()).not.toContain("p/7.txt");
  expect((await folder.plan((await folder.refresh(next))!, args)).diff.changes).toBe(false);

  // deleteRemoved false: a removed file stays in the bucket and leaves the manifest.
  unlinkSync(join(path, "p/8.txt"));
  const kept = await folder.apply(next, { ...args, deleteRemoved: false });
  expect(kept.diff.notes).toEqual(['folder "site-files/": 1 file differs (0 changed, 0 added, 1 removed, left in the bucket): -p/8.txt']);
  expect(await keys()).toContain("p/8.txt");
  expect(Object.keys(kept.outputs.manifest as object)).not.toContain("p/8.txt");
});

test("replace: a new prefix uploads there and the old folder's delete removes the old keys", async () => {
  const path = makeFolder({ "a.txt": "a", "b.txt": "b" });
  const state = await folder.up({ bucket: "site-files", path, prefix: "v1/" });
  const { diff } = await folder.plan(state, { bucket: "site-files", path, prefix: "v2/" });
  expect(diff.replaces).toEqual(["prefix"]);
  await folder.up({ bucket: "site-files", path, prefix: "v2/" });
  await folder.destroy(state);
  expect(await keys()).toEqual(["v2/a.txt", "v2/b.txt"]);
});

test("drift per key: a changed and a missing key show in the refreshed manifest, an object the folder did not upload in extraObjects (never deleted); disappears when nothing is left", async () => {
  const path = makeFolder({ "a.txt": "a", "b.txt": "b", "c.txt": "c" });
  const args = { bucket: "site-files", path };
  const state = await folder.up(args);
  await tc.sdk.putObject("site-files", "a.txt", "changed behind Pulumi's back", { contentType: "text/plain" });
  await tc.sdk.deleteObject("site-files", "b.txt");
  await tc.sdk.putObject("site-files", "extra.txt", "extra", { contentType: "text/plain" });
  const refreshed = (await folder.refresh(state))!;
  const m = refreshed.outputs.manifest as Record<string, string>;
  expect(m["a.txt"]).toBe(`${md5("changed behind Pulumi's back")} 28 text/plain`);
  expect(m["b.txt"]).toBeUndefined();
  expect(m["c.txt"]).toBe(`${md5("c")} 1 text/plain`);
  expect(m["extra.txt"]).toBeUndefined();
  expect(refreshed.outputs.extraObjects).toEqual({ "extra.txt": `${md5("extra")} 5 text/plain` });
  // The next up puts it right: a and b go up again; the object it did not upload stays.
  const before = tc.counts();
  await folder.apply(refreshed, args);
  expect(tc.countsSince(before)).toEqual({ ListObjects: 1, PutObject: 2 });
  expect(await keys()).toEqual(["a.txt", "b.txt", "c.txt", "extra.txt"]);

  for (const k of ["a.txt", "b.txt", "c.txt"]) await tc.sdk.deleteObject("site-files", k);
  expect(await folder.refresh(state)).toBeUndefined();
});

test("keys the exclude globs leave out are not the folder's: a refresh does not report them as extra (a site's logs beside it)", async () => {
  const path = makeFolder({ "index.html": "<h1>hi</h1>", "app.js.map": "{}" });
  const args = { bucket: "site-files", path, exclude: ["logs/**", "**/*.map"] };
  const state = await folder.up(args);
  expect(Object.keys(state.outputs.manifest as object)).toEqual(["index.html"]);
  await tc.sdk.putObject("site-files", "logs/2026-11-27.log", "GET /", { contentType: "text/plain" });
  await tc.sdk.putObject("site-files", "old.js.map", "{}", { contentType: "application/json" });
  await tc.sdk.putObject("site-files", "stray.txt", "?", { contentType: "text/plain" });
  const refreshed = (await folder.refresh(state))!;
  expect(Object.keys(refreshed.outputs.extraObjects as object)).toEqual(["stray.txt"]);
  expect((await folder.plan(refreshed, args)).diff.changes).toBe(false);
});

test("adopt: keys another stack made are refused before any upload, naming adopt; adopt: true takes them over", async () => {
  const path = makeFolder({ "a.txt": "a", "b.txt": "b" });
  await tc.sdk.putObject("site-files", "b.txt", "theirs", { contentType: "text/plain" });
  const before = tc.counts();
  await expect(folder.up({ bucket: "site-files", path })).rejects.toThrow(
    /1 of its keys exist already without this stack's ownership marker \("b.txt"\).*adopt: true/,
  );
  expect(tc.countsSince(before).PutObject).toBeUndefined();
  await folder.up({ bucket: "site-files", path, adopt: true });
  expect((await tc.sdk.getObject("site-files", "b.txt")).body.toString()).toBe("b");
});

test("bad input is refused by check, naming the property and the rule, with no request", async () => {
  const path = makeFolder({ "a.txt": "a" });
  const before = tc.totalRequests();
  const failures = async (args: Record<string, unknown>) => (await folder.check({}, args)).failures.map((f) => `${f.property}: ${f.reason}`).join("\n");
  expect(await failures({ bucket: "site-files", path, prefix: "/abs/" })).toMatch(/prefix.*must be empty or end with '\/'/);
  expect(await failures({ bucket: "site-files", path, prefix: "noslash" })).toMatch(/prefix.*must be empty or end with '\/'/);
  expect(await failures({ bucket: "site-files", path: join(root(), "nope") })).toMatch(/path.*does not exist/);
  expect(await failures({ bucket: "site-files", path: join(path, "a.txt") })).toMatch(/path.*is not a folder/);
  expect(await failures({ bucket: "site-files", path, contentTypes: { md: "text/markdown" } })).toMatch(/contentTypes.*file extensions with their dot/);
  expect(await failures({ bucket: "site-files", path, include: [] })).toMatch(/include.*at least one glob/);
  expect(tc.totalRequests()).toBe(before);
  await expect(folder.up({ bucket: "site-files", path, prefix: "/abs/" })).rejects.toThrow(CheckFailed);
});

test("partial failure: what went up is recorded, and the next up uploads only the rest", async () => {
  const path = makeFolder({ "a.txt": "a", "b.txt": "b", "broken.txt": "c" });
  const fault = await tc.controlApi("POST", "/faults", {
    service: "object-storage",
    operation: "PutObject",
    pathRegex: "broken\\.txt$",
    action: "error",
    status: 400,
  });
  expect(fault.status).toBe(201);
  const args = { bucket: "site-files", path };
  const err = await rejection(folder.up(args));
  expect(err.id).toBe("site-files/");
  expect(Object.keys(err.properties.manifest as object).sort()).toEqual(["a.txt", "b.txt"]);
  expect(err.reasons).toEqual([expect.stringMatching(/uploading ".*broken\.txt" to "site-files\/broken\.txt"/)]);
  await tc.controlApi("DELETE", "/faults");
  const recorded = { id: err.id, inputs: err.properties, outputs: err.properties };
  const before = tc.counts();
  const next = await folder.apply(recorded, args);
  expect(next.diff.changes).toBe(true);
  expect(tc.countsSince(before).PutObject).toBe(1);
  expect(await keys()).toEqual(["a.txt", "b.txt", "broken.txt"]);
});

test("a lost answer on an upload, and a create killed and run again, converge: the bucket equals the folder, each file once", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 20; i++) files[`${i}.txt`] = `body ${i}`;
  const path = makeFolder(files);
  await tc.controlApi("POST", "/faults", { service: "object-storage", operation: "PutObject", action: "lose-response", times: 1 });
  const state = await folder.up({ bucket: "site-files", path });
  expect(state.outputs.fileCount).toBe(20);
  for (const [rel, body] of Object.entries(files)) expect((await tc.sdk.getObject("site-files", rel)).body.toString()).toBe(body);

  // A killed `up`: the create ran (here: in full) but nothing was recorded; the same resource's
  // create runs again with the same create key, finds its own objects by hash and uploads nothing.
  const path2 = makeFolder(files);
  const { inputs } = await folder.check({}, { bucket: "site-files", path: path2, prefix: "again/" }, "killed");
  await folder.create(inputs);
  const before = tc.counts();
  const again = await folder.create(inputs);
  expect(tc.countsSince(before).PutObject).toBeUndefined();
  expect(again.outputs.fileCount).toBe(20);
  expect(tc.progress().join("\n")).toMatch(/20 files are there already with this stack's marker/);
});

test("an encrypted bucket takes a folder like any other", async () => {
  await tc.sdk.createBucket({ name: "sealed", encryption: { type: "managed" } });
  const path = makeFolder({ "a.txt": "a", "b/c.json": "{}" });
  const state = await folder.up({ bucket: "sealed", path });
  expect(await keys("sealed")).toEqual(["a.txt", "b/c.json"]);
  expect((state.outputs.manifest as Record<string, string>)["b/c.json"]).toBe(`${md5("{}")} 2 application/json`);
  await folder.destroy(state);
  expect(await keys("sealed")).toEqual([]);
});

test("a file over multipartThreshold goes up in parts; its multipart ETag is recorded and a refresh shows no change", async () => {
  const big = Buffer.alloc(6 * 1024 * 1024, 7);
  const path = makeFolder({ "small.txt": "s" });
  writeFileSync(join(path, "big.bin"), big);
  const args = { bucket: "site-files", path, multipartThreshold: 5 * 1024 * 1024, partSize: 5 * 1024 * 1024 };
  const state = await folder.up(args);
  expect((state.outputs.manifest as Record<string, string>)["big.bin"]).toBe(`${md5(big)} ${big.length} application/octet-stream`);
  expect(Object.keys(state.outputs.largeEtags as object)).toEqual(["big.bin"]);
  expect((await tc.sdk.getObject("site-files", "big.bin")).body.equals(big)).toBe(true);
  expect((await folder.plan((await folder.refresh(state))!, args)).diff.changes).toBe(false);
});

test("import: the listing under the prefix becomes the manifest; the declaring program's up uploads only what differs and deletes what the folder lacks", async () => {
  await tc.sdk.putObject("site-files", "www/same.txt", "same", { contentType: "text/plain" });
  await tc.sdk.putObject("site-files", "www/old.txt", "old", { contentType: "text/plain" });
  await tc.sdk.putObject("site-files", "www/gone.txt", "gone", { contentType: "text/plain" });
  await tc.sdk.putObject("site-files", "elsewhere.txt", "not under the prefix", { contentType: "text/plain" });
  const imported = await folder.read("site-files/www/", {});
  expect(imported.id).toBe("site-files/www/");
  expect(imported.props.manifest).toEqual({
    "www/gone.txt": `${md5("gone")} 4 text/plain`,
    "www/old.txt": `${md5("old")} 3 text/plain`,
    "www/same.txt": `${md5("same")} 4 text/plain`,
  });
  expect(imported.props).toMatchObject({ bucket: "site-files", prefix: "www/", fileCount: 3 });

  const path = makeFolder({ "same.txt": "same", "old.txt": "new!", "added.txt": "added" });
  const before = tc.counts();
  const next = await folder.apply({ id: imported.id, inputs: imported.inputs ?? {}, outputs: imported.props }, { bucket: "site-files", path, prefix: "www/" });
  expect(next.diff.notes).toEqual(['folder "site-files/www/": 3 files differ (1 changed, 1 added, 1 removed): ~www/old.txt, +www/added.txt, -www/gone.txt']);
  const ops = tc.countsSince(before);
  expect([ops.PutObject, ops.DeleteObject]).toEqual([2, 1]);
  expect(await keys()).toEqual(["elsewhere.txt", "www/added.txt", "www/old.txt", "www/same.txt"]);
  expect((await tc.sdk.getObject("site-files", "www/old.txt")).body.toString()).toBe("new!");
  expect((await folder.plan(next, { bucket: "site-files", path, prefix: "www/" })).diff.changes).toBe(false);
});
