/**
 * Python, Go and Java programs (re-exported by index.ts): the language hosts `make pulumi-languages` builds
 * (`make pulumi-languages`, `make pulumi-java`), the SDKs generated from schema.json (scripts/gen-sdks.sh),
 * a virtualenv with `pulumi` from PyPI and the pulumi_krcloud wheel, a Go program wired to the Go SDK,
 * a Java program compiled with Maven.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { PULUMI_VERSION, REPO_ROOT } from "./paths";

const run = promisify(execFile);

/** The version of `pulumi` on PyPI that goes with the CLI (the same number: 3.259.0). */
export const PULUMI_PYTHON_VERSION = PULUMI_VERSION.slice(1);

/** The Go toolchain (/usr/local/go/bin/go where the image has it there). */
export const GO = fs.existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go";

/**
 * The SDKs generated from this tree's schema.json into `out` (python/ with the wheel in python/dist/,
 * go/, nodejs/; with `java`, java/ too, built and installed into the local Maven repository).
 */
export async function generateSdks(out: string, opts: { wheel?: boolean; java?: boolean } = {}): Promise<void> {
  await run("bash", [path.join(REPO_ROOT, "scripts", "gen-sdks.sh"), out], {
    env: { ...process.env, KRCLOUD_SDK_WHEEL: opts.wheel === false ? "0" : "1", KRCLOUD_SDK_JAVA: opts.java ? "1" : "0" },
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** The wheel of pulumi_krcloud that generateSdks built into `sdkDir`/python/dist. */
export function pythonWheel(sdkDir: string): string {
  const dist = path.join(sdkDir, "python", "dist");
  const wheels = fs.readdirSync(dist).filter((f) => f.endsWith(".whl"));
  if (wheels.length !== 1) throw new Error(`expected one wheel in ${dist}, found ${wheels.join(", ") || "none"}`);
  return path.join(dist, wheels[0]!);
}

/**
 * A virtualenv at `venvDir` with the program's requirements.txt (pulumi from PyPI) and the
 * pulumi_krcloud wheel, as a user makes it. pip's cache makes later runs quick.
 */
export async function makeVirtualenv(venvDir: string, requirements: string, wheel: string): Promise<void> {
  await run("python3", ["-m", "venv", venvDir]);
  await run(path.join(venvDir, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", "-r", requirements, wheel], {
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** Where the shared SDKs and virtualenvs are kept: `make`'s KRCLOUD_TOOLS_DIR (~/.cache/krcloud). */
function toolsDir(): string {
  return process.env.KRCLOUD_TOOLS_DIR || path.join(os.homedir(), ".cache", "krcloud");
}

const sha256 = (...parts: (string | Buffer)[]): string => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p).update("\0");
  return h.digest("hex").slice(0, 16);
};

/** Whether process `pid` is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Runs `make` unless `dir` is complete (it holds `.complete`), under a lock beside it that every
 * process of any worktree takes (a second caller waits, saying whom for, then finds it complete).
 * A lock whose process is gone is taken over; a half-made `dir` is removed first.
 */
async function madeOnce(dir: string, what: string, make: (dir: string) => Promise<void>): Promise<string> {
  const complete = path.join(dir, ".complete");
  if (fs.existsSync(complete)) return dir;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  for (let said = 0; ;) {
    try {
      fs.mkdirSync(lock);
      fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = Number(fs.readFileSync(path.join(lock, "pid"), { encoding: "utf8", flag: "a+" }) || 0);
      // No pid a minute after the lock was made: its maker died between the two steps above.
      const orphan = holder === 0 && Date.now() - fs.statSync(lock).mtimeMs > 60_000;
      if (orphan || (holder > 0 && !alive(holder))) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - said > 30_000) {
        process.stderr.write(`waiting for process ${holder || "?"} to make ${what} in ${dir}\n`);
        said = Date.now();
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  try {
    if (fs.existsSync(complete)) return dir;
    fs.rmSync(dir, { recursive: true, force: true });
    await make(dir);
    fs.writeFileSync(complete, `${new Date().toISOString()}\n`);
    return dir;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * The SDKs generated from this tree's schema.json, with the Python wheel (generateSdks), made once
 * per schema.json and generator and kept under KRCLOUD_TOOLS_DIR (sdks/<digest of what they are
 * made from>): the engine tests and the scale benchmark that need the wheel share them. Never
 * changed once made: a program wired to them (a Go module's `replace`) reads them only.
 */
export async function sharedSdks(): Promise<string> {
  const inputs = ["schema.json", "scripts/gen-sdks.sh", "go/codegen/sdkgen/main.go", "go/codegen/sdkgen/go.mod", "go/codegen/sdkgen/go.sum"];
  const digest = sha256(...inputs.map((f) => fs.readFileSync(path.join(REPO_ROOT, f))));
  return madeOnce(path.join(toolsDir(), "sdks", digest), "the SDKs of schema.json", async (dir) => {
    fs.mkdirSync(dir, { recursive: true });
    await generateSdks(dir);
  });
}

/**
 * A virtualenv holding `requirements` (the text of a requirements.txt: `pulumi==3.259.0`) and the
 * pulumi_krcloud wheel of sharedSdks, made once per wheel and requirements (python-venv/<digest of
 * both>) and shared: every Python program of the tests and benchmarks runs in it, none installs
 * into it. What a user makes by hand with `python3 -m venv` and `pip install -r requirements.txt
 * <wheel>` (makeVirtualenv).
 */
export async function sharedVirtualenv(requirements: string): Promise<string> {
  const wheel = pythonWheel(await sharedSdks());
  // Comments and blank lines apart, so the examples' requirements.txt and the benchmark's one line share it.
  requirements = requirements
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter(Boolean)
    .map((l) => `${l}\n`)
    .join("");
  const digest = sha256(fs.readFileSync(wheel), requirements);
  return madeOnce(path.join(toolsDir(), "python-venv", digest), "a virtualenv with pulumi_krcloud", async (dir) => {
    const file = `${dir}.requirements.txt`;
    fs.writeFileSync(file, requirements);
    try {
      await makeVirtualenv(dir, file, wheel);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
}

/**
 * Points a Go program's go.mod at the generated Go SDK (`replace` to its directory), as the README
 * tells users to, and resolves its dependencies (`go mod tidy` through GOPROXY).
 */
export async function wireGoProgram(programDir: string, goSdkDir: string): Promise<void> {
  const env = { ...process.env, GOFLAGS: "-mod=mod", PATH: `${path.dirname(GO)}${path.delimiter}${process.env.PATH ?? ""}` };
  await run(GO, ["mod", "edit", `-replace=github.com/krcloud/pulumi-krcloud/sdk/go=${goSdkDir}`], { cwd: programDir, env });
  await run(GO, ["mod", "tidy"], { cwd: programDir, env, maxBuffer: 16 * 1024 * 1024 });
}

/** `go build` of a Go program into a temp file (thrown away), as pulumi-language-go builds it: warms Go's build cache. */
export async function buildGoProgram(programDir: string): Promise<void> {
  const env = { ...process.env, PATH: `${path.dirname(GO)}${path.delimiter}${process.env.PATH ?? ""}` };
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-go-build-"));
  try {
    await run(GO, ["build", "-o", path.join(out, "program"), "."], { cwd: programDir, env, maxBuffer: 16 * 1024 * 1024 });
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

/**
 * `mvn compile` of a Java program, as pulumi-language-java runs it before every command: resolves the
 * program's dependencies (com.pulumi:pulumi from Maven Central, com.pulumi:krcloud from the local
 * repository, where generateSdks with `java` installed it) and the Maven plugins once.
 */
export async function compileJavaProgram(programDir: string): Promise<void> {
  await run("mvn", ["-B", "-q", "--no-transfer-progress", "-Dstyle.color=never", "compile"], { cwd: programDir, maxBuffer: 16 * 1024 * 1024 });
}
