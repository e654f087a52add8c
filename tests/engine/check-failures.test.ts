/**
 * A nested input that fails validation, as the user sees it in `pulumi preview`: the engine prints
 * "property <p> value <v> has a problem: <reason>", where it finds <v> by looking <p> up among the
 * resource's top-level inputs (pulumi v3.259, step_generator.go issueCheckFailures:
 * `inputs[failure.Property]`, no path parsing). A failure naming a nested path
 * (`acl.publicReadAllowIpList[0]`) printed `value {<nil>}`; the failure now names the top-level
 * input, so the value shows, and the reason keeps the full path. Both ways of running the provider:
 * the dynamic classes (TypeScript/JavaScript) and the native plugin (YAML).
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

const BAD_IP = "not-an-ip-address";

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;

beforeAll(async () => {
  if (!pulumiYamlBinDir()) throw new Error("pulumi-language-yaml is missing: run `make pulumi-yaml` (scripts/install-pulumi-yaml.sh)");
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "check-failures" });
  project = await newProject(cloud, "checkfail");
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

/** The engine's check-failure line for the bucket, from a failed preview's output. */
function problemLine(output: string): string {
  const line = output.split("\n").find((l) => l.includes("has a problem") && l.includes("site"));
  if (!line) throw new Error(`no "has a problem" line in:\n${output}`);
  return line;
}

function expectValueShown(line: string): void {
  expect(line).not.toContain("<nil>");
  expect(line).toMatch(/property acl value .*not-an-ip-address.* has a problem: acl\.publicReadAllowIpList\[0\]: /);
}

test("dynamic classes: a nested failure prints the input's value, not {<nil>}", async () => {
  const dir = program("dynamic", {
    "Pulumi.yaml": "name: krcloud-check-failures\nruntime: nodejs\nmain: index.js\n",
    "index.js": [
      '"use strict";',
      'const krcloud = require("pulumi-krcloud");',
      `new krcloud.objectstorage.Bucket("site", { acl: { public: "read-only", publicReadAllowIpList: [${JSON.stringify(BAD_IP)}] } });`,
      "",
    ].join("\n"),
  });
  const stack = await sandbox.createStack(dir, "dynamic", providerConfig(project));
  expectValueShown(problemLine(await expectFailure(() => stack.preview({ color: "never" }))));
});

test("native plugin (YAML): a nested failure prints the input's value, not {<nil>}", async () => {
  await installNativePlugin(sandbox);
  const dir = program("native", {
    "Pulumi.yaml": [
      "name: krcloud-check-failures-yaml",
      "runtime: yaml",
      "resources:",
      "  site:",
      "    type: krcloud:objectstorage:Bucket",
      "    properties:",
      `      acl: { public: read-only, publicReadAllowIpList: [${BAD_IP}] }`,
      "",
    ].join("\n"),
  });
  const stack = await sandbox.createStack(dir, "native", providerConfig(project));
  expectValueShown(problemLine(await expectFailure(() => stack.preview({ color: "never" }))));
});

test("a missing endpoint or credential fails `pulumi preview` naming the setting, not only the `up` after it; nothing is created", async () => {
  const dir = program("unconfigured", {
    "Pulumi.yaml": "name: krcloud-unconfigured\nruntime: nodejs\nmain: index.js\n",
    "index.js": ['"use strict";', 'const krcloud = require("pulumi-krcloud");', 'new krcloud.objectstorage.Bucket("site", {});', ""].join("\n"),
  });
  const { "krcloud:localCloudUrl": _url, ...noEndpoint } = providerConfig(project);
  const stack = await sandbox.createStack(dir, "unconfigured", noEndpoint);
  const before = cloud.control.counters().total;
  const out = await expectFailure(() => stack.preview({ color: "never" }));
  expect(out).toMatch(/no endpoint for the objectstorage service: set krcloud:objectstorageEndpoint \(or KRCLOUD_OBJECTSTORAGE_ENDPOINT\)/);
  await stack.setConfig("krcloud:localCloudUrl", { value: project.cloud.url });
  // No token, and no access key to have one issued: every source of tokens is named.
  await stack.removeConfig("krcloud:authToken");
  await stack.removeConfig("krcloud:credentialId");
  expect(await expectFailure(() => stack.preview({ color: "never" }))).toMatch(
    /no credentials for objectstorage: set one of krcloud:authToken \(a token, as a secret\), krcloud:tokenCommand \(a command that prints one\), or an access key/,
  );
  expect(cloud.control.counters().total).toBe(before);
});
