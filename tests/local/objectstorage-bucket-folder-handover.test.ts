/**
 * BucketFolder against the local cloud, over loopback HTTP: per-file BucketObjects moved into one
 * folder without an object written or deleted (in the engine's order and in the other), objects
 * under the prefix the folder did not upload (kept and reported, or deleted with
 * deleteExtraObjects), and a destroy that touches the prefix only.
 */
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { claimKey } from "../../provider/objectstorage/folder/handover";
import { TOKENS, type EngineResource, type ResourceState, type TestCloud } from "../support/local-cloud";
import { folderTestsForFile } from "../support/local-cloud/folder";

let tc: TestCloud;
let folder: EngineResource;
let object: EngineResource;

const { makeFolder } = folderTestsForFile("krcloud-folder-handover-", async (c, f) => {
  tc = c;
  folder = f;
  object = await c.resource(TOKENS.object);
});

const md5 = (b: string) => createHash("md5").update(b).digest("hex");

async function contents(prefix?: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of (await tc.sdk.listObjects("site-files", { prefix })).entries) if (e.kind === "object") out[e.name] = e.hash ?? "";
  return out;
}

const FILES: Record<string, string> = {};
for (let i = 0; i < 12; i++) FILES[`d${i % 3}/f${i}.txt`] = `file ${i}\n`;

/** One BucketObject per file of `dir`, under `prefix`, as a per-file program makes them (the content type by extension, as pulumi-synced-folder sets it). */
async function perFileObjects(dir: string, prefix: string): Promise<ResourceState[]> {
  const out: ResourceState[] = [];
  for (const rel of Object.keys(FILES))
    out.push(await object.up({ bucket: "site-files", key: `${prefix}${rel}`, source: join(dir, rel), contentType: "text/plain" }, `o-${rel}`));
  return out;
}

test("the move: a folder with adopt takes the BucketObjects' objects from the listing (no PUT, no HEAD per key), and their deletes leave them", async () => {
  const dir = makeFolder(FILES);
  const objects = await perFileObjects(dir, "site/");
  const before = tc.counts();
  const state = await folder.up({ bucket: "site-files", path: dir, prefix: "site/", adopt: true });
  expect(tc.countsSince(before)).toEqual({ ListObjects: 1, UpdateContainerMetadata: 1 });
  expect(state.outputs.fileCount).toBe(12);
  expect(state.outputs.extraObjects).toEqual({});
  expect((await tc.sdk.getBucket("site-files")).metadata[claimKey("site/")]).toMatch(/"exclude":\[\]/);

  // The engine deletes the resources the program no longer declares after the folder's create.
  const deleting = tc.counts();
  for (const o of objects) await object.destroy(o);
  expect(tc.countsSince(deleting)).toEqual({ HeadContainer: 12 });
  expect(tc.progress().join("\n")).toMatch(
    /object "site-files\/site\/d0\/f0.txt" is left in the bucket: it is a file of the BucketFolder under "site-files\/site\/"/,
  );
  expect(await contents()).toEqual(Object.fromEntries(Object.entries(FILES).map(([rel, body]) => [`site/${rel}`, md5(body)])));
  const refreshed = (await folder.refresh(state))!;
  expect((await folder.plan(refreshed, { bucket: "site-files", path: dir, prefix: "site/", adopt: true })).diff.changes).toBe(false);

  // The folder's delete removes its files and its claim.
  await folder.destroy(refreshed);
  expect(await contents()).toEqual({});
  expect((await tc.sdk.getBucket("site-files")).metadata[claimKey("site/")]).toBeUndefined();
});

test("the move in the other order: the folder first beside the objects, the objects dropped by a later run; an object that is no file of the folder is deleted as before", async () => {
  const dir = makeFolder(FILES);
  const objects = await perFileObjects(dir, "");
  const config = await object.up({ bucket: "site-files", key: "config.json", content: "{}" }, "config");
  // A file whose object differs is uploaded over; the rest are taken as they are.
  writeFileSync(join(dir, "d1/f1.txt"), "edited\n");
  const before = tc.counts();
  const state = await folder.up({ bucket: "site-files", path: dir, adopt: true, exclude: ["*.json"] });
  expect(tc.countsSince(before)).toEqual({ ListObjects: 1, UpdateContainerMetadata: 1, PutObject: 1 });
  expect(state.outputs.extraObjects).toEqual({});

  const deleting = tc.counts();
  for (const o of [...objects, config]) await object.destroy(o);
  expect(tc.countsSince(deleting).DeleteObject).toBe(1);
  expect(Object.keys(await contents()).sort()).toEqual(Object.keys(FILES).sort());
  expect((await tc.sdk.getObject("site-files", "d1/f1.txt")).body.toString()).toBe("edited\n");
});

test("a destroy that runs no program: an object the folder took over is left by its BucketObject's delete, and the folder's delete after it deletes it", async () => {
  const dir = makeFolder(FILES);
  const objects = await perFileObjects(dir, "site/");
  const state = await folder.up({ bucket: "site-files", path: dir, prefix: "site/", adopt: true });
  // A process that has not seen the folder (fresh modules, and no provider or service module loaded
  // before: runtime.ts and registry.ts keep them on globalThis) leaves the object under the claimed
  // prefix, and its folder's delete takes it.
  const kept = [Symbol.for("krcloud.runtime.providers"), Symbol.for("krcloud.registry.modules")];
  const g = globalThis as unknown as Record<symbol, unknown>;
  const saved = kept.map((k) => g[k]);
  for (const k of kept) delete g[k];
  jest.resetModules();
  try {
    const { EngineResource } = jest.requireActual<typeof import("../support/local-cloud")>("../support/local-cloud");
    const fresh = { object: new EngineResource(TOKENS.object), folder: new EngineResource("krcloud:objectstorage:BucketFolder") };
    for (const r of Object.values(fresh)) await r.configure(tc.config);
    const before = tc.counts();
    await fresh.object.destroy(objects[0]!);
    expect(tc.countsSince(before)).toEqual({ HeadContainer: 1 });
    expect(Object.keys(await contents())).toContain("site/d0/f0.txt");
    // The folder's recorded files no longer include it (a manifest of the others).
    const manifest = { ...(state.outputs.manifest as Record<string, string>) };
    delete manifest["site/d0/f0.txt"];
    await fresh.folder.destroy({ ...state, outputs: { ...state.outputs, manifest } });
  } finally {
    kept.forEach((k, i) => (g[k] = saved[i]));
  }
  expect(await contents()).toEqual({});
});

test("objects under the prefix the folder did not upload: kept and reported by default; deleteExtraObjects deletes them at the next up and at destroy; keys outside the prefix are never touched", async () => {
  const dir = makeFolder({ "a.txt": "a", "b.txt": "b" });
  await tc.sdk.putObject("site-files", "outside.txt", "not the folder's", { contentType: "text/plain" });
  await tc.sdk.putObject("site-files", "www/stray.txt", "stray", { contentType: "text/plain" });
  const args = { bucket: "site-files", path: dir, prefix: "www/" };
  const state = await folder.up(args);
  expect(state.outputs.extraObjects).toEqual({ "www/stray.txt": `${md5("stray")} 5 text/plain` });
  const refreshed = (await folder.refresh(state))!;
  expect((await folder.plan(refreshed, args)).diff.changes).toBe(false);

  // With the option, a refresh that finds one plans an update, which deletes it.
  const opted = await folder.apply(refreshed, { ...args, deleteExtraObjects: true });
  expect(opted.outputs.extraObjects).toEqual({});
  expect(Object.keys(await contents()).sort()).toEqual(["outside.txt", "www/a.txt", "www/b.txt"]);
  await tc.sdk.putObject("site-files", "www/later.txt", "later", { contentType: "text/plain" });
  const found = (await folder.refresh(opted))!;
  const plan = await folder.plan(found, { ...args, deleteExtraObjects: true });
  expect(plan.diff.changes).toBe(true);
  expect(plan.diff.notes).toEqual([
    'folder "site-files/www/": 1 object under the prefix that the folder did not upload is deleted (deleteExtraObjects): www/later.txt',
  ]);
  const cleaned = await folder.apply(found, { ...args, deleteExtraObjects: true });
  expect(Object.keys(await contents()).sort()).toEqual(["outside.txt", "www/a.txt", "www/b.txt"]);

  // Destroy: the prefix only, the strays with it (the option), never the key outside.
  await tc.sdk.putObject("site-files", "www/at-destroy.txt", "x", { contentType: "text/plain" });
  await folder.destroy(cleaned);
  expect(Object.keys(await contents())).toEqual(["outside.txt"]);
});

test("destroy without deleteExtraObjects deletes the folder's files only: strays and excluded keys stay", async () => {
  const dir = makeFolder({ "a.txt": "a" });
  const state = await folder.up({ bucket: "site-files", path: dir, prefix: "www/", exclude: ["logs/**"] });
  await tc.sdk.putObject("site-files", "www/logs/1.log", "GET /", { contentType: "text/plain" });
  await tc.sdk.putObject("site-files", "www/stray.txt", "stray", { contentType: "text/plain" });
  const refreshed = (await folder.refresh(state))!;
  expect(Object.keys(refreshed.outputs.extraObjects as object)).toEqual(["www/stray.txt"]);
  await folder.destroy(refreshed);
  expect(Object.keys(await contents()).sort()).toEqual(["www/logs/1.log", "www/stray.txt"]);
});
