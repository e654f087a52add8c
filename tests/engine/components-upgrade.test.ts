/**
 * A stack of each component made by this version previews with no changes on the next, on both
 * doors. This tree is packed (`npm pack`) as its own version and as the next patch version (the
 * same files, the version bumped): a TypeScript program installs the first by npm, `up` runs a
 * StaticSite stack and a CacheWithParameters stack; npm installs the second over it, and
 * `pulumi preview --expect-no-changes` passes for both, with the same outputs (the StaticSite's
 * `layout`: no default changed) after the next `up`. The YAML door does the same with the plugin of
 * this version, then the plugin of the next (the installed next package's, under the next version).
 * On both doors the site's state is first made what a release before the BucketFolder input
 * `deleteExtraObjects` wrote (the key removed from it): it too previews with no changes.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { changedSteps, ENGINE_TEST_TIMEOUT_MS, eventCollector, REPO_ROOT, runPulumi, toolPath } from "../harness/engine";
import { engineFile, jsProgram } from "../harness/engine/engine-file";
import { writeFiles } from "../harness/programs";

jest.setTimeout(3 * ENGINE_TEST_TIMEOUT_MS);

const PKG = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string; dependencies: Record<string, string> };
const NEXT = PKG.version.replace(/(\d+)$/, (n) => String(Number(n) + 1));

const engine = engineFile({ label: "components-upgrade", project: "compupg", yaml: true, plugin: true });

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", env: { ...process.env, PATH: toolPath(), npm_config_update_notifier: "false" } });
}

/** This tree as an npm tarball of `version`: packed, then, for another version, unpacked, bumped and packed again. */
function pack(version: string): string {
  const dest = path.join(engine.sandbox.root, "pack", version);
  fs.mkdirSync(dest, { recursive: true });
  const file = run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dest], REPO_ROOT).trim().split("\n").pop()!;
  if (version === PKG.version) return path.join(dest, file);
  run("tar", ["-xzf", file], dest);
  const pkgFile = path.join(dest, "package", "package.json");
  fs.writeFileSync(pkgFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(pkgFile, "utf8")), version }, null, 2));
  const bumped = run("npm", ["pack", "--ignore-scripts", "--silent"], path.join(dest, "package")).trim().split("\n").pop()!;
  return path.join(dest, "package", bumped);
}

const SITE = { "index.html": "<h1>v1</h1>\n", "404.html": "<h1>none</h1>\n" };
const CACHE = {
  baseParameterGroupId: "default.redis7.0.standalone",
  parameters: { "maxmemory-policy": "allkeys-lru" },
  instanceSet: { version: "7.0.15", flavorId: "redis.small", subnetIds: ["sn-a"], securityGroupIds: ["sg-1"], primarySubnetId: "sn-a" },
};

/** One program, a component per stack: `site` a StaticSite, `cache` a CacheWithParameters. */
function writeProgram(dir: string, yaml: boolean): void {
  const siteFiles = (programDir: string) => {
    fs.mkdirSync(path.join(programDir, "site"), { recursive: true });
    for (const [f, text] of Object.entries(SITE)) fs.writeFileSync(path.join(programDir, "site", f), text);
  };
  if (!yaml) siteFiles(dir);
  else {
    // A YAML program names no stack: two programs.
    for (const [name, type, props, outs] of [
      ["site", "krcloud:objectstorage:StaticSite", { path: "site", errorDocument: "404.html" }, ["indexUrl", "layout"]],
      ["cache", "krcloud:cache:CacheWithParameters", CACHE, ["cacheId", "parameterGroupId", "parameters"]],
    ] as const) {
      const sub = path.join(dir, name);
      fs.mkdirSync(sub, { recursive: true });
      if (name === "site") siteFiles(sub);
      const program = {
        name: `krcloud-upgrade-${name}`,
        runtime: "yaml",
        resources: { it: { type, properties: props } },
        outputs: Object.fromEntries(outs.map((o) => [o, `\${it.${o}}`])),
      };
      fs.writeFileSync(path.join(sub, "Pulumi.yaml"), JSON.stringify(program, null, 2));
    }
    return;
  }
  writeFiles(
    dir,
    jsProgram(
      "krcloud-upgrade",
      [
        'if (pulumi.getStack() === "site") {',
        '  const it = new krcloud.objectstorage.StaticSite("it", { path: "site", errorDocument: "404.html" });',
        "  exports.indexUrl = it.indexUrl;",
        "  exports.layout = it.layout;",
        "} else {",
        `  const it = new krcloud.cache.CacheWithParameters("it", ${JSON.stringify(CACHE)});`,
        "  exports.cacheId = it.cacheId;",
        "  exports.parameterGroupId = it.parameterGroupId;",
        "  exports.parameters = it.parameters;",
        "}",
        'exports.version = require("pulumi-krcloud/package.json").version;',
      ],
      { pulumi: true },
    ),
  );
}

/** Installs `tarball` as the program's pulumi-krcloud, as a user does. */
function install(dir: string, tarball: string): void {
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "krcloud-upgrade",
      private: true,
      main: "index.js",
      dependencies: { "pulumi-krcloud": `file:${tarball}`, "@pulumi/pulumi": PKG.dependencies["@pulumi/pulumi"] },
    }),
  );
  run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], dir);
}

const values = (outs: Record<string, { value: unknown }>) => Object.fromEntries(Object.entries(outs).map(([k, v]) => [k, v.value]));

async function quietPreview(stack: Stack): Promise<void> {
  const { events, onEvent } = eventCollector();
  await stack.preview({ color: "never", onEvent, expectNoChanges: true } as never);
  expect(changedSteps(events).filter((s) => !s.urn.includes("::pulumi:providers:"))).toEqual([]);
}

/**
 * The state of `stack` as the releases before `deleteExtraObjects` wrote it (a BucketFolder input
 * added since, which the StaticSite passes to its folder and records in `layout`): the key removed
 * wherever the state holds it, inputs and outputs of every resource (the folder, the site, the
 * stack's outputs). Returns how many were removed.
 */
async function asBeforeDeleteExtraObjects(stack: Stack): Promise<number> {
  const state = await stack.exportStack();
  let removed = 0;
  const strip = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(strip);
    else if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      if ("deleteExtraObjects" in o) {
        delete o.deleteExtraObjects;
        removed++;
      }
      Object.values(o).forEach(strip);
    }
  };
  for (const r of state.deployment.resources as { inputs?: unknown; outputs?: unknown }[]) {
    strip(r.inputs);
    strip(r.outputs);
  }
  await stack.importStack(state);
  return removed;
}

/** Destroys every stack; the project holds nothing after. */
async function destroyAll(stacks: Record<string, Stack>): Promise<void> {
  for (const stack of Object.values(stacks)) expect((await stack.destroy({ color: "never" })).summary.result).toBe("succeeded");
  expect(await engine.inventory()).toEqual([]);
}

let dir: string;
let next: string;

beforeAll(() => {
  dir = path.join(engine.sandbox.root, "programs", "upgrade-ts");
  fs.mkdirSync(dir, { recursive: true });
  writeProgram(dir, false);
  install(dir, pack(PKG.version));
  next = pack(NEXT);
});

test(`TypeScript: a StaticSite and a CacheWithParameters made by ${PKG.version} preview with no changes on ${NEXT}, with the same outputs; so does a site whose state predates deleteExtraObjects`, async () => {
  const stacks: Record<string, Stack> = {};
  const before: Record<string, Record<string, unknown>> = {};
  for (const name of ["site", "cache"]) {
    stacks[name] = await engine.stack(dir, name);
    before[name] = values((await stacks[name].up({ color: "never" })).outputs);
    expect(before[name].version).toBe(PKG.version);
  }
  // The folder's input and output, the site's layout and the stack's exported layout.
  expect(await asBeforeDeleteExtraObjects(stacks.site!)).toBeGreaterThanOrEqual(3);
  install(dir, next);
  for (const name of ["site", "cache"]) {
    await quietPreview(stacks[name]!);
    const after = values((await stacks[name]!.up({ color: "never" })).outputs);
    expect(after).toEqual({ ...before[name], version: NEXT });
  }
  await destroyAll(stacks);
});

test(`YAML (the plugin's Construct): a StaticSite and a CacheWithParameters made by plugin ${PKG.version} preview with no changes on ${NEXT}; so does a site whose state predates deleteExtraObjects`, async () => {
  const yamlDir = path.join(engine.sandbox.root, "programs", "upgrade-yaml");
  writeProgram(yamlDir, true);
  const stacks: Record<string, Stack> = {};
  const before: Record<string, Record<string, unknown>> = {};
  // The plugin of this version: installed by engineFile (this tree's build).
  for (const name of ["site", "cache"]) {
    stacks[name] = await engine.stack(path.join(yamlDir, name), `yaml-${name}`);
    before[name] = values((await stacks[name].up({ color: "never" })).outputs);
  }
  expect(await asBeforeDeleteExtraObjects(stacks.site!)).toBeGreaterThanOrEqual(3);
  // The next: the package of NEXT installed by npm, as the plugin of that version.
  const launcher = path.join(engine.sandbox.root, "plugin-next");
  fs.mkdirSync(launcher, { recursive: true });
  const installed = path.join(engine.sandbox.root, "next-package");
  fs.mkdirSync(installed, { recursive: true });
  install(installed, next);
  const entry = path.join(installed, "node_modules", "pulumi-krcloud", "dist", "bin", "pulumi-resource-krcloud.js");
  fs.writeFileSync(path.join(launcher, "pulumi-resource-krcloud"), `#!/bin/sh\nexec node ${JSON.stringify(entry)} "$@"\n`, { mode: 0o755 });
  await runPulumi(engine.sandbox, ["plugin", "install", "resource", "krcloud", NEXT, "-f", launcher], engine.sandbox.root);
  for (const name of ["site", "cache"]) {
    await quietPreview(stacks[name]!);
    const up = await stacks[name]!.up({ color: "never" });
    expect(values(up.outputs)).toEqual(before[name]);
    // The children now run on the next plugin (they register with the plugin's version).
    const providers = (await stacks[name]!.exportStack()).deployment.resources.filter((r: { type: string }) => r.type === "pulumi:providers:krcloud");
    expect(providers.map((p: { inputs?: { version?: string } }) => p.inputs?.version)).toContain(NEXT);
  }
  await destroyAll(stacks);
});
