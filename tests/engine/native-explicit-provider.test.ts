/**
 * An explicit `pulumi:providers:krcloud` resource through the native plugin, with the real CLI and
 * a YAML program: its inputs (not the stack config, which has no krcloud:* key) configure the
 * plugin for the resources and the invoke that name it; the token, a secret input, is in state only
 * as a secret; preview after up shows no changes; destroy leaves nothing.
 */
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { backendFiles, ENGINE_TEST_TIMEOUT_MS, REPO_ROOT, withoutSecrets } from "../harness/engine";
import { engineFile, previewSteps } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const NS = "krcloud-test-explicit-provider";
let stack: Stack;

const engine = engineFile({ label: "native-explicit", project: "explicit", yaml: true, plugin: true });

beforeAll(async () => {
  stack = await engine.sandbox.createStack(engine.sandbox.copyProgram(path.join(REPO_ROOT, "tests", "programs", "native-explicit-provider")), "explicit", {
    [`${NS}:cloudUrl`]: { value: engine.cloud.url },
    [`${NS}:project`]: { value: engine.project.projectId },
    [`${NS}:token`]: { value: engine.project.token, secret: true },
  });
});

test("the explicit provider's inputs configure the plugin: up creates the bucket and runs the invoke; the token is only a secret in state", async () => {
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  const bucket = up.outputs.bucketName!.value as string;
  expect((await engine.inventory()).map((e) => `${e.kind}:${e.id}`)).toEqual([`bucket:${bucket}`]);
  expect((up.outputs.storageInfo!.value as { swift?: { maxFileSize?: unknown } }).swift?.maxFileSize).toEqual(expect.any(Number));
  // Exported (secrets decrypted) the token is only inside secret envelopes; at rest it is nowhere.
  const deployment = await stack.exportStack();
  expect(JSON.stringify(deployment)).toContain('"type":"pulumi:providers:krcloud"');
  expect(JSON.stringify(withoutSecrets(deployment))).not.toContain(engine.project.token);
  expect(
    backendFiles(engine.sandbox.backendDir)
      .filter((f) => f.text.includes(engine.project.token))
      .map((f) => f.file),
  ).toEqual([]);
});

test("preview after up shows no changes; destroy leaves nothing", async () => {
  expect(await previewSteps(stack)).toEqual([]);
  await stack.destroy({ color: "never" });
  expect(await engine.inventory()).toEqual([]);
});
