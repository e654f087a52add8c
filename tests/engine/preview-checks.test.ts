/**
 * A ParameterGroup's bad values fail `pulumi preview`, as the README says a bad value does, through
 * the real CLI on both doors: a negative `timeout`, an unknown parameter and a value outside an
 * enum are each named with its rule, and the message says the rules were read from the cloud (the
 * base group's catalogue). The preview sends no mutating request. A base group that is not known
 * yet in the preview (another resource's output) skips the check: the preview passes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalCloud } from "../../emulator";
import {
  ENGINE_TEST_TIMEOUT_MS,
  expectFailure,
  installNativePlugin,
  newProject,
  providerConfig,
  pulumiYamlBinDir,
  Sandbox,
  startCloud,
  type CloudProject,
} from "../harness/engine";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;

beforeAll(async () => {
  if (!pulumiYamlBinDir()) throw new Error("pulumi-language-yaml is missing: run `make pulumi-yaml` (scripts/install-pulumi-yaml.sh)");
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "preview-checks" });
  project = await newProject(cloud, "pchecks");
});

afterAll(async () => {
  await cloud?.close();
  sandbox?.cleanup();
});

function program(name: string, files: Record<string, string>): string {
  const src = path.join(sandbox.root, "src", name);
  fs.mkdirSync(src, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(src, file), text);
  return sandbox.copyProgram(src);
}

const BAD = { timeout: "-5", tiemout: "300", "maxmemory-policy": "least-used" };

/** The requests the cloud received since `since` (its log's sequence number). */
async function requestsSince(since: number): Promise<{ seq: number; method: string; operation: string; projectId?: string }[]> {
  const res = await fetch(`${cloud.controlUrl}/requests?since=${since}`);
  return ((await res.json()) as { requests: { seq: number; method: string; operation: string; projectId?: string }[] }).requests;
}
async function lastSeq(): Promise<number> {
  return ((await (await fetch(`${cloud.controlUrl}/requests?since=0`)).json()) as { lastSeq: number }).lastSeq;
}

function expectNamed(output: string): void {
  expect(output).toMatch(
    /parameters\.timeout: "-5" .*\(rule: [^;]*0~100000; checked against the catalogue of base group "default\.redis7\.0\.cluster", read from the cloud\)/,
  );
  expect(output).toMatch(
    /parameters\.tiemout: "300" is not a parameter of this group \(did you mean|parameters\.tiemout: "300" is not a parameter of this group/,
  );
  expect(output).toMatch(/parameters\.maxmemory-policy: "least-used" /);
}

test("dynamic classes: bad parameter values fail the preview, each named with its rule, reading only the base group", async () => {
  const dir = program("dynamic", {
    "Pulumi.yaml": "name: krcloud-preview-checks\nruntime: nodejs\nmain: index.js\n",
    "package.json": '{ "name": "krcloud-preview-checks", "main": "index.js" }\n',
    "index.js": [
      '"use strict";',
      'const krcloud = require("pulumi-krcloud");',
      `new krcloud.cache.ParameterGroup("params", { baseParameterGroupId: "default.redis7.0.cluster", parameters: ${JSON.stringify(BAD)} });`,
      "",
    ].join("\n"),
  });
  const stack = await sandbox.createStack(dir, "dynamic", providerConfig(project));
  const before = await lastSeq();
  const out = await expectFailure(() => stack.preview({ color: "never" }));
  expectNamed(out);
  const mine = (await requestsSince(before)).filter((r) => r.projectId === project.projectId || r.operation === "GetParameterGroup");
  expect(mine.filter((r) => r.method !== "GET" && r.method !== "HEAD")).toEqual([]);
  expect(mine.filter((r) => r.operation === "GetParameterGroup")).toHaveLength(1);
});

test("dynamic classes: a base group not known yet in the preview skips the check (the preview passes)", async () => {
  const dir = program("dynamic-unknown", {
    "Pulumi.yaml": "name: krcloud-preview-checks-unknown\nruntime: nodejs\nmain: index.js\n",
    "package.json": '{ "name": "krcloud-preview-checks-unknown", "main": "index.js" }\n',
    "index.js": [
      '"use strict";',
      'const krcloud = require("pulumi-krcloud");',
      'const bucket = new krcloud.objectstorage.Bucket("b", {});',
      `new krcloud.cache.ParameterGroup("params", { baseParameterGroupId: bucket.url.apply(() => "default.redis7.0.cluster"), parameters: ${JSON.stringify(BAD)} });`,
      "",
    ].join("\n"),
  });
  const stack = await sandbox.createStack(dir, "dynamic-unknown", providerConfig(project));
  const preview = await stack.preview({ color: "never" });
  // The bucket, the group, the stack and its identity (krcloud-stack).
  expect(preview.changeSummary).toMatchObject({ create: 4 });
});

test("native plugin (YAML): the same failures in the preview", async () => {
  await installNativePlugin(sandbox);
  const dir = program("native", {
    "Pulumi.yaml": [
      "name: krcloud-preview-checks-native",
      "runtime: yaml",
      "resources:",
      "  params:",
      "    type: krcloud:cache:ParameterGroup",
      "    properties:",
      "      baseParameterGroupId: default.redis7.0.cluster",
      `      parameters: ${JSON.stringify(BAD)}`,
      "",
    ].join("\n"),
  });
  const stack = await sandbox.createStack(dir, "native", providerConfig(project));
  expectNamed(await expectFailure(() => stack.preview({ color: "never" })));
});
