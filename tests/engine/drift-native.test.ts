/**
 * krcloud-drift on a YAML program served by the native plugin (examples/yaml-static-site): the
 * provider's token moved from the stack config to KRCLOUD_AUTH_TOKEN is configuration, not drift
 * (the default provider's inputs change; no report may flag it or print its secret envelope); drift
 * found through the plugin's per-property diff carries the path and values, and points SARIF at
 * Pulumi.yaml's line declaring the resource.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../emulator";
import {
  discoverExamples,
  ENGINE_TEST_TIMEOUT_MS,
  installNativePlugin,
  nativeResourcesOfType,
  newProject,
  providerConfig,
  Sandbox,
  startCloud,
  type CloudProject,
} from "../harness/engine";
import { driftedPaths, parseReport, runDrift } from "../support/drift";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;
let stack: Stack;
let dir: string;

beforeAll(async () => {
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "drift-native" });
  project = await newProject(cloud, "driftnative");
  await installNativePlugin(sandbox);
  dir = sandbox.copyProgram(discoverExamples().find((e) => e.name === "yaml-static-site")!.dir);
  stack = await sandbox.createStack(dir, "yaml", providerConfig(project));
  await stack.up({ color: "never" });
});

afterAll(async () => {
  await cloud?.close();
  sandbox?.cleanup();
});

test("the token moved from stack config to KRCLOUD_AUTH_TOKEN is not drift, and no secret envelope is printed", async () => {
  await stack.removeConfig("krcloud:authToken");
  const out = path.join(sandbox.root, "moved.md");
  const r = await runDrift(sandbox, ["--cwd", dir, "--stack", "yaml", "--format", "table", "--format", "json", "--out", `markdown=${out}`], {
    KRCLOUD_AUTH_TOKEN: project.token,
  });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  for (const text of [r.stdout, fs.readFileSync(out, "utf8")]) {
    expect(text).not.toContain("4dabf18193072939515e22adb298388d");
    expect(text).not.toContain("ciphertext");
    expect(text).not.toContain(project.token);
    expect(text).not.toContain("pulumi:providers:krcloud");
  }
});

test("drift through the plugin: path and values, SARIF at the resource's line of Pulumi.yaml", async () => {
  const bucket = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket")[0]!;
  await project.control.patchResource("object-storage", "bucket", bucket.id!, { acl: { public: "deny" } });
  const sarifFile = path.join(sandbox.root, "native.sarif");
  const r = await runDrift(sandbox, ["--cwd", dir, "--stack", "yaml", "--format", "json", "--out", `sarif=${sarifFile}`, "--source-root", dir], {
    KRCLOUD_AUTH_TOKEN: project.token,
  });
  expect(r.code).toBe(2);
  const site = parseReport(r.stdout).stacks[0]!.resources.find((x) => x.urn === bucket.urn)!;
  expect(driftedPaths(site)).toEqual([["acl.public", "deny", "read-only"]]);
  const yamlLines = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8").split("\n");
  const [result] = JSON.parse(fs.readFileSync(sarifFile, "utf8")).runs[0].results;
  const loc = result.locations[0].physicalLocation;
  expect(loc.artifactLocation.uri).toBe("Pulumi.yaml");
  expect(yamlLines[loc.region.startLine - 1]).toBe("  site:");
});
