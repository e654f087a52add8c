/**
 * Issue 38, item 1: `make sdks` failed on a cold Go module cache because the reference examples' vet
 * step (scripts/gen-examples.sh) took the go command's "go: downloading …" lines for vet findings.
 * That step is scripts/vet-programs.sh; here it runs with an empty GOMODCACHE on a small module whose
 * one dependency comes from a module proxy in a folder (GOPROXY=file://…), so the go command
 * downloads it exactly as it downloads Pulumi's modules on a new machine, in a second instead of
 * minutes, and without the network.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../harness/engine";

jest.setTimeout(120_000);

const GO = fs.existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go";
let tmp: string;
let env: NodeJS.ProcessEnv;

/** A module proxy in a folder serving example.com/greet v1.0.0 (the layout `go help goproxy` gives). */
function writeProxy(dir: string): void {
  const at = path.join(dir, "example.com", "greet", "@v");
  fs.mkdirSync(at, { recursive: true });
  fs.writeFileSync(path.join(at, "list"), "v1.0.0\n");
  fs.writeFileSync(path.join(at, "v1.0.0.info"), JSON.stringify({ Version: "v1.0.0", Time: "2026-01-01T00:00:00Z" }));
  const mod = "module example.com/greet\n\ngo 1.21\n";
  fs.writeFileSync(path.join(at, "v1.0.0.mod"), mod);
  // The module's zip: its files under example.com/greet@v1.0.0/.
  const script = [
    "import sys, zipfile",
    "z = zipfile.ZipFile(sys.argv[1], 'w')",
    "z.writestr('example.com/greet@v1.0.0/go.mod', sys.argv[2])",
    "z.writestr('example.com/greet@v1.0.0/greet.go', 'package greet\\n\\nfunc Hello() string { return \"hello\" }\\n')",
    "z.close()",
  ].join("\n");
  execFileSync("python3", ["-c", script, path.join(at, "v1.0.0.zip"), mod]);
}

/** A module of one program per folder, as gen-examples.sh lays out the converted examples. */
function writePrograms(dir: string, requires: string, programs: Record<string, string>): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "go.mod"), `module programs\n\ngo 1.21\n\nrequire ${requires}\n`);
  for (const [name, body] of Object.entries(programs)) {
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, "main.go"), `package main\n\nimport "example.com/greet"\n\nfunc main() { println(${body}) }\n`);
  }
}

const vet = (dir: string) => spawnSync("bash", [path.join(REPO_ROOT, "scripts", "vet-programs.sh"), dir], { env, encoding: "utf8" });

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-vet-"));
  writeProxy(path.join(tmp, "proxy"));
  fs.mkdirSync(path.join(tmp, "modcache"));
  env = {
    ...process.env,
    PATH: `${path.dirname(GO)}${path.delimiter}${process.env.PATH ?? ""}`,
    GOMODCACHE: path.join(tmp, "modcache"),
    GOPROXY: `file://${path.join(tmp, "proxy")}`,
    GONOSUMDB: "example.com",
    GOFLAGS: "",
    GOTOOLCHAIN: "local",
  };
});
afterEach(() => {
  // The module cache is read-only by design: go removes it.
  spawnSync(GO, ["clean", "-modcache"], { env });
  fs.rmSync(tmp, { recursive: true, force: true });
});

test("on an empty module cache it downloads, passes, and names only the program that does not compile", () => {
  writePrograms(path.join(tmp, "vet"), "example.com/greet v1.0.0", { good: "greet.Hello()", bad: "greet.Goodbye()" });
  const r = vet(path.join(tmp, "vet"));
  expect(r.stderr).toContain("go: downloading example.com/greet v1.0.0");
  expect([r.status, r.stdout.trim().split("\n")]).toEqual([0, [expect.stringMatching(/^bad\tmain\.go:5:\d+: .*Goodbye/)]]);
});

test("a module the proxy does not have stops it, naming the module, instead of passing as a finding", () => {
  writePrograms(path.join(tmp, "vet"), "example.com/absent v1.0.0", { good: "1" });
  const r = vet(path.join(tmp, "vet"));
  expect(r.status).toBe(1);
  expect(r.stderr).toContain("example.com/absent");
  expect(r.stdout).toBe("");
});
