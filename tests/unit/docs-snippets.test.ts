/**
 * The TypeScript blocks of README.md, examples/<x>/README.md and docs/moving-to-bucket-folder.md compile as they are, each as a
 * module of its own, against the package's declarations (dist/*.d.ts, as an installed
 * pulumi-krcloud has them) with `strict`: no undeclared variable (the README's cache snippet used
 * `config` and `results` without declaring them), no property the package does not have.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as ts from "typescript";
import { compileSources, tsBlocks } from "../support/docs/typescript-blocks";

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, "..", "..", "..");

const files = [
  "README.md",
  // The move's page shows the program before and after.
  path.join("docs", "moving-to-bucket-folder.md"),
  ...fs.readdirSync(path.join(ROOT, "examples")).map((e) => path.join("examples", e, "README.md")),
].filter((f) => fs.existsSync(path.join(ROOT, f)));

test("every TypeScript block of the READMEs type-checks against the package", () => {
  const snippets = files.flatMap((f) => tsBlocks(ROOT, f));
  expect(snippets.length).toBeGreaterThanOrEqual(3);
  const { program, names } = compileSources(
    ROOT,
    "krcloud-snippets-",
    Object.fromEntries(snippets.map((s, i) => [`snippet-${i}.ts`, s.text])),
    // As the template's and the examples' tsconfig.json (TypeScript 6 refuses Node10 resolution).
    { module: ts.ModuleKind.Node16, moduleResolution: ts.ModuleResolutionKind.Node16 },
  );
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const i = d.file ? names.indexOf(d.file.fileName) : -1;
    const where = i >= 0 && d.start !== undefined ? `${snippets[i]!.file}:${snippets[i]!.line + 1 + d.file!.getLineAndCharacterOfPosition(d.start).line}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
  expect(problems).toEqual([]);
});
