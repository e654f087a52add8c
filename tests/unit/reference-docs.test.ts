/**
 * docs/reference is what tools/gen-reference.ts makes of schema.json today: a page per resource
 * and function, none stale, none missing (regenerate with `make schema`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { generate } from "../../tools/gen-reference";

const ROOT = path.join(__dirname, "..", "..", "..");
const DOCS = path.join(ROOT, "docs", "reference");

function listFiles(dir: string, base = dir): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))]));
}

test("docs/reference matches schema.json (run `make schema` after changing a definition)", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8"));
  const expected = generate(schema);
  expect(listFiles(DOCS).sort()).toEqual([...expected.keys()].sort());
  for (const [rel, text] of expected) expect([rel, fs.readFileSync(path.join(DOCS, rel), "utf8") === text]).toEqual([rel, true]);
  // Every resource and function has its page.
  expect(expected.size).toBe(Object.keys(schema.resources).length + Object.keys(schema.functions).length + 1);
});
