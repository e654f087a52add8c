/**
 * The policy pack against what the cloud holds now. A production stack (`prod`) manages a private,
 * encrypted bucket; behind its back the bucket is made public through the control API, and a cache
 * cluster is created outside Pulumi with no replica. Acceptance: `krcloud-drift --state-out` writes
 * a state file, without a secret, that `pulumi policy analyze --file` (run here as a user would)
 * judges, finding exactly those two; `krcloud-drift --policy krcloud` finds the same, exits 4 (a
 * mandatory violation) and reports them in every format: SARIF with the rule ids and levels.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv from "ajv";
import { PACK_DIR } from "../../policy";
import { FORMATS } from "../../drift/formats";
import { REPORT_SCHEMA } from "../../drift/schema";
import { startLocalCloud } from "../../local-cloud";
import { backedUpCluster, ENGINE_TEST_TIMEOUT_MS, providerConfig, resourcesOfType, runPulumi } from "../harness/engine";
import { EngineResource } from "../support/local-cloud";
import { parseReport, runDrift } from "../support/drift";
import { engineFile, jsProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "drift-policy", project: "driftpolicy", start: () => startLocalCloud({ port: 0, cacheEngine: "simulated" }) });

let dir: string;
let bucketUrn: string;
const BUCKET_RULE = "krcloud-bucket-public-without-allow-list";
const REPLICA_RULE = "krcloud-cache-replica-in-production";

beforeAll(async () => {
  const name = `data-${engine.project.projectId.slice(-8)}`;
  dir = engine.program("live", jsProgram("driftpolicy", [`new krcloud.objectstorage.Bucket("data", { name: "${name}", encryption: { type: "managed" } });`]));
  const stack = await engine.stack(dir, "prod");
  await stack.up({ color: "never" });
  const bucket = resourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket")[0]!;
  bucketUrn = bucket.urn;

  await engine.project.control.patchResource("object-storage", "bucket", bucket.id!, { acl: { public: "read-only" } });
  // Made by hand: a cluster whose one shard has no replica (backups and TLS as the rules want them).
  const cluster = new EngineResource("krcloud:cache:Cluster");
  await cluster.configure(Object.fromEntries(Object.entries(providerConfig(engine.project)).map(([k, v]) => [k, v.value])));
  await cluster.up(backedUpCluster("hand-made"), "hand-made");
});

test("--state-out: a state file of the managed and the unmanaged resources, no secret in it, that pulumi policy analyze --file judges", async () => {
  const file = path.join(engine.sandbox.root, "live-state.json");
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "prod", "--state-out", file, "--format", "json"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(`krcloud-drift: wrote 1 managed and 1 unmanaged resource(s) to ${file}\n`);
  const text = fs.readFileSync(file, "utf8");
  for (const secret of [engine.project.token, engine.project.credentialSecret]) expect(text).not.toContain(secret);
  const state = JSON.parse(text).deployment.resources as { urn: string; type: string; inputs: Record<string, any> }[];
  expect(state.map((x) => x.urn)).toEqual([bucketUrn, "urn:pulumi:prod::driftpolicy::krcloud:cache:Cluster::hand-made"]);
  // The bucket as refresh read it: public now.
  expect(state[0]!.inputs.acl).toEqual({ public: "read-only" });
  expect(Object.keys(state[0]!.inputs).filter((k) => k.startsWith("__"))).toEqual([]);

  const { stdout } = await runPulumi(engine.sandbox, ["policy", "analyze", "--file", file, "--policy-pack", PACK_DIR, "--json"], dir).catch(
    (e: { stdout: string }) => e,
  );
  const found = stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l).policyEvent)
    .filter(Boolean)
    .map((p: { policyName: string; resourceUrn: string; enforcementLevel: string }) => [p.policyName, p.resourceUrn.split("::").pop(), p.enforcementLevel])
    .sort();
  expect(found).toEqual([
    [BUCKET_RULE, "data", "mandatory"],
    [REPLICA_RULE, "hand-made", "mandatory"],
  ]);
});

test("--policy krcloud: the same two violations, exit 4, in every format (SARIF: the rule ids and levels; HTML: a row per violation with its fix)", async () => {
  const out = (f: string) => path.join(engine.sandbox.root, "policy-out", `drift.${f}`);
  const r = await runDrift(engine.sandbox, [
    "--cwd",
    dir,
    "--stack",
    "prod",
    "--policy",
    "krcloud",
    "--format",
    "json",
    ...["table", "sarif", "junit", "github", "markdown", "html"].flatMap((f) => ["--out", `${f}=${out(f)}`]),
  ]);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 4, stderr: "" });
  const report = parseReport(r.stdout);
  const validate = new Ajv({ strict: true, formats: { "date-time": true } }).compile(REPORT_SCHEMA);
  expect(validate(report) || validate.errors).toBe(true);
  expect(report).toMatchObject({ exitCode: 4, drift: true, live: { managed: 1, unmanaged: 1, errors: [] } });
  expect(report.policy!.packs).toEqual([{ name: "krcloud", version: expect.any(String) }]);
  expect(report.policy!.violations.map((v) => [v.policy, v.name, v.level, v.managed, v.stack])).toEqual([
    [REPLICA_RULE, "hand-made", "mandatory", false, "prod"],
    [BUCKET_RULE, "data", "mandatory", true, "prod"],
  ]);
  expect(report.policy!.violations[1]!.line).toBe(3);

  const sarif = JSON.parse(fs.readFileSync(out("sarif"), "utf8")).runs[0];
  const rules = Object.fromEntries(sarif.tool.driver.rules.map((x: any) => [x.id, x.defaultConfiguration.level]));
  expect(rules).toMatchObject({ [BUCKET_RULE]: "error", [REPLICA_RULE]: "error" });
  const results = sarif.results.filter((x: any) => x.ruleId.startsWith("krcloud-"));
  expect(results.map((x: any) => [x.ruleId, x.level, x.properties.managed])).toEqual([
    [REPLICA_RULE, "error", false],
    [BUCKET_RULE, "error", true],
  ]);
  expect(results[1].locations[0].physicalLocation.region.startLine).toBe(3);
  expect(sarif.invocations[0].exitCode).toBe(4);

  expect(fs.readFileSync(out("table"), "utf8")).toMatch(
    new RegExp(`^prod\\s+hand-made \\(unmanaged\\)\\s+krcloud:cache:Cluster\\s+mandatory\\s+${REPLICA_RULE}$`, "m"),
  );
  expect(fs.readFileSync(out("table"), "utf8")).toContain("Exit 4: a mandatory policy violation.");
  expect(fs.readFileSync(out("junit"), "utf8")).toMatch(new RegExp(`<testsuite name="policy" tests="2" failures="2"`));
  expect(fs.readFileSync(out("github"), "utf8")).toContain(`::error title=krcloud policy%3A ${REPLICA_RULE} hand-made::`);
  expect(fs.readFileSync(out("markdown"), "utf8")).toContain("2 policy violation(s) (krcloud ");
  // The HTML page is the report's, its policy section a row per violation with the rule's fix.
  const html = fs.readFileSync(out("html"), "utf8");
  expect(html).toBe(FORMATS.html!(report));
  const rows = [...html.matchAll(/<tr data-stack="prod" data-level="(\w+)" data-managed="(\w+)" data-policy="([^"]+)">[\s\S]*?<td>([^<]*)<\/td><\/tr>/g)];
  expect(rows.map((m) => [m[3], m[1], m[2], m[4]!.length > 0])).toEqual([
    [REPLICA_RULE, "mandatory", "false", true],
    [BUCKET_RULE, "mandatory", "true", true],
  ]);
});
