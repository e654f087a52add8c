/**
 * Reference docs from schema.json: docs/reference/<module>/<Type>.md per resource and function
 * (inputs, outputs, which changes replace, import, timeouts, an example) and docs/reference/README.md.
 *
 *   node dist/tools/gen-reference.js [schema.json] [out dir]   (make schema runs it)
 *
 * A unit test regenerates them and compares, so they never drift from the schema.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { findDefinition } from "../provider/registry";

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
interface ResourceSpec extends ObjectSpec {
  inputProperties?: Record<string, PropertySpec>;
  requiredInputs?: string[];
}
interface FunctionSpec {
  description?: string;
  inputs?: ObjectSpec;
  outputs?: ObjectSpec & { type?: string };
}
interface Schema {
  resources: Record<string, ResourceSpec>;
  functions: Record<string, FunctionSpec>;
  types: Record<string, Json>;
}

function typeName(p: PropertySpec | undefined): string {
  if (!p) return "any";
  if (p.$ref) return p.$ref === "pulumi.json#/Any" ? "any" : (p.$ref.split(":").pop() ?? p.$ref);
  if (p.oneOf) return p.oneOf.map(typeName).join(" | ");
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

/** A placeholder of the property's type, for the YAML example. */
function sample(name: string, p: PropertySpec | undefined): string {
  if (!p) return `<${name}>`;
  if (p.type === "integer" || p.type === "number") return "1";
  if (p.type === "boolean") return "false";
  if (p.type === "array") return `[${sample(name, p.items)}]`;
  if (p.type === "object" || p.$ref) return "{}";
  return `<${name}>`;
}

function resourcePage(token: string, r: ResourceSpec): string {
  const [, mod, type] = token.split(":") as [string, string, string];
  const required = r.requiredInputs ?? [];
  const replaces = Object.entries(r.inputProperties ?? {})
    .filter(([, p]) => p.replaceOnChanges)
    .map(([n]) => `\`${n}\``)
    .sort();
  const inputNames = new Set(Object.keys(r.inputProperties ?? {}));
  const outputsOnly = Object.fromEntries(Object.entries(r.properties ?? {}).filter(([n]) => !inputNames.has(n)));
  const waits = inputNames.has("timeouts");
  const example = [
    "```yaml",
    "resources:",
    `  my${type}:`,
    `    type: ${token}`,
    required.length ? "    properties:" : "    properties: {}",
    ...required.map((n) => `      ${n}: ${sample(n, r.inputProperties?.[n])}`),
    "```",
  ].join("\n");
  return `# ${type} (\`${token}\`)

${r.description ?? ""}

TypeScript: \`new krcloud.${mod}.${type}(name, args)\` (dynamic classes) · YAML and generated SDKs: type \`${token}\` (native plugin).

## Example

${example}

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
`;
}

function functionPage(token: string, f: FunctionSpec): string {
  const [, mod, name] = token.split(":") as [string, string, string];
  const outputs = f.outputs?.properties ? propertyTable(f.outputs.properties, f.outputs.required ?? [], false) : `A ${typeName(f.outputs)}.\n`;
  const args = f.inputs?.properties ?? {};
  const required = f.inputs?.required ?? [];
  const example = [
    "```yaml",
    "variables:",
    `  result:`,
    "    fn::invoke:",
    `      function: ${token}`,
    `      arguments: {${required.map((n) => ` ${n}: ${sample(n, args[n])}`).join(",")}${required.length ? " " : ""}}`,
    "```",
  ].join("\n");
  return `# ${name} (\`${token}\`)

${f.description ?? ""}

TypeScript: \`krcloud.${mod}.${name}(args)\` in the program · YAML and generated SDKs: \`${token}\` (served by the native plugin's invoke).

## Example

${example}

## Arguments

${propertyTable(args, required, false)}
## Result

${outputs}`;
}

export function generate(schema: Schema): Map<string, string> {
  const files = new Map<string, string>();
  const index: string[] = ["# Reference", "", "Generated from `schema.json` by `tools/gen-reference.ts` (`make schema`).", ""];
  const modules = new Map<string, { resources: string[]; functions: string[] }>();
  const entry = (mod: string) => modules.get(mod) ?? modules.set(mod, { resources: [], functions: [] }).get(mod)!;
  for (const [token, r] of Object.entries(schema.resources).sort(([a], [b]) => a.localeCompare(b))) {
    const [, mod, type] = token.split(":") as [string, string, string];
    files.set(`${mod}/${type}.md`, resourcePage(token, r));
    entry(mod).resources.push(type);
  }
  for (const [token, f] of Object.entries(schema.functions).sort(([a], [b]) => a.localeCompare(b))) {
    const [, mod, name] = token.split(":") as [string, string, string];
    files.set(`${mod}/${name}.md`, functionPage(token, f));
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
  files.set("README.md", index.join("\n"));
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
