/**
 * After `pulumi refresh`, `pulumi preview --diff` of the dynamic classes lists only what the
 * program changed: the dynamic door's read returns the resource's inputs as well as its outputs
 * (pulumi/pulumi#21315), and those inputs keep what check recorded (the create key, whether the
 * name was generated) and the values the cloud never shows, so no property the program did not
 * touch shows as a change, and a change made outside Pulumi shows as what the next up reverts.
 * Through the real CLI, with a bucket and a cache cluster with a user.
 */
import { ENGINE_TEST_TIMEOUT_MS } from "../harness/engine";
import { engineFile, jsProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "refresh-diff", project: "refreshdiff" });

const PROGRAM = jsProgram(
  "krcloud-refresh-diff",
  [
    "const config = new pulumi.Config();",
    'new krcloud.objectstorage.Bucket("site", { acl: { public: "read-only" }, metadata: { owner: config.require("owner") } });',
    'new krcloud.cache.Cluster("sessions", {',
    '  version: "7.0.15", flavorId: "redis.small", parameterGroupId: "default.redis7.0.cluster",',
    '  subnetIds: ["sn-a"], securityGroupIds: ["sg-1"], shards: [{ primarySubnetId: "sn-a" }],',
    '  description: config.require("description"), user: { name: "app", password: config.requireSecret("password") },',
    "});",
  ],
  { pulumi: true, packageJson: true },
);

/** The changed property lines (`~ metadata: {`, `+ x: ...`) of one resource's block in `preview --diff` output. */
function changedLines(out: string, name: string): string[] {
  const lines = out.split("\n");
  const start = lines.findIndex((l) => l.trim().startsWith("[urn=") && l.trim().endsWith(`::${name}]`));
  if (start < 0) throw new Error(`no block for ${name} in:\n${out}`);
  const end = lines.findIndex((l, i) => i > start && (l.trim().startsWith("[urn=") || l.startsWith("Resources:")));
  // The next block's header line (`~ pulumi-nodejs:...: (update)`) sits just before its [id=]/[urn=] lines.
  const block = lines.slice(start + 1, end < 0 ? undefined : end).filter((l) => !/pulumi-nodejs:|pulumi:pulumi:|^\s*\[id=/.test(l));
  return block.map((l) => l.trim()).filter((l) => /^[~+-]{1,2}\s*[\w"]/.test(l));
}

test("dynamic classes: after a refresh, preview --diff shows only the properties the program changed", async () => {
  const stack = await engine.programStack("dynamic", PROGRAM);
  await stack.setAllConfig({ owner: { value: "web-team" }, description: { value: "sessions" }, password: { value: "Refresh-pw-01", secret: true } });
  await stack.up({ color: "never" });
  await stack.refresh({ color: "never" });
  const same = await stack.preview({ color: "never", diff: true });
  // The bucket, the cluster, the stack and its identity (krcloud-stack).
  expect(same.changeSummary).toEqual({ same: 4 });

  // Changed behind Pulumi's back, refreshed: the preview shows the revert of exactly that.
  const clusterId = (await stack.exportStack()).deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::sessions")).id as string;
  await engine.project.control.patchResource("cache", "cluster", clusterId, { description: "changed outside" });
  await stack.refresh({ color: "never" });
  const drifted = (await stack.preview({ color: "never", diff: true })).stdout;
  expect(changedLines(drifted, "sessions")).toEqual([expect.stringMatching(/^~ description\s*: "changed outside" => "sessions"$/)]);

  await stack.setAllConfig({ owner: { value: "data-team" }, description: { value: "web sessions" } });
  const out = (await stack.preview({ color: "never", diff: true })).stdout;
  expect(changedLines(out, "site")).toEqual([expect.stringMatching(/^~ metadata\s*: \{$/), '~ owner: "web-team" => "data-team"']);
  expect(changedLines(out, "sessions")).toEqual([expect.stringMatching(/^~ description\s*: "changed outside" => "web sessions"$/)]);
  await stack.destroy({ color: "never" });
});
