/**
 * An explicit `pulumi:providers:krcloud` resource through the native plugin, with the real CLI and
 * a YAML program: its inputs (not the stack config, which has no krcloud:* key) configure the
 * plugin for the resources and the invoke that name it; the token, a secret input, is in state only
 * as a secret; preview after up shows no changes; destroy leaves nothing.
 */
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../emulator";
import {
  backendFiles,
  changedSteps,
  ENGINE_TEST_TIMEOUT_MS,
  eventCollector,
  installNativePlugin,
  newProject,
  pulumiYamlBinDir,
  REPO_ROOT,
  Sandbox,
  startCloud,
  withoutSecrets,
  type CloudProject,
} from "../harness/engine";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const NS = "krcloud-test-explicit-provider";
let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;
let stack: Stack;

beforeAll(async () => {
  if (!pulumiYamlBinDir()) throw new Error("pulumi-language-yaml is missing: run `make pulumi-yaml` (scripts/install-pulumi-yaml.sh)");
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "native-explicit" });
  project = await newProject(cloud, "explicit");
  await installNativePlugin(sandbox);
  stack = await sandbox.createStack(sandbox.copyProgram(path.join(REPO_ROOT, "tests", "programs", "native-explicit-provider")), "explicit", {
    [`${NS}:cloudUrl`]: { value: cloud.url },
    [`${NS}:project`]: { value: project.projectId },
    [`${NS}:token`]: { value: project.token, secret: true },
  });
});

afterAll(async () => {
  await cloud?.close();
  sandbox?.cleanup();
});

test("the explicit provider's inputs configure the plugin: up creates the bucket and runs the invoke; the token is only a secret in state", async () => {
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  const bucket = up.outputs.bucketName!.value as string;
  expect((await project.control.inventory(project.projectId)).map((e) => `${e.kind}:${e.id}`)).toEqual([`bucket:${bucket}`]);
  expect((up.outputs.storageInfo!.value as { swift?: { maxFileSize?: unknown } }).swift?.maxFileSize).toEqual(expect.any(Number));
  // Exported (secrets decrypted) the token is only inside secret envelopes; at rest it is nowhere.
  const deployment = await stack.exportStack();
  expect(JSON.stringify(deployment)).toContain('"type":"pulumi:providers:krcloud"');
  expect(JSON.stringify(withoutSecrets(deployment))).not.toContain(project.token);
  expect(
    backendFiles(sandbox.backendDir)
      .filter((f) => f.text.includes(project.token))
      .map((f) => f.file),
  ).toEqual([]);
});

test("preview after up shows no changes; destroy leaves nothing", async () => {
  const { events, onEvent } = eventCollector();
  await stack.preview({ color: "never", onEvent });
  expect(changedSteps(events)).toEqual([]);
  await stack.destroy({ color: "never" });
  expect(await project.control.inventory(project.projectId)).toEqual([]);
});
