/**
 * The secrets scan, for either front door (tests/engine/secrets-scan-dynamic.test.ts and
 * secrets-scan-native.test.ts declare it): a distinctive value in every secret-bearing input (cache
 * user passwords, the data source password, the Hadoop admin and metastore passwords, the KMS
 * plaintext) and the provider credentials (auth token, credential secret, and what the provider
 * comes to hold at run time: every token the identity service issued for the project's access key,
 * and everything a token command printed), then a search for each, plain, Base64 (and base64url)
 * and URL-encoded, in everything a run leaves or shows. The stacks use every source of tokens: a
 * static token (`scan`), only the access key (`fail`: tokens issued by the identity service), a
 * token command (`kms`). The places searched:
 *
 * - the state: `pulumi stack export` (and, with `--show-secrets`, everything outside the secret
 *   envelopes), every file under the file backend (checkpoints, `.pulumi/history`, backups);
 * - the output of `pulumi up --debug` (not `-v=9 --logtostderr`: that is Pulumi's own RPC log of
 *   every input, Pulumi's to keep);
 * - what every Node process the CLI started wrote to stdout and stderr: the providers (the dynamic
 *   provider host, the native plugin) and the program (tests/support/secrets/tee-output.ts);
 * - every error of a run that fails after the passwords were sent (each secrets holder whose
 *   fixture says how its create fails after its request: `secrets` in tests/resources/);
 * - the local cloud's request log (`GET /_control/requests`);
 * - the drift report (`krcloud-drift --json`) of the secrets holders, each drifted as its fixture says.
 *
 * And with a KMS ciphertext instead of every password-like input (each holder's fixture gives its
 * form: `user.passwordCiphertext`, `passwordCiphertext`, `adminPasswordCiphertext`, ...): the
 * plaintext is nowhere in the state, not even inside a secret envelope (so nothing there encrypts
 * it with the stack's secrets provider); only the KMS ciphertext is.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigMap, EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { EXIT } from "../../../drift/model";
import type { LocalCloud } from "../../../local-cloud";
import { KmsClient } from "../../../client/kms";
import {
  accessKeyConfig,
  backendFiles,
  ENGINE_TEST_TIMEOUT_MS,
  installNativePlugin,
  isSecret,
  logicalName,
  newProject,
  providerConfig,
  pulumiYamlBinDir,
  REPO_ROOT,
  runNode,
  runPulumi,
  Sandbox,
  startCloud,
  stateResources,
  withoutSecrets,
  type CloudProject,
  type StateResource,
} from "../../harness/engine";
import {
  baseSpec,
  prepareCloud,
  sdkSettings,
  secretValues,
  writeDynamicSpec,
  writeYamlProgram,
  type CloudFixture,
  type SecretValues,
  type Spec,
  type SpecResource,
} from "../zero-diff";
import { entry } from "../../harness/entries";
import { fixtureOf, tokenOf, type DriftContext, type FailingCreate, type SecretHolder } from "../../resources";

export type Door = "dynamic" | "native";

/** The forms a secret may take where it leaks: as is, Base64 (as the client sends passwords), URL-encoded. */
export function secretForms(v: string): { form: string; text: string }[] {
  const forms = [
    { form: "plain", text: v },
    // Unpadded, so that it is found at the start of a longer Base64 text too.
    { form: "base64", text: Buffer.from(v, "utf8").toString("base64").replace(/=+$/, "") },
    { form: "base64url", text: Buffer.from(v, "utf8").toString("base64url") },
    { form: "url-encoded", text: encodeURIComponent(v) },
    { form: "form-encoded", text: new URLSearchParams({ v }).toString().slice(2) },
  ];
  return forms.filter((f, i) => forms.findIndex((g) => g.text === f.text) === i);
}

export interface Hit {
  source: string;
  secret: string;
  form: string;
}

/** Searches texts for every form of every secret; remembers what it scanned and what it found. */
export class SecretScanner {
  private readonly needles: { secret: string; form: string; text: string }[] = [];
  readonly sources: { source: string; bytes: number }[] = [];
  readonly hits: Hit[] = [];

  constructor(secrets: Record<string, string>) {
    for (const [name, value] of Object.entries(secrets)) this.add(name, value);
  }

  add(name: string, value: string): void {
    for (const f of secretForms(value)) this.needles.push({ secret: name, form: f.form, text: f.text });
  }

  get secretCount(): number {
    return new Set(this.needles.map((n) => n.secret)).size;
  }

  /** The hits in `text` (recorded too). */
  scan(source: string, text: string): Hit[] {
    this.sources.push({ source, bytes: Buffer.byteLength(text) });
    const found = this.needles.filter((n) => text.includes(n.text)).map((n) => ({ source, secret: n.secret, form: n.form }));
    this.hits.push(...found);
    return found;
  }
}

/**
 * @pulumi/pulumi's own log of the engine's answers to the program's RPCs (runtime/resource.js,
 * 3.260.0: `log.debug(\`RegisterResource RPC finished: ...; resp: ${innerResponse}\`)`), sent at
 * debug level whenever `--debug` is on. The answer holds the resource's outputs with secrets in
 * the clear (the engine returns them to the program, which wraps them as secret Outputs), so every
 * Node.js program prints its secret outputs there; the inputs it sends are logged only with
 * PULUMI_EXCESSIVE_DEBUG_OUTPUT (pulumi/pulumi PR 24479 gated the Python SDK's log of them the
 * same way). It is Pulumi's RPC logging, as `-v=9 --logtostderr` is: left out of the scan,
 * counted in the figures. Only the dynamic classes' door has it (a YAML program logs no answers).
 */
const PULUMI_RPC_LOG = /^(RegisterResource|ReadResource|RegisterResourceOutputs) RPC finished: |^getResource Invoke RPC finished: /;

/**
 * `text` without the given debug messages as the CLI prints them under Diagnostics (`    debug: `
 * before the first line, four spaces before the others). A message printed otherwise stays in the
 * text, and its secrets count as hits: the scan fails rather than overlooks.
 */
function withoutRecords(text: string, messages: readonly string[]): string {
  let out = text;
  for (const m of messages) {
    const [first, ...rest] = m.replace(/\n$/, "").split("\n");
    const rendered = [`    debug: ${first}`, ...rest.map((l) => `    ${l}`)].join("\n");
    out = out.split(rendered).join("    debug: [@pulumi/pulumi RPC log]");
  }
  return out;
}

/** A sandbox whose Pulumi runs copy every Node process's stdout and stderr into `teeDir`. */
class ScanSandbox extends Sandbox {
  readonly teeDir: string;

  constructor(label: string) {
    super({ label });
    this.teeDir = path.join(this.root, "tee");
    fs.mkdirSync(this.teeDir);
  }

  override env(): Record<string, string> {
    return { ...super.env(), NODE_OPTIONS: `--require ${entry("teeOutput")}`, KRCLOUD_TEST_TEE_DIR: this.teeDir };
  }
}

/** The local cloud's request log, as the control API serves it. */
async function requestLog(cloud: LocalCloud): Promise<string> {
  const res = await fetch(`${cloud.controlUrl}/requests`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The types whose inputs hold secrets: their fixtures' `secrets` is a `holder`. */
function holderOf(type: string): SecretHolder | undefined {
  const f = fixtureOf(type).secrets;
  return "holder" in f ? f.holder : undefined;
}

/** The resources of `spec` whose inputs carry the secrets (their type is a secrets holder), renamed `<prefix>-<name>`. */
function passwordHolders(spec: Spec, prefix: string): SpecResource[] {
  return spec.resources.filter((r) => holderOf(r.type) !== undefined).map((r) => ({ ...r, name: `${prefix}-${r.name.slice(r.name.indexOf("-") + 1)}` }));
}

/** A resource of the failing stack and how its create fails after its request carried the secrets. */
interface Failing {
  resource: SpecResource;
  how: FailingCreate;
}

/**
 * The secrets holders whose create can be made to fail after its request was accepted, with the
 * secrets, explicit names (a create-failure rule names its cluster) and no references.
 */
function failingSpec(fx: CloudFixture, s: SecretValues, tag: string): Failing[] {
  return passwordHolders(baseSpec(fx, s), "zf").flatMap((r) => {
    const how = holderOf(r.type)!.failing;
    if ("none" in how) return [];
    const properties = { ...r.properties, ...how.properties, name: how.name(tag) };
    if (JSON.stringify(properties).includes("${"))
      throw new Error(
        `${r.type}: its failing-stack resource refers to another (${JSON.stringify(properties)}): its fixture's secrets.holder.failing.properties must replace the reference`,
      );
    return [{ resource: { ...r, properties }, how }];
  });
}

/** The password holders with every password-like input given as its KMS ciphertext (`cipher`, made with KMS encrypt), and which secret values they use. */
function ciphertextSpec(fx: CloudFixture, cipher: Record<keyof SecretValues, string>): { spec: Spec; used: (keyof SecretValues)[] } {
  const used = new Set<keyof SecretValues>();
  const kms = (k: keyof SecretValues) => {
    used.add(k);
    return { keyId: fx.keyId, ciphertext: cipher[k] };
  };
  const resources = passwordHolders(baseSpec(fx, secretValues("unused")), "zk").map((r) => ({
    ...r,
    properties: holderOf(r.type)!.asCiphertexts(r.properties, kms),
  }));
  return { spec: { resources }, used: [...used] };
}

/**
 * Declares the suite for one door. One local cloud and sandbox; stacks `scan` (every type, the
 * distinctive secrets), `fail` (the run that fails) and `kms` (KMS ciphertext inputs).
 */
export function secretsScanSuite(door: Door): void {
  jest.setTimeout(3 * ENGINE_TEST_TIMEOUT_MS);

  let cloud: LocalCloud;
  let sandbox: ScanSandbox;
  let project: CloudProject;
  let fx: CloudFixture;
  let secrets: SecretValues;
  let scanner: SecretScanner;
  const stacks: { name: string; stack: Stack; dir: string }[] = [];
  const figures: string[] = [];
  const started = Date.now();
  let pulumiRpcRecordsWithSecrets = 0;
  let commandOutputs = "";
  let runtimeSecrets = 0;
  const project_ = door === "dynamic" ? "krcloud-test-zero-diff" : "krcloud-test-secrets-scan";

  function writeProgram(dir: string, spec: Spec): void {
    if (door === "dynamic") writeDynamicSpec(dir, spec);
    else writeYamlProgram(dir, project_, spec);
  }

  async function newStack(name: string, spec: Spec, config: ConfigMap = providerConfig(project)): Promise<{ stack: Stack; dir: string }> {
    let dir: string;
    if (door === "dynamic") dir = sandbox.copyProgram(path.join(REPO_ROOT, "tests", "programs", "zero-diff"), name);
    else {
      dir = path.join(sandbox.root, "programs", name);
      fs.mkdirSync(dir, { recursive: true });
    }
    writeProgram(dir, spec);
    const stack = await sandbox.createStack(dir, name, config);
    stacks.push({ name, stack, dir });
    return { stack, dir };
  }

  /**
   * `pulumi up --debug` (through the Automation API, for its event stream): the output (stdout and
   * stderr; the error's text when it fails) without @pulumi/pulumi's own RPC log (see
   * `PULUMI_RPC_LOG`), and every other diagnostic message the run sent. The RPC log records holding
   * a secret are counted in `pulumiRpcRecordsWithSecrets`.
   */
  async function upDebug(stack: Stack): Promise<{ ok: boolean; text: string; messages: string; rpcRecords: number }> {
    const events: EngineEvent[] = [];
    let ok = true;
    let text: string;
    try {
      const r = await stack.up({ debug: true, color: "never", onEvent: (e) => events.push(e) });
      text = `${r.stdout}\n${r.stderr}`;
    } catch (e) {
      ok = false;
      const err = e as Error & { commandResult?: { stdout?: string; stderr?: string } };
      text = [err.message, err.commandResult?.stdout ?? "", err.commandResult?.stderr ?? ""].join("\n");
    }
    // The events' type leaves out the "debug" severity the engine sends with --debug.
    const diagnostics = events.map((e) => e.diagnosticEvent as { message: string; severity: string } | undefined).filter((d) => d !== undefined);
    const rpc = diagnostics.filter((d) => d.severity === "debug" && PULUMI_RPC_LOG.test(d.message)).map((d) => d.message);
    const secretHolding = new SecretScanner({});
    for (const [k, v] of Object.entries(secrets)) secretHolding.add(k, v);
    pulumiRpcRecordsWithSecrets += rpc.filter((m) => secretHolding.scan("rpc", m).length > 0).length;
    const messages = diagnostics
      .filter((d) => !(d.severity === "debug" && PULUMI_RPC_LOG.test(d.message)))
      .map((d) => d.message)
      .join("\n");
    return { ok, text: withoutRecords(text, rpc), messages, rpcRecords: rpc.length };
  }

  /**
   * A token command that asks the identity service for a token with the project's access key, as a
   * credential helper would, and keeps a copy of what it printed (the test's side channel).
   */
  function tokenCommand(): string {
    const script = path.join(sandbox.root, "token-command.js");
    const auth = {
      auth: { identity: { methods: ["application_credential"], application_credential: { id: project.credentialId, secret: project.credentialSecret } } },
    };
    fs.writeFileSync(
      script,
      `fetch(${JSON.stringify(`${cloud.url}/identity/v3/auth/tokens`)}, { method: "POST", headers: { "content-type": "application/json" }, body: ${JSON.stringify(JSON.stringify(auth))} })
  .then(async (r) => {
    const t = (await r.json()).token;
    const out = JSON.stringify({ token: r.headers.get("x-subject-token"), expiresAt: t.expires_at, projectId: t.project.id });
    require("fs").appendFileSync(${JSON.stringify(commandOutputs)}, out + "\\n");
    process.stdout.write(out);
  });
`,
    );
    return `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`;
  }

  /** Every token issued for the project so far and every token command output: searched for from now on. */
  async function addRuntimeSecrets(): Promise<void> {
    const report = (await (await fetch(`${cloud.controlUrl}/tokens?projectId=${project.projectId}`)).json()) as { tokens: { token: string }[] };
    for (const [i, t] of report.tokens.entries()) scanner.add(`token ${i + 1} of the project`, t.token);
    const outputs = fs.existsSync(commandOutputs) ? fs.readFileSync(commandOutputs, "utf8").split("\n").filter(Boolean) : [];
    for (const [i, o] of outputs.entries()) scanner.add(`token command output ${i + 1}`, o);
    runtimeSecrets = report.tokens.length + outputs.length;
  }

  function expectNoHits(found: Hit[]): void {
    expect(found.map((h) => `${h.secret} (${h.form}) in ${h.source}`)).toEqual([]);
  }

  beforeAll(async () => {
    if (door === "native" && !pulumiYamlBinDir()) throw new Error("pulumi-language-yaml is missing: run `make pulumi-yaml`");
    cloud = await startCloud();
    sandbox = new ScanSandbox(`secrets-scan-${door}`);
    commandOutputs = path.join(sandbox.root, "token-command-outputs");
    project = await newProject(cloud, `scan${door}`);
    if (door === "native") await installNativePlugin(sandbox);
    fx = await prepareCloud(project);
    secrets = secretValues(`scan-${door}`);
    scanner = new SecretScanner({ ...secrets, authToken: project.token, credentialSecret: project.credentialSecret });
  });

  afterAll(async () => {
    figures.push(`file total: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    console.log(`secrets scan, ${door === "dynamic" ? "dynamic classes" : "native plugin (YAML)"}:\n  ${figures.join("\n  ")}`);
    await cloud?.close();
    sandbox?.cleanup();
  });

  test("up --debug of every type with a distinctive value in every secret input: the output holds none of them, the state holds them only encrypted", async () => {
    const spec = baseSpec(fx, secrets);
    const { stack } = await newStack("scan", spec);
    const up = await upDebug(stack);
    if (!up.ok) throw new Error(up.text);
    expectNoHits(scanner.scan("pulumi up --debug (scan)", up.text));
    expectNoHits(scanner.scan("diagnostic messages of up --debug (scan)", up.messages));

    // Every secret reached the state, inside a secret envelope (`--show-secrets` opens them).
    const state = await stack.exportStack();
    const opened = JSON.stringify(state);
    for (const [k, v] of Object.entries(secrets)) expect([k, opened.includes(v)]).toEqual([k, true]);
    // The data key's plaintext (a secret output, generated) is searched for from now on too.
    const dataKey = stateResources(state).find((r: StateResource) => r.urn.endsWith("::zd-datakey"));
    const envelope = dataKey?.outputs?.plaintext as { plaintext?: string } | undefined;
    expect(isSecret(envelope)).toBe(true);
    scanner.add("dataKeyPlaintext", JSON.parse(envelope!.plaintext!) as string);
    figures.push(`scan stack: ${spec.resources.length} resources of every type`);
  });

  test("a cache Cluster whose user.password is a plain value in the program: the value is neither in pulumi stack export nor in any backend file", async () => {
    // Issue #19 (native door: a YAML program writes it plain; the dynamic classes take it plain too).
    const plain = await runPulumi(sandbox, ["stack", "export", "--stack", "scan"], stacks[0]!.dir);
    const password = { cacheClusterPassword: secrets.cacheClusterPassword };
    const only = new SecretScanner(password);
    expectNoHits(only.scan("pulumi stack export", plain.stdout));
    for (const { file, text } of backendFiles(sandbox.backendDir)) expectNoHits(only.scan(`backend ${file}`, text));
    expect(only.sources.length).toBeGreaterThan(1);
  });

  test("a run that fails after the passwords were sent (each secrets holder whose create can fail so): its errors hold none of them", async () => {
    const tag = `f${project.projectId.slice(-6)}`;
    const failing = failingSpec(fx, secrets, tag);
    expect(failing.length).toBeGreaterThan(0);
    const spec: Spec = { resources: failing.map((f) => f.resource) };
    // Only the access key: the identity service issues the tokens.
    const { stack } = await newStack("fail", spec, accessKeyConfig(cloud, project));
    // Each fails after its create request (with the password) was accepted (its fixture plants how).
    const cleanups = await Promise.all(failing.map((f) => f.how.plant(project.control, String(f.resource.properties.name))));
    const failed = await upDebug(stack);
    await addRuntimeSecrets();
    expect(failed.ok).toBe(false);
    for (const r of spec.resources) expect(failed.text).toContain(r.name);
    expectNoHits(scanner.scan("errors of the failing up --debug", failed.text));
    expectNoHits(scanner.scan("diagnostic messages of the failing up --debug", failed.messages));
    const errorLines = failed.text.split("\n").filter((l) => /\berror\b/i.test(l));
    figures.push(`failing run: ${spec.resources.length} resources failed after their create requests, ${errorLines.length} error lines`);
    // The create requests (with the passwords) were accepted before each failed.
    const sent = JSON.parse(await requestLog(cloud)) as { requests: { service: string; operation: string; status: number }[] };
    for (const [service, operation] of failing.map((f) => f.how.request)) {
      expect([service, operation, sent.requests.some((r) => r.service === service && r.operation === operation && r.status < 300)]).toEqual([
        service,
        operation,
        true,
      ]);
    }
    for (const cleanup of cleanups) await cleanup();
  });

  test("the drift report (krcloud-drift --json) of the drifted secret-bearing resources holds none of them", async () => {
    const { name, dir } = stacks[0]!;
    const state = stateResources(await stacks[0]!.stack.exportStack());
    // Each secrets holder of the scan stack drifted as its fixture says (tests/resources/<module>/<noun>.ts `drift`).
    const holders = state.filter((r) => r.urn.includes("::zd-") && holderOf(tokenOf(r.type) ?? "") !== undefined);
    expect(holders.length).toBeGreaterThan(0);
    const ctx: DriftContext = { control: project.control, settings: sdkSettings(project), fx, s: secrets };
    for (const r of holders) {
      const d = fixtureOf(tokenOf(r.type)!).drift;
      if ("recipe" in d) await d.recipe.drift(project.control, r);
      else if ("change" in d) await d.change(ctx, r);
    }
    const drift = await runNode(entry("drift"), ["--cwd", dir, "--stack", name, "--json"], sandbox.env());
    // A partial report (exit 3) names what it could not read, so that such a failure says which read and why.
    expect([drift.code, drift.stderr, drift.code === EXIT.drift ? [] : unreadOf(drift.stdout)]).toEqual([EXIT.drift, "", []]);
    const drifted = JSON.stringify(JSON.parse(drift.stdout));
    for (const n of holders.map((r) => logicalName(r.urn))) expect([n, drifted.includes(`"${n}"`)]).toEqual([n, true]);
    expectNoHits(scanner.scan("krcloud-drift --json", `${drift.stdout}\n${drift.stderr}`));
  });

  test("with a KMS ciphertext for every password-like input: neither the plaintext nor an encryption of it by the stack's secrets provider is in the state, only the KMS ciphertext", async () => {
    const plain = secretValues(`kms-${door}`);
    const kms = new KmsClient({ settings: sdkSettings(project) });
    const cipher = {} as Record<keyof SecretValues, string>;
    for (const k of Object.keys(plain) as (keyof SecretValues)[]) cipher[k] = (await kms.encrypt(fx.keyId, { input: plain[k] })).ciphertext;
    for (const [k, v] of Object.entries(plain)) scanner.add(`${k} (KMS-encrypted input)`, v);
    const before = JSON.parse(await requestLog(cloud)) as { lastSeq: number };

    const { spec, used } = ciphertextSpec(fx, cipher);
    // Tokens from a token command (the access key stays for data query and Hadoop).
    const { "krcloud:authToken": _static, ...withoutToken } = providerConfig(project, { "krcloud:tokenCommand": { value: tokenCommand() } });
    const { stack } = await newStack("kms", spec, withoutToken);
    const up = await upDebug(stack);
    await addRuntimeSecrets();
    expect(fs.readFileSync(commandOutputs, "utf8")).toContain('"token"');
    if (!up.ok) throw new Error(up.text);
    expectNoHits(scanner.scan("pulumi up --debug (kms)", up.text));
    expectNoHits(scanner.scan("diagnostic messages of up --debug (kms)", up.messages));
    // The provider decrypted each one to call the API.
    const log = JSON.parse(await requestLog(cloud)) as { requests: { seq: number; service: string; operation: string }[] };
    expect(log.requests.filter((r) => r.seq > before.lastSeq && r.service === "kms" && r.operation === "Decrypt").length).toBeGreaterThanOrEqual(used.length);

    // `--show-secrets` opens every secret envelope: the plaintext is not in any of them either.
    const opened = JSON.stringify(await stack.exportStack());
    expectNoHits(new SecretScanner(Object.fromEntries(used.map((k) => [k, plain[k]]))).scan("pulumi stack export --show-secrets (kms)", opened));
    for (const k of used) expect([k, opened.includes(cipher[k])]).toEqual([k, true]);
    figures.push(`kms stack: ${spec.resources.length} resources, ${used.length} password-like inputs as KMS ciphertexts, their plaintext nowhere in the state`);
  });

  test("after destroy: the state, every backend file (history and backups), the providers' stdout and stderr and the request log hold no secret in any form", async () => {
    // The state before it goes: every resource's inputs and outputs outside the secret envelopes, and the encrypted export.
    for (const { name, stack, dir } of stacks) {
      const opened = await stack.exportStack();
      expectNoHits(scanner.scan(`stack export --show-secrets, outside secret envelopes (${name})`, JSON.stringify(withoutSecrets(opened.deployment))));
      expectNoHits(scanner.scan(`pulumi stack export (${name})`, (await runPulumi(sandbox, ["stack", "export", "--stack", name], dir)).stdout));
    }
    for (const { name, stack } of stacks) {
      const destroyed = await stack.destroy({ color: "never" });
      expect([name, destroyed.summary.result]).toEqual([name, "succeeded"]);
    }
    const fixtures = new Set(["kms:key", "data-query:instance"]);
    expect((await project.control.inventory(project.projectId)).filter((e) => !fixtures.has(`${e.service}:${e.kind}`))).toEqual([]);

    await addRuntimeSecrets();
    expect(runtimeSecrets).toBeGreaterThanOrEqual(3);
    figures.push(`secrets this run made: ${runtimeSecrets} (tokens issued for the project, token command outputs)`);
    const files = backendFiles(sandbox.backendDir);
    expect(files.some((f) => f.file.includes(`${path.sep}history${path.sep}`))).toBe(true);
    expect(files.some((f) => f.file.includes("backups") || f.file.endsWith(".bak"))).toBe(true);
    for (const { file, text } of files) expectNoHits(scanner.scan(`backend ${file}`, text));

    const tee = fs.readdirSync(sandbox.teeDir);
    const providerOutput = tee.filter((f) => (door === "dynamic" ? f.includes("dynamic-provider") : f.includes("pulumi-resource-krcloud")));
    expect(providerOutput.length).toBeGreaterThan(0);
    // The token command's own standard output is the token, by design: the provider reads it through
    // a pipe. Every other process is searched.
    const helper = tee.filter((f) => f.includes("token-command.js"));
    expect(helper.length).toBeGreaterThan(0);
    for (const f of tee.filter((x) => !helper.includes(x)))
      expectNoHits(scanner.scan(`stdout/stderr of ${f}`, fs.readFileSync(path.join(sandbox.teeDir, f), "utf8")));
    expectNoHits(scanner.scan("local cloud request log", await requestLog(cloud)));

    if (pulumiRpcRecordsWithSecrets > 0)
      figures.push(
        `left out as Pulumi's own RPC logging: ${pulumiRpcRecordsWithSecrets} records of @pulumi/pulumi's "RPC finished" debug log held secret outputs (dynamic classes: the program is a Node.js program)`,
      );
    const bytes = scanner.sources.reduce((n, s) => n + s.bytes, 0);
    figures.push(
      `scanned ${scanner.sources.length} sources (${(bytes / 1024).toFixed(0)} KiB: ${files.length} backend files, ${tee.length} process outputs, ${providerOutput.length} of them providers') for ${scanner.secretCount} secrets in up to 5 forms each: ${scanner.hits.length} hits`,
    );
    expect(scanner.hits).toEqual([]);
  });
}

/** What made a krcloud-drift --json report partial: each stack's error, each unreadable resource and its read's error. */
function unreadOf(stdout: string): string[] {
  try {
    const report = JSON.parse(stdout) as { stacks?: { stack: string; error?: string; resources: { urn: string; status: string; error?: string }[] }[] };
    return (report.stacks ?? []).flatMap((s) => [
      ...(s.error === undefined ? [] : [`${s.stack}: ${s.error}`]),
      ...s.resources.filter((r) => r.status === "unreadable").map((r) => `${r.urn}: ${r.error ?? "unreadable"}`),
    ]);
  } catch {
    return [`not a report: ${stdout.slice(0, 2000)}`];
  }
}
