/**
 * krcloud-drift's remedies for a BucketFolder (drift/remediation.ts): its drift is in outputs no
 * program sets, so its remedies name the folder's files and the inputs that decide, on the resource
 * the program declares (the folder, or the StaticSite whose child it is). The engine tests run each
 * line (tests/engine/folder-remedies.test.ts); here, which lines are printed.
 */
import { matchesGlob } from "node:path";
import { analyzeEvents } from "../../drift/analyze";
import type { PropertyFinding, ResourceResult } from "../../drift/model";
import { addFixes, literalGlob } from "../../drift/remediation";
import { DYNAMIC, previewEvents } from "../support/drift/events";

const FOLDER = "krcloud:objectstorage:BucketFolder";
const ctx = { stack: "dev" };
const URN = `urn:pulumi:dev::web::${DYNAMIC(FOLDER)}::content`;
const CHILD_URN = `urn:pulumi:dev::web::krcloud:objectstorage:StaticSite$krcloud:objectstorage:BucketFolder::www-content`;
const finding = (path: string, cloud?: string, program?: string): PropertyFinding => ({
  path,
  origin: "cloud",
  disposition: "new",
  fingerprint: "f",
  ...(cloud !== undefined ? { cloud } : {}),
  ...(program !== undefined ? { program } : {}),
});
const row = (urn: string, name: string, properties: PropertyFinding[]): ResourceResult => ({ urn, name, type: FOLDER, status: "drifted", properties });
const inputs = { bucket: "b", path: "site", prefix: "www/", exclude: [], deleteExtraObjects: false };
const up = (urn: string) => `pulumi up --stack dev --refresh --run-program --target '${urn}'`;

test("an object the folder did not upload: revert sets deleteExtraObjects (the only option that deletes it) and runs the targeted up; accept excludes its key", () => {
  const r = row(URN, "content", [finding('extraObjects["www/x.txt"]', "xx 5 text/plain")]);
  addFixes([r], new Map([[URN, inputs]]), ctx);
  expect(r.fix).toEqual({
    revert: `in the program, set deleteExtraObjects: true on "content" (only that option deletes the objects under its prefix it did not upload: "www/x.txt"); then: ${up(URN)}`,
    accept: `in the program, add "x.txt" to the exclude of "content" (keys it leaves out are not the folder's); then: ${up(URN)}`,
  });
  // Never a line that sets an output.
  expect(JSON.stringify(r.fix)).not.toMatch(/extraObjects:|manifest:|acceptValues/);

  const on = row(URN, "content", [finding('extraObjects["www/x.txt"]', "xx 5 text/plain")]);
  addFixes([on], new Map([[URN, { ...inputs, deleteExtraObjects: true }]]), ctx);
  expect(on.fix!.revert).toBe(up(URN));
});

test("a StaticSite's folder: what to write is said on the site, which the program declares; the command targets the child", () => {
  const r = row(CHILD_URN, "www-content", [finding('extraObjects["www/x.txt"]', "xx 5 text/plain")]);
  addFixes([r], new Map([[CHILD_URN, inputs]]), ctx);
  expect(r.fix!.revert).toBe(
    `in the program, set deleteExtraObjects: true on the StaticSite "www" (only that option deletes the objects under its prefix it did not upload: "www/x.txt"); then: ${up(CHILD_URN)}`,
  );
  expect(r.fix!.accept).toBe(
    `in the program, add "x.txt" to the exclude of the StaticSite "www" (keys it leaves out are not the folder's); then: ${up(CHILD_URN)}`,
  );
});

test("a changed or missing object: revert is the targeted up; accept makes the folder's file what the bucket holds, or removes it", () => {
  const r = row(URN, "content", [
    finding("manifestDigest", "sha256:2", "sha256:1"),
    finding('manifest["www/a.txt"]', "bb 7 text/plain", "aa 1 text/plain"),
    finding('manifest["www/gone.txt"]', undefined, "cc 1 text/plain"),
  ]);
  addFixes([r], new Map([[URN, inputs]]), ctx);
  expect(r.fix).toEqual({
    revert: up(URN),
    accept: `make the folder's files what the bucket holds: put the objects' content into "site/a.txt" (the content type comes from the extension or contentTypes); remove "site/gone.txt" from the folder (the objects are gone); then: ${up(URN)}`,
  });
});

test("objects recorded as extra and gone since: the state only has to learn it", () => {
  const r = row(URN, "content", [finding('extraObjects["www/x.txt"]', undefined, "xx 5 text/plain")]);
  addFixes([r], new Map([[URN, inputs]]), ctx);
  const refresh = `pulumi refresh --stack dev --run-program --yes --target '${URN}'`;
  expect(r.fix).toEqual({ revert: refresh, accept: refresh });
});

test("drift in outputs alone plans no step, and its remedies still know the inputs refresh read (deleteExtraObjects set: the targeted up deletes it)", () => {
  const folder = { bucket: "b", path: "site", prefix: "www/", exclude: [], deleteExtraObjects: true, manifest: {}, extraObjects: {} };
  const extra = { ...folder, extraObjects: { "www/x.txt": "xx 5 text/plain" } };
  const analysis = analyzeEvents(previewEvents([{ name: "content", type: DYNAMIC(FOLDER), op: "same", before: folder, after: extra, program: folder }]));
  const [r] = analysis.resources;
  addFixes(analysis.resources, analysis.cloudInputs, ctx);
  expect(r!.fix!.revert).toBe(up(r!.urn));
});

test("a key as an exclude glob matches that key, and not its neighbours", () => {
  for (const key of ["plain.txt", "a*b?.txt", "[draft] notes (1).md", "x{a,b}.js", "!bang.txt", "a!(b).txt", "dir/@scoped+file.txt", ".well-known/x"]) {
    expect(matchesGlob(key, literalGlob(key))).toBe(true);
    expect(matchesGlob(`${key}x`, literalGlob(key))).toBe(false);
  }
  expect(matchesGlob("aXXb1.txt", literalGlob("a*b?.txt"))).toBe(false);
});
