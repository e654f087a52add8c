/**
 * examples/ci/README.md "Try it locally", run as written: its shell block, in a copy of the
 * repository's layout (dist, scripts, node_modules linked; examples/static-site copied), with
 * `make demo` standing for what it runs here (scripts/demo.sh up of static-site against a local
 * cloud this test starts and describes in .state/local-cloud.json, as `make local-cloud-start`
 * does). The recipe must exit 0 on the fresh demo, 2 after its change behind Pulumi's back, and
 * write the files it names. Then the workflow's own check step (examples/ci/drift-check.yml), with
 * the job's environment from its secrets and variables, on the same stack with every credential
 * taken out of its config: it authenticates with the access key alone (tokens issued for it), not
 * a static token.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import type { LocalCloud } from "../../local-cloud";
import { ENGINE_TEST_TIMEOUT_MS, newProject, pulumiBinDir, REPO_ROOT, startCloud, staticSite, type CloudProject } from "../harness/engine";
import { expand, shimDir } from "../support/fleet/ci-engines";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let cloud: LocalCloud;
let root: string;
let project: CloudProject;

/** The first ```sh block of the README's "Try it locally" section. */
function recipe(): string {
  const text = fs.readFileSync(path.join(REPO_ROOT, "examples", "ci", "README.md"), "utf8");
  const section = text.slice(text.indexOf("## Try it locally"));
  const m = /```sh\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error("examples/ci/README.md has no sh block under 'Try it locally'");
  return m[1]!;
}

beforeAll(async () => {
  cloud = await startCloud();
  root = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-drift-recipe-"));
  // go/: scripts/install-go-tool.sh (make demo's, and the recipe's PATH) finds the CLI's build by its sources' digest.
  for (const d of ["dist", "scripts", "go", "node_modules"]) fs.symlinkSync(path.join(REPO_ROOT, d), path.join(root, d), "dir");
  fs.cpSync(staticSite().dir, path.join(root, "examples", "static-site"), {
    recursive: true,
    filter: (p) => path.basename(p) !== "node_modules" && !/^Pulumi\..+\.ya?ml$/.test(path.basename(p)),
  });
  const p = await newProject(cloud, "recipe");
  project = p;
  fs.mkdirSync(path.join(root, ".state"));
  fs.writeFileSync(
    path.join(root, ".state", "local-cloud.json"),
    JSON.stringify({
      url: cloud.url,
      controlUrl: cloud.controlUrl,
      projectId: p.projectId,
      token: p.token,
      credentialId: p.credentialId,
      credentialSecret: p.credentialSecret,
    }),
  );
});

/** This process's environment without Pulumi and krcloud settings, the tools directory kept. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, KRCLOUD_TOOLS_DIR: path.dirname(path.dirname(pulumiBinDir())) };
  for (const k of Object.keys(env)) if (/^(PULUMI_|KRCLOUD_(?!TOOLS_DIR))/.test(k)) delete env[k];
  return env;
}

afterAll(async () => {
  await cloud?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test("the README's recipe: exit 0 on the demo, exit 2 after the ACL change, every file it names written", async () => {
  const script = recipe();
  expect(script).toMatch(/^make demo\b/m);
  // `make demo` = build, pulumi, local-cloud-start (done above), then scripts/demo.sh up.
  const runnable = script.replace(/^make demo\b.*$/m, "DEMO_EXAMPLES=static-site bash scripts/demo.sh up >demo.log 2>&1 || { cat demo.log; exit 9; }");
  const env = cleanEnv();
  const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
    execFile("bash", ["-c", runnable], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }, (err, so, se) =>
      err ? reject(new Error(`${err.message}\n${so}\n${se}`)) : resolve({ stdout: so, stderr: se }),
    ),
  );
  expect(stdout.match(/^exit \d+$/gm)).toEqual(["exit 0", "exit 2"]);
  expect(stdout).toMatch(/^dev\s+site\s+krcloud:objectstorage:Bucket\s+drifted\s+acl\.public$/m);
  expect(stdout).toContain('  acl.public: cloud "deny", program "read-only"');
  expect(stdout).toContain("--config-file .state/demo/static-site/Pulumi.dev.yaml");
  for (const f of ["drift.json", "drift.sarif", "drift.xml", "drift.annotations", "drift.md", "drift.html"])
    expect(fs.statSync(path.join(root, f)).size).toBeGreaterThan(0);
  expect(JSON.parse(fs.readFileSync(path.join(root, "drift.json"), "utf8"))).toMatchObject({ exitCode: 2, stacks: [{ stack: "dev", status: "drift" }] });
  expect(stderr).toBe("");
  // make demo says where the console is.
  expect(fs.readFileSync(path.join(root, "demo.log"), "utf8")).toContain(`${cloud.url}/_console/#project=`);
});

test("the workflow's check step authenticates with the access key from its secrets: no static token anywhere", async () => {
  const wf = parseYaml(fs.readFileSync(path.join(REPO_ROOT, "examples", "ci", "drift-check.yml"), "utf8")) as {
    jobs: { drift: { env: Record<string, string>; steps: { id?: string; run?: string }[] } };
  };
  const job = wf.jobs.drift;
  expect(Object.keys(job.env)).not.toContain("KRCLOUD_AUTH_TOKEN");
  // The demo stack with every credential taken out of its config: only the job's environment has one.
  const config = path.join(root, ".state", "demo", "static-site", "Pulumi.dev.yaml");
  const text = fs.readFileSync(config, "utf8");
  fs.writeFileSync(config, text.replace(/^ {2}krcloud:(authToken|credentialId|credentialSecret):(\n {4}.*)*.*\n/gm, ""));
  expect(fs.readFileSync(config, "utf8")).not.toMatch(/krcloud:(authToken|credentialId|credentialSecret)/);

  const secrets = {
    PULUMI_CONFIG_PASSPHRASE: "krcloud-demo",
    KRCLOUD_CREDENTIAL_ID: project.credentialId,
    KRCLOUD_CREDENTIAL_SECRET: project.credentialSecret,
  };
  const vars = { KRCLOUD_IDENTITY_ENDPOINT: `${cloud.url}/identity`, KRCLOUD_REGION: "kr-central-2" };
  // Pointed at the demo as a user edits PROJECT_DIR and STACKS; the backend is the demo's.
  const jobEnv: Record<string, string> = {
    ...Object.fromEntries(Object.entries(job.env).map(([k, v]) => [k, expand(String(v), { secrets, vars, env: {} })])),
    PROJECT_DIR: "examples/static-site",
    STACKS: "--stack dev --config-file ../../.state/demo/static-site/Pulumi.dev.yaml",
    PULUMI_BACKEND_URL: `file://${path.join(root, ".state", "pulumi-backend")}`,
    PULUMI_HOME: path.join(root, ".state", "pulumi-home"),
  };
  const step = job.steps.find((x) => x.id === "drift")!;
  const out = path.join(root, "gh-output");
  fs.writeFileSync(out, "");
  const env = {
    ...cleanEnv(),
    ...jobEnv,
    PATH: `${shimDir()}:${path.join(REPO_ROOT, "node_modules", "node", "bin")}:${pulumiBinDir()}:${process.env.PATH}`,
    GITHUB_WORKSPACE: root,
    GITHUB_OUTPUT: out,
    GITHUB_STEP_SUMMARY: path.join(root, "gh-summary"),
  };
  const before = (await (await fetch(`${cloud.controlUrl}/tokens?credentialId=${project.credentialId}`)).json()) as { issued: number };
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      "bash",
      ["--noprofile", "--norc", "-eo", "pipefail", "-c", expand(step.run!, { env: jobEnv, secrets, vars })],
      { cwd: path.join(root, "examples", "static-site"), env, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }),
    ),
  );
  expect([r.code, r.stderr]).toEqual([0, ""]);
  // The check ran (its verdict in the step's output: drift from the first test), with tokens issued for the key.
  expect(fs.readFileSync(out, "utf8")).toMatch(/^code=2$/m);
  expect(r.stdout).toContain("acl.public");
  const after = (await (await fetch(`${cloud.controlUrl}/tokens?credentialId=${project.credentialId}`)).json()) as { issued: number };
  expect(after.issued).toBeGreaterThan(before.issued);
});
