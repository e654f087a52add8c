/**
 * The test fixture of BucketFolder (`krcloud:objectstorage:BucketFolder`,
 * provider/objectstorage/bucket-folder.ts): every fact the tests that walk the types need
 * (tests/resources/fixture.ts says what each is; index.ts derives the tables from them).
 */
import fc from "fast-check";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import type { Entry } from "../../support/faults/sim-stack";
import type { CloudKind, DriftFact, FaultRow, OutsideFact, SecretsFact, ZeroDiffSpec } from "../fixture";
import { site } from "./bucket";

/** A small site: two pages, a stylesheet and a hidden file. */
const SAMPLE: Record<string, string> = {
  "index.html": "<h1>krcloud</h1>\n",
  "404.html": "<h1>not found</h1>\n",
  "css/site.css": "h1 { color: teal }\n",
  ".env": "HIDDEN=1\n",
};
let folder: string | undefined;
/**
 * The sample site as a folder: one per temporary directory and content (named by its digest),
 * shared by the test processes; made aside and moved into place, so that a process that finds it
 * finds it whole.
 */
export function sampleFolder(): string {
  if (folder === undefined) {
    const digest = createHash("sha256").update(JSON.stringify(SAMPLE)).digest("hex").slice(0, 12);
    const dir = join(tmpdir(), `krcloud-folder-fixture-${digest}`);
    if (!existsSync(dir)) {
      const aside = mkdtempSync(`${dir}-`);
      for (const [file, text] of Object.entries(SAMPLE)) {
        mkdirSync(dirname(join(aside, file)), { recursive: true });
        writeFileSync(join(aside, file), text);
      }
      try {
        renameSync(aside, dir);
      } catch {
        // Another process moved its copy first: the same files.
        rmSync(aside, { recursive: true, force: true });
      }
    }
    folder = dir;
  }
  return folder;
}

/** Inputs check accepts (no input is secret). */
export const valid: Input = { bucket: "valid-bucket", path: sampleFolder(), prefix: "site/" };

/** The rules of its inputs that tie several properties together: none (the folder's facts are checked in derive). */
export function crossFieldRules(): TypeRules {
  return {
    values: {
      path: fc.constant(sampleFolder()),
      // Short enough that every file's key fits 396 characters (a longer one is refused naming path).
      prefix: fc.constantFrom("", "site/", "a/b/", "문서/"),
      // Globs a person writes: fast-glob fails on some random strings, which check then refuses naming include.
      "include[]": fc.constantFrom("**", "**/*.html", "css/*", "*.{html,css}", "!(404).html"),
      "exclude[]": fc.constantFrom("**/*.map", ".env", "404.html", "css/**"),
    },
    rules: [],
  };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  deps: () => [site],
  args: (_p, s) => ({ bucket: s.id("site"), path: sampleFolder(), prefix: "site/" }),
  // The same keys in the other stack's bucket (which this stack names explicitly).
  collides: (_p, theirs) => ({ bucket: theirs.id("site"), path: sampleFolder(), prefix: "site/" }),
  updated: (_p, s) => ({ bucket: s.id("site"), path: sampleFolder(), prefix: "site/", cacheControl: "max-age=60" }),
  ops: { create: "PutObject", update: "PutObject", read: "ListObjects", delete: "DeleteObject" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  // A bucket of its own: with the default prefix every other object of its bucket would be one it
  // did not upload (`extraObjects`), which krcloud-drift reports.
  base: ({ r, ref }) => [
    r("folder-bucket", "krcloud:objectstorage:Bucket", {}),
    r("site-folder", "krcloud:objectstorage:BucketFolder", { bucket: ref("folder-bucket", "name"), path: sampleFolder() }),
  ],
  varied: ({ r, ref }) => [
    r("site-folder", "krcloud:objectstorage:BucketFolder", {
      bucket: ref("bucket", "name"),
      path: sampleFolder(),
      prefix: "www/",
      include: ["**/*.html", "**/*.css", "**/.env"],
      exclude: ["404.html"],
      hidden: true,
      contentTypes: { ".env": "text/plain" },
      defaultContentType: "application/octet-stream",
      cacheControl: "max-age=300",
      deleteRemoved: true,
      adopt: false,
    }),
  ],
};

/** What the cloud holds for it: one object per manifest entry (its keys carry the prefix), in the folder's bucket. */
export const cloudKinds = (e: Entry): CloudKind[] =>
  Object.keys((e.outputs.manifest as Record<string, unknown> | undefined) ?? {}).map((k) => ({
    kind: "object-storage/object",
    id: `${String(e.outputs.bucket)}/${k}`,
  }));

/**
 * One of its files deleted from the bucket, through the control API: reported under `manifest` by
 * its key, and as `manifestDigest` (the input the engine compares).
 */
export const drift: DriftFact = {
  noRecipe: "a folder is many objects, not one control record a recipe could snapshot",
  async change({ control }, r) {
    const [key] = Object.keys((r.outputs?.manifest as Record<string, unknown> | undefined) ?? {}).sort();
    if (key === undefined) throw new Error(`${r.urn} uploaded nothing to drift`);
    await control.deleteResource("object-storage", "object", `${String(r.outputs!.bucket)}/${key}`);
    return ["manifest", "manifestDigest"];
  },
};

export const outside: OutsideFact = {
  none: "a folder is objects under a prefix beside a local folder: its adopt is tested against the local cloud (tests/local/objectstorage-bucket-folder.test.ts), its import by tests/engine/bucket-folder.test.ts",
};

export const secrets: SecretsFact = { none: "no secret input" };
