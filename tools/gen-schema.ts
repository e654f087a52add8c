/**
 * Generates the Pulumi package schema (`schema.json`) from the code: `make schema`, i.e.
 * `node dist/tools/gen-schema.js > schema.json`.
 *
 * - Resources and functions come from the registry (provider/registry.ts): each resource and lookup
 *   definition's zod schemas are converted with `z.toJSONSchema` and mapped to Pulumi types (see
 *   `typeSpec` for the mapping); secrets from provider/core/secrets.ts, as both front doors use them.
 * - Config variables come from `CONFIG_KEYS` and the settings module.
 *
 * The sections are in tools/schema/: the schema's shapes and named types (types.ts), zod to
 * Pulumi types (properties.ts), resources and components (resources.ts), functions (functions.ts),
 * the provider configuration (config.ts); this file puts the package together.
 *
 * The output is deterministic (object keys sorted), so `git diff schema.json` shows real changes.
 */
import { readFileSync, existsSync } from "node:fs";
import * as path from "node:path";
import { allComponents, allDefinitions, allLookups } from "../provider/registry";
import type { AnyComponent } from "../provider/core/component";
import type { AnyDefinition } from "../provider/core/resource";
import type { AnyLookup } from "../provider/core/lookup";
import { SECRET_SETTINGS } from "../client/core/settings";
import { configVariables } from "./schema/config";
import { functionSpec } from "./schema/functions";
import { componentSpec, resourceSpec } from "./schema/resources";
import { PACKAGE_NAME, sortKeys, TypeRegistry, type FunctionSpec, type ResourceSpec } from "./schema/types";

export * from "./schema/types";
export { typeSpec, propertySpec } from "./schema/properties";
export { resourceSpec, componentSpec } from "./schema/resources";
export { functionSpec } from "./schema/functions";
export { configVariables, configEnvVar } from "./schema/config";

export function repoRoot(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const p = path.join(dir, "package.json");
    if (existsSync(p) && (JSON.parse(readFileSync(p, "utf8")) as { name?: string }).name === "pulumi-krcloud") return dir;
    if (path.dirname(dir) === dir) throw new Error("package.json of pulumi-krcloud not found above " + __dirname);
  }
}

interface PackageJson {
  version: string;
  description: string;
  license: string;
  homepage?: string;
  repository?: string | { url?: string };
  dependencies?: Record<string, string>;
}

export function generateSchema(
  definitions: readonly AnyDefinition[] = allDefinitions(),
  lookups: readonly AnyLookup[] = allLookups(),
  components: readonly AnyComponent[] = allComponents(),
): Record<string, unknown> {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot(), "package.json"), "utf8")) as PackageJson;
  const types = new TypeRegistry();
  const resources: Record<string, ResourceSpec> = {};
  for (const def of definitions) {
    if (resources[def.token]) throw new Error(`resource token ${def.token} is declared twice`);
    resources[def.token] = resourceSpec(def, types);
  }
  for (const c of components) {
    if (resources[c.token]) throw new Error(`resource token ${c.token} is declared twice`);
    resources[c.token] = componentSpec(c, types);
  }
  const fns: Record<string, FunctionSpec> = {};
  for (const lookup of lookups) {
    if (fns[lookup.token]) throw new Error(`function token ${lookup.token} is declared twice`);
    fns[lookup.token] = functionSpec(lookup, types);
  }
  const repository = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;

  return sortKeys({
    name: PACKAGE_NAME,
    displayName: "krcloud",
    version: pkg.version,
    description: pkg.description,
    keywords: ["pulumi", "krcloud", "kr-central-2", "category/cloud"],
    ...(pkg.homepage ? { homepage: pkg.homepage } : {}),
    ...(repository ? { repository } : {}),
    license: pkg.license,
    publisher: "pulumi-krcloud",
    // Modules: `cache` of `krcloud:cache:Cluster`, `objectstorage` of `krcloud:objectstorage/bucketAcl:BucketAcl`.
    meta: { moduleFormat: "^(.*?)(?:/[^/]*)?$" },
    config: { variables: configVariables() },
    // An explicit provider resource (`pulumi:providers:krcloud`, native plugin) takes the same
    // settings as the stack config; the plugin's configure reads either.
    provider: {
      description:
        "The krcloud provider: where and as whom to call the services. Without an explicit one, the stack config (`krcloud:*`) and the environment configure the default provider.",
      inputProperties: configVariables(),
      properties: Object.fromEntries(Object.entries(configVariables()).filter(([k]) => !SECRET_SETTINGS.includes(k as never))),
    },
    types: types.toJSON(),
    resources,
    functions: fns,
    language: {
      nodejs: {
        packageName: "pulumi-krcloud",
        packageDescription: pkg.description,
        dependencies: { ...(pkg.dependencies ?? {}) },
      },
    },
  }) as Record<string, unknown>;
}

/** The text of schema.json. */
export function renderSchema(): string {
  return `${JSON.stringify(generateSchema(), null, 2)}\n`;
}

if (require.main === module) {
  process.stdout.write(renderSchema());
}
