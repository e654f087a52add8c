/**
 * The test runner as `make test` uses it (jest.config.js and tests/support/summary-reporter.js,
 * copied into a scratch project with one passing and one failing test):
 * - the summary line "N passed, N failed" is the very last line of the run, also when tests fail
 *   (jest's own summary reporter used to print the failures and "Test Suites: ..." after it);
 * - a copy of the package under .state/ (what `make plugin` leaves there, with a package.json of
 *   the same name) causes no jest-haste-map naming collision.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

jest.setTimeout(60_000);

const ROOT = path.join(__dirname, "..", "..", "..");

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-jest-config-"));
  const write = (rel: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  fs.copyFileSync(path.join(ROOT, "jest.config.js"), path.join(dir, "jest.config.js"));
  write("tests/support/summary-reporter.js", fs.readFileSync(path.join(ROOT, "tests", "support", "summary-reporter.js"), "utf8"));
  write("package.json", JSON.stringify({ name: "pulumi-krcloud", private: true }));
  write(".state/plugin/krcloud-v0.1.0/package.json", JSON.stringify({ name: "pulumi-krcloud", version: "0.1.0" }));
  write(
    "dist/tests/sample.test.js",
    ['test("passes", () => {});', 'test("fails", () => { console.error("some output"); expect(1).toBe(2); });', 'test.skip("skipped", () => {});', ""].join(
      "\n",
    ),
  );
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test("with a failing test, the last line is the summary, and there is no haste-map collision", () => {
  // stdout and stderr into one file, in the order they were written, as on a terminal or in CI's log.
  const log = path.join(dir, "run.log");
  const fd = fs.openSync(log, "w");
  const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules", ".bin", "jest"), "--ci"], { cwd: dir, stdio: ["ignore", fd, fd] });
  fs.closeSync(fd);
  const output = fs.readFileSync(log, "utf8");
  expect(r.status).toBe(1);
  expect(output).toContain("Test Suites: 1 failed");
  expect(output.trimEnd().split("\n").pop()).toBe("1 passed, 1 failed, 1 skipped");
  expect(fs.readFileSync(path.join(dir, ".state", "test-summary.txt"), "utf8")).toBe("1 passed, 1 failed, 1 skipped\n");
  expect(output).not.toContain("naming collision");
});
