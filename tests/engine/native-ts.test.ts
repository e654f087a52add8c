/**
 * `pulumi-krcloud/native`, the TypeScript SDK generated from schema.json by Pulumi's own code
 * generator (scripts/gen-sdks.sh, committed as sdk/nodejs/ and compiled into dist/sdk/nodejs/):
 * - sdk/nodejs/ is exactly what the generator writes from today's schema.json, so a schema change
 *   without `make sdks` fails here (and the comparison does see a changed description);
 * - every resource and function of the schema has the same module and name in the dynamic package
 *   and in the native SDK, and each native class carries its krcloud token;
 * - every dynamic `XArgs` type is assignable to the native `XArgs` (tsc, the way a user's program
 *   resolves the package), so moving a program is an import change plus aliases
 *   (native-ts-migration.test.ts runs such a move through the engine).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, toolPath } from "../harness/engine";

jest.setTimeout(900_000);

interface Schema {
  description: string;
  resources: Record<string, { description?: string }>;
  functions: Record<string, unknown>;
}
const SCHEMA_FILE = path.join(REPO_ROOT, "schema.json");
const schema = JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")) as Schema;
const NATIVE_SRC = path.join(REPO_ROOT, "sdk", "nodejs");
/** `krcloud:cache:Cluster` -> ["cache", "Cluster"]. */
const parts = (token: string): [string, string] => [token.split(":")[1]!, token.split(":")[2]!];

/**
 * Known differences between a dynamic class's args and the native args, each with its reason. The
 * test fails when one disappears (remove it here) as well as when a new one appears.
 */
/** None since the dynamic classes' Args are generated from schema.json (tools/gen-args.ts), as the native SDK's are. */
const KNOWN_ARGS_DIFFERENCES: Record<string, string> = {};

let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-native-ts-"));
});
afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Relative paths of the files under `dir`. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** The files that differ between two directories (missing on either side, or other bytes). */
function differences(a: string, b: string): string[] {
  const fa = filesUnder(a);
  const fb = filesUnder(b);
  const all = [...new Set([...fa, ...fb])].sort();
  return all.filter((f) => !fa.includes(f) || !fb.includes(f) || !fs.readFileSync(path.join(a, f)).equals(fs.readFileSync(path.join(b, f))));
}

function generate(out: string, schemaFile = SCHEMA_FILE): string {
  execFileSync("bash", [path.join(REPO_ROOT, "scripts", "gen-sdks.sh"), out], { stdio: "inherit", env: { ...process.env, KRCLOUD_SDK_SCHEMA: schemaFile } });
  return path.join(out, "nodejs");
}

test("sdk/nodejs/ is what the generator writes from today's schema.json, and a schema change shows", () => {
  const fresh = generate(path.join(tmp, "fresh"));
  expect(differences(NATIVE_SRC, fresh)).toEqual([]);

  // The same comparison against an SDK generated from a schema with one resource's description
  // changed: it names that resource's file, so the first assertion would catch a stale sdk/nodejs/.
  const edited = JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")) as Schema;
  edited.resources["krcloud:objectstorage:Bucket"]!.description = "A bucket described differently.";
  const editedFile = path.join(tmp, "edited-schema.json");
  fs.writeFileSync(editedFile, JSON.stringify(edited));
  expect(differences(NATIVE_SRC, generate(path.join(tmp, "edited"), editedFile))).toEqual(["objectstorage/bucket.ts"]);
});

test("every resource and function of the schema has the same module and name in the dynamic package and in pulumi-krcloud/native", () => {
  const dynamic = require(path.join(REPO_ROOT, "dist", "index.js")) as Record<string, Record<string, unknown>>;
  const native = require(path.join(REPO_ROOT, "dist", "sdk", "nodejs", "index.js")) as Record<string, Record<string, unknown>>;
  const missing: string[] = [];
  for (const token of [...Object.keys(schema.resources), ...Object.keys(schema.functions)]) {
    const [mod, name] = parts(token);
    if (typeof dynamic[mod]?.[name] !== "function") missing.push(`dynamic ${mod}.${name}`);
    if (typeof native[mod]?.[name] !== "function") missing.push(`native ${mod}.${name}`);
  }
  expect(missing).toEqual([]);
  for (const token of Object.keys(schema.resources)) {
    const [mod, name] = parts(token);
    expect([token, (native[mod]![name] as { __pulumiType?: string }).__pulumiType]).toEqual([token, token]);
    expect([token, (dynamic[mod]![name] as { token?: string }).token]).toEqual([token, token]);
  }
  // Every resource class of the dynamic package is in the schema (and so in the native SDK).
  const dynamicClasses = Object.entries(dynamic).flatMap(([mod, m]) =>
    Object.entries(m)
      .filter(([, v]) => typeof v === "function" && typeof (v as { token?: unknown }).token === "string")
      .map(([, v]) => (v as { token: string }).token)
      .filter((t) => t.split(":")[1] === mod),
  );
  expect(dynamicClasses.filter((t) => !(t in schema.resources))).toEqual([]);
});

test("every dynamic XArgs is assignable to the native XArgs under the module resolution of a Pulumi TypeScript program", () => {
  // A project that resolves pulumi-krcloud as an installed package: node_modules/pulumi-krcloud
  // holding package.json and the compiled dist/ (declarations included), nothing else.
  const project = path.join(tmp, "types");
  const pkg = path.join(project, "node_modules", "pulumi-krcloud");
  fs.mkdirSync(pkg, { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(pkg, "package.json"));
  fs.symlinkSync(path.join(REPO_ROOT, "dist"), path.join(pkg, "dist"), "dir");
  for (const dep of ["@pulumi", "@types", "zod", "undici", "@grpc", "google-protobuf"]) {
    if (fs.existsSync(path.join(REPO_ROOT, "node_modules", dep)))
      fs.symlinkSync(path.join(REPO_ROOT, "node_modules", dep), path.join(project, "node_modules", dep), "dir");
  }
  const tokens = Object.keys(schema.resources);
  const lines = ['import type * as dynamic from "pulumi-krcloud";', 'import type * as native from "pulumi-krcloud/native";'];
  tokens.forEach((token, i) => {
    const [mod, name] = parts(token);
    lines.push(`// ${token}`, `export const args${i}: native.${mod}.${name}Args = null as unknown as dynamic.${mod}.${name}Args;`);
  });
  fs.writeFileSync(path.join(project, "index.ts"), `${lines.join("\n")}\n`);
  const tsc = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
  // Pulumi's defaults for a TypeScript program without tsconfig.json (commonjs, Node resolution), strict.
  const base = ["--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "commonjs", "--moduleResolution", "node", "index.ts"];
  let output = "";
  try {
    execFileSync(process.execPath, [tsc, ...base], { cwd: project, encoding: "utf8", env: { ...process.env, PATH: toolPath() } });
  } catch (e) {
    output = String((e as { stdout?: string }).stdout ?? e);
  }
  // The error lines name the line of a declaration; its token is on the line above.
  const source = lines;
  const failing = [...output.matchAll(/^index\.ts\((\d+),\d+\): error/gm)].map((m) => source[Number(m[1]) - 2]!.replace(/^\/\/ /, ""));
  expect([...new Set(failing)].sort()).toEqual(Object.keys(KNOWN_ARGS_DIFFERENCES).sort());
  // Nothing else failed (an unresolved module would have no declaration line).
  expect(output.split("\n").filter((l) => /error TS/.test(l) && !/^index\.ts\(\d+,\d+\)/.test(l))).toEqual([]);
  // The native SDK also resolves through package.json "exports" (node16 resolution).
  fs.writeFileSync(
    path.join(project, "exports.ts"),
    'import * as native from "pulumi-krcloud/native";\nexport const bucket: typeof native.objectstorage.Bucket = native.objectstorage.Bucket;\n',
  );
  execFileSync(
    process.execPath,
    [tsc, "--noEmit", "--strict", "--skipLibCheck", "--target", "es2022", "--module", "node16", "--moduleResolution", "node16", "exports.ts"],
    {
      cwd: project,
      encoding: "utf8",
    },
  );
});
