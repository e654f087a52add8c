/**
 * examples/ci/README.md "Try it locally", run as written: its shell block, in a copy of the
 * repository's layout (dist, scripts, node_modules linked; examples/static-site copied), with
 * `make demo` standing for what it runs here (scripts/demo.sh up of static-site against a local
 * cloud this test starts and describes in .state/local-cloud.json, as `make local-cloud-start`
 * does). The recipe must exit 0 on the fresh demo, 2 after its change behind Pulumi's back, and
 * write the files it names.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { LocalCloud } from "../../local-cloud";
import { ENGINE_TEST_TIMEOUT_MS, newProject, pulumiBinDir, REPO_ROOT, startCloud, staticSite } from "../harness/engine";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let cloud: LocalCloud;
let root: string;

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
  for (const d of ["dist", "scripts", "node_modules"]) fs.symlinkSync(path.join(REPO_ROOT, d), path.join(root, d), "dir");
  fs.cpSync(staticSite().dir, path.join(root, "examples", "static-site"), {
    recursive: true,
    filter: (p) => path.basename(p) !== "node_modules" && !/^Pulumi\..+\.ya?ml$/.test(path.basename(p)),
  });
  const p = await newProject(cloud, "recipe");
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

afterAll(async () => {
  await cloud?.close();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test("the README's recipe: exit 0 on the demo, exit 2 after the ACL change, every file it names written", async () => {
  const script = recipe();
  expect(script).toMatch(/^make demo\b/m);
  // `make demo` = build, pulumi, local-cloud-start (done above), then scripts/demo.sh up.
  const runnable = script.replace(/^make demo\b.*$/m, "DEMO_EXAMPLES=static-site bash scripts/demo.sh up >demo.log 2>&1 || { cat demo.log; exit 9; }");
  const env: NodeJS.ProcessEnv = { ...process.env, KRCLOUD_TOOLS_DIR: path.dirname(path.dirname(pulumiBinDir())) };
  for (const k of Object.keys(env)) if (/^(PULUMI_|KRCLOUD_(?!TOOLS_DIR))/.test(k)) delete env[k];
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
