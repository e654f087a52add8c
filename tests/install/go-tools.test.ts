/**
 * What the Go-built tools' install (scripts/install-go-tool.sh) builds, counted with a stand-in
 * `go` first on PATH that records each `go build` and writes an empty program in its place (a
 * pulumi that answers `version`), into an empty tools directory:
 * - issue 38, item 3: `eval "$(make -s env)"` builds the CLI (with the Node.js host) and the YAML
 *   host, and nothing else; the Python and Go hosts are built by the target that needs them;
 * - issue 38, item 2: a second build of the same tool waits for the first, saying which process.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../harness/engine";

jest.setTimeout(120_000);

let tmp: string;
let env: NodeJS.ProcessEnv;
const built = (): string[] => (fs.existsSync(path.join(tmp, "builds")) ? fs.readFileSync(path.join(tmp, "builds"), "utf8").trim().split("\n") : []);

const FAKE_GO = `#!/bin/bash
# Stands for go: answers what install-go-tool.sh asks, and records what it would build.
case "$1" in
  env) case "$2" in GOVERSION) echo go1.26.8 ;; *) echo off ;; esac ;;
  list) echo "$FAKE_SDK" ;;
  build)
    while [[ $1 != -o ]]; do shift; done
    out=$2 pkg=$3
    echo "$pkg" >> "$FAKE_BUILDS"
    printf '#!/bin/sh\\necho v3.259.0\\n' > "$out"; chmod 755 "$out" ;;
  *) echo "fake go: $*" >&2; exit 2 ;;
esac
`;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-go-tools-"));
  fs.mkdirSync(path.join(tmp, "bin"));
  fs.writeFileSync(path.join(tmp, "bin", "go"), FAKE_GO, { mode: 0o755 });
  fs.mkdirSync(path.join(tmp, "sdk", "python", "cmd"), { recursive: true });
  fs.writeFileSync(path.join(tmp, "sdk", "python", "cmd", "pulumi-language-python-exec"), "");
  // No pulumi of the machine on PATH: the CLI is built, not taken from PATH.
  const system = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(KRCLOUD_|PULUMI_|MAKE)/.test(k))),
    PATH: [path.join(tmp, "bin"), path.dirname(process.execPath), system].join(path.delimiter),
    KRCLOUD_TOOLS_DIR: path.join(tmp, "tools"),
    FAKE_BUILDS: path.join(tmp, "builds"),
    FAKE_SDK: path.join(tmp, "sdk"),
  };
  if (spawnSync("bash", ["-c", "command -v pulumi"], { env }).status === 0) throw new Error("a pulumi is on the system PATH: this test needs none");
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

test('eval "$(make -s env)" on a machine with no tools builds the CLI and the YAML host, nothing else', () => {
  const r = spawnSync("make", ["-s", "env", `TOOLS_DIR=${path.join(tmp, "tools")}`], { cwd: REPO_ROOT, env, encoding: "utf8" });
  expect([r.status, r.stderr]).toEqual([0, expect.any(String)]);
  expect(built()).toEqual([
    "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi",
    "./cmd/pulumi-language-nodejs",
    "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml",
  ]);
  const where = (tool: string): string =>
    path.basename(path.dirname(spawnSync("bash", ["scripts/install-go-tool.sh", "--where", tool], { cwd: REPO_ROOT, env, encoding: "utf8" }).stdout.trim()));
  expect(fs.readdirSync(path.join(tmp, "tools")).sort()).toEqual([where("pulumi"), where("pulumi-yaml")].sort());
  expect(where("pulumi")).toMatch(/^pulumi-v3\.259\.0-[0-9a-f]{12}$/);
  // Its one line for the shell: Node 24, then the CLI and the YAML host.
  const [line] = r.stdout.split("\n");
  expect(line).toMatch(new RegExp(`^export PATH="[^:]+/node_modules/node/bin:${tmp}/tools/pulumi-v3\\.259\\.0-[0-9a-f]{12}/bin:${tmp}/tools/pulumi-yaml-`));
  // A second eval builds nothing.
  expect(spawnSync("make", ["-s", "env", `TOOLS_DIR=${path.join(tmp, "tools")}`], { cwd: REPO_ROOT, env }).status).toBe(0);
  expect(built()).toHaveLength(3);
});

test("the Python and Go hosts are built by the target that needs them, make pulumi-languages", () => {
  const r = spawnSync("make", ["-s", "pulumi-languages", `TOOLS_DIR=${path.join(tmp, "tools")}`], { cwd: REPO_ROOT, env, encoding: "utf8" });
  expect([r.status, built()]).toEqual([0, ["./cmd/pulumi-language-python", "./cmd/pulumi-language-go"]]);
});

test("a build waits for another build of the same tool, naming the process it waits for", async () => {
  const where = spawnSync("bash", ["scripts/install-go-tool.sh", "--where", "pulumi-yaml"], { cwd: REPO_ROOT, env, encoding: "utf8" }).stdout.trim();
  const prefix = path.dirname(where);
  fs.mkdirSync(prefix, { recursive: true });
  // The other build: holds the lock as install-go-tool.sh does, for 3 s (bash runs its last command, sleep, in its own process).
  const other = spawn("bash", ["-c", `exec 9>>"${prefix}/.lock"; flock 9; echo $$ > "${prefix}/.owner"; echo held; sleep 3`], { env });
  await new Promise<void>((resolve) => other.stdout.once("data", () => resolve()));
  const r = spawnSync("bash", ["scripts/install-go-tool.sh", "pulumi-yaml"], { cwd: REPO_ROOT, env, encoding: "utf8" });
  expect(r.status).toBe(0);
  expect(r.stderr).toContain(`waiting for another build of pulumi-yaml into ${prefix} to finish (pid ${other.pid}: sleep 3; lock ${prefix}/.lock)`);
  expect(built()).toEqual(["github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"]);
});
