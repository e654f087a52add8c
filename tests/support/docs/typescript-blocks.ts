/**
 * TypeScript as a user's project meets it: the ```ts blocks of the documentation, and sources
 * compiled against the package's declarations (dist/*.d.ts, as an installed pulumi-krcloud has
 * them) with `strict`. For docs-snippets.test.ts and args-types.test.ts (tests/unit) and
 * typescript-versions.test.ts (tests/engine).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as ts from "typescript";

export interface Snippet {
  /** The markdown file, relative to the repository. */
  file: string;
  /** The line of the block's opening fence (1-based). */
  line: number;
  text: string;
}

/** The ```ts (or ```typescript) blocks of `file` (relative to `root`), in order. */
export function tsBlocks(root: string, file: string): Snippet[] {
  const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
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

/**
 * A program of `sources` (file name -> text), each a module, written into a new temp directory
 * whose node_modules is the repository's (so `pulumi-krcloud` is this package): strict, no emit,
 * ES2022, Node's types; `module` says how imports resolve. Returns the program and its files in the
 * order of `sources`. The directory is removed once the program is built: TypeScript has read every
 * file and resolved every import by then, and checks from memory.
 */
export function compileSources(
  root: string,
  prefix: string,
  sources: Record<string, string>,
  module: Pick<ts.CompilerOptions, "module" | "moduleResolution">,
): { program: ts.Program; names: string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
    const names = Object.entries(sources).map(([name, text]) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      return file;
    });
    const program = ts.createProgram(names, {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      ...module,
      moduleDetection: ts.ModuleDetectionKind.Force,
      esModuleInterop: true,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [path.join(root, "node_modules", "@types")],
    });
    return { program, names };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
