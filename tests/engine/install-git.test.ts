/**
 * The package installed as README.md's Install says, from its git repository at a release tag, and
 * what rests on that install:
 *
 * - the README's command (`install-git`) builds the package in npm's clone (the `prepare` script)
 *   and installs what users run, with the newest TypeScript the peer range admits (6.x);
 * - the CI recipe's install step (examples/ci/drift-check.yml, `npm ci`), run in a fresh directory
 *   holding only the project's package.json and lock file, installs it again and krcloud-drift runs;
 * - the TypeScript template (`template-typescript`, `template-typescript-up`): `pulumi new` from the
 *   clone with no network, the files the README shows, `npm install`, then `pulumi up` on the local
 *   cloud, the program compiled by TypeScript 6; the YAML template on the plugin likewise.
 *
 * There is no network here: the sandbox's copy of the repository (tests/support/docs/runnable.ts),
 * committed and tagged `v<version>`, stands for github.com/krcloud/pulumi-krcloud. The commands run
 * as written with its `git+file://` URL in place of the GitHub one: npm clones it and runs its
 * prepare script exactly as it does for a GitHub URL.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { PROGRAM_TSCONFIG } from "../../drift/unmanaged/generate";
import { pulumiBinDir, pulumiYamlBinDir, REPO_ROOT } from "../harness/engine";
import { claimedBlock, DocsSandbox, type RunnableBlock } from "../support/docs/runnable";

jest.setTimeout(30 * 60_000);

const PKG = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  repository: { url: string };
  peerDependencies: Record<string, string>;
};
const GITHUB = PKG.repository.url;
const TAG = `v${PKG.version}`;

let docs: DocsSandbox;
/** The tagged repository npm installs from, as `git+file://…`. */
let gitUrl: string;
/** The project README's install command made. */
let projectDir: string;

/** A README block with the GitHub URL replaced by the local repository's. */
const local = (b: RunnableBlock): RunnableBlock => ({ ...b, text: b.text.replaceAll(GITHUB, gitUrl) });

/** The fenced block of `lang` that follows `marker` in README.md. */
function readmeBlock(marker: string, lang: string): string {
  const text = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const from = text.indexOf(marker);
  const m = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(text.slice(from));
  if (from < 0 || !m) throw new Error(`README.md has no ${lang} block after ${marker}`);
  return m[1]!;
}

const installedTypeScript = (dir: string): string =>
  (JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "typescript", "package.json"), "utf8")) as { version: string }).version;

/** Node 24 (what runs the tests) and the Pulumi tools first, as a user with the requirements met has them. */
function userTools(env: NodeJS.ProcessEnv): string {
  return [path.dirname(process.execPath), pulumiBinDir(), pulumiYamlBinDir() ?? "", env.PATH ?? ""].join(path.delimiter);
}

beforeAll(async () => {
  docs = new DocsSandbox("install-git");
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=krcloud tests", "-c", "user.email=tests@krcloud.invalid", ...args], { cwd: docs.repo, stdio: "pipe" });
  git("init", "-q");
  // The sandbox links the repository's node_modules: a clone must not get it (npm would install
  // into the repository's own through it). .gitignore's `node_modules/` matches directories only.
  fs.appendFileSync(path.join(docs.repo, ".git", "info", "exclude"), "/node_modules\n");
  git("add", "-A");
  git("commit", "-q", "-m", "the working tree under test");
  git("tag", TAG);
  gitUrl = `git+file://${docs.repo}`;
  // The template's package.json points at the GitHub repository too (left out of the tag: pulumi new
  // reads the template from the clone's working tree).
  const template = path.join(docs.repo, "templates", "typescript", "package.json");
  fs.writeFileSync(template, fs.readFileSync(template, "utf8").replaceAll(GITHUB, gitUrl));
});

afterAll(async () => {
  await docs?.cleanup();
});

test("README's install command: npm builds the package from the git tag and installs what users run, with TypeScript 6", async () => {
  const block = claimedBlock("README.md", "install-git");
  expect(block.text).toContain(`"${GITHUB}#${TAG}"`);
  const started = Date.now();
  const run = await docs.run([local(block)]);
  if (run.code !== 0) throw new Error(`README.md's install block (line ${block.line}) failed:\n${run.output.slice(-6000)}`);
  process.stdout.write(`npm install from the git tag: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  projectDir = path.join(docs.repo, block.dir);
  const pkg = JSON.parse(fs.readFileSync(path.join(projectDir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  expect(pkg.dependencies[PKG.name]).toBe(`${gitUrl}#${TAG}`);

  const installed = path.join(projectDir, "node_modules", PKG.name);
  expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
  expect(fs.readdirSync(installed).sort()).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "dist", "package.json", "policy", "schema.json"]);
  for (const f of ["dist/index.js", "dist/index.d.ts", "dist/sdk/nodejs/index.js", "dist/bin/krcloud-drift.js", "dist/provider/runtime.js"]) {
    expect([f, fs.existsSync(path.join(installed, f))]).toEqual([f, true]);
  }
  expect(fs.existsSync(path.join(installed, "dist", "tests"))).toBe(false);
  // The peer range stops before 7; npm picked its newest, a 6.x.
  expect(PKG.peerDependencies.typescript).toBe(">=5.5.0 <7");
  expect(installedTypeScript(projectDir)).toMatch(/^6\.\d+\.\d+$/);
  const loaded = spawnSync(process.execPath, ["-e", 'console.log(Object.keys(require("pulumi-krcloud")).sort().join(","))'], {
    cwd: projectDir,
    encoding: "utf8",
  });
  expect(loaded.stdout.trim()).toBe("cache,dataquery,hadoop,kms,objectstorage");
});

test("the CI recipe's install step, in a fresh directory with the project's package.json and lock file: npm ci installs it, krcloud-drift runs", () => {
  const workflow = parseYaml(fs.readFileSync(path.join(REPO_ROOT, "examples", "ci", "drift-check.yml"), "utf8")) as {
    jobs: { drift: { steps: { name?: string; run?: string; "working-directory"?: string }[] } };
  };
  const steps = workflow.jobs.drift.steps;
  const install = steps.find((s) => s.name?.startsWith("Install the project's packages"));
  expect(install?.run).toBeDefined();
  expect(install!["working-directory"]).toBe("${{ env.PROJECT_DIR }}");
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-ci-install-"));
  try {
    for (const f of ["package.json", "package-lock.json"]) fs.copyFileSync(path.join(projectDir, f), path.join(fresh, f));
    const env = { ...process.env, PATH: userTools(process.env), npm_config_update_notifier: "false" };
    const started = Date.now();
    const r = spawnSync("bash", ["-euo", "pipefail", "-c", install!.run!], { cwd: fresh, env, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`the install step failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
    process.stdout.write(`npm ci of the CI recipe: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    expect(fs.existsSync(path.join(fresh, "node_modules", PKG.name, "dist", "bin", "krcloud-drift.js"))).toBe(true);
    // The next step runs it the same way.
    const check = steps.find((s) => s.run?.includes("krcloud-drift"));
    expect(check?.run).toContain("npx --no-install krcloud-drift");
    const help = spawnSync("npx", ["--no-install", "krcloud-drift", "--help"], { cwd: fresh, env, encoding: "utf8" });
    expect([help.status, help.stdout.split("\n")[0]]).toEqual([0, "usage: krcloud-drift --stack NAME|GLOB [--stack ...] [options]"]);
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
});

test("the TypeScript template: pulumi new offline, the files the README shows, npm install, pulumi up on the local cloud with TypeScript 6", async () => {
  const blocks = [local(claimedBlock("README.md", "template-typescript")), local(claimedBlock("README.md", "template-typescript-up"))];
  const run = await docs.run(blocks);
  if (run.code !== 0) throw new Error(`README.md's template blocks failed (exit ${run.code}):\n${run.output.slice(-6000)}`);
  const dir = path.join(docs.repo, blocks[0]!.dir);
  expect(fs.readdirSync(dir).sort()).toEqual([
    ".gitignore",
    "Pulumi.dev.yaml",
    "Pulumi.yaml",
    "index.ts",
    "node_modules",
    "package-lock.json",
    "package.json",
    "tsconfig.json",
  ]);
  // What the README shows is what pulumi new wrote (the template's path it records aside).
  const { config: _tags, ...project } = parseYaml(fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8")) as Record<string, unknown>;
  expect(project).toEqual(parseYaml(readmeBlock("TypeScript 6), `Pulumi.yaml`:", "yaml")));
  const tsconfig = JSON.parse(fs.readFileSync(path.join(dir, "tsconfig.json"), "utf8")) as unknown;
  expect(tsconfig).toEqual(JSON.parse(readmeBlock("and `tsconfig.json`", "json")));
  expect(tsconfig).toEqual(PROGRAM_TSCONFIG);
  expect(installedTypeScript(dir)).toMatch(/^6\.\d+\.\d+$/);
  // Pulumi type-checked index.ts (no PULUMI_NODEJS_TRANSPILE_ONLY here) and created both resources.
  // The template's bucket and lifecycle, the stack and its identity (krcloud-stack).
  expect(run.output).toMatch(/\+ 4 created/);
  expect(run.output).toMatch(/bucketName\s*: "data-[0-9a-f]{7}"/);

  const destroyed = await docs.run([{ ...blocks[0]!, text: 'eval "$(make -s -C ../krcloud env)"\npulumi destroy --yes' }]);
  if (destroyed.code !== 0) throw new Error(`pulumi destroy failed:\n${destroyed.output.slice(-4000)}`);
  expect(destroyed.output).toMatch(/- 4 deleted/);
});

test("the YAML template: pulumi new offline, then pulumi up on the plugin", async () => {
  const dir = "../my-yaml";
  const run = await docs.run([
    {
      file: "(the YAML template)",
      line: 0,
      dir,
      text: [
        'eval "$(make -s -C ../krcloud env)"',
        "make -s -C ../krcloud plugin >/dev/null",
        `pulumi plugin install resource krcloud ${PKG.version} -f "$(cd ../krcloud && pwd)/.state/plugin/pulumi-resource-krcloud-v${PKG.version}.tar.gz"`,
        "pulumi new ../krcloud/templates/yaml --name my-yaml --stack dev --yes",
        "make -C ../krcloud local-cloud-start",
        "LC=../krcloud/.state/local-cloud.json",
        `pulumi config set krcloud:localCloudUrl "$(node -p "require('$LC').url")"`,
        `pulumi config set krcloud:projectId "$(node -p "require('$LC').projectId")"`,
        `node -p "require('$LC').token" | pulumi config set --secret krcloud:authToken`,
        "pulumi up --yes",
        "pulumi destroy --yes",
        "pulumi plugin rm resource krcloud --yes",
        "pulumi plugin ls",
      ].join("\n"),
    },
  ]);
  if (run.code !== 0) throw new Error(`the YAML template failed (exit ${run.code}):\n${run.output.slice(-6000)}`);
  expect(run.output).toMatch(/\+ 3 created/);
  expect(run.output).toMatch(/- 3 deleted/);
  expect(run.output).not.toMatch(/^krcloud\s+resource\s/m);
});
