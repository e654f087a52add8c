/**
 * docs/reference is what tools/gen-reference.ts makes of schema.json today: a page per resource
 * and function, none stale, none missing (regenerate with `make schema`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { generate, readmeWithServices, serviceTable, type Schema } from "../../tools/gen-reference";

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

test("the README's table of services is what tools/gen-reference.ts makes of schema.json (run `make schema`)", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8")) as Schema;
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  expect(readme).toContain(serviceTable(schema));
  expect(readmeWithServices(readme, schema)).toBe(readme);
  // Every resource, component and lookup is in it, by name and linked to its page.
  for (const token of [...Object.keys(schema.resources), ...Object.keys(schema.functions)]) {
    const [, mod, name] = token.split(":") as [string, string, string];
    expect([token, readme.includes(`[\`${name}\`](docs/reference/${mod}/${name}.md)`)]).toEqual([token, true]);
  }
});

test("a new type in the schema lands in the table of services; a service the client does not know is named", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8")) as Schema;
  const grown: Schema = { ...schema, resources: { ...schema.resources, "krcloud:kms:SpareKey": {} } };
  expect(serviceTable(grown)).toContain("[`SpareKey`](docs/reference/kms/SpareKey.md)");
  expect(() => serviceTable({ ...schema, functions: { ...schema.functions, "krcloud:widgets:getSpares": {} } })).toThrow(
    'krcloud:widgets:getSpares: service "widgets" is not in the client\'s SERVICE_TABLE',
  );
});

/** The section of `page` under the heading `### name`, up to the next heading of that level or above. */
function section(page: string, name: string): string | undefined {
  const start = page.indexOf(`\n### ${name}\n`);
  if (start < 0) return undefined;
  const rest = page.slice(start + 1);
  const end = rest.slice(4).search(/\n#{1,3} /);
  return end < 0 ? rest : rest.slice(0, end + 4);
}

test("every nested type of schema.json is documented with its fields (or its values), on the pages that use it", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8")) as {
    types: Record<string, { properties?: Record<string, unknown>; enum?: { value: unknown }[] }>;
  };
  const pages = listFiles(DOCS).map((rel) => fs.readFileSync(path.join(DOCS, rel), "utf8"));
  const undocumented: string[] = [];
  for (const [token, t] of Object.entries(schema.types)) {
    const name = token.split(":").pop()!;
    const sections = pages.map((p) => section(p, name)).filter((s): s is string => s !== undefined && s.includes(`Type \`${token}\``));
    if (sections.length === 0) undocumented.push(`${token}: no section`);
    for (const s of sections) {
      const items = t.enum ? t.enum.map((e) => `\`${String(e.value)}\``) : Object.keys(t.properties ?? {}).map((f) => `| \`${f}\` |`);
      for (const item of items) if (!s.includes(item)) undocumented.push(`${token}: ${item}`);
    }
  }
  expect(undocumented).toEqual([]);
});

test("the examples hold no placeholders: no <name>, no empty object where a nested type belongs", () => {
  for (const rel of listFiles(DOCS).filter((f) => f !== "README.md")) {
    const page = fs.readFileSync(path.join(DOCS, rel), "utf8");
    const example = /## Example\n[\s\S]*?```yaml\n([\s\S]*?)```/.exec(page)?.[1];
    expect([rel, typeof example]).toEqual([rel, "string"]);
    expect([rel, /<[A-Za-z]+>|\[\{\}\]|: \{\}\s*$/m.test(example!.replace(/arguments: \{\}/g, ""))]).toEqual([rel, false]);
    expect([rel, /^name: [a-z0-9-]+\nruntime: yaml\n/.test(example!)]).toEqual([rel, true]);
  }
});
