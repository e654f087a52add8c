/**
 * A ParameterGroup's bad values fail `pulumi preview`, as the README says a bad value does, through
 * the real CLI on both doors: a negative `timeout`, an unknown parameter and a value outside an
 * enum are each named with its rule, and the message says the rules were read from the cloud (the
 * base group's catalogue). The preview sends no mutating request. A base group that is not known
 * yet in the preview (another resource's output) skips the check: the preview passes.
 */
import { ENGINE_TEST_TIMEOUT_MS, expectFailure } from "../harness/engine";
import { engineFile, jsProgram, yamlResourceProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "preview-checks", project: "pchecks", yaml: true });

const BAD = { timeout: "-5", tiemout: "300", "maxmemory-policy": "least-used" };

/** The requests the cloud received since `since` (its log's sequence number). */
async function requestsSince(since: number): Promise<{ seq: number; method: string; operation: string; projectId?: string }[]> {
  const res = await fetch(`${engine.cloud.controlUrl}/requests?since=${since}`);
  return ((await res.json()) as { requests: { seq: number; method: string; operation: string; projectId?: string }[] }).requests;
}
async function lastSeq(): Promise<number> {
  return ((await (await fetch(`${engine.cloud.controlUrl}/requests?since=0`)).json()) as { lastSeq: number }).lastSeq;
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
  const stack = await engine.programStack(
    "dynamic",
    jsProgram(
      "krcloud-preview-checks",
      [`new krcloud.cache.ParameterGroup("params", { baseParameterGroupId: "default.redis7.0.cluster", parameters: ${JSON.stringify(BAD)} });`],
      { packageJson: true },
    ),
  );
  const before = await lastSeq();
  const out = await expectFailure(() => stack.preview({ color: "never" }));
  expectNamed(out);
  const mine = (await requestsSince(before)).filter((r) => r.projectId === engine.project.projectId || r.operation === "GetParameterGroup");
  expect(mine.filter((r) => r.method !== "GET" && r.method !== "HEAD")).toEqual([]);
  expect(mine.filter((r) => r.operation === "GetParameterGroup")).toHaveLength(1);
});

test("dynamic classes: a base group not known yet in the preview skips the check (the preview passes)", async () => {
  const stack = await engine.programStack(
    "dynamic-unknown",
    jsProgram(
      "krcloud-preview-checks-unknown",
      [
        'const bucket = new krcloud.objectstorage.Bucket("b", {});',
        `new krcloud.cache.ParameterGroup("params", { baseParameterGroupId: bucket.url.apply(() => "default.redis7.0.cluster"), parameters: ${JSON.stringify(BAD)} });`,
      ],
      { packageJson: true },
    ),
  );
  const preview = await stack.preview({ color: "never" });
  // The bucket, the group, the stack and its identity (krcloud-stack).
  expect(preview.changeSummary).toMatchObject({ create: 4 });
});

test("native plugin (YAML): the same failures in the preview", async () => {
  const stack = await engine.programStack(
    "native",
    yamlResourceProgram("krcloud-preview-checks-native", "params", "krcloud:cache:ParameterGroup", [
      "baseParameterGroupId: default.redis7.0.cluster",
      `parameters: ${JSON.stringify(BAD)}`,
    ]),
    { plugin: true },
  );
  expectNamed(await expectFailure(() => stack.preview({ color: "never" })));
});
