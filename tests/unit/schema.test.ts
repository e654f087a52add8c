/**
 * schema.json: valid against the Pulumi package metaschema, identical to what tools/gen-schema.ts
 * generates now, complete (every registered resource, every input documented, every lookup).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { z } from "zod";
import { allComponents, allDefinitions, allLookups } from "../../provider/registry";
import { inputKeys, type AnyDefinition } from "../../provider/core/resource";
import { alwaysSecretOutputKeys, secretInputKeys } from "../../provider/core/secrets";
import { CONFIG_KEYS } from "../../provider/core/config";
import { resolveSettings, SECRET_SETTINGS, SERVICES, type Settings } from "../../client/core/settings";
import { generateSchema, renderSchema, repoRoot, resourceSpec, TypeRegistry } from "../../tools/gen-schema";
import { PULUMI_VERSION } from "../harness/engine";

const ROOT = repoRoot();
const SCHEMA_FILE = path.join(ROOT, "schema.json");

/**
 * The Pulumi package metaschema of the Pulumi version the project builds: it ships in that version's
 * Go module (`codegen/schema/pulumi.json`), which `make pulumi` downloads to build the
 * CLI; `go mod download` finds it there (or fetches it from the module proxy).
 */
function metaschemaFile(): string {
  const out = execFileSync("go", ["mod", "download", "-json", `github.com/pulumi/pulumi/pkg/v3@${PULUMI_VERSION}`], { encoding: "utf8", cwd: ROOT });
  const dir = (JSON.parse(out) as { Dir?: string }).Dir;
  if (!dir) throw new Error(`go mod download found no directory for github.com/pulumi/pulumi/pkg/v3@${PULUMI_VERSION}`);
  return path.join(dir, "codegen", "schema", "pulumi.json");
}

type Json = Record<string, any>;

function committed(): { text: string; schema: Json } {
  if (!existsSync(SCHEMA_FILE)) throw new Error(`${SCHEMA_FILE} is missing: run make schema`);
  const text = readFileSync(SCHEMA_FILE, "utf8");
  return { text, schema: JSON.parse(text) as Json };
}

function metaschemaValidator() {
  const meta = JSON.parse(readFileSync(metaschemaFile(), "utf8")) as Json;
  // strict: false because the published metaschema has an unknown keyword ("desciption").
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ajv.addFormat("regex", (s: string) => {
    try {
      new RegExp(s);
      return true;
    } catch {
      return false;
    }
  });
  ajv.addFormat("uri-reference", true);
  return ajv.compile(meta);
}

function validate(schema: Json): void {
  const check = metaschemaValidator();
  if (!check(schema)) {
    const errors = (check.errors ?? []).slice(0, 20).map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`schema.json does not satisfy the Pulumi package metaschema:\n${errors.join("\n")}`);
  }
}

function firstDifference(a: string, b: string): string {
  const la = a.split("\n");
  const lb = b.split("\n");
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}: committed ${JSON.stringify(la[i])}, generated ${JSON.stringify(lb[i])}`;
  }
  return "";
}

/** Named types reachable from a property (through items, maps, unions and other types). */
function referencedTypes(p: Json, schema: Json, acc = new Set<string>()): Set<string> {
  if (!p || typeof p !== "object") return acc;
  if (typeof p.$ref === "string" && p.$ref.startsWith("#/types/")) {
    const token = p.$ref.slice("#/types/".length);
    if (!acc.has(token)) {
      acc.add(token);
      for (const q of Object.values((schema.types?.[token]?.properties ?? {}) as Json)) referencedTypes(q, schema, acc);
    }
  }
  if (p.items) referencedTypes(p.items, schema, acc);
  if (p.additionalProperties && typeof p.additionalProperties === "object") referencedTypes(p.additionalProperties, schema, acc);
  for (const v of (p.oneOf ?? []) as Json[]) referencedTypes(v, schema, acc);
  return acc;
}

describe("schema.json", () => {
  test("satisfies the Pulumi package metaschema (draft 2020-12)", () => {
    validate(committed().schema);
  });

  test("is up to date with the code (otherwise: run make schema)", () => {
    const { text } = committed();
    const fresh = renderSchema();
    if (text !== fresh) {
      throw new Error(`schema.json is stale: run make schema (${firstDifference(text, fresh)})`);
    }
  });

  test("generation is deterministic", () => {
    expect(renderSchema()).toBe(renderSchema());
  });

  test("package fields: name, version from package.json, nodejs package name", () => {
    const { schema } = committed();
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Json;
    expect(schema.name).toBe("krcloud");
    expect(schema.version).toBe(pkg.version);
    expect(schema.license).toBe(pkg.license);
    expect(schema.language.nodejs.packageName).toBe("pulumi-krcloud");
    expect(schema.language.nodejs.dependencies["@pulumi/pulumi"]).toBe(pkg.dependencies["@pulumi/pulumi"]);
  });

  test("every registered resource is in the schema, with every input property documented", () => {
    const { schema } = committed();
    expect(Object.keys(schema.resources).sort()).toEqual([...allDefinitions(), ...allComponents()].map((d) => d.token).sort());
    // Components are marked so (the SDKs register them remotely: the plugin's Construct builds them), resources are not.
    expect(
      Object.entries(schema.resources as Record<string, Json>)
        .filter(([, r]) => r.isComponent === true)
        .map(([t]) => t)
        .sort(),
    ).toEqual(
      allComponents()
        .map((c) => c.token)
        .sort(),
    );
    const undocumented: string[] = [];
    for (const def of allDefinitions()) {
      const token = def.token;
      const spec = schema.resources[token] as Json;
      expect(spec).toBeDefined();
      expect(typeof spec.description === "string" && spec.description.trim() !== "").toBe(true);
      expect(Object.keys(spec.inputProperties).sort()).toEqual(inputKeys(def).sort());
      for (const [k, p] of Object.entries(spec.inputProperties as Json)) {
        if (typeof p.description !== "string" || p.description.trim() === "") undocumented.push(`${token}.${k}`);
        // Properties of the object types an input uses are inputs too.
        for (const t of referencedTypes(p, schema)) {
          for (const [q, qs] of Object.entries((schema.types[t]?.properties ?? {}) as Json)) {
            if (typeof qs.description !== "string" || qs.description.trim() === "") undocumented.push(`${t}.${q} (via ${token}.${k})`);
          }
        }
      }
      for (const k of Object.keys(def.replaceOn)) {
        expect(spec.inputProperties[k]).toMatchObject({ replaceOnChanges: true, willReplaceOnChanges: true });
        expect(spec.properties[k]).toMatchObject({ replaceOnChanges: true });
      }
      if (def.autoName) expect(spec.requiredInputs).not.toContain(def.autoName.property);
      const secretIns = secretInputKeys(def);
      const secretOuts = alwaysSecretOutputKeys(def);
      for (const [k, p] of Object.entries(spec.inputProperties as Json)) expect([k, p.secret === true]).toEqual([k, secretIns.includes(k)]);
      for (const [k, p] of Object.entries(spec.properties as Json)) expect([k, p.secret === true]).toEqual([k, secretOuts.includes(k)]);
    }
    expect([...new Set(undocumented)]).toEqual([]);
  });

  test("listInputs: every type with a list declares its filters as string inputs, a parent's id required; KMS outputs say they cannot be listed", () => {
    const { schema } = committed();
    const listable = Object.fromEntries(
      Object.entries(schema.resources as Record<string, Json>).flatMap(([token, r]) => (r.listInputs ? [[token, r.listInputs as Json]] : [])),
    );
    expect(Object.keys(listable).sort()).toEqual(
      [
        "krcloud:cache:Backup",
        "krcloud:cache:Cluster",
        "krcloud:cache:InstanceSet",
        "krcloud:cache:ParameterGroup",
        "krcloud:cache:Shard",
        "krcloud:dataquery:DataSource",
        "krcloud:dataquery:Query",
        "krcloud:hadoop:Cluster",
        "krcloud:objectstorage:Bucket",
        "krcloud:objectstorage:BucketCors",
        "krcloud:objectstorage:BucketLifecycle",
        "krcloud:objectstorage:BucketObject",
      ].sort(),
    );
    for (const [token, li] of Object.entries(listable)) {
      const inputs = (schema.resources as Record<string, Json>)[token]!.inputProperties as Record<string, Json>;
      for (const [k, p] of Object.entries(li.properties as Record<string, Json>)) {
        expect([token, k, p.type, inputs[k]?.type]).toEqual([token, k, "string", "string"]);
        expect(p.description).toEqual(expect.any(String));
      }
    }
    expect(listable["krcloud:objectstorage:BucketObject"]!.required).toEqual(["bucket"]);
    expect(listable["krcloud:cache:Shard"]!.required).toEqual(["clusterId"]);
    for (const token of ["krcloud:kms:Ciphertext", "krcloud:kms:DataKey"]) {
      expect((schema.resources as Record<string, Json>)[token]!.description).toMatch(/It cannot be listed: a (ciphertext|data key) is recorded only/);
    }
  });

  test("every $ref points at a type defined in the schema", () => {
    const { schema } = committed();
    const refs = new Set<string>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) {
          if (k === "$ref" && typeof x === "string") refs.add(x);
          else walk(x);
        }
      }
    };
    walk(schema);
    for (const r of refs) {
      if (r.startsWith("pulumi.json#/")) continue;
      expect(r.startsWith("#/types/") && schema.types[r.slice(8)] !== undefined ? r : `dangling ${r}`).toBe(r);
    }
  });

  test("every exported function of every service is a declared lookup, and the schema lists exactly those", () => {
    const distProvider = path.join(ROOT, "dist", "provider");
    const undeclared: string[] = [];
    for (const dir of readdirSync(distProvider, { withFileTypes: true })) {
      if (!dir.isDirectory() || dir.name === "core" || dir.name === "native") continue;
      const index = path.join(distProvider, dir.name, "index.js");
      if (!existsSync(index)) continue;
      const mod = require(index) as Record<string, unknown>;
      for (const [name, v] of Object.entries(mod)) {
        // Resource classes carry a definition, component classes a component, lookup functions a lookup; `xOutput` forms are the same lookups.
        if (typeof v !== "function" || "definition" in v || "component" in v || name.endsWith("Output")) continue;
        if (!("lookup" in v)) undeclared.push(`${dir.name}.${name}`);
      }
    }
    expect(undeclared).toEqual([]);
    const tokens = allLookups().map((l) => l.token);
    expect(tokens).toContain("krcloud:objectstorage:getBucket");
    expect(tokens).toContain("krcloud:kms:decrypt");
    expect(Object.keys(committed().schema.functions).sort()).toEqual([...tokens].sort());
    for (const l of allLookups()) {
      for (const k of l.secretResults ?? [])
        expect([l.token, k, committed().schema.functions[l.token].outputs.properties[k]?.secret]).toEqual([l.token, k, true]);
    }
  });

  test("config variables: every provider setting, secrets marked, environment variables honoured", () => {
    const vars = committed().schema.config.variables as Json;
    expect(Object.keys(vars).sort()).toEqual([...CONFIG_KEYS].sort());
    for (const s of SERVICES) expect(vars[`${s}Endpoint`]).toBeDefined();
    for (const [k, v] of Object.entries(vars)) {
      expect(v.description).toEqual(expect.any(String));
      expect(v.secret === true).toBe((SECRET_SETTINGS as readonly string[]).includes(k));
    }
    expect(vars.region.default).toBe("kr-central-2");
    for (const [k, v] of Object.entries(vars)) {
      const env = { [v.defaultInfo.environment[0] as string]: "https://from-env.example" };
      const s = resolveSettings({}, () => undefined, env);
      const service = SERVICES.find((svc) => `${svc}Endpoint` === k);
      const got = service ? s.endpoints[service] : k === "localCloudUrl" ? s.endpoints.objectstorage : s[k as keyof Settings];
      expect([k, (typeof got === "string" ? got : "").startsWith("https://from-env.example")]).toEqual([k, true]);
    }
  });
});

describe("zod -> Pulumi type mapping", () => {
  const def = {
    token: "krcloud:test:Thing",
    description: "A test thing.",
    inputs: () =>
      z
        .object({
          name: z.string().min(1).describe("Name."),
          mode: z.enum(["a", "b"]).default("a").describe("Mode."),
          count: z.number().int().default(3).describe("Count."),
          ratio: z.number().nullable().optional().describe("Ratio."),
          tags: z.record(z.string(), z.string()).default({}).describe("Tags."),
          limits: z
            .record(z.string(), z.object({ max: z.number().describe("Max.") }))
            .optional()
            .describe("Limits."),
          either: z.union([z.string(), z.number()]).optional().describe("String or number."),
          anything: z.unknown().optional().describe("Anything."),
        })
        .strict(),
    outputs: () =>
      z.object({
        name: z.string().describe("Name."),
        password: z.string().describe("Password."),
        mode: z.enum(["a", "b"]).describe("Mode."),
      }),
    replaceOn: { name: "a thing has no rename" },
    secretOutputs: ["password"],
    autoName: { property: "name", minLength: 1, maxLength: 10 },
  } as unknown as AnyDefinition;

  test("primitives, enums, maps, nullable, unions, secrets, defaults and auto-names", () => {
    const types = new TypeRegistry();
    const r = resourceSpec(def, types);
    expect(r.requiredInputs).toEqual([]);
    expect(r.inputProperties.count).toEqual({ type: "integer", default: 3, description: "Count." });
    expect(r.inputProperties.mode).toEqual({ $ref: "#/types/krcloud:test/thingMode:ThingMode", default: "a", description: "Mode." });
    expect(types.types.get("krcloud:test/thingMode:ThingMode")).toMatchObject({ type: "string", enum: [{ value: "a" }, { value: "b" }] });
    expect(r.inputProperties.ratio).toEqual({ type: "number", description: "Ratio." });
    expect(r.inputProperties.tags).toEqual({ type: "object", additionalProperties: { type: "string" }, description: "Tags." });
    expect(r.inputProperties.limits!.additionalProperties).toEqual({ $ref: "#/types/krcloud:test/thingLimitsValue:ThingLimitsValue" });
    expect(r.inputProperties.either!.oneOf).toEqual([{ type: "string" }, { type: "number" }]);
    expect(r.inputProperties.anything!.$ref).toBe("pulumi.json#/Any");
    expect(r.properties.password!.secret).toBe(true);
    expect(r.inputProperties.name!.replaceOnChanges).toBe(true);
    expect(r.required.sort()).toEqual(["mode", "name", "password"]);
  });

  test("a schema with such a resource still satisfies the metaschema", () => {
    validate(generateSchema([def], []));
  });
});
