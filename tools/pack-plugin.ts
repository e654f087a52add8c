/**
 * Packs the native provider plugin `pulumi-resource-krcloud` into a directory and a tarball that
 * run without this repository: `make plugin`, i.e. `node dist/tools/pack-plugin.js [--out DIR]`.
 *
 *   .state/plugin/krcloud-v<version>/          pulumi-resource-krcloud (shell launcher), package.json,
 *                                               schema.json, dist/ (no tests, tools or local cloud),
 *                                               node_modules/ (production dependencies the plugin loads)
 *   .state/plugin/pulumi-resource-krcloud-v<version>.tar.gz
 *
 * Install with `pulumi plugin install resource krcloud <version> -f <absolute path of either>`.
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
const ROOT_DEPENDENCIES = ["@pulumi/pulumi", "@grpc/grpc-js", "google-protobuf", "zod", "undici", "fast-xml-parser", "fast-glob", "mime-types"];
/** Compiled directories the plugin loads. */
const DIST_PARTS = ["index.js", "provider", "client", "bin/pulumi-resource-krcloud.js"];

const LAUNCHER = `#!/bin/sh
# pulumi-resource-krcloud: runs the krcloud native provider plugin with Node >= 22 (KRCLOUD_NODE or node on PATH).
dir=$(cd "$(dirname "$0")" && pwd)
exec "\${KRCLOUD_NODE:-node}" "$dir/dist/bin/pulumi-resource-krcloud.js" "$@"
`;

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
  process.stdout.write(
    `plugin directory: ${dest} (${mib(dirSize(dest))}, node_modules ${mib(dirSize(path.join(dest, "node_modules")))})\n` +
      `plugin tarball:   ${tarball} (${mib(fs.statSync(tarball).size)})\n` +
      `install: pulumi plugin install resource krcloud ${version} -f ${tarball}\n`,
  );
}

if (require.main === module) main();
