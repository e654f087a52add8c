/**
 * The layer table of docs/architecture.md ("What may import what") read as rules, and every import
 * of the repository's code held against them (tests/unit/layers.test.ts). The table is the input:
 * a row's first cell names its layer (the code spans before a parenthesis), the second what it may
 * import, the third what it must never import; code spans are what counts (`client/core`,
 * `provider/<service>`, `zod`), the prose around them says why. "everything" in the second cell lets a layer import anything its third cell
 * does not forbid.
 *
 * Patterns: `dir/` or `dir` (a folder of the repository and everything in it), `file.ts` (that
 * file), `dir/<service>` (each folder of `dir` but `core` and `plugin`: one layer per service,
 * which may import its own files but another service's only where a row names them), and npm
 * packages (`zod`, `@pulumi/pulumi` and any of its subpaths). Node's built-in modules are always
 * allowed. Imports are read with the TypeScript compiler: import and export declarations, `import
 * type`, `import("...")`, `require("...")` and `import x = require("...")`.
 */
import * as fs from "node:fs";
import { isBuiltin } from "node:module";
import * as path from "node:path";
import ts from "typescript";

export interface LayerRule {
  /** The row's layer patterns. */
  layers: string[];
  /** Patterns it may import; `everything` when the row says so. */
  may: string[] | "everything";
  /** Patterns it must never import. */
  never: string[];
  /** The row as written, for messages. */
  row: string;
}

/** An edge allowed against the table, with why (and until when). */
export interface KnownBreak {
  from: string;
  to: string;
  why: string;
}

/** The rules of the first table after the heading `## What may import what` in `markdown`. */
export function layerRules(markdown: string): LayerRule[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.trim() === "## What may import what");
  if (start < 0) throw new Error('no "## What may import what" heading');
  const rows: LayerRule[] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith("## ")) break;
    if (!line.startsWith("|")) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    const cells = line.split("|").slice(1, -1);
    if (cells.length !== 3) throw new Error(`a row of the layer table needs 3 cells: ${line}`);
    const [layer, may, never] = cells as [string, string, string];
    if (/^\s*-+\s*$/.test(layer) || layer.trim() === "layer") continue;
    // The layer cell's code spans before any parenthesis: what follows names, it is no layer.
    rows.push({ layers: spans(layer.split("(")[0]!), may: /\beverything\b/.test(may) ? "everything" : spans(may), never: spans(never), row: layer.trim() });
  }
  if (rows.length === 0) throw new Error("the layer table has no rows");
  return rows;
}

function spans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim());
}

/** What an import of one file names: a file of the repository, or a package. */
type Target = { file: string } | { pkg: string };

/** Every import specifier of a source text. */
export function importsOf(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
      out.push(n.moduleSpecifier.text);
    else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference) && ts.isStringLiteral(n.moduleReference.expression))
      out.push(n.moduleReference.expression.text);
    else if (ts.isCallExpression(n) && n.arguments.length === 1 && ts.isStringLiteralLike(n.arguments[0]!)) {
      const callee = n.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) out.push(n.arguments[0].text);
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) out.push(n.argument.literal.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The rules held against every source under `root`; one line per import that breaks them (or file no row covers). */
export function layerViolations(root: string, rules: LayerRule[], known: readonly KnownBreak[] = []): string[] {
  const tops = new Set(rules.flatMap((r) => r.layers.map((l) => l.split("/")[0]!)));
  const problems: string[] = [];
  for (const file of sourceFiles(root, tops)) {
    const rule = ruleOf(file, rules);
    if (rule === undefined) {
      problems.push(`${file}: no row of the layer table covers it`);
      continue;
    }
    for (const spec of importsOf(file, fs.readFileSync(path.join(root, file), "utf8"))) {
      const target = resolve(root, file, spec);
      if (target === undefined) continue;
      if ("file" in target && known.some((k) => k.from === file && k.to === target.file)) continue;
      const why = refusal(file, rule, target, rules, tops);
      if (why !== undefined) problems.push(`${file} imports ${"file" in target ? target.file : target.pkg} ("${spec}"): ${why}`);
    }
  }
  return problems;
}

/** Why `rule`'s layer may not import `target`; undefined when it may. */
function refusal(file: string, rule: LayerRule, target: Target, rules: LayerRule[], tops: Set<string>): string | undefined {
  if ("pkg" in target && isBuiltin(target.pkg)) return undefined;
  const named = (patterns: string[]) => patterns.find((p) => matches(p, target, tops));
  const forbidden = named(rule.never);
  if (forbidden !== undefined) return `${rule.row} must never import ${forbidden}`;
  if (rule.may === "everything") return undefined;
  if ("file" in target && sameLayer(file, target.file, rule, rules)) return undefined;
  if (named(rule.may) !== undefined) return undefined;
  return `${rule.row} may import only ${rule.may.join(", ")} (and its own files)`;
}

function sameLayer(from: string, to: string, rule: LayerRule, rules: LayerRule[]): boolean {
  if (ruleOf(to, rules) !== rule) return false;
  // One layer per service: its own folder only.
  const service = rule.layers.find((l) => l.endsWith("/<service>") && serviceOf(l, from) !== undefined);
  return service === undefined || serviceOf(service, from) === serviceOf(service, to);
}

/** The row covering `file`: the most specific pattern wins (a file, then a service folder, then the longest folder). */
function ruleOf(file: string, rules: LayerRule[]): LayerRule | undefined {
  let best: { rule: LayerRule; score: number } | undefined;
  for (const rule of rules) {
    for (const l of rule.layers) {
      const score = l.endsWith(".ts")
        ? l === file
          ? 10_000
          : -1
        : l.endsWith("/<service>")
          ? serviceOf(l, file)
            ? 5_000
            : -1
          : under(l, file)
            ? l.length
            : -1;
      if (score >= 0 && (best === undefined || score > best.score)) best = { rule, score };
    }
  }
  return best?.rule;
}

/** The service folder `file` is in, for a `dir/<service>` pattern. */
function serviceOf(pattern: string, file: string): string | undefined {
  const dir = pattern.slice(0, -"/<service>".length);
  if (!file.startsWith(`${dir}/`)) return undefined;
  const rest = file.slice(dir.length + 1).split("/");
  return rest.length > 1 && rest[0] !== "core" && rest[0] !== "plugin" ? rest[0] : undefined;
}

function under(dir: string, file: string): boolean {
  const d = dir.replace(/\/$/, "");
  return file === d || file.startsWith(`${d}/`);
}

function matches(pattern: string, target: Target, tops: Set<string>): boolean {
  const isPath = tops.has(pattern.split("/")[0]!);
  if ("pkg" in target) return !isPath && (target.pkg === pattern || target.pkg.startsWith(`${pattern}/`));
  if (!isPath) return false;
  if (pattern.endsWith(".ts")) return target.file === pattern;
  if (pattern.endsWith("/<service>")) return serviceOf(pattern, target.file) !== undefined;
  return under(pattern, target.file);
}

/** The repository file or the package an import names; undefined for what is no code of ours (package.json, schema.json). */
function resolve(root: string, from: string, spec: string): Target | undefined {
  if (!spec.startsWith(".")) return { pkg: spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.startsWith("node:") ? spec : spec };
  const base = path.normalize(path.join(path.dirname(from), spec));
  if (/\.json$/.test(base) || base.startsWith("..")) return undefined;
  const candidates = [base, `${base}.ts`, base.replace(/\.js$/, ".ts"), `${base}/index.ts`, `${base}.js`, `${base}/index.js`];
  const file = candidates.find((c) => fs.existsSync(path.join(root, c)) && fs.statSync(path.join(root, c)).isFile());
  if (file === undefined) throw new Error(`${from}: cannot resolve the import "${spec}"`);
  return { file: file.split(path.sep).join("/") };
}

const SKIP = new Set(["node_modules", "dist", "programs", ".state"]);

/** The code under the table's top-level folders (and top-level files), repository-relative. */
function sourceFiles(root: string, tops: Set<string>): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    const abs = path.join(root, rel);
    if (!fs.existsSync(abs)) return;
    if (fs.statSync(abs).isFile()) {
      if (/\.(ts|js|mjs)$/.test(rel) && !rel.endsWith(".d.ts")) out.push(rel);
      return;
    }
    for (const e of fs.readdirSync(abs)) if (!SKIP.has(e)) walk(rel === "" ? e : `${rel}/${e}`);
  };
  for (const t of tops) walk(t);
  return out.sort();
}
