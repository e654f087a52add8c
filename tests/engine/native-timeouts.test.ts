/**
 * customTimeouts through the native plugin, with the real CLI: a bucket whose create settles slowly
 * (a local-cloud latency fault on the read that waits for the new bucket) fails at its
 * `customTimeouts.create` of 2s, long before the slow answer, with a message naming the resource;
 * the bucket stays in state, and the next up finishes it.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../emulator";
import {
  changedSteps,
  ENGINE_TEST_TIMEOUT_MS,
  eventCollector,
  expectFailure,
  installNativePlugin,
  nativeResourcesOfType,
  nativeSiteProgram,
  newProject,
  providerConfig,
  Sandbox,
  startCloud,
  type CloudProject,
} from "../support/engine";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const NS = "krcloud-test-native-site";
/** Far longer than the timeout: a create that waited for it would take this long. */
const LATENCY_MS = 30_000;

let cloud: LocalCloud;
let sandbox: Sandbox;
let project: CloudProject;
let stack: Stack;
let bucketName: string;

beforeAll(async () => {
  cloud = await startCloud();
  sandbox = new Sandbox({ label: "native-timeouts" });
  project = await newProject(cloud, "timeouts");
  await installNativePlugin(sandbox);
  bucketName = `slow-${project.projectId.slice(-10)}`;
  stack = await sandbox.createStack(
    sandbox.copyProgram(nativeSiteProgram()),
    "timeouts",
    providerConfig(project, { [`${NS}:createTimeout`]: { value: "2s" }, [`${NS}:bucketName`]: { value: bucketName } }),
  );
});

afterAll(async () => {
  await cloud?.close();
  sandbox?.cleanup();
});

test("a create slower than customTimeouts.create fails at the timeout, naming the resource, and the resource stays in state", async () => {
  await project.control.addFault({ service: "object-storage", operation: "GetBucketMeta", action: "latency", latencyMs: LATENCY_MS, times: 1 });
  const { events, onEvent } = eventCollector();
  const text = await expectFailure(() => stack.up({ color: "never", onEvent }));

  expect(text).toContain(`krcloud:objectstorage:Bucket (site)`);
  expect(text).toContain(`bucket "${bucketName}" was not readable within the create timeout of 2s (customTimeouts)`);
  // From the start of the bucket's create to its failure (engine event times, whole seconds): the
  // timeout, not the slow answer.
  const started = events.find((e) => e.resourcePreEvent?.metadata.type === "krcloud:objectstorage:Bucket")?.timestamp;
  const failed = events.find((e) => e.resOpFailedEvent?.metadata.type === "krcloud:objectstorage:Bucket")?.timestamp;
  expect(started).toEqual(expect.any(Number));
  expect(failed! - started!).toBeGreaterThanOrEqual(1);
  expect(failed! - started!).toBeLessThanOrEqual(6);

  const [bucket] = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket");
  expect(bucket?.id).toBe(bucketName);
  expect((await project.control.inventory(project.projectId)).map((e) => e.id)).toContain(bucketName);
});

test("the next up finishes the resource, then nothing is left to change", async () => {
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  expect(up.outputs.bucketName!.value).toBe(bucketName);
  const { events, onEvent } = eventCollector();
  await stack.preview({ color: "never", onEvent });
  expect(changedSteps(events)).toEqual([]);
  await stack.destroy({ color: "never" });
  expect(await project.control.inventory(project.projectId)).toEqual([]);
});
