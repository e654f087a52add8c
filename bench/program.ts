/** The one-file Node.js Pulumi programs the benchmarks deploy. */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../tests/harness/engine";

/**
 * Writes the project `name` with `source` as its index.js into `dir` (created) and returns `dir`.
 * With `linkModules`, the repository's node_modules is linked beside it, so that the program runs
 * where it is written instead of from a sandbox copy.
 */
export function writeNodeProgram(dir: string, name: string, source: string, o: { linkModules?: boolean } = {}): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, private: true, main: "index.js" }));
  fs.writeFileSync(path.join(dir, "index.js"), source);
  if (o.linkModules) fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}
