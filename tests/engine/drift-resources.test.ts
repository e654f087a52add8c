/**
 * krcloud-drift through the real engine on one stack holding every krcloud resource type: the
 * drift-all stack, generated from the registry (every type's zero-diff base resources, its fixture's
 * `zeroDiffSpec.base`, through the dynamic-class program tests/programs/zero-diff), plus three
 * cases of the report's own: a bucket whose metadata is one secret, an object deleted behind
 * Pulumi's back, a query on the data source. Every type is drifted together as its fixture says
 * (`drift`: a recipe through the control API, a change through the public API, or why the check
 * cannot see one). The check must name each resource with the properties its drift changed,
 * report the deleted object as deleted, show secrets only as [secret], say that the types it
 * cannot verify keep nothing to compare, and change nothing (state files and mutating requests
 * counted before and after).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startLocalCloud } from "../../local-cloud";
import { DataQueryClient } from "../../client/dataquery";
import { ENGINE_TEST_TIMEOUT_MS, logicalName, md5, REPO_ROOT, SECRET_SIG, type StateResource } from "../harness/engine";
import { backendDigest, driftedPaths, mutatingRequests, parseReport, resourceNamed, runDrift } from "../support/drift";
import { findDefinition } from "../../provider/registry";
import { engineFile } from "../harness/engine/engine-file";
import { fixtureOf, resourceTypes, tokenOf, type DriftContext } from "../resources";
import { DEFACED } from "../resources/objectstorage/bucket-object";
import {
  baseSpec,
  prepareCloud,
  sdkSettings,
  secretValues,
  typesOf,
  writeDynamicSpec,
  type CloudFixture,
  type SecretValues,
  type Spec,
} from "../support/zero-diff";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const PROGRAM = path.join(REPO_ROOT, "tests", "programs", "zero-diff");
/** The prefix of the logical names of the resources the fixtures declare. */
const P = "dr";
/** The vault bucket's secret metadata value (metadata values are printable ASCII). */
const VAULT_OWNER = `Vault-${Date.now().toString(36)}-owner`;

let fx: CloudFixture;
let s: SecretValues;
let spec: Spec;
let stack: Stack;
let dir: string;

// Simulated cache nodes: drift is about records, and they settle at once.
const engine = engineFile({ label: "drift-resources", project: "driftall", start: () => startLocalCloud({ port: 0, cacheEngine: "simulated" }) });

/**
 * Every type's zero-diff base resources, and the report's own cases: `vault`, a bucket whose
 * metadata is a secret as a whole; `about`, an object to delete behind Pulumi's back; `revenue`, a
 * query on the data source by name (replaced with it).
 */
function driftAllSpec(): Spec {
  const base = baseSpec(fx, s, P);
  return {
    resources: [
      ...base.resources,
      { name: "vault", type: "krcloud:objectstorage:Bucket", properties: { metadata: { "fn::secret": { owner: VAULT_OWNER } } } },
      {
        name: "about",
        type: "krcloud:objectstorage:BucketObject",
        properties: { bucket: `\${${P}-bucket.name}`, key: "about.html", content: "<h1>about</h1>\n", contentType: "text/html" },
      },
      {
        name: "revenue",
        type: "krcloud:dataquery:Query",
        properties: {
          query: "select count(*) as n from orders",
          dataSource: `\${${P}-ds.name}`,
          database: "shop",
          bucketName: `\${${P}-results.name}`,
          path: "reports",
        },
        options: { dependsOn: [`${P}-ds`] },
      },
    ],
  };
}

beforeAll(async () => {
  fx = await prepareCloud(engine.project);
  s = secretValues("drift");
  spec = driftAllSpec();
  dir = engine.sandbox.copyProgram(PROGRAM, "drift-all");
  writeDynamicSpec(dir, spec);
  stack = await engine.stack(dir, "all");
  await stack.up({ color: "never" });
});

const byName = (resources: StateResource[], name: string) => resources.find((r) => r.urn.endsWith(`::${name}`))!;
const unverifiable = (token: string) => findDefinition(token)?.unverifiable !== undefined;

test("the drift-all stack holds every registered resource type", () => {
  expect([...typesOf(spec)].sort()).toEqual(resourceTypes().sort());
});

test("a clean stack of every type: exit 0, every resource listed, the types the check cannot verify said so", async () => {
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "all", "--format", "json"]);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  const [report] = parseReport(r.stdout).stacks;
  expect([...new Set(report!.resources.map((x) => x.type))].sort()).toEqual(resourceTypes().sort());
  // Clean, but where the definition says the cloud keeps nothing to compare (`unverifiable`).
  const expected = (token: string) => (findDefinition(token)?.unverifiable ? "unverifiable" : "clean");
  expect(report!.resources.map((x) => [x.name, x.status])).toEqual(report!.resources.map((x) => [x.name, expected(x.type)]));
  expect(report!.resources).toHaveLength(spec.resources.length);
});

test("every type drifted at once as its fixture says: each reported with the properties its drift changed; secrets only as [secret]; nothing changed", async () => {
  const state = (await stack.exportStack()).deployment.resources as StateResource[];
  const control = engine.project.control;
  const find = (name: string) => byName(state, name);
  const ctx: DriftContext = { control, settings: sdkSettings(engine.project), fx, s };

  // Every resource the fixtures declared, as its type's fixture drifts it.
  const expected = new Map<string, string[]>();
  for (const r of state.filter((x) => logicalName(x.urn).startsWith(`${P}-`) && tokenOf(x.type) !== undefined)) {
    const d = fixtureOf(tokenOf(r.type)!).drift;
    if ("recipe" in d) expected.set(logicalName(r.urn), await d.recipe.drift(control, r));
    else if ("change" in d) expected.set(logicalName(r.urn), await d.change(ctx, r));
  }
  expect(expected.size).toBeGreaterThan(10);
  // The report's own cases.
  await control.deleteResource("object-storage", "object", find("about").id!);
  await control.patchResource("object-storage", "bucket", find("vault").id!, { metadata: null });
  // KMS: a rotated key changes nothing the check can see.
  await control.patchResource("kms", "key", fx.keyId, { rotate: true });

  const digest = backendDigest(engine.sandbox.backendDir);
  const mutating = await mutatingRequests(engine.cloud.controlUrl);
  const outDir = path.join(engine.sandbox.root, "reports");
  const started = Date.now();
  const r = await runDrift(engine.sandbox, [
    "--cwd",
    dir,
    "--stack",
    "all",
    "--format",
    "json",
    ...["table", "sarif", "junit", "github", "markdown"].map((f) => `--out=${f}=${path.join(outDir, `drift.${f}`)}`),
  ]);
  const seconds = (Date.now() - started) / 1000;
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: "" });

  // Read-only: no state file written, no mutating request sent.
  expect(backendDigest(engine.sandbox.backendDir)).toEqual(digest);
  expect(await mutatingRequests(engine.cloud.controlUrl)).toEqual(mutating);

  const report = parseReport(r.stdout);
  const st = report.stacks[0]!;
  expect(st.status).toBe("drift");
  const row = (name: string) => resourceNamed(st, name);
  // Each drifted resource: the properties its fixture's drift changed, and only those.
  const top = (p: string) => p.split(/[.[]/)[0]!;
  const seen = [...expected.keys()].map((name) => [name, row(name).status, [...new Set(driftedPaths(row(name)).map(([p]) => top(p)))].sort()]);
  expect(seen).toEqual([...expected].map(([name, properties]) => [name, "drifted", [...properties].sort()]));
  // What the check cannot verify is said so, for every resource of those types.
  for (const x of st.resources.filter((y) => unverifiable(y.type) && y.name.startsWith(`${P}-`))) expect([x.name, x.status]).toEqual([x.name, "unverifiable"]);
  expect(row(`${P}-cipher`).note).toContain("the cloud keeps nothing to compare with");

  // Values as the cloud and the program have them.
  expect(driftedPaths(row(`${P}-object`))).toEqual([["contentMd5", md5(DEFACED), undefined]]);
  expect(driftedPaths(row(`${P}-hadoop`))).toEqual([["workerCnt", 5, 3]]);
  // A secret is flagged, never shown; which side moved cannot be told without comparing it.
  expect(row("vault")).toMatchObject({
    status: "drifted",
    properties: [{ path: "metadata", cloud: "[secret]", program: "[secret]", secret: true, origin: "unknown" }],
  });
  expect(row("about")).toMatchObject({ status: "deleted", operation: "create", disposition: "new" });
  // Every change of a data source replaces it.
  expect(row(`${P}-ds`)).toMatchObject({ status: "drifted", operation: "replace" });
  // The query runs on the data source by name: the data source's replacement gets a new name
  // (created before the old one is deleted), so the query is replaced too, a consequence of the
  // program (pending), not drift of the query.
  const shopName = find(`${P}-ds`).id!;
  expect(row("revenue")).toMatchObject({ status: "pending", operation: "replace" });
  const renamed = row("revenue").properties.find((p) => p.path === "dataSource");
  expect(renamed).toMatchObject({ origin: "program", cloud: shopName });
  expect(typeof renamed?.program).toBe("string");
  expect(renamed?.program).not.toBe(shopName);

  // Both ways out, for each drifted resource.
  expect(row(`${P}-hadoop`).fix).toMatchObject({ acceptValues: { workerCnt: 5 }, revert: expect.stringContaining(`--target '${row(`${P}-hadoop`).urn}'`) });

  // Every format from the one run; none holds a secret value, its Base64 or a secret envelope.
  const files = fs.readdirSync(outDir).sort();
  expect(files).toEqual(["drift.github", "drift.junit", "drift.markdown", "drift.sarif", "drift.table"]);
  for (const text of [r.stdout, ...files.map((f) => fs.readFileSync(path.join(outDir, f), "utf8"))]) {
    for (const secret of [...Object.values(s), VAULT_OWNER]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(Buffer.from(secret).toString("base64"));
    }
    expect(text).not.toContain(SECRET_SIG);
  }
  const table = fs.readFileSync(path.join(outDir, "drift.table"), "utf8");
  expect(table).toContain("  metadata: secret, not compared");
  expect(table).toContain("  workerCnt: cloud 5, program 3");
  process.stdout.write(`drift check of ${st.resources.length} resources (${resourceTypes().length} types) took ${seconds.toFixed(1)} s\n`);
});

test("`pulumi up` after that drift puts the program back: the data source is replaced under a new name before the old one is deleted, the query with it; then nothing drifted", async () => {
  const before = (await stack.exportStack()).deployment.resources as StateResource[];
  const oldShop = byName(before, `${P}-ds`).id!;
  const up = await stack.up({ color: "never", refresh: true });
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toMatchObject({ replace: 2 });

  const after = (await stack.exportStack()).deployment.resources as StateResource[];
  const newShop = byName(after, `${P}-ds`).id!;
  expect(newShop).not.toBe(oldShop);
  expect(byName(after, "revenue").inputs?.dataSource).toBe(newShop);
  const names = (await new DataQueryClient({ settings: sdkSettings(engine.project) }).listDataSources()).map((d) => d.name);
  expect(names).toEqual([newShop]);

  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "all", "--format", "json"]);
  const [report] = parseReport(r.stdout).stacks;
  expect(report!.resources.filter((x) => x.status !== "clean" && x.status !== "unverifiable").map((x) => [x.name, x.status])).toEqual([]);
  expect(r.code).toBe(0);
});
