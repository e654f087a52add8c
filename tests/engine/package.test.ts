/**
 * The package as users get it: `npm pack` ships only what users run (the compiled package, its
 * schema, README, LICENSE, CHANGELOG; no tests, tools or TypeScript sources), and the tarball,
 * installed with npm into a project of its own (not linked to this repository), runs a program
 * through the real Pulumi CLI against the local cloud.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalCloud } from "../../emulator";
import { ENGINE_TEST_TIMEOUT_MS, newProject, objectText, providerConfig, REPO_ROOT, Sandbox, startCloud, toolPath, type CloudProject } from "../support/engine";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const PKG = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  bin: Record<string, string>;
  exports: Record<string, string>;
};

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;
let tarball: string;
let files: string[];

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, encoding: "utf8", env: { ...process.env, PATH: toolPath(), npm_config_update_notifier: "false" } });
}

beforeAll(async () => {
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "package" });
  project = await newProject(cloud, "package");
  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", sandbox.root], REPO_ROOT)) as { filename: string; files: { path: string }[] }[];
  tarball = path.join(sandbox.root, packed[0]!.filename);
  files = packed[0]!.files.map((f) => f.path).sort();
});

afterAll(async () => {
  await cloud?.close();
  sandbox?.cleanup();
});

test("npm pack ships the compiled package, schema, README, LICENSE and CHANGELOG, and nothing else", () => {
  const top = files.filter((f) => !f.startsWith("dist/"));
  expect(top).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "package.json", "schema.json"]);
  // No tests, no development tools, no TypeScript sources (declarations are fine).
  expect(files.filter((f) => /^dist\/(tests|tools)\//.test(f) || (f.endsWith(".ts") && !f.endsWith(".d.ts")))).toEqual([]);
  // Everything package.json points users at is inside.
  const entries = [...Object.values(PKG.exports), ...Object.values(PKG.bin)].map((p) => p.replace(/^\.\//, "")).filter((p) => p !== "package.json");
  expect(entries.filter((p) => !files.includes(p))).toEqual([]);
});

test("the tarball installed by npm into a separate project runs a program through the Pulumi CLI", async () => {
  const dir = path.join(sandbox.root, "programs", "from-tarball");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({
      name: "krcloud-from-tarball",
      private: true,
      main: "index.js",
      dependencies: { [PKG.name]: `file:${tarball}`, "@pulumi/pulumi": PKG.dependencies["@pulumi/pulumi"] },
    }),
  );
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: krcloud-from-tarball\nruntime: nodejs\n");
  fs.writeFileSync(
    path.join(dir, "index.js"),
    [
      '"use strict";',
      'const krcloud = require("pulumi-krcloud");',
      'const bucket = new krcloud.objectstorage.Bucket("packed", {});',
      'new krcloud.objectstorage.BucketObject("hello", { bucket: bucket.name, key: "hello.txt", content: "installed from the tarball\\n", contentType: "text/plain" });',
      "exports.bucketName = bucket.name;",
      "",
    ].join("\n"),
  );
  // The npm cache filled by `npm ci` serves the dependencies; the registry only when it lacks one.
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], dir);
  const installed = path.join(dir, "node_modules", PKG.name);
  expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
  // What npm unpacked (node_modules: dependencies npm nests when versions differ).
  const shipped = new Set(["CHANGELOG.md", "LICENSE", "README.md", "dist", "node_modules", "package.json", "schema.json"]);
  expect(fs.readdirSync(installed).filter((f) => !shipped.has(f))).toEqual([]);
  expect(fs.existsSync(path.join(installed, "dist", "tests"))).toBe(false);

  const stack = await sandbox.createStack(dir, "packed", providerConfig(project));
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  const bucketName = up.outputs.bucketName?.value as string;
  expect(await objectText(project, bucketName, "hello.txt")).toBe("installed from the tarball\n");

  const preview = await stack.preview({ color: "never" });
  expect(preview.changeSummary).toEqual({ same: 3 });

  const destroyed = await stack.destroy({ color: "never" });
  expect(destroyed.summary.result).toBe("succeeded");
  expect(await project.control.inventory(project.projectId)).toEqual([]);
});
