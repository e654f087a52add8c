/**
 * Reference docs from schema.json: docs/reference/<module>/<Type>.md per resource and function
 * (an example program, inputs, outputs, the fields of every nested type they use, which changes
 * replace, import, timeouts) and docs/reference/README.md; and the README's table of services,
 * between its markers.
 *
 *   node dist/tools/gen-reference.js [schema.json] [out dir] [converted examples dir]
 *
 * (make schema runs it, with the examples scripts/gen-examples.sh converts to TypeScript, Python
 * and Go in a temporary folder; without that folder, the pages keep the conversions they show.)
 *
 * A unit test regenerates them and compares, so they never drift from the schema; an engine test
 * (tests/engine/docs-reference.test.ts) runs every example through `pulumi preview` with the
 * native plugin against the local cloud. Each example is a whole Pulumi YAML program in the
 * definition's folder, `provider/<module>/<noun>.example.yaml` (a lookup's: the function's name in
 * kebab-case, `get-bucket.example.yaml`), its leading comment the note the page shows above it;
 * `provider/<module>/example-fixtures.yaml` lists what a module's examples take to exist in the
 * project. Generation fails naming the file of every resource and function without one.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { SERVICE_TITLE, SERVICES } from "../client/core";
import { findDefinition } from "../provider/registry";

/**
 * What the examples take to exist already in the project (a real project has its KMS keys and
 * buckets made elsewhere): KMS keys (made through the local cloud's control API with their
 * `type`), and a bucket and its object (through the object storage API).
 */
export type ExampleFixture =
  | { kind: "key"; id: string; type: "symmetric" | "asymmetric" | "mac"; what: string }
  | { kind: "bucket"; id: string; what: string }
  | { kind: "object"; id: string; content: string; what: string };

/** The repository this file belongs to (the examples are sources: they are not in dist/). */
export function repoRoot(from = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "provider")) && fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no repository above ${from}`);
  }
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c, i: number) => (i ? "-" : "") + c.toLowerCase());

/** The example file of a resource or function token, relative to the repository: `provider/cache/instance-set.example.yaml`. */
export function exampleFile(token: string): string {
  const [, mod, name] = token.split(":") as [string, string, string];
  return `provider/${mod}/${kebab(name)}.example.yaml`;
}

/** Every example file of the repository, relative to it. */
export function exampleFiles(root = repoRoot()): string[] {
  const provider = path.join(root, "provider");
  return fs
    .readdirSync(provider, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => fs.readdirSync(path.join(provider, e.name)).map((f) => `provider/${e.name}/${f}`))
    .filter((f) => f.endsWith(".example.yaml"))
    .sort();
}

/** An example: the program (a whole Pulumi.yaml) and the note its leading comment holds, if any. */
export function readExample(token: string, root = repoRoot()): { program: string; note?: string } {
  const file = exampleFile(token);
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, file), "utf8");
  } catch {
    throw new Error(`${token} has no example: add ${file}, a Pulumi YAML program using it (see docs/contributing/new-resource.md)`);
  }
  const lines = text.split("\n");
  const comment = lines.findIndex((l) => !l.startsWith("#"));
  const note = lines
    .slice(0, comment)
    .map((l) => l.replace(/^# ?/, ""))
    .join(" ");
  return { program: lines.slice(comment).join("\n"), ...(note ? { note } : {}) };
}

/** What every module's examples take to exist in the project, module by module (`example-fixtures.yaml`). */
export function exampleFixtures(root = repoRoot()): ExampleFixture[] {
  const provider = path.join(root, "provider");
  return fs
    .readdirSync(provider)
    .sort()
    .map((mod) => path.join(provider, mod, "example-fixtures.yaml"))
    .filter((f) => fs.existsSync(f))
    .flatMap((f) => parseYaml(fs.readFileSync(f, "utf8")) as ExampleFixture[]);
}

type Json = Record<string, unknown>;
interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  additionalProperties?: PropertySpec;
  oneOf?: PropertySpec[];
  description?: string;
  default?: unknown;
  secret?: boolean;
  replaceOnChanges?: boolean;
}
interface ObjectSpec {
  description?: string;
  properties?: Record<string, PropertySpec>;
  required?: string[];
}
interface TypeSpec extends ObjectSpec {
  type?: string;
  enum?: { value: unknown; description?: string; name?: string }[];
}
interface ResourceSpec extends ObjectSpec {
  inputProperties?: Record<string, PropertySpec>;
  requiredInputs?: string[];
  listInputs?: ObjectSpec;
  isComponent?: boolean;
}
interface FunctionSpec {
  description?: string;
  inputs?: ObjectSpec;
  outputs?: ObjectSpec & PropertySpec;
}
export interface Schema {
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  types: Record<string, TypeSpec & Json>;
}

// First line of every page: a reader who opens one in an editor learns to regenerate, not edit (an
// HTML comment, so the rendered page does not show it).
const BANNER = "<!-- Generated from schema.json by tools/gen-reference.ts (`make schema`): do not edit. -->\n\n";

const refName = (ref: string): string => ref.split(":").pop() ?? ref;
const typeToken = (ref: string): string | undefined => (ref.startsWith("#/types/") ? ref.slice("#/types/".length) : undefined);
const anchor = (name: string): string => name.toLowerCase();

function typeName(p: PropertySpec | undefined): string {
  if (!p) return "any";
  if (p.$ref) return p.$ref === "pulumi.json#/Any" ? "any" : `[${refName(p.$ref)}](#${anchor(refName(p.$ref))})`;
  if (p.oneOf) return p.oneOf.map(typeName).join(" \\| ");
  if (p.type === "array") return `${typeName(p.items)}[]`;
  if (p.type === "object" && p.additionalProperties) return `map<${typeName(p.additionalProperties)}>`;
  return p.type ?? "any";
}

const cell = (s: string | undefined): string => (s ?? "").replace(/\|/g, "\\|").replace(/\n+/g, " ");

function propertyTable(props: Record<string, PropertySpec> | undefined, required: readonly string[], withReplace: boolean): string {
  const names = Object.keys(props ?? {}).sort();
  if (names.length === 0) return "None.\n";
  const head = withReplace
    ? "| name | type | required | replaces | description |\n|---|---|---|---|---|"
    : "| name | type | required | description |\n|---|---|---|---|";
  const rows = names.map((n) => {
    const p = props![n]!;
    const flags = [p.secret ? "secret" : "", p.default !== undefined ? `default \`${JSON.stringify(p.default)}\`` : ""].filter(Boolean).join("; ");
    const desc = cell([p.description, flags ? `(${flags})` : ""].filter(Boolean).join(" "));
    const req = required.includes(n) ? "yes" : "";
    return withReplace
      ? `| \`${n}\` | ${typeName(p)} | ${req} | ${p.replaceOnChanges ? "yes" : ""} | ${desc} |`
      : `| \`${n}\` | ${typeName(p)} | ${req} | ${desc} |`;
  });
  return `${head}\n${rows.join("\n")}\n`;
}

/** Every schema type reached from `props`, through nested types too, in the order first met. */
function reachedTypes(schema: Schema, props: (PropertySpec | undefined)[]): string[] {
  const seen: string[] = [];
  const visit = (p: PropertySpec | undefined): void => {
    if (!p) return;
    const token = p.$ref ? typeToken(p.$ref) : undefined;
    if (token && !seen.includes(token)) {
      const t = schema.types[token];
      if (!t) throw new Error(`schema.json: ${p.$ref} is not among its types`);
      seen.push(token);
      for (const q of Object.values(t.properties ?? {})) visit(q);
    }
    visit(p.items);
    visit(p.additionalProperties);
    for (const q of p.oneOf ?? []) visit(q);
  };
  for (const p of props) visit(p);
  return seen;
}

function typesSection(schema: Schema, tokens: string[]): string {
  if (tokens.length === 0) return "";
  const sections = [...tokens]
    .sort((a, b) => refName(a).localeCompare(refName(b)))
    .map((token) => {
      const t = schema.types[token]!;
      const name = refName(token);
      const body = t.enum
        ? `One of: ${t.enum.map((e) => `\`${String(e.value)}\`${e.description ? ` (${e.description})` : ""}`).join(", ")}.\n`
        : propertyTable(t.properties, t.required ?? [], false);
      return `### ${name}\n\n${t.description ? `${cell(t.description)}\n\n` : ""}Type \`${token}\`.\n\n${body}`;
    });
  return `## Types\n\nThe nested types above, with their fields.\n\n${sections.join("\n")}`;
}

/** The languages go/codegen/exgen converts each YAML example to (scripts/gen-examples.sh): heading, directory, file, fence. */
export const CONVERTED_LANGUAGES = [
  { name: "TypeScript", dir: "typescript", file: "index.ts", fence: "ts", sdk: "`pulumi-krcloud/native`" },
  { name: "Python", dir: "python", file: "__main__.py", fence: "python", sdk: "the `pulumi_krcloud` wheel" },
  { name: "Go", dir: "go", file: "main.go", fence: "go", sdk: "the Go SDK module `github.com/krcloud/pulumi-krcloud/sdk/go`" },
] as const;

/** One language of a converted example: its code, or why it is not shown (the compiler's first error). */
export type ConvertedProgram = { code: string } | { error: string };
/** Where the pages take each example's conversions from (a language left out: no section for it). */
export type Converted = (token: string, language: ConvertedLanguage) => ConvertedProgram | undefined;
type ConvertedLanguage = (typeof CONVERTED_LANGUAGES)[number];

/** Where a token's converted example lies in what scripts/gen-examples.sh writes: `cache/instance-set`. */
function convertedExampleDir(token: string): string {
  const [, mod, name] = token.split(":") as [string, string, string];
  return `${mod}/${kebab(name)}`;
}

/**
 * The conversions scripts/gen-examples.sh wrote into `dir` (a temporary folder: `make schema`, and
 * the docs-examples test; they are kept in the pages only): `<module>/<noun>/<language dir>/<file>`,
 * or `go/NOT-COMPILED.txt` with the error where the Go does not compile.
 */
export function convertedFromDir(dir: string): Converted {
  return (token, l) => {
    const file = path.join(dir, convertedExampleDir(token), l.dir, l.file);
    if (fs.existsSync(file)) return { code: fs.readFileSync(file, "utf8").trimEnd() };
    const notCompiled = path.join(dir, convertedExampleDir(token), l.dir, "NOT-COMPILED.txt");
    if (fs.existsSync(notCompiled)) return { error: fs.readFileSync(notCompiled, "utf8").trim() };
    return undefined;
  };
}

/** The conversions the generated pages in `pagesDir` (docs/reference) show, read back from them. */
export function convertedFromPages(pagesDir: string): Converted {
  return (token, l) => {
    const [, mod, name] = token.split(":") as [string, string, string];
    const page = path.join(pagesDir, mod, `${name}.md`);
    if (!fs.existsSync(page)) return undefined;
    const text = fs.readFileSync(page, "utf8");
    const code = new RegExp(String.raw`\n### ${l.name}\n\nOn [^\n]*:\n\n\`\`\`${l.fence}\n([\s\S]*?)\n\`\`\`\n`).exec(text);
    if (code) return { code: code[1]! };
    const error = new RegExp(String.raw`\n### ${l.name}\n\nNot shown: [^\n]*\(\`go vet\`: \`(.*)\`\)\. Write it`).exec(text);
    return error ? { error: error[1]! } : undefined;
  };
}

function exampleSection(token: string, root: string, convertedPrograms: Converted): string {
  const { program, note } = readExample(token, root);
  const converted = CONVERTED_LANGUAGES.flatMap((l) => {
    const found = convertedPrograms(token, l);
    if (!found) return [];
    if ("error" in found) {
      return [
        "",
        `### ${l.name}`,
        "",
        `Not shown: the ${l.name} that Pulumi's converter writes for this program does not compile against ${l.sdk} (\`go vet\`: \`${found.error}\`). Write it from the YAML with the SDK's types.`,
      ];
    }
    return ["", `### ${l.name}`, "", `On ${l.sdk}:`, "", "```" + l.fence, found.code, "```"];
  });
  return [
    "## Example",
    "",
    "A complete Pulumi YAML program (the native plugin; see the README's YAML section), run with the stack config of the README's Configuration section" +
      (note ? `. ${note}` : "."),
    ...(converted.length
      ? [
          " The same program in TypeScript, Python and Go follows, converted from it by Pulumi's converter (`scripts/gen-examples.sh`) and compiled by `tests/engine/docs-examples.test.ts` (where the converter's Go does not compile, the page says so).",
          "",
          "### YAML",
        ]
      : []),
    "",
    "```yaml",
    program.trimEnd(),
    "```",
    ...converted,
  ].join("\n");
}

/** A property's flag in `pulumi do` (the CLI's kebab case: `clusterId` is `--cluster-id`). */
const flagOf = (name: string): string => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** The commands `pulumi do` builds from the schema for a resource type (README: "pulumi do"). */
function doSection(token: string, r: ResourceSpec): string {
  const list = r.listInputs;
  const filters = Object.entries(list?.properties ?? {}).map(
    ([k, p]) => `\`${flagOf(k)}\`${(list?.required ?? []).includes(k) ? " (required)" : ""}: ${p.description ?? ""}`,
  );
  const listLine = list
    ? `- \`pulumi do ${token} list --all\`: the id and name of each (without \`--all\`, the first page; \`--count N\`, at most N)${filters.length ? `. Filters: ${filters.join(" ")}` : ""}`
    : `- No \`list\`: ${findDefinition(token)?.unlisted ?? "the type cannot be listed"}.`;
  return [
    "## With `pulumi do`",
    "",
    "Through the native plugin, without a program (the README's `pulumi do` section says what it needs and what it cannot do):",
    "",
    listLine,
    findDefinition(token)?.importId
      ? `- \`pulumi do ${token} read <id>\`: what the cloud holds, by the id \`pulumi import\` takes (${findDefinition(token)!.importId}).`
      : `- No \`read\` by id: the cloud keeps nothing of it to read (it is not importable either).`,
    `- \`pulumi do ${token} create <name> --<property> <value> … --yes\` (flags in kebab case for strings, numbers and booleans; maps and objects in \`--input-file\`, which needs the \`pulumi-converter-yaml\` plugin): created and recorded in the selected stack; \`patch <name>\` changes only the inputs given; \`delete <name> --yes\` deletes it as \`pulumi destroy\` would and drops it from the stack.`,
    "",
  ].join("\n");
}

function resourcePage(schema: Schema, token: string, r: ResourceSpec, root: string, converted: Converted): string {
  const [, mod, type] = token.split(":") as [string, string, string];
  const required = r.requiredInputs ?? [];
  const replaces = Object.entries(r.inputProperties ?? {})
    .filter(([, p]) => p.replaceOnChanges)
    .map(([n]) => `\`${n}\``)
    .sort();
  const inputNames = new Set(Object.keys(r.inputProperties ?? {}));
  const outputsOnly = Object.fromEntries(Object.entries(r.properties ?? {}).filter(([n]) => !inputNames.has(n)));
  const waits = inputNames.has("timeouts");
  const types = reachedTypes(schema, [...Object.values(r.inputProperties ?? {}), ...Object.values(r.properties ?? {})]);
  return `# ${type} (\`${token}\`)

${r.description ?? ""}

TypeScript: \`new krcloud.${mod}.${type}(name, args)\` (dynamic classes) · YAML and generated SDKs: type \`${token}\` (native plugin).

${exampleSection(token, root, converted)}

## Inputs

${propertyTable(r.inputProperties, required, true)}
## Outputs

Every input above, and:

${propertyTable(outputsOnly, r.required ?? [], false)}
## Changes that replace

${replaces.length ? `Changing ${replaces.join(", ")} replaces the resource; every other input is updated in place.` : "None: every input is updated in place."}

## Import

Through the native plugin: \`pulumi import ${token} <name> <id>\`, where the id is ${findDefinition(token)?.importId ?? "the id `pulumi stack export` shows"}; or the \`import\` resource option. The dynamic classes cannot import (pulumi/pulumi#16175)${inputNames.has("adopt") ? "; set `adopt: true` instead" : ""}.

${doSection(token, r)}
## Timeouts

${waits ? "Create, update and delete wait until the resource settles, each up to the `timeouts` input's value (defaults in its description). Through the native plugin, `customTimeouts` take precedence." : "Operations do not wait for the resource to settle beyond the service's answer; `customTimeouts` (native plugin) bound them."}
${types.length ? `\n${typesSection(schema, types)}` : ""}`;
}

function functionPage(schema: Schema, token: string, f: FunctionSpec, root: string, converted: Converted): string {
  const [, mod, name] = token.split(":") as [string, string, string];
  const outputs = f.outputs?.properties ? propertyTable(f.outputs.properties, f.outputs.required ?? [], false) : `A ${typeName(f.outputs)}.\n`;
  const args = f.inputs?.properties ?? {};
  const required = f.inputs?.required ?? [];
  const types = reachedTypes(schema, [...Object.values(args), ...Object.values(f.outputs?.properties ?? {}), f.outputs?.properties ? undefined : f.outputs]);
  return `# ${name} (\`${token}\`)

${f.description ?? ""}

TypeScript: \`krcloud.${mod}.${name}(args)\` in the program · YAML and generated SDKs: \`${token}\` (served by the native plugin's invoke).

${exampleSection(token, root, converted)}

## Arguments

${propertyTable(args, required, false)}
Without a program, through the native plugin: \`pulumi do ${token}${Object.keys(args).length ? " --<argument> <value> …" : ""}\` prints the result as JSON${Object.keys(args).length ? " (arguments as flags in kebab case; maps and objects in `--input-file`, which needs the `pulumi-converter-yaml` plugin)" : ""}.

## Result

${outputs}${types.length ? `\n${typesSection(schema, types)}` : ""}`;
}

/**
 * The pages, from the schema and the examples of the repository at `root`, with each example's
 * conversions from `converted` (by default those the committed pages show: `make schema` and the
 * docs-examples test give fresh ones, which need Go).
 */
export function generate(
  schema: Schema,
  root = repoRoot(),
  converted: Converted = convertedFromPages(path.join(root, "docs", "reference")),
): Map<string, string> {
  const tokens = [...Object.keys(schema.resources), ...Object.keys(schema.functions)];
  const missing = tokens.filter((t) => !fs.existsSync(path.join(root, exampleFile(t))));
  if (missing.length) {
    throw new Error(
      `add the example of each resource and function without one (see docs/contributing/new-resource.md): ${missing.map((t) => `${exampleFile(t)} (${t})`).join(", ")}`,
    );
  }
  const known = new Set(tokens.map(exampleFile));
  const unknown = exampleFiles(root).filter((f) => !known.has(f));
  if (unknown.length) throw new Error(`examples of no resource or function of schema.json: ${unknown.join(", ")}`);
  const files = new Map<string, string>();
  const index: string[] = ["# Reference", "", "Generated from `schema.json` by `tools/gen-reference.ts` (`make schema`).", ""];
  const modules = new Map<string, { resources: string[]; functions: string[] }>();
  const entry = (mod: string) => modules.get(mod) ?? modules.set(mod, { resources: [], functions: [] }).get(mod)!;
  for (const [token, r] of Object.entries(schema.resources).sort(([a], [b]) => a.localeCompare(b))) {
    const [, mod, type] = token.split(":") as [string, string, string];
    files.set(`${mod}/${type}.md`, BANNER + resourcePage(schema, token, r, root, converted));
    entry(mod).resources.push(type);
  }
  for (const [token, f] of Object.entries(schema.functions).sort(([a], [b]) => a.localeCompare(b))) {
    const [, mod, name] = token.split(":") as [string, string, string];
    files.set(`${mod}/${name}.md`, BANNER + functionPage(schema, token, f, root, converted));
    entry(mod).functions.push(name);
  }
  for (const [mod, e] of [...modules].sort(([a], [b]) => a.localeCompare(b))) {
    index.push(
      `## ${mod}`,
      "",
      `Resources: ${e.resources.map((t) => `[${t}](${mod}/${t}.md)`).join(", ") || "none"}.`,
      "",
      `Functions: ${e.functions.map((t) => `[${t}](${mod}/${t}.md)`).join(", ") || "none"}.`,
      "",
    );
  }
  index.push(
    "## Examples",
    "",
    "Every page's example is a complete Pulumi YAML program, previewed by `tests/engine/docs-reference.test.ts` with the native plugin against the local cloud. " +
      `They take these to exist in the project: ${exampleFixtures(root)
        .map((f) => `\`${f.id}\` (${f.what})`)
        .join(", ")}; ` +
      "the data query examples read the password from the secret config value `dbPassword`.",
    "",
  );
  files.set("README.md", BANNER + index.join("\n"));
  return files;
}

/** The markers around the README's table of services, which `readmeWithServices` writes. */
export const SERVICES_BEGIN = "<!-- services: generated from schema.json by tools/gen-reference.ts (make schema); do not edit -->";
export const SERVICES_END = "<!-- end of services -->";

/**
 * The README's table of services: each service of the package (in the client's order of services,
 * under the name the docs use), its resources, components and lookups, each linked to its reference
 * page. A service of the schema the client does not know is an error naming it.
 */
export function serviceTable(schema: Schema): string {
  const modules = new Map<string, { resources: string[]; components: string[]; functions: string[] }>();
  const of = (token: string) => {
    const mod = token.split(":")[1]!;
    if (!(SERVICES as readonly string[]).includes(mod))
      throw new Error(`${token}: service "${mod}" is not in the client's SERVICE_TABLE (client/core/settings.ts)`);
    return modules.get(mod) ?? modules.set(mod, { resources: [], components: [], functions: [] }).get(mod)!;
  };
  for (const [token, r] of Object.entries(schema.resources)) (r.isComponent ? of(token).components : of(token).resources).push(token);
  for (const token of Object.keys(schema.functions)) of(token).functions.push(token);
  const link = (token: string) => {
    const [, mod, name] = token.split(":") as [string, string, string];
    return `[\`${name}\`](docs/reference/${mod}/${name}.md)`;
  };
  const cell = (tokens: string[]) => (tokens.length > 0 ? [...tokens].sort().map(link).join(", ") : "none");
  const rows = SERVICES.filter((s) => modules.has(s)).map((s) => {
    const m = modules.get(s)!;
    return `| ${SERVICE_TITLE[s]} | \`${s}\` | ${cell(m.resources)} | ${cell(m.components)} | ${cell(m.functions)} |`;
  });
  return ["| service | module | resources | components | lookups |", "|---|---|---|---|---|", ...rows].join("\n");
}

/** `readme` with the table of services between its markers replaced by `serviceTable(schema)`; throws when the markers are missing. */
export function readmeWithServices(readme: string, schema: Schema): string {
  const begin = readme.indexOf(SERVICES_BEGIN);
  const end = readme.indexOf(SERVICES_END);
  if (begin < 0 || end < begin) throw new Error(`README.md has no table of services between "${SERVICES_BEGIN}" and "${SERVICES_END}"`);
  return `${readme.slice(0, begin + SERVICES_BEGIN.length)}\n${serviceTable(schema)}\n${readme.slice(end)}`;
}

if (require.main === module) {
  const root = repoRoot();
  const schemaPath = process.argv[2] ?? path.join(root, "schema.json");
  const out = process.argv[3] ?? path.join(root, "docs", "reference");
  const convertedDir = process.argv[4];
  const files = generate(
    JSON.parse(fs.readFileSync(schemaPath, "utf8")) as Schema,
    root,
    convertedDir ? convertedFromDir(convertedDir) : convertedFromPages(out),
  );
  fs.rmSync(out, { recursive: true, force: true });
  for (const [rel, text] of files) {
    fs.mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
    fs.writeFileSync(path.join(out, rel), text);
  }
  const readme = path.join(root, "README.md");
  fs.writeFileSync(readme, readmeWithServices(fs.readFileSync(readme, "utf8"), JSON.parse(fs.readFileSync(schemaPath, "utf8")) as Schema));
  process.stdout.write(`${files.size} pages in ${out}; the table of services in ${readme}\n`);
}
