/**
 * Helpers for the engine tests (tests/engine): the real Pulumi CLI driven by the Automation API
 * against an in-process local cloud. Each test file starts its own local cloud and creates its own
 * sandbox (temp directory holding a file backend, a PULUMI_HOME and copies of the programs), so test
 * files are independent and can run in parallel workers.
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type ConfigMap, type Deployment, type EngineEvent, type Stack } from "@pulumi/pulumi/automation";
import { startLocalCloud, type LocalCloud } from "../../emulator";

// ---------------------------------------------------------------------------------------------
// Where things are

/** The repository root: the directory whose package.json is pulumi-krcloud (works from tests/ and dist/tests/). */
export const REPO_ROOT = findRepoRoot(__dirname);

function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "pulumi-krcloud") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-krcloud package.json above ${start}`);
  }
}

export const PULUMI_VERSION = "v3.259.0";

/**
 * The directory holding `pulumi`, `pulumi-language-nodejs` and the dynamic provider plugin, as
 * `make pulumi` (scripts/install-pulumi.sh) leaves them. KRCLOUD_PULUMI_BIN overrides.
 */
export function pulumiBinDir(): string {
  const dir =
    process.env.KRCLOUD_PULUMI_BIN ??
    path.join(process.env.KRCLOUD_TOOLS_DIR ?? path.join(os.homedir(), ".cache", "krcloud"), `pulumi-${PULUMI_VERSION}`, "bin");
  for (const bin of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
    if (!fs.existsSync(path.join(dir, bin))) {
      throw new Error(`${path.join(dir, bin)} is missing: run \`make pulumi\` (or set KRCLOUD_PULUMI_BIN)`);
    }
  }
  return dir;
}

export const PULUMI_YAML_VERSION = "v1.13.0";

/**
 * The directory holding `pulumi-language-yaml`, as scripts/install-pulumi-yaml.sh leaves it
 * (`make test` builds it); undefined when it is not built. KRCLOUD_PULUMI_YAML_BIN overrides.
 */
export function pulumiYamlBinDir(): string | undefined {
  const dir =
    process.env.KRCLOUD_PULUMI_YAML_BIN ??
    path.join(process.env.KRCLOUD_TOOLS_DIR ?? path.join(os.homedir(), ".cache", "krcloud"), `pulumi-language-yaml-${PULUMI_YAML_VERSION}`, "bin");
  return fs.existsSync(path.join(dir, "pulumi-language-yaml")) ? dir : undefined;
}

/** The Node that runs the tests (Node >= 22 is required by @pulumi/pulumi 3.260) goes first on PATH. */
export function toolPath(): string {
  const yaml = pulumiYamlBinDir();
  return [path.dirname(process.execPath), pulumiBinDir(), ...(yaml ? [yaml] : []), path.join(REPO_ROOT, "node_modules", ".bin"), process.env.PATH ?? ""].join(
    path.delimiter,
  );
}

export interface ExampleProgram {
  /** Directory name relative to examples/, e.g. `static-site`. */
  name: string;
  dir: string;
  /** `name:` from Pulumi.yaml (the config namespace of the program). */
  project: string;
  /** `runtime:` from Pulumi.yaml: `nodejs` or `yaml`. */
  runtime: string;
}

/** Every example program: each directory under examples/ holding a Pulumi.yaml (examples/ci is not one). */
export function discoverExamples(root = path.join(REPO_ROOT, "examples")): ExampleProgram[] {
  const found: ExampleProgram[] = [];
  const visit = (dir: string): void => {
    const yaml = path.join(dir, "Pulumi.yaml");
    if (fs.existsSync(yaml)) {
      const text = fs.readFileSync(yaml, "utf8");
      const m = /^name:\s*["']?([^"'\s#]+)/m.exec(text);
      if (!m) throw new Error(`${yaml} has no name:`);
      const runtime = /^runtime:[ \t]*(?:\n[ \t]+name:[ \t]*)?["']?([a-z]+)/m.exec(text)?.[1];
      if (!runtime) throw new Error(`${yaml} has no runtime:`);
      found.push({ name: path.relative(root, dir), dir, project: m[1]!, runtime });
      return;
    }
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory() && e.name !== "node_modules" && !e.name.startsWith(".")) visit(path.join(dir, e.name));
    }
  };
  visit(root);
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The flagship example (bucket, CORS, lifecycle, objects), for tests that need those resource types. */
export function staticSite(): ExampleProgram {
  const e = discoverExamples().find((x) => x.name === "static-site");
  if (!e) throw new Error("examples/static-site is missing");
  return e;
}

// ---------------------------------------------------------------------------------------------
// Sandbox: temp backend, PULUMI_HOME and program copies

export interface SandboxOptions {
  /** Prefix of the temp directory name. */
  label: string;
}

/**
 * One temp directory per test file: `backend/` (file backend), `home/` (PULUMI_HOME, keeps ~/.pulumi
 * clean), `programs/` (copies of the programs; Pulumi writes Pulumi.<stack>.yaml next to
 * Pulumi.yaml, so programs are never run in place).
 */
export class Sandbox {
  readonly root: string;
  readonly backendDir: string;
  readonly homeDir: string;
  readonly passphrase = `engine-test-${randomBytes(6).toString("hex")}`;
  private command?: Promise<PulumiCommand>;

  constructor(opts: SandboxOptions) {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), `krcloud-${opts.label}-`));
    this.backendDir = path.join(this.root, "backend");
    this.homeDir = path.join(this.root, "home");
    fs.mkdirSync(this.backendDir);
    fs.mkdirSync(this.homeDir);
  }

  /** Environment for every Pulumi command (and for krcloud-drift). */
  env(): Record<string, string> {
    return {
      PATH: toolPath(),
      PULUMI_BACKEND_URL: `file://${this.backendDir}`,
      PULUMI_HOME: this.homeDir,
      PULUMI_CONFIG_PASSPHRASE: this.passphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      // Settings must come from the stack config under test, never from the developer's shell.
      KRCLOUD_AUTH_TOKEN: "",
      KRCLOUD_PROJECT_ID: "",
      KRCLOUD_LOCAL_CLOUD_URL: "",
    };
  }

  pulumiCommand(): Promise<PulumiCommand> {
    this.command ??= PulumiCommand.get({ root: path.dirname(pulumiBinDir()), skipVersionCheck: true });
    return this.command;
  }

  /**
   * Copies a program into the sandbox (without node_modules and stack config files) and gives it a
   * node_modules that resolves like an installed project's: a symlink to the repository's, where
   * `pulumi-krcloud` is a link to the repository itself (`make install`).
   */
  copyProgram(src: string, name = path.basename(src)): string {
    const dest = path.join(this.root, "programs", name);
    fs.cpSync(src, dest, {
      recursive: true,
      filter: (p) => {
        const base = path.basename(p);
        return base !== "node_modules" && !/^Pulumi\..+\.ya?ml$/.test(base);
      },
    });
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dest, "node_modules"), "dir");
    return dest;
  }

  /** A new stack of the program in `workDir`, with `config` set. */
  async createStack(workDir: string, stackName: string, config: ConfigMap = {}): Promise<Stack> {
    const stack = await LocalWorkspace.createStack(
      { stackName, workDir },
      { pulumiCommand: await this.pulumiCommand(), envVars: this.env(), pulumiHome: this.homeDir },
    );
    if (Object.keys(config).length > 0) await stack.setAllConfig(config);
    return stack;
  }

  cleanup(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

/**
 * A project directory holding the program and a node_modules with a COPY of pulumi-krcloud from this
 * working tree (package.json + dist without tests) and links to the other dependencies, as a user's
 * installed project has it. Returns the copy's directory.
 */
export function installProject(programDir: string, dest: string): string {
  fs.cpSync(programDir, dest, { recursive: true, filter: (p) => path.basename(p) !== "node_modules" && !/^Pulumi\..+\.ya?ml$/.test(path.basename(p)) });
  const nm = path.join(dest, "node_modules");
  fs.mkdirSync(nm);
  const repoModules = path.join(REPO_ROOT, "node_modules");
  for (const entry of fs.readdirSync(repoModules)) {
    if (entry === "pulumi-krcloud" || entry.startsWith(".")) continue;
    fs.symlinkSync(path.join(repoModules, entry), path.join(nm, entry), "dir");
  }
  const pkg = path.join(nm, "pulumi-krcloud");
  fs.mkdirSync(pkg);
  fs.copyFileSync(path.join(REPO_ROOT, "package.json"), path.join(pkg, "package.json"));
  const dist = path.join(REPO_ROOT, "dist");
  fs.cpSync(dist, path.join(pkg, "dist"), { recursive: true, filter: (p) => !p.startsWith(path.join(dist, "tests")) });
  return pkg;
}

// ---------------------------------------------------------------------------------------------
// The native provider plugin

export const PACKAGE_VERSION: string = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).version;

/** Runs the pulumi CLI with the sandbox's environment; rejects with the output on a non-zero exit. */
export function runPulumi(sandbox: Sandbox, args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      path.join(pulumiBinDir(), "pulumi"),
      args,
      { cwd, env: { ...process.env, ...sandbox.env() }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(Object.assign(new Error(`pulumi ${args.join(" ")} failed: ${err.message}\n${stdout}\n${stderr}`), { stdout, stderr }));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/**
 * Installs the native plugin of this working tree into the sandbox's PULUMI_HOME the way users do
 * (`pulumi plugin install resource krcloud <version> -f <dir>`): a directory whose launcher runs
 * dist/bin/pulumi-resource-krcloud.js of this tree (the packed, repository-free plugin is tested
 * in native-package.test.ts).
 */
export async function installNativePlugin(sandbox: Sandbox): Promise<void> {
  const dir = path.join(sandbox.root, "plugin-src");
  fs.mkdirSync(dir, { recursive: true });
  const entry = path.join(REPO_ROOT, "dist", "bin", "pulumi-resource-krcloud.js");
  fs.writeFileSync(path.join(dir, "pulumi-resource-krcloud"), `#!/bin/sh\nexec node ${JSON.stringify(entry)} "$@"\n`, { mode: 0o755 });
  await runPulumi(sandbox, ["plugin", "install", "resource", "krcloud", PACKAGE_VERSION, "-f", dir], sandbox.root);
}

/** The test program served by the native plugin (tests/programs/native-site). */
export function nativeSiteProgram(): string {
  return path.join(REPO_ROOT, "tests", "programs", "native-site");
}

/** Resources of a native-plugin stack of type `token` (the krcloud token itself). */
export function nativeResourcesOfType(d: Deployment, token: string): StateResource[] {
  return stateResources(d).filter((r) => r.type === token);
}

// ---------------------------------------------------------------------------------------------
// The local cloud and its control API (over HTTP, as documented in docs/local-cloud.md)

export interface InventoryEntry {
  service: string;
  kind: string;
  id: string;
  projectId: string;
}

export interface FaultSpec {
  service?: string;
  operation?: string;
  method?: string;
  pathRegex?: string;
  times?: number;
  action: "error" | "latency" | "drop" | "lose-response";
  status?: number;
  latencyMs?: number;
}

export class ControlApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what}: ${status} ${body.slice(0, 300)}`);
  }
}

/** The local cloud's control API, spoken over HTTP. */
export class Control {
  constructor(readonly controlUrl: string) {}

  private async call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.controlUrl}${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new ControlApiError(res.status, text, `${method} /_control${route}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async issueToken(projectId: string): Promise<string> {
    const r = await this.call<{ token: string }>("POST", "/credentials", { projectId, kind: "token" });
    return r.token;
  }

  async issueAccessKey(projectId: string): Promise<{ credentialId: string; credentialSecret: string }> {
    return this.call("POST", "/credentials", { projectId, kind: "access-key" });
  }

  async inventory(projectId?: string): Promise<InventoryEntry[]> {
    const r = await this.call<{ resources: InventoryEntry[] }>("GET", "/inventory");
    return projectId === undefined ? r.resources : r.resources.filter((e) => e.projectId === projectId);
  }

  private resourcePath(service: string, kind: string, id: string): string {
    return `/resources/${encodeURIComponent(service)}/${encodeURIComponent(kind)}/${id.split("/").map(encodeURIComponent).join("/")}`;
  }

  async getResource<T = Record<string, unknown>>(service: string, kind: string, id: string): Promise<T | undefined> {
    try {
      return await this.call<T>("GET", this.resourcePath(service, kind, id));
    } catch (e) {
      if (e instanceof ControlApiError && e.status === 404) return undefined;
      throw e;
    }
  }

  async patchResource<T = Record<string, unknown>>(service: string, kind: string, id: string, patch: Record<string, unknown>): Promise<T> {
    return this.call<T>("PATCH", this.resourcePath(service, kind, id), patch);
  }

  async deleteResource(service: string, kind: string, id: string): Promise<void> {
    await this.call("DELETE", this.resourcePath(service, kind, id));
  }

  /** How a kind of resource settles (`PUT /transitions`): at once, after N reads, or after a duration. */
  async setTransition(t: { service: string; kind: string; mode: "immediate" | "reads" | "duration"; reads?: number; ms?: number }): Promise<void> {
    await this.call("PUT", "/transitions", t);
  }

  async addFault(spec: FaultSpec): Promise<{ id: string; fired: number }> {
    return this.call("POST", "/faults", spec);
  }

  async faults(): Promise<{ id: string; fired: number; remaining: number | null }[]> {
    return (await this.call<{ faults: { id: string; fired: number; remaining: number | null }[] }>("GET", "/faults")).faults;
  }

  async removeFault(id: string): Promise<void> {
    await this.call("DELETE", `/faults/${encodeURIComponent(id)}`);
  }

  async counters(): Promise<{ total: number; byOperation: Record<string, number> }> {
    return this.call("GET", "/counters");
  }
}

/** A local cloud in this process plus a project with its own credentials. */
export interface CloudProject {
  cloud: LocalCloud;
  control: Control;
  projectId: string;
  token: string;
  /** An access key of the project: `krcloud:credentialId` and (secret) `krcloud:credentialSecret`. */
  credentialId: string;
  credentialSecret: string;
}

export async function startCloud(): Promise<LocalCloud> {
  return startLocalCloud({ port: 0 });
}

/** A fresh project (own ID, own token) on `cloud`, so inventories of tests never mix. */
export async function newProject(cloud: LocalCloud, label: string): Promise<CloudProject> {
  const control = new Control(cloud.controlUrl);
  const projectId = `${label.replace(/[^A-Za-z0-9]/g, "").slice(0, 16)}${randomBytes(6).toString("hex")}`.slice(0, 32);
  const token = await control.issueToken(projectId);
  const { credentialId, credentialSecret } = await control.issueAccessKey(projectId);
  return { cloud, control, projectId, token, credentialId, credentialSecret };
}

export interface SetupResource {
  service: string;
  kind: string;
  id: string;
  patch: Record<string, unknown>;
}

/**
 * What an example needs in the local cloud before it runs (`local-cloud.setup.json` beside its
 * Pulumi.yaml: a KMS key, a database instance), created through the control API for `p`'s project.
 * Returns what was created, so "nothing left behind" checks can set it apart from the stack's own.
 */
export async function applyLocalCloudSetup(p: CloudProject, programDir: string): Promise<SetupResource[]> {
  const file = path.join(programDir, "local-cloud.setup.json");
  if (!fs.existsSync(file)) return [];
  const setup = JSON.parse(fs.readFileSync(file, "utf8")) as { resources: SetupResource[] };
  for (const r of setup.resources) await p.control.patchResource(r.service, r.kind, r.id, { projectId: p.projectId, ...r.patch });
  return setup.resources;
}

/** Stack config for a program talking to `p`: the provider settings, secrets as secrets. */
export function providerConfig(p: CloudProject, extra: ConfigMap = {}): ConfigMap {
  return {
    "krcloud:localCloudUrl": { value: p.cloud.url },
    "krcloud:projectId": { value: p.projectId },
    "krcloud:authToken": { value: p.token, secret: true },
    "krcloud:credentialId": { value: p.credentialId },
    "krcloud:credentialSecret": { value: p.credentialSecret, secret: true },
    ...extra,
  };
}

// ---------------------------------------------------------------------------------------------
// State

/** `krcloud:objectstorage:Bucket` -> `pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket`. */
export function engineType(token: string): string {
  const [pkg, mod, type] = token.split(":");
  return `pulumi-nodejs:dynamic/${pkg}/${mod}:${type}`;
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  /** Where the program declared it: `project:///index.ts#12,5`. */
  sourcePosition?: string;
}

export function stateResources(d: Deployment): StateResource[] {
  return (d.deployment as { resources?: StateResource[] }).resources ?? [];
}

export function resourcesOfType(d: Deployment, token: string): StateResource[] {
  return stateResources(d).filter((r) => r.type === engineType(token));
}

export function logicalName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** Pulumi's representation of a secret in state: `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext}`. */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";

export function isSecret(v: unknown): boolean {
  return v !== null && typeof v === "object" && (v as Record<string, unknown>)[SECRET_SIG] === "1b47061264138c4ac30d75fd1eb44270";
}

/**
 * `value` with every secret envelope replaced by a marker. `stack.exportStack()` runs `pulumi stack
 * export --show-secrets`, so secrets come back decrypted, but still inside their envelopes: what
 * is left after this holds only what Pulumi does not know to be secret.
 */
export function withoutSecrets(value: unknown): unknown {
  if (isSecret(value)) return "[secret]";
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, withoutSecrets(v)]));
  }
  return value;
}

/** Every file of the file backend (checkpoints, history, backups), as text: what is stored at rest. */
export function backendFiles(backendDir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const visit = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile()) out.push({ file: path.relative(backendDir, p), text: fs.readFileSync(p, "utf8") });
    }
  };
  visit(backendDir);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Engine runs

/** Collects the engine events of one operation (for assertions on steps and diffs). */
export function eventCollector(): { events: EngineEvent[]; onEvent: (e: EngineEvent) => void } {
  const events: EngineEvent[] = [];
  return { events, onEvent: (e) => events.push(e) };
}

/** The step ops per URN seen in a run's events (resourcePreEvent), excluding `same`. */
export function changedSteps(events: EngineEvent[]): { urn: string; op: string }[] {
  return events
    .map((e) => e.resourcePreEvent?.metadata)
    .filter((m): m is NonNullable<typeof m> => m !== undefined && m.op !== "same")
    .map((m) => ({ urn: m.urn, op: m.op }));
}

/** Logical name -> step op of a preview or up, for the krcloud resources (not the stack). */
export function krcloudOps(events: EngineEvent[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of changedSteps(events)) if (s.urn.includes("dynamic/krcloud")) out[logicalName(s.urn)] = s.op;
  return out;
}

/** An object's body, read through the object storage API with the project's token. */
export async function objectText(project: CloudProject, bucket: string, key: string): Promise<string> {
  const res = await fetch(`${project.cloud.url}/object-storage/v1/${project.projectId}/${bucket}/${key}`, { headers: { "x-auth-token": project.token } });
  expect(res.status).toBe(200);
  return res.text();
}

/** Runs `fn`, expecting it to reject; returns the error's text (message plus captured output). */
export async function expectFailure(fn: () => Promise<unknown>): Promise<string> {
  let result: unknown;
  try {
    result = await fn();
  } catch (e) {
    const err = e as { message?: string; commandResult?: { stdout?: string; stderr?: string } };
    return [err.message ?? String(e), err.commandResult?.stdout ?? "", err.commandResult?.stderr ?? ""].join("\n");
  }
  throw new Error(`expected the operation to fail, it succeeded: ${JSON.stringify(result)?.slice(0, 500)}`);
}

/** Runs a node script (e.g. dist/bin/krcloud-drift.js) and returns its exit code and output. */
export function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  cwd = REPO_ROOT,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [script, ...args], { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

export function md5(s: string): string {
  return createHash("md5").update(s).digest("hex");
}

/** Generous: one Pulumi operation takes seconds; a test runs several and the machine may be busy. */
export const ENGINE_TEST_TIMEOUT_MS = 300_000;

// ---------------------------------------------------------------------------------------------
// Drift recipes: how to change each resource type behind Pulumi's back through the control API,
// what the engine must then report, and how to tell that `up` put it back. An example program is
// tested with the recipes of the types it uses; a new resource type adds its recipe here.

export interface DriftRecipe {
  token: string;
  /** Control API service and kind of the record behind a resource (the control id is the resource id). */
  service: string;
  kind: string;
  /** True for the resource others hang off (the bucket): deleting it takes its dependents along. */
  root?: boolean;
  /** The part of the control record that the program manages, to compare before drift and after up. */
  snapshot(record: Record<string, unknown>): unknown;
  /** Changes the resource behind Pulumi's back; returns the input properties expected to show as drifted. */
  drift(control: Control, r: StateResource): Promise<string[]>;
  /** After `refresh`: the drifted value as recorded in state (outputs; secret outputs are skipped). */
  recorded(outputs: Record<string, unknown>): boolean;
}

const OS = "object-storage";
const DRIFT_ORIGIN = "https://drift.invalid";
const DRIFT_LIFECYCLE =
  "<LifecycleConfiguration><Rule><ID>drift</ID><Prefix>drift/</Prefix><Status>Disabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>";
export const DEFACED = "<h1>defaced behind Pulumi's back</h1>\n";

export const DRIFT_RECIPES: DriftRecipe[] = [
  {
    token: "krcloud:objectstorage:Bucket",
    service: OS,
    kind: "bucket",
    root: true,
    snapshot: (rec) => ({ acl: (rec.acl as { public?: string } | null)?.public ?? "deny", metadata: rec.metadata }),
    async drift(control, r) {
      const rec = (await control.getResource(OS, "bucket", r.id!))!;
      const isPublic = (rec.acl as { public?: string } | null)?.public === "read-only";
      const hadMetadata = Object.keys((rec.metadata as Record<string, string>) ?? {}).length > 0;
      await control.patchResource(OS, "bucket", r.id!, { acl: { public: isPublic ? "deny" : "read-only" }, metadata: null });
      driftedAcl.set(r.id!, isPublic ? "deny" : "read-only");
      return hadMetadata ? ["acl", "metadata"] : ["acl"];
    },
    recorded: (outs) => isSecret(outs.acl) || (outs.acl as { public?: string })?.public === driftedAcl.get(outs.name as string),
  },
  {
    token: "krcloud:objectstorage:BucketCors",
    service: OS,
    kind: "bucket-cors",
    snapshot: (rec) => rec.cors,
    async drift(control, r) {
      await control.patchResource(OS, "bucket-cors", r.id!, { cors: [{ allowed_origins: [DRIFT_ORIGIN], allowed_methods: ["PUT"] }] });
      return ["rules"];
    },
    recorded: (outs) => isSecret(outs.rules) || JSON.stringify(outs.rules).includes(DRIFT_ORIGIN),
  },
  {
    token: "krcloud:objectstorage:BucketLifecycle",
    service: OS,
    kind: "bucket-lifecycle",
    snapshot: (rec) => rec.lifecycle,
    async drift(control, r) {
      await control.patchResource(OS, "bucket-lifecycle", r.id!, { lifecycle: DRIFT_LIFECYCLE });
      return ["rules"];
    },
    recorded: (outs) => isSecret(outs.rules) || (outs.rules as { prefix?: string }[])?.[0]?.prefix === "drift/",
  },
  {
    token: "krcloud:objectstorage:BucketObject",
    service: OS,
    kind: "object",
    snapshot: (rec) => ({ hash: rec.hash, metadata: rec.metadata, contentType: rec.content_type }),
    async drift(control, r) {
      if (r.outputs?.folder === true) {
        await control.patchResource(OS, "object", r.id!, { metadata: { drifted: "yes" } });
        return ["metadata"];
      }
      // A defaced page: the content changes, so its MD5 no longer matches the source file.
      await control.patchResource(OS, "object", r.id!, { content: DEFACED });
      return ["contentMd5"];
    },
    recorded: (outs) =>
      outs.folder === true ? isSecret(outs.metadata) || (outs.metadata as Record<string, string>)?.drifted === "yes" : outs.contentMd5 === md5(DEFACED),
  },
];

const CACHE = "cache";
const DRIFTED = "drifted behind Pulumi's back";
const cacheDescriptionDrift =
  (kind: string) =>
  async (control: Control, r: StateResource): Promise<string[]> => {
    await control.patchResource(CACHE, kind, r.id!, { description: DRIFTED });
    return ["description"];
  };

DRIFT_RECIPES.push(
  {
    token: "krcloud:cache:ParameterGroup",
    service: CACHE,
    kind: "parameter-group",
    root: true,
    snapshot: (rec) =>
      Object.fromEntries((rec.parameters as { parameterKey: string; parameterValue: string }[]).map((p) => [p.parameterKey, p.parameterValue])),
    async drift(control, r) {
      await control.patchResource(CACHE, "parameter-group", r.id!, { values: { timeout: "1" } });
      return ["parameters"];
    },
    recorded: (outs) => isSecret(outs.parameters) || (outs.parameters as Record<string, string>)?.timeout === "1",
  },
  {
    token: "krcloud:cache:Cluster",
    service: CACHE,
    kind: "cluster",
    root: true,
    snapshot: (rec) => ({ description: rec.description, shardCount: rec.shardCount, totalNodeCount: rec.totalNodeCount, version: rec.version }),
    drift: cacheDescriptionDrift("cluster"),
    recorded: (outs) => outs.description === DRIFTED,
  },
  {
    token: "krcloud:cache:InstanceSet",
    service: CACHE,
    kind: "instance-set",
    root: true,
    snapshot: (rec) => ({
      description: rec.description,
      totalNodeCount: rec.totalNodeCount,
      recoveryEnabled: rec.recoveryEnabled,
      backupSchedule: rec.backupSchedule,
    }),
    drift: cacheDescriptionDrift("instance-set"),
    recorded: (outs) => outs.description === DRIFTED,
  },
);

/** The ACL each drifted bucket was given (recorded() gets only outputs). */
const driftedAcl = new Map<string, string>();

export function recipeFor(type: string): DriftRecipe | undefined {
  return DRIFT_RECIPES.find((r) => engineType(r.token) === type);
}

/** The control record behind a state resource, or undefined when the cloud no longer has it. */
export async function cloudSnapshot(control: Control, r: StateResource): Promise<unknown> {
  const recipe = recipeFor(r.type);
  if (!recipe || !r.id) return undefined;
  const rec = await control.getResource(recipe.service, recipe.kind, r.id);
  return rec === undefined ? undefined : recipe.snapshot(rec);
}
