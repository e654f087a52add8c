/**
 * Where the engine tests find things (re-exported by index.ts): the repository root, the Pulumi
 * CLI and the YAML language host as `make pulumi` and `make test` leave them, the PATH every
 * command gets, and the example programs under examples/.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** The repository root: the directory whose package.json is pulumi-krcloud (works from tests/ and dist/tests/). */
export const REPO_ROOT = findRepoRoot(__dirname);

function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "pulumi-krcloud") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-krcloud package.json above ${start}`);
  }
}

export const PULUMI_VERSION = "v3.259.0";

/**
 * Where scripts/install-go-tool.sh builds `tool` (the one place that names the directories: a tool,
 * its version and a digest of its sources), unless `override` (a variable `make` exports) names it.
 */
function toolBinDir(tool: string, override: string | undefined): string {
  return override ?? execFileSync("bash", [path.join(REPO_ROOT, "scripts", "install-go-tool.sh"), "--where", tool], { encoding: "utf8" }).trim();
}

/**
 * The directory holding `pulumi`, `pulumi-language-nodejs` and the dynamic provider plugin, as
 * `make pulumi` leaves them. KRCLOUD_PULUMI_BIN overrides.
 */
export function pulumiBinDir(): string {
  const dir = toolBinDir("pulumi", process.env.KRCLOUD_PULUMI_BIN);
  for (const bin of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
    if (!fs.existsSync(path.join(dir, bin))) {
      throw new Error(`${path.join(dir, bin)} is missing: run \`make pulumi\` (or set KRCLOUD_PULUMI_BIN)`);
    }
  }
  return dir;
}

/**
 * The directory holding `pulumi-language-yaml`, as `make pulumi-yaml` leaves it (`make test` builds
 * it); undefined when it is not built. KRCLOUD_PULUMI_YAML_BIN overrides.
 */
export function pulumiYamlBinDir(): string | undefined {
  const dir = toolBinDir("pulumi-yaml", process.env.KRCLOUD_PULUMI_YAML_BIN);
  return fs.existsSync(path.join(dir, "pulumi-language-yaml")) ? dir : undefined;
}

/**
 * The directory holding `pulumi-language-python` (with `pulumi-language-python-exec`) and
 * `pulumi-language-go`, as `make pulumi-languages` leaves it; undefined when it is not built.
 * KRCLOUD_PULUMI_LANGUAGES_BIN overrides.
 */
export function pulumiLanguagesBinDir(): string | undefined {
  const dir = toolBinDir("pulumi-languages", process.env.KRCLOUD_PULUMI_LANGUAGES_BIN);
  return ["pulumi-language-python", "pulumi-language-python-exec", "pulumi-language-go"].every((f) => fs.existsSync(path.join(dir, f))) ? dir : undefined;
}

/**
 * The directory holding `pulumi-language-java` and `pulumi-java-gen`, as `make pulumi-java` leaves
 * it; undefined when it is not built. KRCLOUD_PULUMI_JAVA_BIN overrides.
 */
export function pulumiJavaBinDir(): string | undefined {
  const dir = toolBinDir("pulumi-java", process.env.KRCLOUD_PULUMI_JAVA_BIN);
  return ["pulumi-language-java", "pulumi-java-gen"].every((f) => fs.existsSync(path.join(dir, f))) ? dir : undefined;
}

/** The Node that runs the tests (Node >= 22 is required by @pulumi/pulumi 3.260) goes first on PATH. */
export function toolPath(): string {
  const yaml = pulumiYamlBinDir();
  const languages = pulumiLanguagesBinDir();
  const java = pulumiJavaBinDir();
  return [
    path.dirname(process.execPath),
    pulumiBinDir(),
    ...(yaml ? [yaml] : []),
    ...(languages ? [languages] : []),
    ...(java ? [java] : []),
    path.join(REPO_ROOT, "node_modules", ".bin"),
    process.env.PATH ?? "",
  ].join(path.delimiter);
}

export interface ExampleProgram {
  /** Directory name relative to examples/, e.g. `static-site`. */
  name: string;
  dir: string;
  /** `name:` from Pulumi.yaml (the config namespace of the program). */
  project: string;
  /** `runtime:` from Pulumi.yaml: `nodejs` or `yaml`. */
  runtime: string;
}

/** Every example program: each directory under examples/ holding a Pulumi.yaml (examples/ci is not one). */
export function discoverExamples(root = path.join(REPO_ROOT, "examples")): ExampleProgram[] {
  const found: ExampleProgram[] = [];
  const visit = (dir: string): void => {
    const yaml = path.join(dir, "Pulumi.yaml");
    if (fs.existsSync(yaml)) {
      const text = fs.readFileSync(yaml, "utf8");
      const m = /^name:\s*["']?([^"'\s#]+)/m.exec(text);
      if (!m) throw new Error(`${yaml} has no name:`);
      const runtime = /^runtime:[ \t]*(?:\n[ \t]+name:[ \t]*)?["']?([a-z]+)/m.exec(text)?.[1];
      if (!runtime) throw new Error(`${yaml} has no runtime:`);
      found.push({ name: path.relative(root, dir), dir, project: m[1]!, runtime });
      return;
    }
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== "node_modules" && !e.name.startsWith(".")) visit(path.join(dir, e.name));
    }
  };
  visit(root);
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The flagship example (bucket, CORS, lifecycle, objects), for tests that need those resource types. */
export function staticSite(): ExampleProgram {
  const e = discoverExamples().find((x) => x.name === "static-site");
  if (!e) throw new Error("examples/static-site is missing");
  return e;
}
