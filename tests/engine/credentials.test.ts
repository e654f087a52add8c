/**
 * Issue 26 (credentials that renew themselves) and issue 27 item 7 (stale credentials), through the
 * real CLI, as a user meets them:
 *
 * - a stack configured with only an access key and the identity endpoint (no token, no project, no
 *   endpoint), on both doors: up, preview --expect-no-changes, refresh, krcloud-drift, destroy;
 * - a revoked key fails the next `up` at once, naming the key and its settings, and leaves nothing
 *   behind; with a new key the next `up` converges; a 403 is a refused permission, never a reason
 *   for a new token;
 * - a token command is run once per process, and its failure is reported with its exit code and
 *   its standard error, redacted;
 * - after an `up` with a wrong token, the corrected config works at once for krcloud-drift and
 *   `refresh --run-program`; the error names the setting the token came from.
 *
 * Token lifetimes and renewal across expiry: credentials-renewal.test.ts.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { EXIT } from "../../drift/model";
import { accessKeyConfig, ENGINE_TEST_TIMEOUT_MS, expectFailure, providerConfig, tokensIssued } from "../harness/engine";
import { runDrift } from "../support/drift";
import { audit, FAULTS_PROGRAM, NS, projectBed, stackInventory, type Bed } from "../support/faults/reliability";
import { engineFile, YAML_SITE_RESOURCES, yamlProgram } from "../harness/engine/engine-file";
import { writeFiles } from "../harness/programs";
import { findings, NONE } from "../support/faults/reliability-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "credentials", yaml: true, plugin: true });

/** A project, its setup and a stack of tests/programs/faults declaring `res`, configured by `config` alone. */
async function bed(label: string, res: string, config: (p: Awaited<ReturnType<typeof projectBed>>) => ConfigMap): Promise<Bed> {
  const p = await projectBed(engine.cloud, label);
  const dir = engine.sandbox.copyProgram(FAULTS_PROGRAM, `faults-${label}`);
  const program = { keyId: p.keyId, instanceId: p.instanceId, resultBucket: p.resultBucket, res };
  const stack = await engine.sandbox.createStack(dir, label, {
    ...config(p),
    ...Object.fromEntries(Object.entries(program).map(([k, v]) => [`${NS}:${k}`, { value: v }])),
  });
  return { ...p, dir, stack, stackName: label, backendDir: engine.sandbox.backendDir };
}

/** The provider settings a stack has, without the program's own. */
async function providerKeys(stack: Stack): Promise<string[]> {
  return Object.keys(await stack.getAllConfig())
    .filter((k) => k.startsWith("krcloud:"))
    .sort();
}

/** up, preview --expect-no-changes, refresh, krcloud-drift (clean), destroy: the whole life of a stack. */
async function wholeLife(stack: Stack, dir: string, stackName: string, expectCreated: number): Promise<void> {
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges?.create).toBe(expectCreated);
  await stack.preview({ expectNoChanges: true, color: "never" });
  expect((await stack.refresh({ color: "never" })).summary.result).toBe("succeeded");
  const drift = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", stackName, "--json"]);
  expect({ code: drift.code, stderr: drift.stderr }).toEqual({ code: EXIT.clean, stderr: "" });
  expect((await stack.destroy({ color: "never" })).summary.result).toBe("succeeded");
}

describe("only an access key and the identity endpoint", () => {
  test("dynamic classes: up, preview --expect-no-changes, refresh, krcloud-drift, destroy; the project and every endpoint come from the token", async () => {
    const b = await bed("dynkey", "bucket,object,pg,cipher,ds,hadoop", (p) => accessKeyConfig(engine.cloud, p.project));
    expect(await providerKeys(b.stack)).toEqual(["krcloud:credentialId", "krcloud:credentialSecret", "krcloud:identityEndpoint"]);
    const before = await tokensIssued(engine.cloud, b.project.credentialId);
    // Six resources, the stack and its identity (krcloud-stack).
    await wholeLife(b.stack, b.dir, b.stackName, 8);
    expect(await stackInventory(b)).toEqual([]);
    // One token per provider process (and none for a program that makes no call): up, preview,
    // refresh, the drift check's refresh-preview (two processes: it runs the program to refresh),
    // destroy. Never one per resource.
    const issued = (await tokensIssued(engine.cloud, b.project.credentialId)) - before;
    expect(issued).toBeGreaterThanOrEqual(5);
    expect(issued).toBeLessThanOrEqual(8);
  });

  test("native plugin (YAML): the same, through the plugin's default provider", async () => {
    const p = await projectBed(engine.cloud, "yamlkey");
    const dir = path.join(engine.sandbox.root, "programs", "yaml-key");
    writeFiles(
      dir,
      yamlProgram("krcloud-test-credentials-yaml", [
        ...YAML_SITE_RESOURCES,
        "  params:",
        "    type: krcloud:cache:ParameterGroup",
        "    properties: { baseParameterGroupId: default.redis7.0.cluster, parameters: { maxmemory-policy: allkeys-lru } }",
        "  sealed:",
        "    type: krcloud:kms:Ciphertext",
        `    properties: { keyId: ${p.keyId}, plaintext: credentials-yaml }`,
        "outputs:",
        "  url: ${index.url}",
      ]),
    );
    const stack = await engine.sandbox.createStack(dir, "yamlkey", accessKeyConfig(engine.cloud, p.project));
    await wholeLife(stack, dir, "yamlkey", 5);
    expect(await stackInventory(p)).toEqual([]);
  });
});

describe("a refused credential", () => {
  test("a revoked key: the up fails at once naming the key and its settings, nothing is orphaned; with a new key the next up converges", async () => {
    const b = await bed("revoked", "bucket,pg", (p) => accessKeyConfig(engine.cloud, p.project));
    expect((await b.stack.up({ color: "never" })).summary.result).toBe("succeeded");
    const made = await stackInventory(b);
    expect(made).toHaveLength(2);

    await fetch(`${engine.cloud.controlUrl}/credentials/${b.project.credentialId}`, { method: "DELETE" });
    await b.stack.setConfig(`${NS}:res`, { value: "bucket,pg,cipher" });
    const issuedBefore = await tokensIssued(engine.cloud);
    const started = Date.now();
    const out = await expectFailure(() => b.stack.up({ color: "never" }));
    expect(out).toMatch(
      new RegExp(
        `the access key "${b.project.credentialId}" \\(krcloud:credentialId and krcloud:credentialSecret\\) was refused by the identity service [^ ]+ \\(401[^)]*\\): it is wrong, revoked or expired; create a new access key`,
      ),
    );
    expect(out).not.toContain(b.project.credentialSecret);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(await tokensIssued(engine.cloud)).toBe(issuedBefore);
    expect(await stackInventory(b)).toEqual(made);
    expect(findings(await audit(b))).toEqual(NONE);

    const fresh = await b.project.control.issueAccessKey(b.project.projectId);
    await b.stack.setAllConfig(accessKeyConfig(engine.cloud, fresh));
    const up = await b.stack.up({ color: "never" });
    expect(up.summary.resourceChanges?.create).toBe(1);
    await b.stack.preview({ expectNoChanges: true, color: "never" });
    expect(findings(await audit(b))).toEqual(NONE);
    expect((await b.stack.destroy({ color: "never" })).summary.result).toBe("succeeded");
  });

  test("a 403 is a refused permission: named as such, no new token is requested, nothing is created", async () => {
    const p = await projectBed(engine.cloud, "readonly");
    const limited = (await (
      await fetch(`${engine.cloud.controlUrl}/credentials`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ projectId: p.project.projectId, kind: "access-key", permissions: ["storage.buckets.get", "storage.objects.get"] }),
      })
    ).json()) as { credentialId: string; credentialSecret: string };
    const dir = engine.sandbox.copyProgram(FAULTS_PROGRAM, "faults-readonly");
    const stack = await engine.sandbox.createStack(dir, "readonly", accessKeyConfig(engine.cloud, limited, { [`${NS}:res`]: { value: "bucket" } }));
    const out = await expectFailure(() => stack.up({ color: "never" }));
    expect(out).toMatch(
      new RegExp(
        `permission refused \\(403\\): the token issued for the access key "${limited.credentialId}" \\(krcloud:credentialId and krcloud:credentialSecret\\) by [^ ]+ is valid but not allowed to do this \\(not an expired token; no new token was requested\\)`,
      ),
    );
    expect(await tokensIssued(engine.cloud, limited.credentialId)).toBe(1);
    expect(await stackInventory(p)).toEqual([]);
  });
});

describe("the token command", () => {
  /** A command that asks the identity service for a token with `key`, as a credential helper would, counting its runs. */
  function tokenCommand(label: string, key: { credentialId: string; credentialSecret: string }, fail?: string): { command: string; runs: () => number } {
    const counter = path.join(engine.sandbox.root, `${label}-runs`);
    const script = path.join(engine.sandbox.root, `${label}-token.js`);
    fs.writeFileSync(
      script,
      `const fs = require("fs");
fs.appendFileSync(${JSON.stringify(counter)}, "run\\n");
${fail ?? ""}
fetch(${JSON.stringify(`${engine.cloud.url}/identity/v3/auth/tokens`)}, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ auth: { identity: { methods: ["application_credential"], application_credential: { id: ${JSON.stringify(key.credentialId)}, secret: ${JSON.stringify(key.credentialSecret)} } } } }),
}).then(async (r) => {
  const t = (await r.json()).token;
  process.stdout.write(JSON.stringify({ token: r.headers.get("x-subject-token"), expiresAt: t.expires_at, projectId: t.project.id }));
});
`,
    );
    return {
      command: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`,
      runs: () => (fs.existsSync(counter) ? fs.readFileSync(counter, "utf8").split("\n").filter(Boolean).length : 0),
    };
  }

  test("run once per provider process, however many resources; the project comes from its output", async () => {
    const p = await projectBed(engine.cloud, "tokcmd");
    const { command, runs } = tokenCommand("tokcmd", p.project);
    const dir = engine.sandbox.copyProgram(FAULTS_PROGRAM, "faults-tokcmd");
    const stack = await engine.sandbox.createStack(dir, "tokcmd", {
      "krcloud:tokenCommand": { value: command },
      "krcloud:localCloudUrl": { value: engine.cloud.url },
      [`${NS}:res`]: { value: "bucket,object,pg" },
    });
    const up = await stack.up({ color: "never", parallel: 10 });
    // Three resources, the stack and its identity (krcloud-stack).
    expect(up.summary.resourceChanges?.create).toBe(5);
    expect(runs()).toBe(1);
    await stack.preview({ expectNoChanges: true, color: "never" });
    expect(runs()).toBe(2);
    expect((await stack.destroy({ color: "never" })).summary.result).toBe("succeeded");
    expect(await stackInventory(p)).toEqual([]);
  });

  test("its failure is reported with its exit code and its standard error, without what it printed", async () => {
    const p = await projectBed(engine.cloud, "tokfail");
    const { command } = tokenCommand(
      "tokfail",
      p.project,
      `process.stdout.write("partial-SECRET-output-1234"); process.stderr.write("helper: no session for partial-SECRET-output-1234\\n"); process.exit(4);`,
    );
    const dir = engine.sandbox.copyProgram(FAULTS_PROGRAM, "faults-tokfail");
    const stack = await engine.sandbox.createStack(dir, "tokfail", {
      "krcloud:tokenCommand": { value: command },
      "krcloud:localCloudUrl": { value: engine.cloud.url },
      [`${NS}:res`]: { value: "bucket" },
    });
    const out = await expectFailure(() => stack.preview({ color: "never" }));
    expect(out).toContain("the token command (krcloud:tokenCommand) exited with code 4; standard error: helper: no session for [redacted]");
    expect(out).not.toContain("partial-SECRET-output-1234");
  });
});

describe("stale credentials (issue 27 item 7)", () => {
  test("after an up with a wrong token, the corrected config works at once for krcloud-drift and refresh --run-program; the error names krcloud:authToken", async () => {
    const b = await bed("stale", "bucket,pg", (p) => providerConfig(p.project));
    expect((await b.stack.up({ color: "never" })).summary.result).toBe("succeeded");

    await b.stack.setConfig("krcloud:authToken", { value: "krc-wrong-token-0000", secret: true });
    await b.stack.setConfig(`${NS}:res`, { value: "bucket,pg,cipher" });
    const failed = await expectFailure(() => b.stack.up({ color: "never" }));
    expect(failed).toMatch(
      /the auth token from krcloud:authToken was refused \(401\): it has expired or was revoked\. A static token cannot be renewed: configure an access key/,
    );
    expect(failed).not.toContain("krc-wrong-token-0000");

    await b.stack.setConfig("krcloud:authToken", { value: b.project.token, secret: true });
    await b.stack.setConfig(`${NS}:res`, { value: "bucket,pg" });
    // Pulumi's rule: a plain refresh runs the providers with the configuration the last up stored
    // in state (the wrong token), which is why the docs' recipes and krcloud-drift run the program.
    expect(await expectFailure(() => b.stack.refresh({ color: "never" }))).toMatch(/krcloud:authToken was refused \(401\)/);
    const drift = await runDrift(engine.sandbox, ["--cwd", b.dir, "--stack", b.stackName, "--json"]);
    expect({ code: drift.code, stderr: drift.stderr }).toEqual({ code: EXIT.clean, stderr: "" });
    expect((await b.stack.refresh({ color: "never", runProgram: true })).summary.result).toBe("succeeded");
    expect((await b.stack.destroy({ color: "never" })).summary.result).toBe("succeeded");
  });
});
