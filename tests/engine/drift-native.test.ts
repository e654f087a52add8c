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
import { discoverExamples, ENGINE_TEST_TIMEOUT_MS, nativeResourcesOfType } from "../harness/engine";
import { driftedPaths, parseReport, runDrift } from "../support/drift";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let stack: Stack;
let dir: string;

const engine = engineFile({ label: "drift-native", project: "driftnative", plugin: true });

beforeAll(async () => {
  dir = engine.sandbox.copyProgram(discoverExamples().find((e) => e.name === "yaml-static-site")!.dir);
  stack = await engine.stack(dir, "yaml");
  await stack.up({ color: "never" });
});

test("the token moved from stack config to KRCLOUD_AUTH_TOKEN is not drift, and no secret envelope is printed", async () => {
  await stack.removeConfig("krcloud:authToken");
  const out = path.join(engine.sandbox.root, "moved.md");
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "yaml", "--format", "table", "--format", "json", "--out", `markdown=${out}`], {
    KRCLOUD_AUTH_TOKEN: engine.project.token,
  });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  for (const text of [r.stdout, fs.readFileSync(out, "utf8")]) {
    expect(text).not.toContain("4dabf18193072939515e22adb298388d");
    expect(text).not.toContain("ciphertext");
    expect(text).not.toContain(engine.project.token);
    expect(text).not.toContain("pulumi:providers:krcloud");
  }
});

test("drift through the plugin: path and values, SARIF at the resource's line of Pulumi.yaml", async () => {
  const bucket = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket")[0]!;
  await engine.project.control.patchResource("object-storage", "bucket", bucket.id!, { acl: { public: "deny" } });
  const sarifFile = path.join(engine.sandbox.root, "native.sarif");
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "yaml", "--format", "json", "--out", `sarif=${sarifFile}`, "--source-root", dir], {
    KRCLOUD_AUTH_TOKEN: engine.project.token,
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
