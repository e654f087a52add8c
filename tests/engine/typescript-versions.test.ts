/**
 * The TypeScript a user's project gets compiles what the documentation gives them, at both ends of
 * the peer range (`>=5.5.0 <7`) and in between: TypeScript 5.5.4 (the oldest), 5.9.3 (this
 * repository's) and 6.0.3 (the newest, what npm installs as the peer dependency). Each compiles,
 * with `tsc -p` and the project's own tsconfig.json, against the package's declarations:
 *
 * - every TypeScript example (examples/<x>: TypeScript 6 refused their `moduleResolution: node`,
 *   TS5107, and `node16` resolution with `module: commonjs`, TS5110);
 * - the TypeScript template (templates/typescript) as `pulumi new` writes it;
 * - the program `krcloud-drift --unmanaged` writes (its tsconfig);
 * - the TypeScript blocks of README.md and the examples' READMEs, in a project with that tsconfig.
 *
 * The compilers come from the npm registry into a temporary directory (the repository's own
 * devDependency stays 5.9.3: aliases of typescript would fight over node_modules/.bin/tsc).
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PROGRAM_TSCONFIG, typescriptProgram } from "../../drift/unmanaged/generate";
import { REPO_ROOT } from "../harness/engine";
import { tsBlocks } from "../support/docs/typescript-blocks";

jest.setTimeout(15 * 60_000);

const VERSIONS = ["5.5.4", "5.9.3", "6.0.3"];

let root: string;
/** Project directories to compile, each with its tsconfig.json; they resolve packages from the repository's node_modules. */
const projects: { name: string; dir: string }[] = [];

/** A project in the sandbox: its files, the repository's node_modules linked in. */
function project(name: string, files: Record<string, string>): void {
  const dir = path.join(root, "projects", name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  projects.push({ name, dir });
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-ts-versions-"));
  fs.writeFileSync(path.join(root, "package.json"), '{ "name": "compilers", "private": true }\n');
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", ...VERSIONS.map((v) => `typescript-${v}@npm:typescript@${v}`)], {
    cwd: root,
    stdio: "pipe",
    env: { ...process.env, npm_config_update_notifier: "false" },
  });

  for (const e of ["static-site", "cache", "data-pipeline"]) projects.push({ name: `examples/${e}`, dir: path.join(REPO_ROOT, "examples", e) });
  const template = path.join(REPO_ROOT, "templates", "typescript");
  project(
    "templates/typescript",
    Object.fromEntries(["index.ts", "tsconfig.json"].map((f) => [f, fs.readFileSync(path.join(template, f), "utf8").replaceAll("${PROJECT}", "my-site")])),
  );
  const bucket = { token: "krcloud:objectstorage:Bucket", id: "found", name: "found", service: "objectstorage" as const, kind: "bucket", managed: false };
  const generated = typescriptProgram([{ resource: bucket, logicalName: "found", inputs: { name: "found" }, fromConfig: [], adoptable: true }], "adopted", {
    krcloud: "git+https://github.com/krcloud/pulumi-krcloud.git#v0.1.0",
    pulumi: "3.260.0",
  });
  project("krcloud-drift --unmanaged", { "index.ts": generated.files["index.ts"]!, "tsconfig.json": generated.files["tsconfig.json"]! });
  const snippets = ["README.md", ...fs.readdirSync(path.join(REPO_ROOT, "examples")).map((e) => path.join("examples", e, "README.md"))]
    .filter((f) => fs.existsSync(path.join(REPO_ROOT, f)))
    .flatMap((f) => tsBlocks(REPO_ROOT, f).map((b) => b.text));
  expect(snippets.length).toBeGreaterThanOrEqual(3);
  // Each block is a module of its own (they declare the same names).
  const files = Object.fromEntries(snippets.map((s, i) => [`snippet-${i}.ts`, `${s}\nexport {};\n`]));
  project("README blocks", { ...files, "tsconfig.json": JSON.stringify({ ...PROGRAM_TSCONFIG, files: Object.keys(files) }, null, 2) });
});

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test.each(VERSIONS)("TypeScript %s compiles the examples, the template, the generated program and the README blocks", (version) => {
  const tsc = path.join(root, "node_modules", `typescript-${version}`, "bin", "tsc");
  expect(execFileSync(process.execPath, [tsc, "--version"], { encoding: "utf8" }).trim()).toBe(`Version ${version}`);
  const failures: string[] = [];
  for (const p of projects) {
    const r = spawnSync(process.execPath, [tsc, "-p", path.join(p.dir, "tsconfig.json"), "--noEmit"], { cwd: p.dir, encoding: "utf8" });
    if (r.status !== 0) failures.push(`${p.name}:\n${r.stdout}${r.stderr}`);
  }
  expect(failures).toEqual([]);
});
