/**
 * What `pulumi preview` says before a replacement, as the user reads it, through the real CLI on
 * both doors (the dynamic classes from a JavaScript program, the native plugin from YAML): a cache
 * cluster whose flavor changes, and one whose user's password rotates (the cache API cannot change
 * a user: the cluster is replaced, a new endpoint, the data gone). The preview names the property
 * that forces the replacement and why, and says what the replacement loses, as a warning; the
 * password never shows. The plugin's detailed diff also marks the property as the one that
 * replaces (`preview --diff`).
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { ENGINE_TEST_TIMEOUT_MS } from "../harness/engine";
import { engineFile, jsProgram, yamlProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "preview-reasons", project: "reasons", yaml: true });

const OLD_PASSWORD = "Rotate-me-0001";
const NEW_PASSWORD = "Rotated-pw-0002";

const DYNAMIC = jsProgram(
  "krcloud-preview-reasons",
  [
    "const config = new pulumi.Config();",
    'const sessions = new krcloud.cache.Cluster("sessions", {',
    '  version: "7.0.15", flavorId: config.require("flavor"), parameterGroupId: "default.redis7.0.cluster",',
    '  subnetIds: ["sn-a"], securityGroupIds: ["sg-1"], shards: [{ primarySubnetId: "sn-a" }],',
    '  user: { name: "app", password: config.requireSecret("password") },',
    "});",
    "exports.endpoint = sessions.primaryEndpoint;",
  ],
  { pulumi: true, packageJson: true },
);

const NATIVE = yamlProgram("krcloud-preview-reasons-native", [
  "configuration:",
  "  flavor: { type: String }",
  "  password: { type: String, secret: true }",
  "resources:",
  "  sessions:",
  "    type: krcloud:cache:Cluster",
  "    properties:",
  "      version: 7.0.15",
  "      flavorId: ${flavor}",
  "      parameterGroupId: default.redis7.0.cluster",
  "      subnetIds: [sn-a]",
  "      securityGroupIds: [sg-1]",
  "      shards: [{ primarySubnetId: sn-a }]",
  "      user: { name: app, password: '${password}' }",
  "outputs:",
  "  endpoint: ${sessions.primaryEndpoint}",
]);

/** The preview's whole text for the stack with `flavor` and `password` set. */
async function previewWith(stack: Stack, flavor: string, password: string, diff = false): Promise<string> {
  await stack.setConfig("flavor", { value: flavor });
  await stack.setConfig("password", { value: password, secret: true });
  const r = await stack.preview({ color: "never", diff });
  return `${r.stdout}\n${r.stderr}`;
}

function warningLine(out: string): string {
  const line = out.split("\n").find((l) => /warning: .*will be REPLACED/.test(l));
  if (!line) throw new Error(`no replacement warning in:\n${out}`);
  return line;
}

/** `counted`: the row whose summary counts the warning (the engine's warning, not a line of text on the provider's stderr). */
async function checkDoor(stack: Stack, counted: RegExp): Promise<void> {
  await stack.setConfig("flavor", { value: "redis.small" });
  await stack.setConfig("password", { value: OLD_PASSWORD, secret: true });
  await stack.up({ color: "never" });

  const rotated = await previewWith(stack, "redis.small", NEW_PASSWORD);
  const why = warningLine(rotated);
  expect(why).toMatch(
    /cache cluster "sessions-[0-9a-z]+" \(cluster-[0-9a-f]+\) will be REPLACED: user changes, and the cache API has no operation that changes a cluster's user or password/,
  );
  expect(why).toMatch(/new endpoints .* and no data; what this one holds is lost when it is deleted/);
  expect(rotated).toMatch(/\+-\s*\S*krcloud\S*cache:Cluster\s+sessions\s+replace/);
  expect(rotated).toMatch(counted);
  expect(rotated).not.toContain(OLD_PASSWORD);
  expect(rotated).not.toContain(NEW_PASSWORD);

  const resized = await previewWith(stack, "redis.medium", OLD_PASSWORD);
  expect(warningLine(resized)).toMatch(
    /will be REPLACED: flavorId changes, and the cache API's cluster update \(PATCH\) changes only the description, backup schedule, parameter group and security groups\. The replacement is a new cluster: new endpoints/,
  );
  // The generated name that changes with the replacement is not given as its cause.
  expect(warningLine(resized)).not.toMatch(/\bname changes/);

  // Nothing replaces: nothing to warn about.
  const same = await previewWith(stack, "redis.small", OLD_PASSWORD);
  expect(same).not.toMatch(/will be REPLACED/);
}

test("dynamic classes: the preview says which property replaces the cluster, why, and that the data and endpoint go", async () => {
  const stack = await engine.programStack("dynamic", DYNAMIC);
  // The host's diff has no URN: the warning sits under the stack, counted there.
  await checkDoor(stack, /pulumi:pulumi:Stack krcloud-preview-reasons-dynamic\s+1 warning\s*$/m);
  await stack.destroy({ color: "never" });
});

test("native plugin (YAML): the same warning on the resource's row, and the detailed diff marks the property that replaces", async () => {
  const stack = await engine.programStack("native", NATIVE, { plugin: true });
  // On the resource's rows, after its detailed diff.
  await checkDoor(
    stack,
    /krcloud:cache:Cluster sessions replace \[diff: ~name,user\]; warning: cache cluster "sessions-\w+" \(cluster-[0-9a-f]+\) will be REPLACED: user changes/,
  );
  const detailed = await previewWith(stack, "redis.medium", OLD_PASSWORD, true);
  expect(detailed).toMatch(/~ flavorId\s*:\s*"redis\.small" => "redis\.medium"/);
  expect(detailed).toMatch(/warning: .*will be REPLACED: flavorId changes/);
  await stack.destroy({ color: "never" });
});
