/**
 * The zero-diff suite's specs and their rendering (re-exported by index.ts): every krcloud
 * resource type with its inputs, minimal (`baseSpec`) or with every optional property set once
 * (`variedSpec`), each type's resources declared by its fixture (`zeroDiffSpec` in
 * tests/resources/<module>/<noun>.ts); what they need in the local cloud (`prepareCloud`), the
 * distinctive secret values they carry (`secretValues`), written as `spec.json` for the
 * dynamic-class program or as a Pulumi YAML program for the native plugin.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { fixtureOf, resourceTypes, type ResourceFixture } from "../../resources";
import type { ZeroDiffContext } from "../../resources/fixture";
import type { CloudProject } from "../../harness/engine";

export interface SpecResource {
  /** Logical name. */
  name: string;
  /** The krcloud token. */
  type: string;
  /** Inputs; `${name.prop}` strings are references, `{"fn::fileAsset": p}` / `{"fn::stringAsset": t}` assets. */
  properties: Record<string, unknown>;
  options?: { dependsOn?: string[] };
}

export interface Spec {
  resources: SpecResource[];
}

/** The distinctive value of every secret-bearing input (and where it goes). */
export interface SecretValues {
  cacheClusterPassword: string;
  instanceSetPassword: string;
  dataSourcePassword: string;
  hadoopAdminPassword: string;
  metastorePassword: string;
  kmsPlaintext: string;
}

/**
 * Values no other text of a run contains by chance, each with characters that URL-encoding and
 * Base64 change (`/`, `+`, a space, a non-ASCII letter), so the three forms of each differ.
 */
export function secretValues(label: string): SecretValues {
  const v = (what: string) => `zdS/${label}-${what}+${randomBytes(9).toString("hex")} é`;
  return {
    cacheClusterPassword: v("cluster-pw"),
    instanceSetPassword: v("iset-pw"),
    dataSourcePassword: v("ds-pw"),
    hadoopAdminPassword: v("hadoop-admin"),
    metastorePassword: v("metastore-pw"),
    kmsPlaintext: v("kms-plain"),
  };
}

/** What a spec needs in the local cloud (made through the control API, as a real project has them). */
export interface CloudFixture {
  keyId: string;
  /** A MySQL database instance (data source base variant). */
  mysqlInstance: string;
  /** A PostgreSQL database instance with database `analytics` holding `orders` (varied variant). */
  pgInstance: string;
}

export async function prepareCloud(p: CloudProject): Promise<CloudFixture> {
  const fx: CloudFixture = {
    keyId: `zd-key-${p.projectId.slice(-6)}`,
    mysqlInstance: `zd-mysql-${p.projectId.slice(-6)}`,
    pgInstance: `zd-pg-${p.projectId.slice(-6)}`,
  };
  await p.control.patchResource("kms", "key", fx.keyId, { projectId: p.projectId, type: "symmetric" });
  const orders = "CREATE TABLE orders(id INTEGER, region VARCHAR, amount INTEGER); INSERT INTO orders VALUES (1, 'kr-central', 120), (2, 'jp-east', 60);";
  await p.control.patchResource("data-query", "instance", fx.mysqlInstance, { projectId: p.projectId, engine: "mysql", databases: { shop: orders } });
  await p.control.patchResource("data-query", "instance", fx.pgInstance, { projectId: p.projectId, engine: "postgresql", databases: { analytics: orders } });
  return fx;
}

/** The cache engine version, flavor and parameter groups of the specs and of the resources made outside Pulumi. */
export { CLUSTER_GROUP, FLAVOR, VERSION } from "../../resources/cache/cluster";
export { STANDALONE_GROUP } from "../../resources/cache/instance-set";

/**
 * Every type with minimal inputs: auto-named where a name may be omitted, defaults everywhere.
 * `p` prefixes the logical names (one stack may hold more than one spec).
 */
export function baseSpec(fx: CloudFixture, s: SecretValues, p = "zd"): Spec {
  return specOf((f) => f.zeroDiffSpec.base(contextOf(fx, s, p)));
}

/**
 * Every type with every optional property set once where the local cloud can honour it: unicode in
 * descriptions, object keys and contents, lifecycle ids and prefixes; empty lists and maps (a
 * folder's metadata, an empty header list, empty triggers and parameters); lists and map keys in
 * an order the service may not keep (subnets, security groups, CORS methods, parameters,
 * configuration properties, triggers); a lower-case-answered version spelled in mixed case; a
 * user script with CRLF line endings. Not set, with the reason: `restoreFromBackup` and
 * `restoreFrom` (they need a backup made first: tests/local covers restores), `primaryInstanceId`
 * (it names an instance that exists only after the create, and needs high availability off),
 * `metastore.dataCatalogId` (exclusive with `metastore.mysql`, which is set).
 *
 * `tag` makes the explicit names unique (bucket names are global): a letter then at most 5 more
 * characters. Empty descriptions are not tried: the local cloud refuses them (`a non-empty string is
 * required`), although the spec does not say so and check accepts them.
 */
export function variedSpec(fx: CloudFixture, s: SecretValues, tag: string, assetFile: string, p = "zv"): Spec {
  const timeouts = { create: "20m", update: "15m", delete: "10m" };
  return specOf((f) => f.zeroDiffSpec.varied({ ...contextOf(fx, s, p), tag, assetFile, timeouts }));
}

function contextOf(fx: CloudFixture, s: SecretValues, p: string): ZeroDiffContext {
  return {
    fx,
    s,
    ref: (name, prop) => `\${${p}-${name}.${prop}}`,
    r: (name, type, properties, options) => ({ name: `${p}-${name}`, type, properties, ...(options ? { options } : {}) }),
  };
}

/**
 * The resources every type's fixture declares (`part`), each fixture's together, in the package's
 * order of types, except that a fixture whose resources refer to another's (`${name.prop}`,
 * `dependsOn`) comes after it: the dynamic program makes them in the order given.
 */
function specOf(part: (f: ResourceFixture) => SpecResource[]): Spec {
  const groups = resourceTypes().map((type) => part(fixtureOf(type)));
  const owner = new Map(groups.flatMap((g, i) => g.map((r) => [r.name, i] as const)));
  const refers = (g: SpecResource[]) =>
    new Set(g.flatMap((r) => [...JSON.stringify(r.properties).matchAll(/\$\{([^.}]+)\./g)].map((m) => m[1]!).concat(r.options?.dependsOn ?? [])));
  const order: number[] = [];
  const visit = (i: number, path: number[]) => {
    if (order.includes(i)) return;
    if (path.includes(i)) throw new Error(`the zero-diff resources of ${[...path, i].map((j) => resourceTypes()[j]).join(" -> ")} refer to each other`);
    for (const name of refers(groups[i]!)) {
      const j = owner.get(name);
      if (j === undefined) throw new Error(`a zero-diff resource of ${resourceTypes()[i]} refers to "${name}", which no fixture declares`);
      if (j !== i) visit(j, [...path, i]);
    }
    order.push(i);
  };
  groups.forEach((_g, i) => visit(i, []));
  return { resources: order.flatMap((i) => groups[i]!) };
}

export function typesOf(spec: Spec): Set<string> {
  return new Set(spec.resources.map((r) => r.type));
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** The dynamic program (tests/programs/zero-diff) reads `spec.json` beside its index.js. */
export function writeDynamicSpec(programDir: string, spec: Spec): void {
  fs.writeFileSync(path.join(programDir, "spec.json"), JSON.stringify(spec, null, 2));
}

/**
 * A Pulumi YAML program declaring the spec (Pulumi.yaml in JSON syntax, which is YAML). Secret
 * inputs stay plain values, as YAML programs write them: the plugin makes them secret.
 */
export function writeYamlProgram(dir: string, project: string, spec: Spec): void {
  fs.mkdirSync(dir, { recursive: true });
  const resources: Record<string, unknown> = {};
  for (const r of spec.resources) {
    resources[r.name] = {
      type: r.type,
      properties: r.properties,
      ...(r.options?.dependsOn ? { options: { dependsOn: r.options.dependsOn.map((n) => `\${${n}}`) } } : {}),
    };
  }
  const outputs = Object.fromEntries(spec.resources.map((r) => [r.name, `\${${r.name}.id}`]));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), JSON.stringify({ name: project, runtime: "yaml", resources, outputs }, null, 2));
}
