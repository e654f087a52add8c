/**
 * What `make plugin` packs, as a YAML team installs and runs it, without this repository: the
 * provider plugin's tarball and the krcloud-drift tool plugin's tarball (tools/pack-plugin.ts),
 * installed with `pulumi plugin install`, serving a YAML project that holds nothing of npm's (no
 * package.json in it or above it, no node_modules). krcloud-drift runs from the project as
 * `pulumi plugin run krcloud-drift -- ...`: a clean check exits 0, a change behind Pulumi's back
 * exits 2 with the drifted property, and its options pass through the launcher untouched.
 * (Python, Go and Java projects run the same launcher in native-language-steps.ts.)
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { discoverExamples, ENGINE_TEST_TIMEOUT_MS, nativeResourcesOfType, PACKAGE_VERSION, REPO_ROOT, runPulumi } from "../harness/engine";
import { entry } from "../harness/entries";
import { driftedPaths, parseReport, runDriftTool } from "../support/drift";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "native-package", project: "nativepkg", yaml: true });
let dir: string;
let stack: Stack;

/** The package.json files in `dir` and every directory above it. */
function packageJsonsAbove(dir: string): string[] {
  const found: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, "package.json"))) found.push(path.join(d, "package.json"));
    if (path.dirname(d) === d) return found;
  }
}

beforeAll(async () => {
  const out = path.join(engine.sandbox.root, "pack");
  await promisify(execFile)(process.execPath, [entry("packPlugin"), "--out", out], { cwd: REPO_ROOT });
  const v = PACKAGE_VERSION;
  await runPulumi(
    engine.sandbox,
    ["plugin", "install", "resource", "krcloud", v, "-f", path.join(out, `pulumi-resource-krcloud-v${v}.tar.gz`)],
    engine.sandbox.root,
  );
  await runPulumi(
    engine.sandbox,
    ["plugin", "install", "tool", "krcloud-drift", v, "-f", path.join(out, `pulumi-tool-krcloud-drift-v${v}.tar.gz`)],
    engine.sandbox.root,
  );
  // Nothing of the working tree is left to reach: the packed copies alone serve the project.
  fs.rmSync(out, { recursive: true });
  dir = engine.sandbox.copyProgram(discoverExamples().find((e) => e.name === "yaml-static-site")!.dir, "yaml-package", { nodeModules: false });
  stack = await engine.stack(dir, "yamlpkg");
}, 600_000);

test("the packed tool plugin is a launcher of a few lines, installed beside the packed provider plugin", () => {
  const plugins = path.join(engine.sandbox.homeDir, "plugins");
  const tool = path.join(plugins, `tool-krcloud-drift-v${PACKAGE_VERSION}`);
  expect(fs.readdirSync(tool)).toEqual(["pulumi-tool-krcloud-drift"]);
  expect(fs.statSync(path.join(tool, "pulumi-tool-krcloud-drift")).size).toBeLessThan(2048);
  expect(fs.existsSync(path.join(plugins, `resource-krcloud-v${PACKAGE_VERSION}`, "dist", "drift", "cli.js"))).toBe(true);
});

test("a YAML project with no package.json: up through the packed plugin, then krcloud-drift from the project exits 0", async () => {
  expect(packageJsonsAbove(dir)).toEqual([]);
  expect(fs.existsSync(path.join(dir, "node_modules"))).toBe(false);
  expect((await stack.up({ color: "never" })).summary.result).toBe("succeeded");

  const r = await runDriftTool(engine.sandbox, ["--stack", "yamlpkg", "--format", "json"], dir);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  const report = parseReport(r.stdout);
  expect(report.stacks.map((s) => [s.stack, s.status])).toEqual([["yamlpkg", "clean"]]);
});

test("a change behind Pulumi's back: exit 2 and the drifted property; the tool's options pass through the launcher", async () => {
  const bucket = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket")[0]!;
  await engine.project.control.patchResource("object-storage", "bucket", bucket.id!, { acl: { public: "deny" } });
  const sarif = path.join(engine.sandbox.root, "drift.sarif");
  const r = await runDriftTool(engine.sandbox, ["--stack", "yamlpkg", "--format", "json", "--out", `sarif=${sarif}`], dir);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: "" });
  const site = parseReport(r.stdout).stacks[0]!.resources.find((x) => x.urn === bucket.urn)!;
  expect(driftedPaths(site)).toEqual([["acl.public", "deny", "read-only"]]);
  expect(JSON.parse(fs.readFileSync(sarif, "utf8")).runs[0].results).toHaveLength(1);

  const usage = await runDriftTool(engine.sandbox, ["--no-such-option"], dir);
  expect(usage.code).toBe(1);
  expect(usage.stderr).toContain("krcloud-drift: Unknown option '--no-such-option'");
});

test("destroy leaves nothing behind", async () => {
  await engine.destroyLeavesNothing(stack);
});
