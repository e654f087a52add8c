/**
 * The report as one self-contained HTML page (`--format html`, `--out html=FILE`): nothing is
 * fetched, so a CI run can upload it as an artifact and anyone can open it. A chart of the stacks
 * and resources by status, a table of every resource (sorted by a click on a column, filtered by
 * status, stack and text), and each finding with its property-level differences and the two
 * remedies. A fleet (several stacks, `krcloud-drift merge`) adds a chart of each stack's resources
 * by status; a run with `--policy` adds the pack's findings (policy, level, resource, finding, fix),
 * filtered by the same stack and text. The page reads fully without JavaScript; its one inline
 * script (html-ui/report.ts, compiled into the package) only sorts and filters, and the
 * Content-Security-Policy allows that script alone.
 *
 * The page is a list of sections rendered from the report model, each on its own: a new part of the
 * model (a fleet's stacks, policy findings) is a new entry in SECTIONS.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DriftReport, PolicyViolation, PropertyFinding, ResourceResult, StackReport } from "../model";
import { liveLines, policySummary, splitFix } from "./policy";
import { describeExit, isFinding, seconds, statusWord } from "./text";

/** Text for HTML: every character that could open markup or end an attribute is escaped. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
const e = escapeHtml;

export interface HtmlSection {
  id: string;
  title: string;
  /** The section's HTML, or undefined when the report has nothing for it. */
  render(report: DriftReport): string | undefined;
}

const RESOURCE_STATUSES = ["drifted", "deleted", "unreadable", "pending", "clean", "unverifiable"] as const;
const STACK_STATUSES = ["drift", "partial", "error", "clean"] as const;
const HEADLINE: Readonly<Record<string, string>> = {
  clean: "no drift",
  drift: "drift found",
  partial: "partial: some resources or stacks could not be read",
  error: "the check failed",
};

/** Where a resource's details are, and the stack it belongs to, by its place in the report. */
interface Located {
  stack: StackReport;
  resource: ResourceResult;
  anchor: string;
}

function located(report: DriftReport): Located[] {
  return report.stacks.flatMap((stack, s) => stack.resources.map((resource, r) => ({ stack, resource, anchor: `r-${s}-${r}` })));
}

/** A horizontal bar of counts by status, with its legend. */
function bar(label: string, counts: Array<[string, number]>): string {
  const total = counts.reduce((n, [, c]) => n + c, 0);
  let x = 0;
  const parts = counts
    .filter(([, c]) => c > 0)
    .map(([status, c]) => {
      const width = total === 0 ? 0 : (c / total) * 600;
      const rect = `<rect class="s-${e(status)}" x="${x.toFixed(1)}" y="0" width="${width.toFixed(1)}" height="22"><title>${e(status)}: ${c}</title></rect>`;
      x += width;
      return rect;
    });
  const legend = counts.map(([status, c]) => `<li data-status="${e(status)}"><span class="swatch s-${e(status)}"></span>${e(status)} ${c}</li>`).join("");
  return `<figure class="bar"><figcaption>${e(label)}: ${total}</figcaption><svg viewBox="0 0 600 22" width="600" height="22" role="img" aria-label="${e(label)}">${parts.join("")}</svg><ul class="legend">${legend}</ul></figure>`;
}

/** One row per stack: its resources by status and policy findings (a click on its name filters the page to it). */
function stackChart(report: DriftReport): string {
  const width = 600;
  const rows = report.stacks.map((stack) => {
    const counts = RESOURCE_STATUSES.map((s) => [s, stack.resources.filter((r) => r.status === s).length] as const);
    const total = stack.resources.length;
    let x = 0;
    const rects = counts
      .filter(([, c]) => c > 0)
      .map(([status, c]) => {
        const w = (c / total) * width;
        const rect = `<rect class="s-${status}" x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="16"><title>${e(stack.stack)}: ${status} ${c}</title></rect>`;
        x += w;
        return rect;
      });
    const violations = report.policy?.violations.filter((v) => v.stack === stack.stack).length;
    const words = counts.filter(([, c]) => c > 0).map(([s, c]) => `${s} ${c}`);
    if (violations !== undefined) words.push(`${violations} policy`);
    return `<li data-stack="${e(stack.stack)}" data-status="${e(stack.status)}"><button type="button" class="stack-name" title="show only this stack">${e(stack.stack)}</button><svg viewBox="0 0 ${width} 16" width="${width}" height="16" role="img" aria-label="${e(`${stack.stack}: ${words.join(", ")}`)}">${rects.join("")}</svg><span class="counts">${e(words.join(", "))}</span></li>`;
  });
  return `<figure class="by-stack"><figcaption>resources by stack and status</figcaption><ul id="stack-chart">${rows.join("")}</ul></figure>`;
}

function changedPaths(r: ResourceResult): string {
  if (r.status === "deleted") return "deleted outside Pulumi";
  if (r.status === "unreadable") return r.error?.split("\n")[0] ?? "could not be read";
  const paths = r.properties.map((p) => p.path);
  return paths.length > 0 ? paths.join(", ") : (r.note ?? "");
}

function propertyRow(p: PropertyFinding): string {
  const value = (v: unknown) => (p.secret ? "[secret]" : v === undefined ? "(not set)" : JSON.stringify(v, null, 2));
  const what =
    p.origin === "program"
      ? "a change of the program, not applied yet (not drift)"
      : p.disposition === "ignored"
        ? `ignored by rule ${p.ignoredBy?.rule ?? ""}: ${p.ignoredBy?.reason ?? ""}`
        : p.disposition === "baseline"
          ? "known (in the baseline)"
          : p.secret
            ? "a secret differs: its values are never shown or compared"
            : "new drift";
  return `<tr data-disposition="${e(p.disposition)}" data-origin="${e(p.origin)}"><td><code>${e(p.path)}</code></td><td class="was"><pre>${e(value(p.program))}</pre></td><td class="now"><pre>${e(value(p.cloud))}</pre></td><td>${e(what)}</td></tr>`;
}

function findingArticle({ stack, resource: r, anchor }: Located): string {
  const fix = r.fix
    ? `<div class="fix"><h4>Remedy</h4><p>Revert (put the program's values back in the cloud):</p><pre class="revert">${e(r.fix.revert)}</pre><p>Accept (keep the cloud's values): ${e(r.fix.accept)}</p>${
        r.fix.acceptValues ? `<pre class="accept">${e(JSON.stringify(r.fix.acceptValues, null, 2))}</pre>` : ""
      }</div>`
    : "";
  const properties =
    r.properties.length > 0
      ? `<table class="diff"><thead><tr><th>property</th><th>in the program</th><th>in the cloud</th><th></th></tr></thead><tbody>${r.properties.map(propertyRow).join("")}</tbody></table>`
      : "";
  const notes = [
    r.ignoredBy ? `<p>Ignored by rule ${e(r.ignoredBy.rule)}: ${e(r.ignoredBy.reason)}</p>` : "",
    r.note ? `<p>${e(r.note)}</p>` : "",
    r.error ? `<pre class="error">${e(r.error)}</pre>` : "",
  ].join("");
  return `<article class="finding" id="${anchor}" data-stack="${e(stack.stack)}" data-status="${e(r.status)}"><h3>${e(r.name)} <span class="status s-${e(r.status)}">${e(statusWord(r))}</span></h3><p class="meta">${e(r.type)} in stack ${e(stack.stack)}${r.operation ? `; the next up would ${e(r.operation)} it` : ""}${r.line !== undefined ? `; declared at line ${r.line}` : ""}</p><p class="urn"><code>${e(r.urn)}</code></p>${notes}${properties}${fix}</article>`;
}

function violationRow(v: PolicyViolation): string {
  const { finding, fix } = splitFix(v.message);
  const where = v.managed ? (v.line !== undefined ? `line ${v.line}` : "") : "unmanaged: no stack manages it";
  return `<tr data-stack="${e(v.stack)}" data-level="${v.level}" data-managed="${v.managed}" data-policy="${e(v.policy)}"><td>${e(v.stack)}</td><td>${e(v.name)}${where ? `<br><small>${e(where)}</small>` : ""}</td><td>${e(v.type)}</td><td><code>${e(v.policy)}</code><br><small>${e(`${v.pack} ${v.packVersion}`)}</small></td><td><span class="level l-${v.level}">${v.level}</span></td><td>${e(finding)}</td><td>${e(fix)}</td></tr>`;
}

export const SECTIONS: HtmlSection[] = [
  {
    id: "summary",
    title: "Summary",
    render(report) {
      const resources = report.stacks.flatMap((s) => s.resources);
      return [
        bar(
          "stacks",
          STACK_STATUSES.map((s) => [s, report.stacks.filter((x) => x.status === s).length]),
        ),
        bar(
          "resources",
          RESOURCE_STATUSES.map((s) => [s, resources.filter((r) => r.status === s).length]),
        ),
        report.policy
          ? bar(
              "policy violations",
              (["mandatory", "advisory"] as const).map((l) => [l, report.policy!.violations.filter((v) => v.level === l).length]),
            )
          : "",
        report.stacks.length > 1 ? stackChart(report) : "",
        `<p class="exit">${e(describeExit(report.exitCode))}</p>`,
      ].join("");
    },
  },
  {
    id: "stacks",
    title: "Stacks",
    render(report) {
      const policy = report.policy;
      const violations = (stack: string) => (policy ? `<td class="num">${policy.violations.filter((v) => v.stack === stack).length}</td>` : "");
      const rows = report.stacks.map(
        (s) =>
          `<tr data-stack="${e(s.stack)}" data-status="${e(s.status)}"><td>${e(s.stack)}</td><td>${e(s.project ?? "")}</td><td><span class="status s-${e(s.status)}">${e(s.status)}</span></td><td class="num">${s.counts.resources}</td><td class="num">${s.counts.drifted}</td><td class="num">${s.counts.deleted}</td><td class="num">${s.counts.unreadable}</td><td class="num">${s.counts.ignored}</td><td class="num">${s.counts.baseline}</td>${violations(s.stack)}<td class="num">${e(seconds(s.durationMs))}</td><td>${e(s.error?.split("\n")[0] ?? "")}</td></tr>`,
      );
      return `<table class="stacks" id="stack-table"><thead><tr><th>stack</th><th>project</th><th>status</th><th>resources</th><th>drifted</th><th>deleted</th><th>unreadable</th><th>ignored</th><th>known</th>${policy ? "<th>policy</th>" : ""}<th>time</th><th></th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
    },
  },
  {
    id: "resources",
    title: "Resources",
    render(report) {
      const all = located(report);
      if (all.length === 0) return undefined;
      const rows = all.map(({ stack, resource: r, anchor }) => {
        const name = isFinding(r) || r.status === "pending" ? `<a href="#${anchor}">${e(r.name)}</a>` : e(r.name);
        return `<tr data-stack="${e(stack.stack)}" data-status="${e(r.status)}" data-anchor="${anchor}"><td>${e(stack.stack)}</td><td>${name}</td><td>${e(r.type)}</td><td><span class="status s-${e(r.status)}">${e(statusWord(r))}</span></td><td>${e(changedPaths(r))}</td></tr>`;
      });
      const stacks = report.stacks.map((s) => `<option value="${e(s.stack)}">${e(s.stack)}</option>`).join("");
      const toggles = RESOURCE_STATUSES.map(
        (s) => `<label><input type="checkbox" name="status" value="${s}" checked> ${s} (${all.filter((x) => x.resource.status === s).length})</label>`,
      ).join("");
      return `<form class="filters" id="filters" hidden><input type="search" name="text" placeholder="name, type or property" aria-label="filter text"><select name="stack" aria-label="stack"><option value="">every stack</option>${stacks}</select>${toggles}<output name="shown"></output></form><table class="resources sortable" id="resource-table"><thead><tr><th data-sort="text">stack</th><th data-sort="text">resource</th><th data-sort="text">type</th><th data-sort="status">status</th><th data-sort="text">what differs</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
    },
  },
  {
    id: "policy",
    title: "Policy findings",
    render(report) {
      const p = report.policy;
      if (!p) return undefined;
      const lines = [policySummary(report)!, ...liveLines(report).map((l) => l.trim())].map((l) => `<p>${e(l)}</p>`);
      const error = p.error === undefined ? "" : `<pre class="error">The policy pack did not run to the end: ${e(p.error)}</pre>`;
      if (p.violations.length === 0) return `${lines.join("")}${error}`;
      return `${lines.join("")}${error}<p id="policy-shown" class="shown"></p><table class="policy sortable" id="policy-table"><thead><tr><th data-sort="text">stack</th><th data-sort="text">resource</th><th data-sort="text">type</th><th data-sort="text">policy</th><th data-sort="level">level</th><th data-sort="text">finding</th><th>fix</th></tr></thead><tbody>${p.violations.map(violationRow).join("")}</tbody></table>`;
    },
  },
  {
    id: "findings",
    title: "Drift and remedies",
    render(report) {
      const findings = located(report).filter(({ resource: r }) => isFinding(r) || r.status === "pending");
      return findings.length === 0 ? `<p>No resource drifted, was deleted or could not be read.</p>` : findings.map(findingArticle).join("");
    },
  },
  {
    id: "expired",
    title: "Expired ignore rules",
    render(report) {
      if (report.expiredRules.length === 0) return undefined;
      return `<ul>${report.expiredRules.map((r) => `<li>${e(r.rule)} (${e(r.expires)}): ${e(r.reason)}. Remove it or extend its date.</li>`).join("")}</ul>`;
    },
  },
];

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;color:#1d2430;margin:0;background:#f6f7f9}
header{background:#16202e;color:#fff;padding:.8em 1.4em}header h1{margin:0;font-size:1.3em}header p{margin:.2em 0 0;color:#b7c3d6}
main{padding:1em 1.4em;max-width:1400px}section{margin-bottom:1.6em}h2{font-size:1.1em;border-bottom:1px solid #d8dde6;padding-bottom:.2em}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid #d8dde6;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#eef1f5}th[data-sort]{cursor:pointer}th[aria-sort=ascending]::after{content:" ▲"}th[aria-sort=descending]::after{content:" ▼"}
td.num{text-align:right}pre{margin:0;white-space:pre-wrap;word-break:break-all;font-size:.9em}
.bar{margin:.4em 0}.bar svg{display:block;background:#eef1f5;border-radius:3px;max-width:100%}.legend{list-style:none;padding:0;display:flex;gap:1em;margin:.3em 0}
.swatch{display:inline-block;width:.8em;height:.8em;margin-right:.3em;border-radius:2px}
.s-clean{fill:#2e7d32;background:#2e7d32}.s-drifted,.s-drift{fill:#c62828;background:#c62828}.s-deleted{fill:#6a1b9a;background:#6a1b9a}
.s-unreadable,.s-partial{fill:#ef6c00;background:#ef6c00}.s-error{fill:#8d1c1c;background:#8d1c1c}.s-pending{fill:#1565c0;background:#1565c0}.s-unverifiable{fill:#90a4ae;background:#90a4ae}
span.status{color:#fff;border-radius:8px;padding:0 .5em;font-size:.85em;white-space:nowrap}
.filters{display:flex;flex-wrap:wrap;gap:.8em;align-items:center;margin:.5em 0}.filters input[type=search]{min-width:16em}
.finding{background:#fff;border:1px solid #d8dde6;border-radius:6px;padding:.6em 1em;margin:.8em 0}.finding h3{margin:.2em 0}
.meta,.urn{color:#5d6879;margin:.2em 0}.diff td.was pre{color:#8d1c1c}.diff td.now pre{color:#1b5e20}
.by-stack ul{list-style:none;padding:0;margin:.3em 0}.by-stack li{display:flex;gap:.6em;align-items:center;margin:.15em 0}
.by-stack .stack-name{min-width:10em;text-align:left;background:none;border:0;padding:0;font:inherit;color:#1d4f91;cursor:pointer}.by-stack svg{background:#eef1f5;max-width:60%}.by-stack .counts{color:#5d6879;font-size:.9em}.by-stack li.dim{opacity:.35}
.s-mandatory{fill:#c62828;background:#c62828}.s-advisory{fill:#f9a825;background:#f9a825}span.level{border-radius:8px;padding:0 .5em;font-size:.85em}
.l-mandatory{background:#c62828;color:#fff}.l-advisory{background:#f9a825;color:#1d2430}.policy small{color:#5d6879}
.fix pre{background:#f3f5f8;padding:.5em;border-radius:4px}.error{color:#8d1c1c}[hidden]{display:none!important}
`;

/** The compiled script of html-ui/report.ts, read once. */
let script: string | undefined;
function reportScript(): string {
  script ??= readFileSync(join(__dirname, "html-ui", "report.js"), "utf8");
  return script;
}

function hash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

export function formatHtml(report: DriftReport): string {
  const code = reportScript();
  const csp = `default-src 'none'; script-src ${hash(code)}; style-src ${hash(STYLE)}; img-src data:; base-uri 'none'; form-action 'none'`;
  const stacks = report.stacks.map((s) => s.stack);
  const sections = SECTIONS.flatMap((s) => {
    const body = s.render(report);
    return body === undefined ? [] : [`<section id="${s.id}"><h2>${e(s.title)}</h2>${body}</section>`];
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>krcloud drift report: ${e(HEADLINE[report.status] ?? report.status)}</title>
<style>${STYLE}</style>
</head>
<body data-status="${e(report.status)}">
<header><h1>krcloud drift check: ${e(HEADLINE[report.status] ?? report.status)}</h1><p>${e(stacks.length === 1 ? `stack ${stacks[0]}` : `${stacks.length} stacks`)}, ${e(report.generatedAt)}, ${e(report.tool.name)} ${e(report.tool.version)}, ${e(seconds(report.durationMs))}; exit ${report.exitCode}</p></header>
<main>
${sections.join("\n")}
</main>
<script type="module">${code}</script>
</body>
</html>
`;
}
