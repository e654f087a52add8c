/**
 * Words from the inside stay inside: users have no "seed" (the API documents the project was built
 * from), so no message, description or page they read says one (`(seed 02 §8)` in an error told
 * them nothing). Messages say the rule instead. Checked: every string in the code the package ships
 * and the local cloud (error messages, zod `.describe()` texts, which become schema.json and
 * docs/reference), schema.json, the generated SDK, and every page (README, docs/, examples,
 * templates, CHANGELOG). docs/api-assumptions.md, the readings of those documents, is for the
 * project's developers and keeps its references; so do code comments.
 *
 * One word per thing, for developers too: the API documents are "the specs" (`spec 02 §4.3`) in
 * every file, comments included, and the create key derives from the resource's URN (`URN_KEY`);
 * the local cloud is "the local cloud" (`local-cloud/`), with `pulumi-krcloud/emulator` kept only
 * as a published import path. ("seed" stays where it means what it means elsewhere: a random
 * generator's seed, a database's seed SQL.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";

const ROOT = path.join(__dirname, "..", "..", "..");
const WORD = /\bseed(s|ed|ing)?\b/i;

function filesUnder(dir: string, ext: RegExp): string[] {
  const out: string[] = [];
  const visit = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = path.join(rel, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules") visit(child);
      } else if (ext.test(e.name)) out.push(child);
    }
  };
  visit(dir);
  return out;
}

/** Every string literal and template text of a TypeScript file that says the word, with its line. */
function stringsSaying(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  const TEXTS = new Set([
    ts.SyntaxKind.StringLiteral,
    ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.TemplateHead,
    ts.SyntaxKind.TemplateMiddle,
    ts.SyntaxKind.TemplateTail,
  ]);
  const hits: string[] = [];
  // Open braces and template substitutions, innermost last: a `}` closing a substitution goes on
  // with the template's text, which the scanner reads only when asked.
  const open: ("brace" | "template")[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.OpenBraceToken) open.push("brace");
    else if (kind === ts.SyntaxKind.CloseBraceToken) {
      if (open.pop() === "template") {
        kind = scanner.reScanTemplateToken(false);
        if (kind === ts.SyntaxKind.TemplateMiddle) open.push("template");
      }
    } else if (kind === ts.SyntaxKind.TemplateHead) open.push("template");
    else if (kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) {
      // A regular expression literal where one can start (the scanner cannot tell without the parser).
      const re = scanner.reScanSlashToken();
      if (re === ts.SyntaxKind.RegularExpressionLiteral) continue;
    }
    if (TEXTS.has(kind) && WORD.test(scanner.getTokenValue())) {
      hits.push(`${file}:${text.slice(0, scanner.getTokenStart()).split("\n").length}: ${JSON.stringify(scanner.getTokenValue())}`);
    }
  }
  return hits;
}

test("no string of the shipped code or the local cloud says seed", () => {
  const code = ["index.ts", ...["client", "provider", "local-cloud", "drift", "bin", "sdk/nodejs"].flatMap((d) => filesUnder(d, /\.ts$/))];
  expect(code.length).toBeGreaterThan(100);
  expect(code.flatMap(stringsSaying)).toEqual([]);
});

test("no page, schema description or template says seed", () => {
  const pages = [
    "README.md",
    "CHANGELOG.md",
    "schema.json",
    ...filesUnder("docs", /\.md$/).filter((f) => f !== path.join("docs", "api-assumptions.md")),
    ...filesUnder("examples", /\.(md|ts|ya?ml|json)$/),
    ...filesUnder("templates", /./),
  ];
  const hits = pages.flatMap((f) =>
    fs
      .readFileSync(path.join(ROOT, f), "utf8")
      .split("\n")
      .flatMap((l, i) => (WORD.test(l) ? [`${f}:${i + 1}: ${l.trim()}`] : [])),
  );
  expect(hits).toEqual([]);
});

/** Every tracked-looking source and page of the tree (what git would list), without generated and installed folders. */
function treeFiles(): string[] {
  const skip = new Set(["node_modules", "dist", ".state", ".git", "python", "go", "java"]);
  const out: string[] = [];
  const visit = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = rel === "" ? e.name : path.join(rel, e.name);
      if (e.isDirectory()) {
        if (!skip.has(e.name) && !e.name.startsWith(".") && child !== path.join("docs", "reference")) visit(child);
      } else if (/\.(ts|js|mjs|go|sh|md|ya?ml|json)$|^Makefile$/.test(e.name) && e.name !== "package-lock.json") out.push(child);
    }
  };
  visit("");
  return out;
}

const SPEC_AS_SEED = /\bseeds? ([A-C]?\d|§|section)|\bSeed:|\b(the|The) seeds?\b(?! SQL)/;
const OLD_LOCAL_CLOUD_NAME = /emulator/i;

test("the API documents are the specs and the local cloud has one name, in every file of the tree", () => {
  const files = treeFiles();
  expect(files.length).toBeGreaterThan(300);
  const hits = files
    .filter((f) => f !== "CHANGELOG.md" && f !== path.join("tests", "unit", "words.test.ts"))
    .flatMap((f) =>
      fs
        .readFileSync(path.join(ROOT, f), "utf8")
        .split("\n")
        .flatMap((l, i) => {
          const rest = l.replace(/pulumi-krcloud\/emulator|"\.\/emulator"|"emulator": \[/g, "");
          return SPEC_AS_SEED.test(l) || OLD_LOCAL_CLOUD_NAME.test(rest) ? [`${f}:${i + 1}: ${l.trim()}`] : [];
        }),
    );
  expect(hits).toEqual([]);
});

test("the check finds the word where it is (a string, a template's middle, a page line)", () => {
  const dir = fs.mkdtempSync(path.join(ROOT, "dist", "words-"));
  try {
    const file = path.join(path.relative(ROOT, dir), "x.ts");
    fs.writeFileSync(path.join(ROOT, file), 'const a = "ok";\n// seed 02 in a comment\nconst b = `x ${a} at most 10 (seed 02 §8)`;\nconst c = "the Seed";\n');
    expect(stringsSaying(file)).toEqual([`${file}:3: " at most 10 (seed 02 §8)"`, `${file}:4: "the Seed"`]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
