/**
 * Words from the inside stay inside: users have no "seed" (the API documents the project was built
 * from), so no message, description or page they read says one (`(seed 02 §8)` in an error told
 * them nothing). Messages say the rule instead. Checked: every string in the code the package ships
 * and the local cloud (error messages, zod `.describe()` texts, which become schema.json and
 * docs/reference), schema.json, the generated SDK, and every page (README, docs/, examples,
 * templates, CHANGELOG). docs/api-assumptions.md, the readings of those documents, is for the
 * project's developers and keeps its references; so do code comments.
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
  const code = ["index.ts", ...["sdk", "provider", "emulator", "drift", "bin", "native"].flatMap((d) => filesUnder(d, /\.ts$/))];
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
