/**
 * The package as users get it, installed the way README.md's Install section says: its runnable
 * block (`id=install-package`) runs as written in a sandbox, a copy of the repository at
 * `<sandbox>/krcloud` and an empty project next to it, with the machine's own PATH (tests/support/
 * runnable.ts). Then: the tarball ships only what users run (the compiled package, its schema,
 * README, LICENSE, CHANGELOG; no tests, tools, benchmarks, TypeScript sources or build info; source maps that
 * carry their sources), its metadata is publishable (`npm publish --dry-run` has nothing to say about
 * it), and the project, not linked to this repository, runs a program through the real Pulumi CLI
 * against the local cloud.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ENGINE_TEST_TIMEOUT_MS, objectText, REPO_ROOT, toolPath } from "../harness/engine";
import { claimedBlock, DocsSandbox } from "../support/docs/runnable";
import { engineFile } from "../harness/engine/engine-file";
import { tsProgram, writeFiles } from "../harness/programs";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  main: string;
  types?: string;
  repository?: { type: string; url: string };
  engines?: { node?: string };
  dependencies: Record<string, string>;
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
}
const PKG = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as PackageJson;

let docs: DocsSandbox;
/** The user's project the README's block installed the package into. */
let projectDir: string;
let tarball: string;
let files: string[];

function npm(args: string[], cwd: string): { stdout: string; stderr: string } {
  const r = spawnSync("npm", args, { cwd, encoding: "utf8", env: { ...process.env, PATH: toolPath(), npm_config_update_notifier: "false" } });
  if (r.status !== 0) throw new Error(`npm ${args.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

const engine = engineFile({ label: "package", project: "package" });

beforeAll(async () => {
  const block = claimedBlock("README.md", "install-package");
  docs = new DocsSandbox("package");
  const run = await docs.run([block]);
  if (run.code !== 0) throw new Error(`README.md's install block (line ${block.line}) failed:\n${run.output.slice(-6000)}`);
  projectDir = path.join(docs.repo, block.dir);
  const packDir = path.join(docs.repo, ".state", "pack");
  const packed = fs.readdirSync(packDir).filter((f) => f.endsWith(".tgz"));
  expect(packed).toEqual([`${PKG.name}-${PKG.version}.tgz`]);
  tarball = path.join(packDir, packed[0]!);
  files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
    .split("\n")
    .filter((f) => f !== "")
    .map((f) => f.replace(/^package\//, ""))
    .sort();
});

afterAll(async () => {
  await docs?.cleanup();
});

test("the tarball ships the compiled package, schema, README, LICENSE and CHANGELOG, and nothing else", () => {
  const top = files.filter((f) => !f.startsWith("dist/"));
  // The policy pack's folder (pulumi-krcloud/policy/pack, for --policy-pack) is its project file and manifest; its code is in dist/.
  expect(top).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "package.json", "policy/pack/PulumiPolicy.yaml", "policy/pack/package.json", "schema.json"]);
  // No tests, no development tools, no benchmarks, no TypeScript sources (declarations are fine), no build info.
  expect(files.filter((f) => /^dist\/(tests|tools|bench)\//.test(f) || (f.endsWith(".ts") && !f.endsWith(".d.ts")) || f.endsWith(".tsbuildinfo"))).toEqual([]);
  // Everything package.json points users at is inside, declarations included.
  const entries = [
    PKG.main,
    PKG.types!,
    ...Object.values(PKG.exports).flatMap((e) => (typeof e === "string" ? [e] : [e.default, e.types])),
    ...Object.values(PKG.bin),
  ]
    .map((p) => p.replace(/^\.\//, ""))
    .filter((p) => p !== "package.json");
  expect(entries.filter((p) => !files.includes(p))).toEqual([]);
});

test("shipped source maps carry their sources, and every map a compiled file names is shipped", () => {
  const installed = path.join(projectDir, "node_modules", PKG.name);
  const problems: string[] = [];
  for (const f of files.filter((x) => x.endsWith(".js"))) {
    const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(fs.readFileSync(path.join(installed, f), "utf8"))?.[1];
    if (url && !files.includes(path.posix.join(path.posix.dirname(f), url))) problems.push(`${f}: ${url} is not shipped`);
  }
  for (const f of files.filter((x) => x.endsWith(".map"))) {
    const map = JSON.parse(fs.readFileSync(path.join(installed, f), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
    map.sources.forEach((source, i) => {
      if (typeof map.sourcesContent?.[i] !== "string" && !files.includes(path.posix.join(path.posix.dirname(f), source)))
        problems.push(`${f}: ${source} neither shipped nor inline`);
    });
  }
  expect(problems).toEqual([]);
  expect(files.filter((x) => x.endsWith(".map")).length).toBeGreaterThan(0);
});

test("the metadata is publishable: not private, repository, types, exports with types, engines; npm publish --dry-run has no warning about it", () => {
  expect(PKG.private).toBeUndefined();
  expect(PKG.repository?.url).toMatch(/^git\+https:\/\//);
  expect(PKG.types).toBe("dist/index.d.ts");
  for (const [subpath, e] of Object.entries(PKG.exports)) {
    if (!subpath.endsWith(".json")) expect([subpath, typeof e === "object" && e.types.endsWith(".d.ts")]).toEqual([subpath, true]);
  }
  expect(PKG.engines?.node).toMatch(/^>=22\.19/);
  const { stderr } = npm(["publish", "--dry-run", "--ignore-scripts"], docs.repo);
  // What the machine's npm configuration and the missing login say is not about the package.
  const warnings = stderr.split("\n").filter((l) => /^npm (warn|error)/i.test(l) && !/Unknown user config|requires you to be logged in/.test(l));
  expect(warnings).toEqual([]);
});

test("a tarball that npm pack leaves in the clone is ignored by git", () => {
  for (const file of [`${PKG.name}-${PKG.version}.tgz`, `.state/pack/${PKG.name}-${PKG.version}.tgz`]) {
    expect([file, spawnSync("git", ["check-ignore", "-q", file], { cwd: REPO_ROOT }).status]).toEqual([file, 0]);
  }
});

test("the project the README's command installed runs a program through the Pulumi CLI", async () => {
  const installed = path.join(projectDir, "node_modules", PKG.name);
  expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
  // What npm unpacked (node_modules: dependencies npm nests when versions differ).
  const shipped = new Set(["CHANGELOG.md", "LICENSE", "README.md", "dist", "node_modules", "package.json", "policy", "schema.json"]);
  expect(fs.readdirSync(installed).filter((f) => !shipped.has(f))).toEqual([]);
  expect(fs.existsSync(path.join(installed, "dist", "tests"))).toBe(false);
  expect((JSON.parse(fs.readFileSync(path.join(projectDir, "package.json"), "utf8")) as PackageJson).dependencies[PKG.name]).toMatch(/^file:.*\.tgz$/);

  // A TypeScript program as the README shows one, with no tsconfig.json and no TypeScript of the
  // project's own: Pulumi compiles it with the TypeScript npm installed as the package's peer
  // dependency (without it, Pulumi's bundled TypeScript 3.8 cannot read the package's types).
  expect(fs.existsSync(path.join(projectDir, "node_modules", "typescript"))).toBe(true);
  // @pulumi/pulumi came with the package.
  writeFiles(
    projectDir,
    tsProgram(
      "krcloud-from-tarball",
      [
        'const bucket = new krcloud.objectstorage.Bucket("packed", {});',
        'new krcloud.objectstorage.BucketObject("hello", { bucket: bucket.name, key: "hello.txt", content: "installed from the tarball\\n", contentType: "text/plain" });',
        "export const bucketName = bucket.name;",
        "export const stack = pulumi.getStack();",
      ],
      { pulumi: true },
    ),
  );
  const stack = await engine.stack(projectDir, "packed");
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  expect(up.outputs.stack?.value).toBe("packed");
  const bucketName = up.outputs.bucketName?.value as string;
  expect(await objectText(engine.project, bucketName, "hello.txt")).toBe("installed from the tarball\n");

  const preview = await stack.preview({ color: "never" });
  // The stack, the bucket, the object and the stack's identity (krcloud-stack).
  expect(preview.changeSummary).toEqual({ same: 4 });

  await engine.destroyLeavesNothing(stack);
});
