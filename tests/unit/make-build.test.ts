/**
 * Repeat runs skip what is up to date: `make build` runs tsc only when a source is newer than the
 * last build (and tsc is incremental, its build info in dist/ and never shipped). A no-op
 * `make demo` used to spend most of its 31 s in a full tsc run; `node dist/bench/demo.js`
 * measures it.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..", "..");

function make(args: string[]): { status: number | null; stdout: string } {
  const r = spawnSync("make", ["--no-print-directory", ...args], { cwd: ROOT, encoding: "utf8" });
  return { status: r.status, stdout: r.stdout };
}

test("tsc is incremental, its build info kept in dist/", () => {
  const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, "tsconfig.json"), "utf8")) as { compilerOptions: { incremental?: boolean; outDir: string } };
  expect(tsconfig.compilerOptions.incremental).toBe(true);
  expect(fs.existsSync(path.join(ROOT, tsconfig.compilerOptions.outDir, "tsconfig.tsbuildinfo"))).toBe(true);
});

test("after a build, make build has nothing to do (make -q answers 0 and -n lists no command)", () => {
  expect(make(["-q", "build"]).status).toBe(0);
  expect(make(["-n", "build"]).stdout).not.toContain("tsc");
});

test("a changed source makes make build run tsc again", () => {
  // -W: as if the file had just been modified, without touching it.
  expect(make(["-q", "build", "-W", "provider/core/resource.ts"]).status).toBe(1);
  expect(make(["-n", "build", "-W", "client/core/transport.ts"]).stdout).toContain("tsc -p tsconfig.json");
});
