/**
 * A planted fleet checked the way teams run one: 6 stacks (about 60 resources) of one project,
 * with 6 policy violations (3 in the stacks' programs' deployed state, 3 made outside Pulumi) and 4
 * drifts planted (tests/harness/engine/fleet.ts), while the local cloud answers 5% of reads with
 * 429 and Retry-After. Checked once unsharded, then by each recipe of examples/fleet driven as its
 * engine drives it (tests/support/fleet/ci-engines.ts): a GitHub Actions matrix of 3 shards with a
 * fan-in job, GitLab `parallel: 3`, a Kubernetes Indexed Job of 4. Acceptance, for every run: every
 * shard finishes; the report finds every planted item and nothing else; a merged report is the
 * unsharded one byte for byte, times aside; the fan-in job writes the merged report's HTML page
 * (every stack, drift and policy finding) and keeps it as an artifact; and the local cloud's request
 * log never holds more requests in a second than the recipe's budget.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { FORMATS } from "../../drift/formats";
import type { DriftReport } from "../../drift/model";
import { startLocalCloud } from "../../local-cloud";
import {
  busiestSecond,
  deployFleet,
  ENGINE_TEST_TIMEOUT_MS,
  fleetFindings,
  fleetPlan,
  plantFleet,
  REPO_ROOT,
  requestsSince,
  type FleetExpectation,
} from "../harness/engine";
import { runDrift } from "../support/drift";
import { runGithubWorkflow, runGitlabPipeline, runKubernetesJobs, shimDir, type EngineContext, type JobRun } from "../support/fleet/ci-engines";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS * 2);

const engine = engineFile({ label: "drift-fleet", project: "fleet", start: () => startLocalCloud({ port: 0, cacheEngine: "simulated" }) });
const STACKS = ["dev-a", "dev-b", "prod-a", "prod-b", "qa", "staging"];
const RECIPES = path.join(REPO_ROOT, "examples", "fleet");

let expected: FleetExpectation;
let ctx: EngineContext;
let infra: string;
/** The unsharded report, times blanked: what every merged report must be. */
let whole: string;

/** The recipes' budget, read from each recipe (they agree). */
const budget = Number((parseYaml(fs.readFileSync(path.join(RECIPES, "github-actions.yml"), "utf8")) as { env: Record<string, string> }).env.REQUEST_BUDGET);

/** A JSON report with the times blanked: what two runs of an unchanged fleet share. */
function timeless(report: DriftReport): string {
  return JSON.stringify(report, (k, v: unknown) => (k === "generatedAt" || k === "durationMs" ? "T" : v), 2);
}

/** Runs `fn` and returns it with the local cloud's requests made meanwhile. */
async function logged<T>(fn: () => Promise<T>): Promise<{ value: T; busiest: number; throttled: number; total: number }> {
  const { lastSeq } = await requestsSince(engine.project, Number.MAX_SAFE_INTEGER);
  const value = await fn();
  const { requests } = await requestsSince(engine.project, lastSeq);
  return { value, busiest: busiestSecond(requests), throttled: requests.filter((r) => r.status === 429).length, total: requests.length };
}

/**
 * The HTML page the fan-in job wrote is the merged report's (the same run: the same times), and it
 * lists every stack, every drifted or deleted resource and every policy finding.
 */
function expectHtmlReport(file: string, merged: DriftReport): void {
  const html = fs.readFileSync(file, "utf8");
  expect(html).toBe(FORMATS.html!(merged));
  const attrs = (re: RegExp) => [...html.matchAll(re)].map((m) => m.slice(1).join(" ")).sort();
  expect(attrs(/<tr data-stack="([^"]+)" data-status="[^"]+"><td>/g)).toEqual([...STACKS].sort());
  expect(attrs(/<article class="finding" id="[^"]+" data-stack="([^"]+)" data-status="(drifted|deleted)">/g)).toEqual(
    expected.drifts.map((d) => d.replace(/ \S+ (\S+)$/, " $1")).sort(),
  );
  expect(attrs(/<tr data-stack="([^"]+)" data-level="[^"]+" data-managed="[^"]+" data-policy="([^"]+)">/g)).toEqual(
    expected.violations
      .map((v) => v.split(" "))
      .map(([policy, , stack]) => `${stack} ${policy}`)
      .sort(),
  );
}

/** Every shard's job succeeded (its findings are in its report); the merging job exits with the fleet's verdict, 4. */
function expectFinished(runs: JobRun[]): void {
  const want = (_r: JobRun, i: number) => (i === runs.length - 1 ? 4 : 0);
  expect(runs.map((r, i) => [r.job, r.code, r.code === want(r, i) ? "" : r.log.slice(-3000)])).toEqual(runs.map((r, i) => [r.job, want(r, i), ""]));
}

beforeAll(async () => {
  const suffix = engine.project.projectId.slice(-8);
  const planned = fleetPlan(STACKS, 8, 6, 4, suffix);
  expected = planned.expected;
  const { dir, stacks } = await deployFleet(engine.sandbox, engine.project, planned.plan, suffix);
  await plantFleet(engine.project, planned.plan, stacks);
  for (const method of ["GET", "HEAD"]) await engine.project.control.addFault({ method, probability: 0.05, action: "error", status: 429, retryAfter: 1 });
  // The repository the recipes check out: the project directory `infra` (with the stacks' config).
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-fleet-repo-"));
  fs.symlinkSync(dir, path.join(repo, "infra"));
  infra = path.join(repo, "infra");
  const env = engine.sandbox.env();
  // The secrets a team stores for the recipes: the backend, its passphrase, an access key of the account.
  const secrets = {
    PULUMI_BACKEND_URL: env.PULUMI_BACKEND_URL!,
    PULUMI_CONFIG_PASSPHRASE: env.PULUMI_CONFIG_PASSPHRASE!,
    KRCLOUD_CREDENTIAL_ID: engine.project.credentialId,
    KRCLOUD_CREDENTIAL_SECRET: engine.project.credentialSecret,
  };
  ctx = { repo, env: { ...env, PATH: `${shimDir()}:${env.PATH}`, HOME: os.homedir() }, secrets };
});

test("unsharded: every planted violation and drift and nothing else, exit 4, under the budget though 5% of reads are throttled", async () => {
  const run = await logged(() =>
    runDrift(engine.sandbox, ["--stack", "*", "--policy", "krcloud", "--request-budget", String(budget), "--format", "json"], { PATH: ctx.env.PATH! }, infra),
  );
  const r = run.value;
  expect(r.stderr).toMatch(/^krcloud-drift: request budget: \d+ request\(s\) paced at 20 per 1\.25 s, \d+ waited/);
  const report = JSON.parse(r.stdout) as DriftReport;
  expect(r.code).toBe(4);
  expect(fleetFindings(report)).toEqual(expected);
  expect(report.stacks.map((s) => s.stack)).toEqual([...STACKS].sort());
  expect(report.stacks.reduce((n, s) => n + s.counts.resources, 0)).toBeGreaterThanOrEqual(54);
  expect(run.throttled).toBeGreaterThan(0);
  expect(run.busiest).toBeLessThanOrEqual(budget);
  // Every merged report below is compared with this one: separate runs of the unchanged fleet print
  // the same bytes apart from times.
  whole = timeless(report);
});

test("GitHub Actions: a matrix of 3 shards, then the fan-in job merging their artifacts: the unsharded report, one SARIF, under the budget", async () => {
  const run = await logged(() => runGithubWorkflow(path.join(RECIPES, "github-actions.yml"), ctx));
  const { runs, summaries, workspaces } = run.value;
  expect(runs.map((r) => r.job)).toEqual(["check (1)", "check (2)", "check (3)", "report"]);
  expectFinished(runs);
  expect(runs[0]!.stoodIn).toEqual([
    "actions/checkout@v4",
    "actions/setup-node@v4",
    "Install (the Pulumi CLI and the project's packages)",
    "Install the project's packages",
  ]);
  // Each shard paced its requests at its share of the budget, and the share held some back.
  const paced = runs.slice(0, 3).map((r) => /request budget: \d+ request\(s\) paced at (\d+) per 1\.25 s, (\d+) waited/.exec(r.log));
  expect(paced.map((m) => m?.[1])).toEqual(["6", "6", "6"]);
  expect(paced.reduce((n, m) => n + Number(m?.[2] ?? 0), 0)).toBeGreaterThan(0);
  const merged = JSON.parse(fs.readFileSync(path.join(workspaces.report!, "drift.json"), "utf8")) as DriftReport;
  expect(fleetFindings(merged)).toEqual(expected);
  expect(timeless(merged)).toBe(whole);
  expect(summaries[3]).toContain("## krcloud drift check: drift found");
  expect(JSON.parse(fs.readFileSync(path.join(workspaces.report!, "drift.sarif"), "utf8")).runs[0].results.length).toBeGreaterThan(0);
  expect(fs.readdirSync(path.join(run.value.artifacts, "krcloud-fleet-report"))).toEqual(["drift.html"]);
  expectHtmlReport(path.join(run.value.artifacts, "krcloud-fleet-report", "drift.html"), merged);
  expect(run.busiest).toBeLessThanOrEqual(budget);
});

test("GitLab CI: parallel: 3 with CI_NODE_INDEX/CI_NODE_TOTAL, artifacts to the report job: the unsharded report, under the budget", async () => {
  const run = await logged(() => runGitlabPipeline(path.join(RECIPES, "gitlab-ci.yml"), ctx));
  const { runs, workspaces } = run.value;
  expect(runs.map((r) => r.job)).toEqual(["krcloud-drift 1/3", "krcloud-drift 2/3", "krcloud-drift 3/3", "krcloud-drift-report"]);
  expectFinished(runs);
  const merged = JSON.parse(fs.readFileSync(path.join(workspaces["krcloud-drift-report"]!, "drift.json"), "utf8")) as DriftReport;
  expect(timeless(merged)).toBe(whole);
  expect(fs.readFileSync(path.join(workspaces["krcloud-drift-report"]!, "drift.xml"), "utf8")).toContain('<testsuite name="policy" tests="6"');
  expect(run.value.artifacts["krcloud-drift-report"]).toEqual(["drift.html", "drift.json"]);
  expectHtmlReport(path.join(workspaces["krcloud-drift-report"]!, "drift.html"), merged);
  expect(run.busiest).toBeLessThanOrEqual(budget);
});

test("Kubernetes: an Indexed Job of 4 (JOB_COMPLETION_INDEX, a shared volume), then the merge Job: the unsharded report, under the budget", async () => {
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-k8s-reports-"));
  const run = await logged(() => runKubernetesJobs(path.join(RECIPES, "k8s-indexed-job.yaml"), ctx, { reports }));
  expect(run.value.map((r) => r.job)).toEqual(["krcloud-drift-0", "krcloud-drift-1", "krcloud-drift-2", "krcloud-drift-3", "krcloud-drift-merge"]);
  expectFinished(run.value);
  expect(fs.readdirSync(reports).sort()).toEqual(["merged.html", "merged.json", "shard-1.json", "shard-2.json", "shard-3.json", "shard-4.json"]);
  const merged = JSON.parse(fs.readFileSync(path.join(reports, "merged.json"), "utf8")) as DriftReport;
  expectHtmlReport(path.join(reports, "merged.html"), merged);
  expect(timeless(merged)).toBe(whole);
  expect(run.busiest).toBeLessThanOrEqual(budget);
});
