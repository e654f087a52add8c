/**
 * No function in provider/core over 60 lines (code-review-turn5 §9.1): every resource of both doors
 * passes through the core, so each step of it must be readable by name and at a glance. Measured
 * with the TypeScript compiler's own parse of the sources, so it stays true as the core grows.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const ROOT = path.join(__dirname, "..", "..", "..");
const LIMIT = 60;

interface Measured {
  where: string;
  name: string;
  lines: number;
}

/** Every function with a body in one source text (declarations, methods, accessors, arrows, expressions), with its length in lines. */
export function functionLengths(file: string, text: string): Measured[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Measured[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ where: `${file}:${first + 1}`, name: nameOf(node, sf), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function nameOf(node: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(sf);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name !== undefined) return parent.name.getText(sf);
  return ts.SyntaxKind[node.kind];
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : e.name.endsWith(".ts") && !e.name.endsWith(".d.ts") ? [p] : [];
  });
}

test(`no function in provider/core is over ${LIMIT} lines`, () => {
  const files = sources(path.join(ROOT, "provider", "core"));
  expect(files.length).toBeGreaterThan(20);
  const measured = files.flatMap((f) => functionLengths(path.relative(ROOT, f), fs.readFileSync(f, "utf8")));
  expect(measured.map((m) => m.name)).toEqual(expect.arrayContaining(["buildProvider", "check", "identityOf"]));
  expect(measured.filter((m) => m.lines > LIMIT).map((m) => `${m.where} ${m.name}: ${m.lines} lines`)).toEqual([]);
});

test("the measure counts a function from its first line to its last, nested ones apart", () => {
  const body = Array.from({ length: 59 }, (_, i) => `  const v${i} = ${i};`).join("\n");
  const text = `/** doc */\nexport function long(): void {\n${body}\n  const inner = () => {\n    return 1;\n  };\n}\n`;
  const m = functionLengths("x.ts", text);
  expect(m).toEqual([
    { where: "x.ts:2", name: "long", lines: 64 },
    { where: "x.ts:62", name: "inner", lines: 3 },
  ]);
});
