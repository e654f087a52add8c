/**
 * Python, Go and Java programs (re-exported by index.ts): the language hosts `make pulumi-languages` builds
 * (`make pulumi-languages`, `make pulumi-java`), the SDKs generated from schema.json (scripts/gen-sdks.sh),
 * a virtualenv with `pulumi` from PyPI and the pulumi_krcloud wheel, a Go program wired to the Go SDK,
 * a Java program compiled with Maven.
 */
import { execFile } from "node:child_process";
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
