/**
 * A nested input that fails validation, as the user sees it in `pulumi preview`: the engine prints
 * "property <p> value <v> has a problem: <reason>", where it finds <v> by looking <p> up among the
 * resource's top-level inputs (pulumi v3.259, step_generator.go issueCheckFailures:
 * `inputs[failure.Property]`, no path parsing). A failure naming a nested path
 * (`acl.publicReadAllowIpList[0]`) printed `value {<nil>}`; the failure now names the top-level
 * input, so the value shows, and the reason keeps the full path. Both ways of running the provider:
 * the dynamic classes (TypeScript/JavaScript) and the native plugin (YAML).
 */
import { ENGINE_TEST_TIMEOUT_MS, expectFailure, providerConfig } from "../harness/engine";
import { engineFile, jsProgram, yamlResourceProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const BAD_IP = "not-an-ip-address";

const engine = engineFile({ label: "check-failures", project: "checkfail", yaml: true });

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
  const stack = await engine.programStack(
    "dynamic",
    jsProgram("krcloud-check-failures", [
      `new krcloud.objectstorage.Bucket("site", { acl: { public: "read-only", publicReadAllowIpList: [${JSON.stringify(BAD_IP)}] } });`,
    ]),
  );
  expectValueShown(problemLine(await expectFailure(() => stack.preview({ color: "never" }))));
});

test("native plugin (YAML): a nested failure prints the input's value, not {<nil>}", async () => {
  const stack = await engine.programStack(
    "native",
    yamlResourceProgram("krcloud-check-failures-yaml", "site", "krcloud:objectstorage:Bucket", [
      `acl: { public: read-only, publicReadAllowIpList: [${BAD_IP}] }`,
    ]),
    { plugin: true },
  );
  expectValueShown(problemLine(await expectFailure(() => stack.preview({ color: "never" }))));
});

test("a missing endpoint or credential fails `pulumi preview` naming the setting, not only the `up` after it; nothing is created", async () => {
  const dir = engine.program("unconfigured", jsProgram("krcloud-unconfigured", ['new krcloud.objectstorage.Bucket("site", {});']));
  const { "krcloud:localCloudUrl": _url, ...noEndpoint } = providerConfig(engine.project);
  const stack = await engine.sandbox.createStack(dir, "unconfigured", noEndpoint);
  const before = engine.cloud.control.counters().total;
  const out = await expectFailure(() => stack.preview({ color: "never" }));
  expect(out).toMatch(/no endpoint for the objectstorage service: set krcloud:objectstorageEndpoint \(or KRCLOUD_OBJECTSTORAGE_ENDPOINT\)/);
  await stack.setConfig("krcloud:localCloudUrl", { value: engine.project.cloud.url });
  // No token, and no access key to have one issued: every source of tokens is named.
  await stack.removeConfig("krcloud:authToken");
  await stack.removeConfig("krcloud:credentialId");
  expect(await expectFailure(() => stack.preview({ color: "never" }))).toMatch(
    /no credentials for objectstorage: set one of krcloud:authToken \(a token, as a secret\), krcloud:tokenCommand \(a command that prints one\), or an access key/,
  );
  expect(engine.cloud.control.counters().total).toBe(before);
});
