/**
 * Pulumi programs a test writes from text, for the engine tests and for the unit tests that read a
 * program without running it (krcloud-drift's declaration lines): no engine, no cloud, so that a
 * unit test can import it without starting either.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Writes `files` (a path relative to `dir` -> its text) under `dir`, making each file's folder. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

/**
 * A TypeScript program as the README shows one: Pulumi.yaml (no `main`: Pulumi compiles index.ts)
 * and index.ts, `pulumi-krcloud` (and `@pulumi/pulumi` when asked) imported before `lines`.
 */
export function tsProgram(project: string, lines: string[], opts: { pulumi?: boolean } = {}): Record<string, string> {
  const imports = [...(opts.pulumi ? ['import * as pulumi from "@pulumi/pulumi";'] : []), 'import * as krcloud from "pulumi-krcloud";'];
  return {
    "Pulumi.yaml": `name: ${project}\nruntime: nodejs\n`,
    "index.ts": [...imports, "", ...lines, ""].join("\n"),
  };
}
