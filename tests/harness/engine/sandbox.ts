/**
 * The sandbox an engine test file runs Pulumi in (re-exported by index.ts): a temp file backend,
 * PULUMI_HOME and copies of the programs, stacks created there, a project installed as a user's
 * would be; and the native provider plugin of this working tree, installed into a sandbox.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, type ConfigMap, type Deployment, type Stack } from "@pulumi/pulumi/automation";
import { driftToolLauncher } from "../../../tools/pack-plugin";
import { smallInstanceSet } from "../../resources/cache/small-instance-set";
import { smallCluster } from "../../resources/hadoop/small-cluster";
import { applyLocalCloudSetup, providerConfig, type CloudProject, type SetupResource } from "./cloud";
import { pulumiBinDir, REPO_ROOT, toolPath, type ExampleProgram } from "./paths";
import { stateResources, type StateResource } from "./state";
import { entry } from "../entries";

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
      KRCLOUD_TOKEN_COMMAND: "",
      KRCLOUD_CREDENTIAL_ID: "",
      KRCLOUD_CREDENTIAL_SECRET: "",
      KRCLOUD_IDENTITY_ENDPOINT: "",
    };
  }

  pulumiCommand(): Promise<PulumiCommand> {
    this.command ??= PulumiCommand.get({ root: path.dirname(pulumiBinDir()), skipVersionCheck: true });
    return this.command;
  }

  /**
   * Copies a program into the sandbox (without node_modules and stack config files) and gives it a
   * node_modules that resolves like an installed project's: a symlink to the repository's, where
   * `pulumi-krcloud` is a link to the repository itself (`make install`), and a fixtures.json of the
   * resources' fixture inputs the programs declare (a Hadoop cluster's, an instance set's).
   */
  copyProgram(src: string, name = path.basename(src), opts: { nodeModules?: boolean } = {}): string {
    const dest = path.join(this.root, "programs", name);
    fs.cpSync(src, dest, {
      recursive: true,
      filter: (p) => {
        const base = path.basename(p);
        return base !== "node_modules" && !/^Pulumi\..+\.ya?ml$/.test(base);
      },
    });
    // `nodeModules: false`: a project of another language, with nothing of npm's beside it.
    if (opts.nodeModules !== false) fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dest, "node_modules"), "dir");
    // The inputs the test programs share with the resources' fixtures (tests/resources), as data.
    fs.writeFileSync(path.join(dest, "fixtures.json"), JSON.stringify({ hadoopCluster: smallCluster, instanceSet: smallInstanceSet }));
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
 * dist/bin/pulumi-resource-krcloud.js of this tree (the packed, repository-free plugin and drift
 * tool are tested in native-package.test.ts).
 */
export async function installNativePlugin(sandbox: Sandbox): Promise<void> {
  const dir = path.join(sandbox.root, "plugin-src");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "pulumi-resource-krcloud"), `#!/bin/sh\nexec node ${JSON.stringify(entry("plugin"))} "$@"\n`, { mode: 0o755 });
  await runPulumi(sandbox, ["plugin", "install", "resource", "krcloud", PACKAGE_VERSION, "-f", dir], sandbox.root);
}

/**
 * Installs krcloud-drift as the Pulumi tool plugin users install (`pulumi plugin install tool
 * krcloud-drift <version>`): a directory holding the launcher `make plugin` packs, which runs the
 * resource plugin installed beside it (installNativePlugin first). `runDriftTool` runs it.
 */
export async function installDriftTool(sandbox: Sandbox): Promise<void> {
  const dir = path.join(sandbox.root, "drift-tool-src");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "pulumi-tool-krcloud-drift"), driftToolLauncher(PACKAGE_VERSION), { mode: 0o755 });
  await runPulumi(sandbox, ["plugin", "install", "tool", "krcloud-drift", PACKAGE_VERSION, "-f", dir], sandbox.root);
}

/** The test program served by the native plugin (tests/programs/native-site). */
export function nativeSiteProgram(): string {
  return path.join(REPO_ROOT, "tests", "programs", "native-site");
}

/**
 * The native-site program: where it is, its config namespace, and its two secrets (its bucket's
 * `owner` metadata and its object's content), new for each file so that a test can look for them
 * in plaintext, with the config that sets them as secrets.
 */
export function nativeSite(): { dir: string; ns: string; owner: string; content: string; secrets: ConfigMap } {
  const owner = `owner-secret-${Date.now().toString(36)}`;
  const content = `<h1>secret page ${Date.now().toString(36)}</h1>`;
  const ns = "krcloud-test-native-site";
  return {
    dir: nativeSiteProgram(),
    ns,
    owner,
    content,
    secrets: { [`${ns}:owner`]: { value: owner, secret: true }, [`${ns}:content`]: { value: content, secret: true } },
  };
}

/** Resources of a native-plugin stack of type `token` (the krcloud token itself). */
export function nativeResourcesOfType(d: Deployment, token: string): StateResource[] {
  return stateResources(d).filter((r) => r.type === token);
}

/**
 * A stack of `example` (examples/) in the project: the example's local-cloud.setup.json applied to
 * the project first (`setup`: what it made), the program copied into the sandbox, the stack
 * configured for the project and with the example's own `settings` (without its namespace).
 */
export async function exampleStack(
  sandbox: Sandbox,
  project: CloudProject,
  example: ExampleProgram,
  stackName: string,
  settings: ConfigMap,
): Promise<{ stack: Stack; dir: string; setup: SetupResource[] }> {
  const setup = await applyLocalCloudSetup(project, example.dir);
  const dir = sandbox.copyProgram(example.dir);
  const config = Object.fromEntries(Object.entries(settings).map(([k, v]) => [`${example.project}:${k}`, v]));
  const stack = await sandbox.createStack(dir, stackName, providerConfig(project, config));
  return { stack, dir, setup };
}
