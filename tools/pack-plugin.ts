/**
 * Packs the native provider plugin `pulumi-resource-krcloud` into a directory and a tarball that
 * run without this repository: `make plugin`, i.e. `node dist/tools/pack-plugin.js [--out DIR]`.
 *
 *   .state/plugin/krcloud-v<version>/          pulumi-resource-krcloud (shell launcher), package.json,
 *                                               schema.json, dist/ (no tests, tools or local cloud),
 *                                               node_modules/ (production dependencies the plugin loads)
 *   .state/plugin/pulumi-resource-krcloud-v<version>.tar.gz
 *   .state/plugin/krcloud-drift-v<version>/      pulumi-tool-krcloud-drift (shell launcher)
 *   .state/plugin/pulumi-tool-krcloud-drift-v<version>.tar.gz
 *
 * Install with `pulumi plugin install resource krcloud <version> -f <absolute path of either>`, and
 * krcloud-drift for a project in any language with `pulumi plugin install tool krcloud-drift
 * <version> -f <absolute path>`; run it with `pulumi plugin run krcloud-drift -- --stack dev`.
 *
 * The tool plugin is a launcher of a few lines, not a second copy of the code: krcloud-drift runs
 * the program's refresh-preview, which needs the resource plugin anyway, so the launcher runs the
 * resource plugin of its own version installed beside it (`pulumi-resource-krcloud drift ...`).
 * A Pulumi tool plugin is what every language's team already has the means to install and run (the
 * Pulumi CLI), with no npm project, pip package or Go module of krcloud's own; one tarball serves
 * every language, and the release ships 1 KB more.
 *
 * No bundler is installed here, so the plugin is the compiled files plus a copy of the dependency
 * closure of the packages the plugin requires, resolved the way Node resolves them from the
 * repository's node_modules (already installed from the lockfile: no registry access). Node >= 22
 * must be on PATH where the plugin runs, or KRCLOUD_NODE must name it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";

/** What the plugin's code requires at run time (the local cloud's own dependencies are left out). */
const ROOT_DEPENDENCIES = [
  "@pulumi/pulumi",
  "@grpc/grpc-js",
  "google-protobuf",
  "zod",
  "undici",
  "fast-xml-parser",
  "fast-glob",
  "mime-types",
  "yaml",
  "dataloader",
];
/** Compiled directories the plugin loads (drift/: its `drift` command, krcloud-drift). */
const DIST_PARTS = ["index.js", "provider", "client", "drift", "bin/pulumi-resource-krcloud.js", "bin/drift-process.js"];

const LAUNCHER = `#!/bin/sh
# pulumi-resource-krcloud: runs the krcloud native provider plugin with Node >= 22 (KRCLOUD_NODE or node on PATH).
dir=$(cd "$(dirname "$0")" && pwd)
exec "\${KRCLOUD_NODE:-node}" "$dir/dist/bin/pulumi-resource-krcloud.js" "$@"
`;

/**
 * The tool plugin's launcher: `pulumi plugin run krcloud-drift -- ARGS` runs it with ARGS (after
 * the flags the CLI puts in front of any plugin's own when it logs or traces: `--logtostderr`,
 * `-v=N`, `--tracing URL`), and it runs the resource plugin of the same version, installed beside
 * it in Pulumi's plugin directory, with `drift ARGS`. Every other argument passes untouched, so
 * krcloud-drift's options need nothing here; its exit status is the launcher's.
 */
export function driftToolLauncher(version: string): string {
  const install = `pulumi plugin install resource krcloud ${version}`;
  return `#!/bin/sh
# pulumi-tool-krcloud-drift: krcloud-drift for a Pulumi project in any language, as a Pulumi tool plugin:
#   pulumi plugin run krcloud-drift -- --stack dev
# It runs the krcloud resource plugin v${version} installed beside it (${install}).
dir=$(cd "$(dirname "$0")" && pwd)
plugin="$(dirname "$dir")/resource-krcloud-v${version}/pulumi-resource-krcloud"
while [ $# -gt 0 ]; do
  case "$1" in
    --logtostderr|-v=*) shift ;;
    --tracing) shift; [ $# -gt 0 ] && shift ;;
    *) break ;;
  esac
done
if [ ! -x "$plugin" ]; then
  echo "krcloud-drift: the krcloud resource plugin v${version} it runs is not installed ($plugin is missing): ${install} (-f <its tarball>, or --server <where releases are>), then run this again" >&2
  exit 1
fi
exec "$plugin" drift "$@"
`;
}

function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "pulumi-krcloud") return dir;
    if (path.dirname(dir) === dir) throw new Error("no pulumi-krcloud package.json above the tool");
  }
}

/** The directory of package `name` as Node resolves it from `fromDir` (walking up node_modules). */
function resolvePackage(name: string, fromDir: string, stop: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (fs.existsSync(path.join(candidate, "package.json"))) return candidate;
    if (dir === stop || path.dirname(dir) === dir) return undefined;
  }
}

/** Every package directory reached from `roots` through dependencies and optionalDependencies. */
export function dependencyClosure(root: string, roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string, fromDir: string, optional: boolean): void => {
    const dir = resolvePackage(name, fromDir, root);
    if (!dir) {
      if (optional) return;
      throw new Error(`dependency ${name} (needed from ${path.relative(root, fromDir) || "."}) is not installed: run make install`);
    }
    const real = fs.realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    for (const d of Object.keys(pkg.dependencies ?? {})) visit(d, dir, false);
    for (const d of Object.keys(pkg.optionalDependencies ?? {})) visit(d, dir, true);
  };
  for (const r of roots) visit(r, root, false);
  return seen;
}

function dirSize(dir: string): number {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
  }
  return total;
}

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

function main(): void {
  const root = repoRoot();
  const { values } = parseArgs({ options: { out: { type: "string" } } });
  const version: string = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
  const outDir = path.resolve(values.out ?? path.join(root, ".state", "plugin"));
  const dest = path.join(outDir, `krcloud-v${version}`);
  const tarball = path.join(outDir, `pulumi-resource-krcloud-v${version}.tar.gz`);
  const dist = path.join(root, "dist");
  if (!fs.existsSync(path.join(dist, "bin", "pulumi-resource-krcloud.js"))) throw new Error("dist/ is not built: run make build");

  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(dest, { recursive: true });
  for (const f of ["package.json", "schema.json", "LICENSE"]) {
    if (fs.existsSync(path.join(root, f))) fs.copyFileSync(path.join(root, f), path.join(dest, f));
  }
  // Declarations and source maps are for developers; the plugin only runs the JavaScript.
  const keep = (p: string): boolean => !p.endsWith(".d.ts") && !p.endsWith(".map");
  for (const part of DIST_PARTS) {
    fs.cpSync(path.join(dist, part), path.join(dest, "dist", part), { recursive: true, filter: keep });
  }

  const modules = path.join(root, "node_modules");
  for (const pkgDir of [...dependencyClosure(root, ROOT_DEPENDENCIES)].sort()) {
    // Keep each package where Node found it, relative to the repository's node_modules.
    const rel = path.relative(fs.realpathSync(modules), pkgDir);
    if (rel.startsWith("..")) throw new Error(`${pkgDir} is outside node_modules`);
    fs.cpSync(pkgDir, path.join(dest, "node_modules", rel), {
      recursive: true,
      dereference: true,
      // Nested node_modules are copied as packages of their own when they are in the closure.
      filter: (p) => !path.relative(pkgDir, p).split(path.sep).includes("node_modules"),
    });
  }

  const launcher = path.join(dest, "pulumi-resource-krcloud");
  fs.writeFileSync(launcher, LAUNCHER, { mode: 0o755 });
  fs.chmodSync(path.join(dest, "dist", "bin", "pulumi-resource-krcloud.js"), 0o755);

  fs.rmSync(tarball, { force: true });
  execFileSync("tar", ["-czf", tarball, "-C", dest, "."]);

  const toolDir = path.join(outDir, `krcloud-drift-v${version}`);
  const toolTarball = path.join(outDir, `pulumi-tool-krcloud-drift-v${version}.tar.gz`);
  fs.rmSync(toolDir, { recursive: true, force: true });
  fs.mkdirSync(toolDir, { recursive: true });
  fs.writeFileSync(path.join(toolDir, "pulumi-tool-krcloud-drift"), driftToolLauncher(version), { mode: 0o755 });
  fs.rmSync(toolTarball, { force: true });
  execFileSync("tar", ["-czf", toolTarball, "-C", toolDir, "."]);

  process.stdout.write(
    `plugin directory: ${dest} (${mib(dirSize(dest))}, node_modules ${mib(dirSize(path.join(dest, "node_modules")))})\n` +
      `plugin tarball:   ${tarball} (${mib(fs.statSync(tarball).size)})\n` +
      `drift tool:       ${toolTarball} (${fs.statSync(toolTarball).size} bytes)\n` +
      `install: pulumi plugin install resource krcloud ${version} -f ${tarball}\n` +
      `         pulumi plugin install tool krcloud-drift ${version} -f ${toolTarball}   (then: pulumi plugin run krcloud-drift -- --stack <stack>)\n`,
  );
}

if (require.main === module) main();
