/**
 * krcloud-drift's HTML report (drift/formats/html.ts) as text: one file that fetches nothing, whose
 * only script is the one its Content-Security-Policy names by hash, with every name and value
 * escaped; a merged fleet's report with the policy pack's findings holds every stack and finding.
 * What it shows in a browser, and that its filters work there, is tested with Chromium in
 * tests/browser/demo.test.ts and tests/browser/drift-fleet-report.test.ts.
 */
import { createHash } from "node:crypto";
import { FORMATS } from "../../drift/formats";
import { mergeReports } from "../../drift/fleet";
import { escapeHtml, SECTIONS } from "../../drift/formats/html";
import { splitFix } from "../../drift/formats/policy";
import type { DriftReport } from "../../drift/model";
import { buildReport, stackReport } from "../../drift/report";
import { DYNAMIC, previewEvents } from "../support/drift/events";
import { FLEET_STACKS, FLEET_VIOLATIONS, fleetShard, MARKUP as FLEET_MARKUP } from "../support/drift/fleet-report";

const BUCKET = DYNAMIC("krcloud:objectstorage:Bucket");
const MARKUP = `<script>window.planted = 1</script>"'&`;

function report(): DriftReport {
  const site = { name: "site-1", acl: { public: "read-only" }, metadata: { note: "plain" } };
  const events = previewEvents(
    [
      { name: "site", type: BUCKET, op: "update", before: site, after: { ...site, acl: { public: "deny" }, metadata: { note: MARKUP } }, program: site },
      { name: "logs", type: BUCKET, op: "create", before: { name: "logs-1" }, after: undefined, program: { name: "logs-1" } },
      { name: "quiet", type: BUCKET, op: "same", before: { name: "q" }, after: { name: "q" }, program: { name: "q" } },
    ],
    "prod",
  );
  const now = new Date("2026-11-20T10:00:00Z");
  const ctx = { workDir: "/nowhere", sourceRoot: "/nowhere", cwdForCommands: "infra", rules: [], baseline: new Set<string>(), now };
  return buildReport([stackReport({ stack: "prod", events, durationMs: 900, previewFailed: false }, ctx)], {
    version: "9.9.9",
    startedAt: 0,
    finishedAt: 1000,
    now,
    rules: [],
  });
}

test("html is a format of --format and --out", () => {
  expect(Object.keys(FORMATS)).toContain("html");
});

test("the page is one file: no address outside it, its script and style allowed by hash and nothing else", () => {
  const html = FORMATS.html!(report());
  expect(html).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//i);
  expect(html).not.toMatch(/<link\b/i);
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#39;/g, "'");
  const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
  expect(scripts).toHaveLength(1);
  expect(styles).toHaveLength(1);
  const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
  expect(csp).toBe(`default-src 'none'; script-src ${sha(scripts[0]!)}; style-src ${sha(styles[0]!)}; img-src data:; base-uri 'none'; form-action 'none'`);
});

test("every name and value from the cloud is escaped: markup in a drifted value stays text", () => {
  const html = FORMATS.html!(report());
  expect(html).not.toContain("<script>window.planted");
  expect(html).toContain(escapeHtml(JSON.stringify(MARKUP)));
  expect(escapeHtml(`<a href="x">'&`)).toBe("&#60;a href=&#34;x&#34;&#62;&#39;&#38;");
});

test("the page holds a section per part of the model, the findings with both values of each drifted property", () => {
  const r = report();
  const html = FORMATS.html!(r);
  for (const s of SECTIONS) if (s.render(r) !== undefined) expect(html).toContain(`<section id="${s.id}">`);
  const site = /<article class="finding" id="[^"]+" data-stack="prod" data-status="drifted">([\s\S]*?)<\/article>/.exec(html)?.[1];
  expect(site).toContain("<code>acl.public</code>");
  expect(site).toMatch(/<td class="was"><pre>&#34;read-only&#34;<\/pre><\/td><td class="now"><pre>&#34;deny&#34;<\/pre>/);
  expect(site).toContain('class="revert"');
  expect(html).toMatch(/data-status="deleted"/);
});

/** The fleet's two shards merged, as `krcloud-drift merge` does. */
function fleet(): DriftReport {
  return mergeReports([1, 2].map((i) => ({ file: `shard-${i}.json`, report: fleetShard(i) })));
}

/** The rows of a table of the page, by its id: each row's data attributes and cells' text. */
function rowsOf(html: string, id: string): Array<{ data: Record<string, string>; cells: string[] }> {
  const body = new RegExp(`<table[^>]* id="${id}"[^>]*>[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(html)?.[1] ?? "";
  return [...body.matchAll(/<tr([^>]*)>([\s\S]*?)<\/tr>/g)].map((m) => ({
    data: Object.fromEntries([...m[1]!.matchAll(/data-([a-z]+)="([^"]*)"/g)].map((d) => [d[1]!, d[2]!])),
    cells: [...m[2]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, " ").trim()),
  }));
}

test("a merged fleet's page: every stack in the stacks' table and the chart by stack, each with its resources by status", () => {
  const r = fleet();
  expect(r.stacks.map((s) => s.stack)).toEqual(FLEET_STACKS);
  // Both shards hold stacks: the merge combined two reports, not one.
  expect([1, 2].map((i) => fleetShard(i).stacks.length).every((n) => n > 0)).toBe(true);
  const html = FORMATS.html!(r);
  expect(html).toMatch(/<header><h1>krcloud drift check: [^<]+<\/h1><p>4 stacks, /);
  expect(rowsOf(html, "stack-table").map((row) => [row.data.stack, row.data.status, row.cells[9]])).toEqual([
    ["dev", "clean", "1"],
    ["prod-a", "drift", "1"],
    ["prod-b", "drift", "1"],
    ["staging", "drift", "1"],
  ]);
  const chart = [...html.matchAll(/<li data-stack="([^"]+)" data-status="([^"]+)">[\s\S]*?<span class="counts">([^<]*)<\/span><\/li>/g)].map((m) => m.slice(1));
  expect(chart).toEqual([
    ["dev", "clean", "clean 2, 1 policy"],
    ["prod-a", "drift", "drifted 1, clean 1, 1 policy"],
    ["prod-b", "drift", "drifted 1, clean 1, 1 policy"],
    ["staging", "drift", "deleted 1, clean 1, 1 policy"],
  ]);
  expect(html).toMatch(/<figcaption>policy violations: 4<\/figcaption>/);
  // The stack filter offers every stack.
  expect([...html.matchAll(/<option value="([^"]+)">/g)].map((m) => m[1])).toEqual(FLEET_STACKS);
});

test("the policy findings section: each violation with its policy, level, resource, finding and fix, sortable; markup stays text", () => {
  const html = FORMATS.html!(fleet());
  expect(html).toContain('<section id="policy"><h2>Policy findings</h2><p>4 policy violation(s) (krcloud 0.1.0): 2 mandatory, 2 advisory.</p>');
  expect(html).toContain("<p>Live state: 8 managed and 1 unmanaged resource(s) read.</p>");
  const rows = rowsOf(html, "policy-table");
  expect(rows.map((row) => [row.data.stack, row.data.policy, row.data.level, row.data.managed])).toEqual(
    FLEET_VIOLATIONS.map((v) => [v.stack, v.policy, v.level, String(v.managed)]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
  );
  const prodA = rows.find((row) => row.data.stack === "prod-a")!;
  expect(prodA.cells[4]).toBe("mandatory");
  expect(prodA.cells[5]).toBe(escapeHtml(splitFix(FLEET_VIOLATIONS[0]!.message).finding));
  expect(prodA.cells[6]).toBe("set acl.publicReadAllowIpList to the addresses that may read.");
  const unmanaged = rows.find((row) => row.data.managed === "false")!;
  expect(unmanaged.cells[1]).toContain("unmanaged: no stack manages it");
  expect(html).toMatch(/<table class="policy sortable" id="policy-table"><thead><tr><th data-sort="text">stack<\/th>.*<th data-sort="level">level<\/th>/);
  expect(html).not.toContain(FLEET_MARKUP);
  expect(html).not.toMatch(/<img\b/);
  expect(html).toContain(escapeHtml(`made-by-hand${FLEET_MARKUP}`));
});

test("a policy run that found nothing or failed says so; a report without --policy has no policy section or column", () => {
  const r = fleet();
  const clean = FORMATS.html!({ ...r, policy: { packs: r.policy!.packs, violations: [] } });
  expect(clean).toContain("<p>0 policy violation(s) (krcloud 0.1.0): 0 mandatory, 0 advisory.</p>");
  expect(clean).not.toContain('id="policy-table"');
  const failed = FORMATS.html!({ ...r, policy: { ...r.policy!, error: "pulumi policy analyze: <exit 1>" } });
  expect(failed).toContain('<pre class="error">The policy pack did not run to the end: pulumi policy analyze: &#60;exit 1&#62;</pre>');
  const { policy: _policy, live: _live, ...plain } = r;
  const html = FORMATS.html!(plain);
  expect(html).not.toContain('<section id="policy">');
  expect(html).not.toContain("<th>policy</th>");
  expect(html).not.toContain("1 policy</span>");
  // One stack: no chart by stack (the summary's bars say it all).
  expect(FORMATS.html!(report())).not.toContain('id="stack-chart"');
});

test('a message\'s fix is what follows its last "Fix:"; a message without one has no fix', () => {
  expect(splitFix('Bucket "a": public. Fix: set acl. Fix: or not.')).toEqual({ finding: 'Bucket "a": public. Fix: set acl.', fix: "or not." });
  expect(splitFix("something is wrong")).toEqual({ finding: "something is wrong", fix: "" });
});
