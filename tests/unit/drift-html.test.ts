/**
 * krcloud-drift's HTML report (drift/formats/html.ts) as text: one file that fetches nothing, whose
 * only script is the one its Content-Security-Policy names by hash, with every name and value
 * escaped. What it shows in a browser, and that its filters work there, is tested with Chromium in
 * tests/browser/drift-report.test.ts.
 */
import { createHash } from "node:crypto";
import { FORMATS } from "../../drift/formats";
import { escapeHtml, SECTIONS } from "../../drift/formats/html";
import type { DriftReport } from "../../drift/model";
import { buildReport, stackReport } from "../../drift/report";
import { DYNAMIC, previewEvents } from "../support/drift/events";

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
