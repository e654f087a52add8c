/**
 * Where a stack's resources are declared: the program file that code scanning (SARIF) and workflow
 * annotations point at, and the line that names each resource. Read from Pulumi.yaml the way the
 * language hosts find their entry point; a name that cannot be found points at line 1.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";

export interface ProjectFile {
  /** `name:` of Pulumi.yaml. */
  name?: string;
  /** `runtime:` (`nodejs`, `yaml`, `python`, `go`, ...). */
  runtime?: string;
  main?: string;
}

export function projectFileOf(workDir: string): { file: string; project: ProjectFile } | undefined {
  for (const f of ["Pulumi.yaml", "Pulumi.yml"]) {
    const file = path.join(workDir, f);
    if (!fs.existsSync(file)) continue;
    let doc: Record<string, unknown> = {};
    try {
      doc = (parseYaml(fs.readFileSync(file, "utf8")) as Record<string, unknown> | null) ?? {};
    } catch {
      // The CLI reports a broken Pulumi.yaml itself; here it only steers where reports point.
    }
    const runtime = typeof doc.runtime === "string" ? doc.runtime : (doc.runtime as { name?: unknown } | undefined)?.name;
    return {
      file,
      project: {
        name: typeof doc.name === "string" ? doc.name : undefined,
        runtime: typeof runtime === "string" ? runtime : undefined,
        main: typeof doc.main === "string" ? doc.main : undefined,
      },
    };
  }
  return undefined;
}

const ENTRY_POINTS: Readonly<Record<string, readonly string[]>> = {
  nodejs: ["index.ts", "index.js", "main.ts", "main.js"],
  python: ["__main__.py"],
  go: ["main.go"],
  dotnet: ["Program.cs", "Program.fs"],
  java: ["src/main/java/myproject/App.java"],
  yaml: ["Main.yaml", "Pulumi.yaml"],
};

/** The absolute path of the file that declares the program's resources (Pulumi.yaml at worst). */
export function programFile(workDir: string): string {
  const found = projectFileOf(workDir);
  if (!found) return path.join(workDir, "Pulumi.yaml");
  const { runtime, main } = found.project;
  const base = main ? path.resolve(workDir, main) : workDir;
  if (main && fs.existsSync(base) && fs.statSync(base).isFile()) return base;
  if (runtime === "yaml" && !fs.existsSync(path.join(base, "Main.yaml"))) return found.file;
  if (runtime === "nodejs") {
    const pkgMain = packageMain(base);
    // A compiled entry (bin/index.js) is reported at its TypeScript source when there is one.
    if (pkgMain) {
      const ts = pkgMain.replace(/\.js$/, ".ts");
      for (const f of [ts, pkgMain]) if (fs.existsSync(path.join(base, f))) return path.join(base, f);
    }
  }
  for (const f of ENTRY_POINTS[runtime ?? ""] ?? []) if (fs.existsSync(path.join(base, f))) return path.join(base, f);
  return found.file;
}

function packageMain(dir: string): string | undefined {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { main?: unknown };
    return typeof pkg.main === "string" ? pkg.main : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The 1-based line declaring the resource `name`: where its name is passed to a constructor
 * (`new Bucket("site"`, Python's `Bucket("site"`, Go's `NewBucket(ctx, "site"`), else a YAML
 * `resources:` key, else any line (comments aside) holding it as a string literal. Undefined when
 * it is not there literally (a name built at run time).
 */
export function declarationLine(text: string, name: string): number | undefined {
  const lines = text.split("\n");
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const quoted = `(["'\`])${esc}\\1`;
  const comment = /^\s*(\/\/|\*|\/\*|#)/;
  const tries = [new RegExp(`\\(\\s*(?:ctx,\\s*)?${quoted}`), new RegExp(`^\\s+["']?${esc}["']?:\\s*(#.*)?$`), new RegExp(quoted)];
  for (const re of tries) {
    const i = lines.findIndex((l) => !comment.test(l) && re.test(l));
    if (i >= 0) return i + 1;
  }
  return undefined;
}

/**
 * The directory file paths in reports are relative to: the repository's root (the nearest
 * directory above `workDir` holding `.git`), which is what GitHub code scanning expects, else the
 * current directory.
 */
export function sourceRootOf(workDir: string): string {
  for (let dir = path.resolve(workDir); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

export function relativePosix(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join("/");
}
