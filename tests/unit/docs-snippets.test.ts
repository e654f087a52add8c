/**
 * The TypeScript blocks of README.md and examples/<x>/README.md compile as they are, each as a
 * module of its own, against the package's declarations (dist/*.d.ts, as an installed
 * pulumi-krcloud has them) with `strict`: no undeclared variable (the README's cache snippet used
 * `config` and `results` without declaring them), no property the package does not have.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, "..", "..", "..");

interface Snippet {
  file: string;
  line: number;
  text: string;
}

function tsBlocks(file: string): Snippet[] {
  const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) {
      if (/^```/.test(lines[i]!)) i = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
      continue;
    }
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    out.push({ file, line: i + 1, text: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return out;
}

const files = ["README.md", ...fs.readdirSync(path.join(ROOT, "examples")).map((e) => path.join("examples", e, "README.md"))].filter((f) =>
  fs.existsSync(path.join(ROOT, f)),
);

test("every TypeScript block of the READMEs type-checks against the package", () => {
  const snippets = files.flatMap(tsBlocks);
  expect(snippets.length).toBeGreaterThanOrEqual(3);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-snippets-"));
  try {
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    const names = snippets.map((s, i) => {
      const name = path.join(dir, `snippet-${i}.ts`);
      fs.writeFileSync(name, s.text);
      return name;
    });
    const program = ts.createProgram(names, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      // As the template's and the examples' tsconfig.json (TypeScript 6 refuses Node10 resolution).
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      moduleDetection: ts.ModuleDetectionKind.Force,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [path.join(ROOT, "node_modules", "@types")],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const i = d.file ? names.indexOf(d.file.fileName) : -1;
      const where =
        i >= 0 && d.start !== undefined ? `${snippets[i]!.file}:${snippets[i]!.line + 1 + d.file!.getLineAndCharacterOfPosition(d.start).line}` : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
    expect(problems).toEqual([]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
