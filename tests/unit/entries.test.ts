/**
 * Every process entry the benchmarks and tests start by path resolves (tests/harness/entries.ts),
 * and none is built by hand elsewhere: a moved file fails here, in seconds, not minutes into the
 * study or test that starts it.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { builtEntry, entry, ENTRIES, type EntryName } from "../harness/entries";
import { REPO_ROOT } from "../harness/engine";

test.each(Object.keys(ENTRIES) as EntryName[])("%s resolves to its built file, and its source exists", (name) => {
  const file = entry(name);
  expect(fs.existsSync(file)).toBe(true);
  expect(fs.existsSync(path.join(REPO_ROOT, `${ENTRIES[name]}.ts`))).toBe(true);
});

test("a missing entry fails naming the file, and says whether a build or the table is what is missing", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-entries-"));
  try {
    fs.mkdirSync(path.join(root, "bench"));
    fs.writeFileSync(path.join(root, "bench", "study.ts"), "");
    expect(() => builtEntry("bench/study", "study", root)).toThrow("process entry study: dist/bench/study.js does not exist: run `make build`");
    expect(() => builtEntry("tests/support/local-cloud/provider-process", "providerProcess", root)).toThrow(
      "process entry providerProcess: dist/tests/support/local-cloud/provider-process.js does not exist: its source tests/support/local-cloud/provider-process.ts does not exist either: it moved or was removed; update ENTRIES in tests/harness/entries.ts",
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

/**
 * Paths to a built `.js` of this repository put together by hand: a `join` into `dist` from the
 * repository (`REPO_ROOT`, `ROOT`), or from `__dirname`, of a `.js` name in one of the folders
 * entries live in (ENTRIES' folders, `harness`, `support`). A copy installed elsewhere
 * (`node_modules`, another root), a source read as text, a file that is no entry (`dist/index.js`
 * checked to exist) and `require` of a module are not process entries.
 */
export function handBuiltEntries(file: string, text: string): string[] {
  const folders = new Set([...Object.values(ENTRIES).map((e) => e.split("/")[0]!), "harness", "support"]);
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && /(^|\.)join$/.test(node.expression.getText(sf)) && !isRequireArgument(node)) {
      const args = node.arguments;
      const first = args[0];
      const last = args[args.length - 1];
      const segments = args.flatMap((a) => (ts.isStringLiteral(a) ? a.text.split("/") : []));
      // This build: from `__dirname` (tests run from dist/), or from the repository into `dist`.
      const built =
        first !== undefined &&
        ts.isIdentifier(first) &&
        (first.text === "__dirname" || (["REPO_ROOT", "ROOT"].includes(first.text) && segments.includes("dist")));
      if (
        built &&
        last !== undefined &&
        ts.isStringLiteral(last) &&
        /\.js$/.test(last.text) &&
        !segments.includes("node_modules") &&
        segments.some((s) => folders.has(s))
      ) {
        found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: ${node.getText(sf)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function isRequireArgument(node: ts.Node): boolean {
  const parent = node.parent;
  return ts.isCallExpression(parent) && ts.isIdentifier(parent.expression) && parent.expression.text === "require";
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "programs" || e.name === "node_modules" ? [] : sources(p);
    return e.name.endsWith(".ts") ? [p] : [];
  });
}

test("bench/ and tests/ start no process by a path built by hand: each goes through entry()", () => {
  const files = ["bench", "tests"].flatMap((d) => sources(path.join(REPO_ROOT, d)));
  expect(files.length).toBeGreaterThan(100);
  const found = files.flatMap((f) => handBuiltEntries(path.relative(REPO_ROOT, f), fs.readFileSync(f, "utf8")));
  expect(found).toEqual([]);
});

test("the check finds the defect it was written for (bench/index.ts's upload, before the fix)", () => {
  const text = 'const script = path.join(__dirname, "..", "tests", "support", "local-cloud", "provider-process.js");\n';
  expect(handBuiltEntries("bench/index.ts", text)).toHaveLength(1);
  expect(handBuiltEntries("x.ts", 'require(path.join(REPO_ROOT, "dist", "index.js"));\n')).toEqual([]);
  expect(handBuiltEntries("x.ts", 'join(__dirname, "../harness/provider-process.js");\n')).toHaveLength(1);
  expect(handBuiltEntries("x.ts", 'path.join(REPO_ROOT, "dist", "bin", "krcloud-drift.js");\n')).toHaveLength(1);
  expect(handBuiltEntries("x.ts", 'path.join(dir, "node_modules", "pulumi-krcloud", "dist", "bin", "krcloud-drift.js");\n')).toEqual([]);
  expect(handBuiltEntries("x.ts", 'path.join(installed, "dist", "provider", "runtime.js");\n')).toEqual([]);
  expect(handBuiltEntries("x.ts", 'path.join(ROOT, "dist", "index.js");\n')).toEqual([]);
  expect(handBuiltEntries("x.ts", 'path.join(ROOT, "tests", "support", "summary-reporter.js");\n')).toEqual([]);
});
