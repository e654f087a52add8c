/**
 * What takes unmanaged resources under management:
 *
 * - a `pulumi import --file` document for the native plugin: the engine reads each resource
 *   through the plugin and generates the program in the project's language (YAML, Python, Go);
 * - for TypeScript programs on the dynamic providers (which cannot import), a ready program that
 *   adopts each resource (`adopt: true`) with every input as the cloud has it, read by the
 *   resource's own `read` (what an import reads). What the cloud does not give back (secrets, and
 *   required inputs such as a data source's instance and user) comes from the stack's config
 *   (`config.require`, `config.requireSecret`); a secret never appears in the program's text.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { inputKeys, inputsFromOutputs, type Context } from "../../provider/core/resource";
import { definition } from "../../provider/runtime";
import { systemClock, type Settings } from "../../client/core";
import type { CloudResource } from "./discover";

export interface ImportFile {
  resources: { type: string; name: string; id: string }[];
}

/** A logical name from a cloud name: letters, digits, `-` and `_`; unique among `taken`. */
export function logicalNameFor(name: string, suffix: string, taken: Set<string>): string {
  const base = `${name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^[^A-Za-z]+/, "") || "resource"}${suffix}`;
  let n = base;
  for (let i = 2; taken.has(n); i++) n = `${base}-${i}`;
  taken.add(n);
  return n;
}

/**
 * Each unmanaged resource with the logical name it gets (the same in the import file and the
 * program): its name, with its type's `list.nameSuffix` when it is named after another resource.
 */
export function namesOf(resources: readonly CloudResource[]): Map<CloudResource, string> {
  const taken = new Set<string>();
  return new Map(resources.map((r) => [r, logicalNameFor(r.name, definition(r.token).list?.nameSuffix ?? "", taken)]));
}

export function importFileOf(resources: readonly CloudResource[]): ImportFile {
  const names = namesOf(resources);
  return { resources: resources.map((r) => ({ type: r.token, name: names.get(r)!, id: r.id })) };
}

/** schema.json of the package: which inputs are secrets. */
function schemaOf(): { resources: Record<string, { inputProperties?: Record<string, { secret?: boolean }>; requiredInputs?: string[] }> } {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const f = path.join(dir, "schema.json");
    if (fs.existsSync(f) && fs.existsSync(path.join(dir, "package.json"))) return JSON.parse(fs.readFileSync(f, "utf8"));
    if (path.dirname(dir) === dir) throw new Error("schema.json of pulumi-krcloud not found");
  }
}

export interface AdoptedResource {
  resource: CloudResource;
  logicalName: string;
  /** The inputs as the cloud has them (secrets and what the cloud does not return left out). */
  inputs: Record<string, unknown>;
  /** Inputs the cloud does not give back (secrets, and required ones it does not return), with the config key each is read from. */
  fromConfig: { property: string; configKey: string; secret: boolean }[];
  /** False when the type has no adopt input (it is then left out of the program, with why). */
  adoptable: boolean;
}

function camel(s: string): string {
  return s.replace(/[-_]+([A-Za-z0-9])/g, (_m, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());
}

/** Reads each resource with its type's own `read` from the id alone, as an import does. */
export async function readForAdoption(resources: readonly CloudResource[], settings: Settings): Promise<AdoptedResource[]> {
  const names = namesOf(resources);
  const schema = schemaOf();
  const ctx: Context = { settings, progress: () => undefined, clock: systemClock };
  const out: AdoptedResource[] = [];
  for (const r of resources) {
    const def = definition(r.token);
    const outs = await def.read(ctx, r.id, {});
    if (!outs) continue;
    const logicalName = names.get(r)!;
    const spec = schema.resources[r.token] ?? {};
    const secret = new Set(
      Object.entries(spec.inputProperties ?? {})
        .filter(([, p]) => p.secret)
        .map(([k]) => k),
    );
    const required = new Set(spec.requiredInputs ?? []);
    const inputs = inputsFromOutputs(def, outs);
    const fromConfig: AdoptedResource["fromConfig"] = [];
    for (const k of inputKeys(def)) {
      const missing = inputs[k] === undefined || inputs[k] === "";
      // A secret is never written into a program; a required input the cloud does not return must be declared.
      if (!secret.has(k) && !(required.has(k) && missing)) continue;
      // Read back as "" (the provider knows the input but the cloud cannot show it, a password):
      // needed as much as a required one.
      const unreadable = inputs[k] === "";
      delete inputs[k];
      if (required.has(k) || !missing || unreadable) fromConfig.push({ property: k, configKey: camel(`${logicalName}-${k}`), secret: secret.has(k) });
    }
    for (const k of def.localInputs ?? []) delete inputs[k];
    out.push({ resource: r, logicalName, inputs, fromConfig, adoptable: inputKeys(def).includes("adopt") });
  }
  return out;
}

function literal(v: unknown, indent: string): string {
  return JSON.stringify(v, null, 2).replace(/\n/g, `\n${indent}`);
}

function resourceCode(a: AdoptedResource): string {
  const [, mod, type] = a.resource.token.split(":");
  const lines = Object.entries(a.inputs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `  ${JSON.stringify(k)}: ${literal(v, "  ")},`);
  for (const s of a.fromConfig)
    lines.push(`  ${JSON.stringify(s.property)}: config.${s.secret ? "requireSecret" : "require"}(${JSON.stringify(s.configKey)}),`);
  lines.push("  adopt: true,");
  const code = `new krcloud.${mod}.${type}(${JSON.stringify(a.logicalName)}, {\n${lines.join("\n")}\n}, { protect: true });`;
  if (a.adoptable) return code;
  return [
    `// ${a.resource.token} has no adopt input in this version of pulumi-krcloud: import it with the native`,
    `// plugin (krcloud-drift --unmanaged --import-file), or uncomment once it has one.`,
    ...code.split("\n").map((l) => `// ${l}`),
  ].join("\n");
}

/**
 * The tsconfig of a generated TypeScript program (`index.ts` alone, strict). `node16` compiles to
 * CommonJS, as Pulumi's Node.js host runs programs, with TypeScript 5.5 to 6.x: TypeScript 6
 * refuses `moduleResolution: node` (node10), and `node16` resolution needs `module: node16`.
 */
export const PROGRAM_TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: "ES2022",
    module: "node16",
    moduleResolution: "node16",
    esModuleInterop: true,
    skipLibCheck: true,
    types: ["node"],
  },
  files: ["index.ts"],
};

export interface GeneratedProgram {
  files: Record<string, string>;
  /** Config keys the stack needs: `pulumi config set [--secret] <key>`. */
  configKeys: { key: string; secret: boolean }[];
  /** Resources left out (no adopt input), as comments in the program. */
  leftOut: string[];
}

/** The TypeScript the generated program's package.json asks for: the newest major the package is tested with. */
export const PROGRAM_TYPESCRIPT = "^6.0.3";

/**
 * A TypeScript program adopting every resource; `project` names it. `dependencies` are the
 * package.json specs of pulumi-krcloud (installed as the README says) and @pulumi/pulumi.
 */
export function typescriptProgram(adopted: readonly AdoptedResource[], project: string, dependencies: { krcloud: string; pulumi: string }): GeneratedProgram {
  const header = [
    "/**",
    ` * Resources found by krcloud-drift --unmanaged that no stack managed, adopted as they are in the`,
    " * cloud (adopt: true takes over an existing resource instead of creating one; the preview shows",
    ' * the step as a create and says "adopt" beside it). What the cloud does not give back (passwords,',
    " * some settings) comes from the stack's config: `pulumi config set` (with --secret for secrets).",
    " *",
    " * Each resource is protected, as `pulumi import` protects what it imports: `pulumi destroy` (or a",
    " * change that replaces one) fails instead of deleting what existed before this program. Remove",
    " * `protect: true` from a resource once this stack is to own its whole life.",
    " */",
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as krcloud from "pulumi-krcloud";',
    "",
    "const config = new pulumi.Config();",
    "",
  ];
  const body = adopted.map(resourceCode).join("\n\n");
  const usesConfig = adopted.some((a) => a.adoptable && a.fromConfig.length > 0);
  // Without config the program needs neither the Config nor the pulumi import (an unused import).
  const index = `${header.filter((l) => usesConfig || !(l.startsWith("const config") || l.startsWith("import * as pulumi"))).join("\n")}${body}\n`;
  return {
    files: {
      "Pulumi.yaml": `name: ${project}\ndescription: Resources adopted from the cloud (generated by krcloud-drift --unmanaged).\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
      "package.json": `${JSON.stringify(
        {
          name: project,
          version: "0.1.0",
          private: true,
          main: "index.ts",
          dependencies: { "@pulumi/pulumi": dependencies.pulumi, "pulumi-krcloud": dependencies.krcloud },
          devDependencies: { typescript: PROGRAM_TYPESCRIPT, "@types/node": "^24.0.0" },
          // npm builds a git dependency with its prepare script; approving it keeps npm's
          // install-script policy quiet (and lets it install under strict-allow-scripts).
          ...(/^git\+/.test(dependencies.krcloud) ? { allowScripts: { [dependencies.krcloud.replace(/#.*$/, "")]: true } } : {}),
        },
        null,
        2,
      )}\n`,
      "tsconfig.json": `${JSON.stringify(PROGRAM_TSCONFIG, null, 2)}\n`,
      "index.ts": index,
    },
    configKeys: adopted.filter((a) => a.adoptable).flatMap((a) => a.fromConfig.map((s) => ({ key: s.configKey, secret: s.secret }))),
    leftOut: adopted.filter((a) => !a.adoptable).map((a) => `${a.logicalName} (${a.resource.token})`),
  };
}
