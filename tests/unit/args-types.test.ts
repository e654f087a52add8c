/**
 * The dynamic classes' args types as a program's author meets them, compiled by TypeScript against
 * the package's declarations (dist/*.d.ts, as an installed pulumi-krcloud has them), `strict`:
 *
 * - a nested input may be another resource's Output at any depth (`user.passwordCiphertext:
 *   {ciphertext: sealed.ciphertext}` failed with TS2322 when only the top level was an Input);
 * - a type error names the class's Args type (`ClusterArgs`), not `InputArgs<AutoNamed<{...}>>`;
 * - every property of every args type, nested ones included, has a doc comment (what an editor
 *   shows), from the schema's descriptions;
 * - provider/<module>/args.ts is what tools/gen-args.ts makes of schema.json (`make schema`).
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import * as ts from "typescript";
import { compileSources } from "../support/docs/typescript-blocks";
import { allDefinitions } from "../../provider/registry";
import { entry } from "../harness/entries";

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, "..", "..", "..");

/** Compiles `sources` (file name -> text) as modules of a program that depends on pulumi-krcloud. */
function compile(sources: Record<string, string>): { program: ts.Program; names: string[]; problems: string[] } {
  const { program, names } = compileSources(ROOT, "krcloud-args-", sources, {
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  });
  const problems = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${path.basename(d.file?.fileName ?? "")} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
  return { program, names, problems };
}

test("nested inputs take Outputs at every depth", () => {
  const { problems } = compile({
    "nested.ts": `
import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud";
const sealed = new krcloud.kms.Ciphertext("pw", { keyId: "key-1", plaintext: pulumi.secret("s3cret") });
const subnet = pulumi.output("sn-a");
new krcloud.cache.Cluster("sessions", {
  version: "7.0.15", flavorId: "redis.small", parameterGroupId: "pg-1",
  subnetIds: [subnet], securityGroupIds: pulumi.output(["sg-1"]),
  shards: [{ primarySubnetId: subnet, replicaSubnetIds: [subnet] }],
  user: { name: pulumi.output("app"), passwordCiphertext: { keyId: sealed.keyId, ciphertext: sealed.ciphertext } },
  backupSchedule: pulumi.output({ cron: "0 3 * * *" }),
  timeouts: { create: pulumi.output("90m") },
});
const site = new krcloud.objectstorage.Bucket("site", { acl: { public: pulumi.output("read-only" as const), publicReadAllowIpList: [subnet] } });
new krcloud.objectstorage.BucketCors("cors", { bucket: site.name, rules: [{ allowedOrigins: [site.url], allowedMethods: [pulumi.output("GET" as const)] }] });
new krcloud.cache.ParameterGroup("params", { baseParameterGroupId: "default.redis7.0.cluster", parameters: { timeout: pulumi.output("300") } });
`,
  });
  expect(problems).toEqual([]);
});

test("a type error names the class's Args type", () => {
  const { problems } = compile({
    "wrong.ts": `
import * as krcloud from "pulumi-krcloud";
new krcloud.cache.Cluster("sessions", { version: "7.0.15", flavorId: 1, parameterGroupId: "pg-1", subnetIds: ["sn-a"], securityGroupIds: ["sg-1"], shards: [] });
new krcloud.cache.Cluster("missing", { version: "7.0.15", flavorId: "redis.small", parameterGroupId: "pg-1", subnetIds: ["sn-a"], securityGroupIds: ["sg-1"] });
new krcloud.cache.Cluster("nested", { version: "7.0.15", flavorId: "redis.small", parameterGroupId: "pg-1", subnetIds: ["sn-a"], securityGroupIds: ["sg-1"], shards: [], user: { nmae: "app" } });
`,
  });
  expect(problems).toHaveLength(3);
  expect(problems[1]).toMatch(/Property 'shards' is missing in type .* but required in type 'ClusterArgs'/);
  expect(problems[2]).toMatch(/'nmae' does not exist in type .*ClusterUserArgs/);
  for (const p of problems) expect(p).not.toMatch(/InputArgs|AutoNamed|ZodType|z\.input/);
});

test("every property of every args type, nested ones included, has a doc comment", () => {
  const types = allDefinitions().map((d) => {
    const [, module, type] = d.token.split(":");
    return `krcloud.${module}.${type}Args`;
  });
  const { program, names, problems } = compile({
    "docs.ts": `import * as krcloud from "pulumi-krcloud";\n${types.map((t, i) => `export declare const a${i}: ${t};`).join("\n")}\n`,
  });
  expect(problems).toEqual([]);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(names[0]!)!;
  const undocumented: string[] = [];
  const seen = new Set<ts.Type>();
  const walk = (type: ts.Type, where: string): void => {
    for (const t of type.isUnion() ? type.types : [type]) {
      // Into the object types krcloud declares (Input<T> is T | Promise<T> | OutputInstance<T>; arrays' elements).
      const args = checker.getTypeArguments(t as ts.TypeReference);
      if (checker.isArrayType(t)) args.forEach((a) => walk(a, `${where}[]`));
      const decl = t.getSymbol()?.getDeclarations()?.[0];
      if (!decl || !decl.getSourceFile().fileName.includes(`${path.sep}dist${path.sep}provider${path.sep}`) || seen.has(t)) continue;
      seen.add(t);
      for (const p of t.getProperties()) {
        const name = `${where}.${p.getName()}`;
        if (ts.displayPartsToString(p.getDocumentationComment(checker)).trim() === "") undocumented.push(name);
        walk(checker.getNonNullableType(checker.getTypeOfSymbol(p)), name);
      }
    }
  };
  source.statements.filter(ts.isVariableStatement).forEach((s, i) => walk(checker.getTypeAtLocation(s.declarationList.declarations[0]!), types[i]!));
  expect(seen.size).toBeGreaterThan(types.length + 20);
  expect(undocumented).toEqual([]);
});

test("provider/<module>/args.ts is what tools/gen-args.ts makes of schema.json", () => {
  // A process of its own: prettier, which formats the files, loads itself with a dynamic import jest cannot run.
  const r = spawnSync(process.execPath, [entry("genArgs"), "--check"], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
});
