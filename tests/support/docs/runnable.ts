/**
 * Runnable command blocks in the documentation (docs/runnable-docs.md describes the convention):
 * a fenced block whose info string is `sh runnable` (or `bash runnable`), with optional
 * `dir=<path>` (where the block starts, relative to the markdown file's directory; created when
 * missing) and `id=<name>` (the block is run by the test that names it, see CLAIMED_BLOCKS, instead
 * of tests/engine/docs-runnable.test.ts).
 *
 * A file's blocks run in order in one bash (`set -euo pipefail`), as a user would type them: each
 * starts in its directory, and what an earlier block exported (PATH, variables) carries over. They
 * run in a fresh sandbox: a copy of the repository as a clone has it (tracked and untracked files,
 * timestamps kept, plus the built dist/ and a link to the installed node_modules, so make finds
 * both up to date), a PATH without this repository's Node 24 or the Pulumi CLI (the machine's own,
 * as a new user has it: blocks must set up what they use), a PULUMI_HOME, a file backend and a
 * passphrase of their own (as after `pulumi login --local`), and LOCAL_CLOUD_PORT set to a free
 * port (so `make local-cloud-start` never meets another local cloud).
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { freePort } from "../../../local-cloud/core/ports";
import { REPO_ROOT } from "../../harness/engine";

export interface RunnableBlock {
  /** The markdown file, relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** Where the block starts, relative to the repository root. */
  dir: string;
  id?: string;
  text: string;
}

/** Blocks with an `id` and the test file that runs them. */
export const CLAIMED_BLOCKS: Record<string, string> = {
  "README.md#install-package": "tests/engine/package.test.ts",
  "README.md#install-git": "tests/engine/install-git.test.ts",
  "README.md#template-typescript": "tests/engine/install-git.test.ts",
  "README.md#template-typescript-up": "tests/engine/install-git.test.ts",
};

const OPENING = /^(`{3,}|~{3,})(.*)$/;
const RUNNABLE = /^\s*(sh|bash)\s+runnable\b(.*)$/;

/** The runnable blocks of a markdown file (path relative to the repository root); fences inside other fences are text. */
export function runnableBlocks(file: string, root = REPO_ROOT): RunnableBlock[] {
  const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
  const blocks: RunnableBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]!);
    if (!open) continue;
    const fence = open[1]!;
    const end = lines.findIndex((l, j) => j > i && l.trimEnd().startsWith(fence[0]!.repeat(fence.length)) && /^(`+|~+)$/.test(l.trimEnd()));
    if (end < 0) throw new Error(`${file}:${i + 1}: the code block is not closed`);
    const m = RUNNABLE.exec(open[2]!);
    if (m) {
      const attrs = Object.fromEntries([...m[2]!.matchAll(/(\w+)=(\S+)/g)].map((a) => [a[1]!, a[2]!]));
      const unknown = Object.keys(attrs).filter((k) => k !== "dir" && k !== "id");
      if (unknown.length) throw new Error(`${file}:${i + 1}: unknown runnable attribute ${unknown.join(", ")} (dir=, id=)`);
      blocks.push({
        file,
        line: i + 1,
        dir: path.normalize(path.join(path.dirname(file), attrs.dir ?? ".")),
        ...(attrs.id ? { id: attrs.id } : {}),
        text: lines.slice(i + 1, end).join("\n"),
      });
    }
    i = end;
  }
  return blocks;
}

/** The markdown files whose runnable blocks the tests run: README.md, examples/<x>/README.md, docs/**. */
export function documentationFiles(root = REPO_ROOT): string[] {
  const files = ["README.md"];
  for (const e of fs.readdirSync(path.join(root, "examples"), { withFileTypes: true })) {
    if (e.isDirectory() && fs.existsSync(path.join(root, "examples", e.name, "README.md"))) files.push(path.join("examples", e.name, "README.md"));
  }
  const visit = (dir: string): void => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) visit(rel);
      else if (e.name.endsWith(".md")) files.push(rel);
    }
  };
  visit("docs");
  return files.sort();
}

/** The block `id` of `file`, which a test runs itself. */
export function claimedBlock(file: string, id: string): RunnableBlock {
  const block = runnableBlocks(file).find((b) => b.id === id);
  if (!block) throw new Error(`${file} has no runnable block with id=${id}`);
  return block;
}

const TOOLS_DIR = process.env.KRCLOUD_TOOLS_DIR ?? path.join(os.homedir(), ".cache", "krcloud");

/** PATH as a new user has it: without this repository's node_modules and the Pulumi tools it builds. */
export function userPath(): string {
  const drop = (d: string): boolean => d === "" || d.includes(`${path.sep}node_modules${path.sep}`) || d.startsWith(TOOLS_DIR) || d.startsWith(REPO_ROOT);
  return (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((d) => !drop(d))
    .join(path.delimiter);
}

/** A fresh copy of the repository and the user environment its runnable blocks get. */
export class DocsSandbox {
  readonly root: string;
  /** The repository copy (`<root>/krcloud`). */
  readonly repo: string;
  private port?: number;
  /** One passphrase for every run of the sandbox: a later run reaches the stacks an earlier one made. */
  private readonly passphrase = `docs-${randomBytes(6).toString("hex")}`;

  constructor(label: string) {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), `krcloud-docs-${label}-`));
    this.repo = path.join(this.root, "krcloud");
    const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO_ROOT, encoding: "utf8" })
      .split("\0")
      .filter((f) => f !== "" && fs.existsSync(path.join(REPO_ROOT, f)));
    for (const f of listed) fs.cpSync(path.join(REPO_ROOT, f), path.join(this.repo, f), { preserveTimestamps: true });
    fs.cpSync(path.join(REPO_ROOT, "dist"), path.join(this.repo, "dist"), { recursive: true, preserveTimestamps: true });
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(this.repo, "node_modules"), "dir");
    for (const d of ["home", "backend"]) fs.mkdirSync(path.join(this.root, d));
  }

  async env(): Promise<Record<string, string>> {
    this.port ??= await freePort();
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !k.startsWith("KRCLOUD_") && !k.startsWith("PULUMI_") && !k.startsWith("npm_")) env[k] = v;
    return {
      ...env,
      PATH: userPath(),
      KRCLOUD_TOOLS_DIR: TOOLS_DIR,
      PULUMI_HOME: path.join(this.root, "home"),
      PULUMI_BACKEND_URL: `file://${path.join(this.root, "backend")}`,
      PULUMI_CONFIG_PASSPHRASE: this.passphrase,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      LOCAL_CLOUD_PORT: String(this.port),
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
    };
  }

  /** Runs `blocks` (of one file, in order) in one bash; resolves with the exit code and the output (stdout and stderr in order). */
  async run(blocks: RunnableBlock[], timeoutMs = 15 * 60_000): Promise<{ code: number; output: string }> {
    const script = ["set -euo pipefail", "trap 'echo \"runnable block failed: $__BLOCK (line $LINENO of the script)\" >&2' ERR"];
    for (const b of blocks) {
      const dir = path.join(this.repo, b.dir);
      fs.mkdirSync(dir, { recursive: true });
      script.push(`__BLOCK=${JSON.stringify(`${b.file}:${b.line}`)}`, `cd ${JSON.stringify(dir)}`, `echo "+++ ${b.file}:${b.line}"`, b.text);
    }
    const file = path.join(this.root, `blocks-${randomBytes(4).toString("hex")}.sh`);
    fs.writeFileSync(file, `${script.join("\n")}\n`);
    const env = await this.env();
    return new Promise((resolve) => {
      const child = spawn("bash", [file], { cwd: this.repo, env, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr.on("data", (d: Buffer) => (output += d.toString()));
      const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code: code ?? (signal ? 128 : 1), output });
      });
    });
  }

  /** Stops what the blocks may have left running (the local cloud and its cache nodes), removes the sandbox. */
  async cleanup(): Promise<void> {
    if (fs.existsSync(path.join(this.repo, ".state", "local-cloud.pid"))) {
      execFileSync("bash", [path.join(this.repo, "scripts", "local-cloud.sh"), "stop"], { env: await this.env(), stdio: "ignore" });
    }
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
