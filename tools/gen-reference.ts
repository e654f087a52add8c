/**
 * Reference docs from schema.json: docs/reference/<module>/<Type>.md per resource and function
 * (an example program, inputs, outputs, the fields of every nested type they use, which changes
 * replace, import, timeouts) and docs/reference/README.md.
 *
 *   node dist/tools/gen-reference.js [schema.json] [out dir]   (make schema runs it)
 *
 * A unit test regenerates them and compares, so they never drift from the schema; an engine test
 * (tests/engine/docs-reference.test.ts) runs every page's example through `pulumi preview` with the
 * native plugin against the local cloud. The examples are written in tools/reference-examples.ts,
 * one per resource and function (generation fails when one is missing).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { findDefinition } from "../provider/registry";
import { EXAMPLE_FIXTURES, EXAMPLES, exampleProgram } from "./reference-examples";

export { EXAMPLE_FIXTURES, exampleProgram, type ExampleFixture } from "./reference-examples";

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
}
interface FunctionSpec {
  description?: string;
  inputs?: ObjectSpec;
  outputs?: ObjectSpec & PropertySpec;
}
interface Schema {
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

function exampleSection(token: string): string {
  const note = EXAMPLES[token]?.note;
  return [
    "## Example",
    "",
    "A complete Pulumi YAML program (the native plugin; see the README's YAML section), run with the stack config of the README's Configuration section" +
      (note ? `. ${note}` : "."),
    "",
    "```yaml",
    exampleProgram(token).trimEnd(),
    "```",
  ].join("\n");
}

function resourcePage(schema: Schema, token: string, r: ResourceSpec): string {
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

${exampleSection(token)}

## Inputs

${propertyTable(r.inputProperties, required, true)}
## Outputs

Every input above, and:

${propertyTable(outputsOnly, r.required ?? [], false)}
## Changes that replace

${replaces.length ? `Changing ${replaces.join(", ")} replaces the resource; every other input is updated in place.` : "None: every input is updated in place."}

## Import

Through the native plugin: \`pulumi import ${token} <name> <id>\`, where the id is ${findDefinition(token)?.importId ?? "the id `pulumi stack export` shows"}; or the \`import\` resource option. The dynamic classes cannot import (pulumi/pulumi#16175)${inputNames.has("adopt") ? "; set `adopt: true` instead" : ""}.

## Timeouts

${waits ? "Create, update and delete wait until the resource settles, each up to the `timeouts` input's value (defaults in its description). Through the native plugin, `customTimeouts` take precedence." : "Operations do not wait for the resource to settle beyond the service's answer; `customTimeouts` (native plugin) bound them."}
${types.length ? `\n${typesSection(schema, types)}` : ""}`;
}

function functionPage(schema: Schema, token: string, f: FunctionSpec): string {
  const [, mod, name] = token.split(":") as [string, string, string];
  const outputs = f.outputs?.properties ? propertyTable(f.outputs.properties, f.outputs.required ?? [], false) : `A ${typeName(f.outputs)}.\n`;
  const args = f.inputs?.properties ?? {};
  const required = f.inputs?.required ?? [];
  const types = reachedTypes(schema, [...Object.values(args), ...Object.values(f.outputs?.properties ?? {}), f.outputs?.properties ? undefined : f.outputs]);
  return `# ${name} (\`${token}\`)

${f.description ?? ""}

TypeScript: \`krcloud.${mod}.${name}(args)\` in the program · YAML and generated SDKs: \`${token}\` (served by the native plugin's invoke).

${exampleSection(token)}

## Arguments

${propertyTable(args, required, false)}
## Result

${outputs}${types.length ? `\n${typesSection(schema, types)}` : ""}`;
}

export function generate(schema: Schema): Map<string, string> {
  const unknown = Object.keys(EXAMPLES).filter((t) => !schema.resources[t] && !schema.functions[t]);
  if (unknown.length) throw new Error(`tools/gen-reference.ts has examples for tokens schema.json does not have: ${unknown.join(", ")}`);
  const files = new Map<string, string>();
  const index: string[] = ["# Reference", "", "Generated from `schema.json` by `tools/gen-reference.ts` (`make schema`).", ""];
  const modules = new Map<string, { resources: string[]; functions: string[] }>();
  const entry = (mod: string) => modules.get(mod) ?? modules.set(mod, { resources: [], functions: [] }).get(mod)!;
  for (const [token, r] of Object.entries(schema.resources).sort(([a], [b]) => a.localeCompare(b))) {
    const [, mod, type] = token.split(":") as [string, string, string];
    files.set(`${mod}/${type}.md`, BANNER + resourcePage(schema, token, r));
    entry(mod).resources.push(type);
  }
  for (const [token, f] of Object.entries(schema.functions).sort(([a], [b]) => a.localeCompare(b))) {
    const [, mod, name] = token.split(":") as [string, string, string];
    files.set(`${mod}/${name}.md`, BANNER + functionPage(schema, token, f));
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
      `They take these to exist in the project: ${EXAMPLE_FIXTURES.map((f) => `\`${f.id}\` (${f.what})`).join(", ")}; ` +
      "the data query examples read the password from the secret config value `dbPassword`.",
    "",
  );
  files.set("README.md", BANNER + index.join("\n"));
  return files;
}

if (require.main === module) {
  const root = path.join(__dirname, "..", "..");
  const schemaPath = process.argv[2] ?? path.join(root, "schema.json");
  const out = process.argv[3] ?? path.join(root, "docs", "reference");
  const files = generate(JSON.parse(fs.readFileSync(schemaPath, "utf8")) as Schema);
  fs.rmSync(out, { recursive: true, force: true });
  for (const [rel, text] of files) {
    fs.mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
    fs.writeFileSync(path.join(out, rel), text);
  }
  process.stdout.write(`${files.size} pages in ${out}\n`);
}
