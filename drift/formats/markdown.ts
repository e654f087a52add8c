/**
 * A Markdown job summary (append it to `$GITHUB_STEP_SUMMARY`): the stacks with their counts and
 * times, then per stack a table of the findings and, folded, the two fixes of each resource.
 */
import type { DriftReport, ResourceResult, StackReport } from "../model";
import { show } from "../values";
import { liveLines, policySummary } from "./policy";
import { describeExit, seconds, statusWord } from "./text";

/** Text for a table cell: pipes escaped, one line. */
function cell(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** Inline code that survives backticks inside. */
function code(s: string): string {
  const fence = s.includes("`") ? "``" : "`";
  return `${fence}${fence.length > 1 ? " " : ""}${s}${fence.length > 1 ? " " : ""}${fence}`;
}

const HEADLINE: Readonly<Record<string, string>> = {
  clean: "no drift",
  drift: "drift found",
  partial: "partial: some resources, stacks or services could not be read",
  error: "the check failed",
};

function findingRows(r: ResourceResult): string[] {
  const name = code(r.name);
  if (r.status === "drifted") {
    return r.properties
      .filter((p) => p.origin !== "program")
      .map((p) => {
        const state = p.disposition === "ignored" ? `ignored: ${p.ignoredBy?.reason ?? ""}` : p.disposition === "baseline" ? "known (baseline)" : "**new**";
        const v = (x: unknown) => (p.secret ? "[secret]" : code(show(x, 80)));
        return `| ${name} | ${cell(r.type)} | ${code(p.path)} | ${v(p.cloud)} | ${v(p.program)} | ${cell(state)} |`;
      });
  }
  if (r.status === "deleted") {
    const state = r.disposition === "ignored" ? `ignored: ${r.ignoredBy?.reason ?? ""}` : r.disposition === "baseline" ? "known (baseline)" : "**new**";
    return [`| ${name} | ${cell(r.type)} | (deleted outside Pulumi) | – | declared | ${cell(state)} |`];
  }
  if (r.status === "unreadable") return [`| ${name} | ${cell(r.type)} | (could not be read) | – | – | ${cell(r.error?.split("\n")[0] ?? "error")} |`];
  return [];
}

function stackSection(s: StackReport): string[] {
  const out = [`### ${cell(s.stack)}: ${s.status}`, ""];
  if (s.error) out.push(`> ${cell(s.error.split("\n").slice(0, 5).join(" "))}`, "");
  const rows = s.resources.flatMap(findingRows);
  if (rows.length > 0) out.push("| resource | type | property | cloud | program | |", "|---|---|---|---|---|---|", ...rows, "");
  else if (s.status !== "error") out.push("No drift.", "");
  const fixes = s.resources.filter((r) => r.fix && r.disposition === "new");
  for (const r of fixes) {
    out.push(
      `<details><summary>Fix ${cell(r.name)} (${cell(statusWord(r))})</summary>`,
      "",
      "Revert (put the program's values back):",
      "",
      "```sh",
      r.fix!.revert,
      "```",
      "",
      `Accept: ${r.fix!.accept}`,
      "",
      "</details>",
      "",
    );
  }
  const pending = s.resources.filter((r) => r.status === "pending");
  if (pending.length > 0) out.push(`Pending program changes (not drift): ${pending.map((r) => code(r.name)).join(", ")}.`, "");
  return out;
}

function policySection(report: DriftReport): string[] {
  const p = report.policy;
  if (!p && !report.live) return [];
  const out = ["### Policy", ""];
  out.push(...liveLines(report).map((l) => cell(l.trim())), "");
  if (p) {
    out.push(policySummary(report)!, "");
    if (p.violations.length > 0) {
      out.push("| stack | resource | type | level | policy | finding |", "|---|---|---|---|---|---|");
      for (const v of p.violations) {
        const level = v.level === "mandatory" ? "**mandatory**" : "advisory";
        out.push(
          `| ${cell(v.stack)} | ${code(v.name)}${v.managed ? "" : " (unmanaged)"} | ${cell(v.type)} | ${level} | ${code(v.policy)} | ${cell(v.message)} |`,
        );
      }
      out.push("");
    }
    if (p.error !== undefined) out.push(`> The policy pack did not run to the end: ${cell(p.error)}`, "");
  }
  return out;
}

export function formatMarkdown(report: DriftReport): string {
  const out = [
    `## krcloud drift check: ${HEADLINE[report.status] ?? report.status}`,
    "",
    "| stack | status | resources | drifted | deleted | unreadable | ignored | known | not checked | time |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...report.stacks.map(
      (s) =>
        `| ${cell(s.stack)} | ${s.status} | ${s.counts.resources} | ${s.counts.drifted} | ${s.counts.deleted} | ${s.counts.unreadable} | ${s.counts.ignored} | ${s.counts.baseline} | ${s.counts.unverifiable} | ${seconds(s.durationMs)} |`,
    ),
    "",
  ];
  for (const s of report.stacks) out.push(...stackSection(s));
  out.push(...policySection(report));
  for (const e of report.expiredRules) out.push(`**Expired ignore rule** ${cell(e.rule)} (${e.expires}): ${cell(e.reason)}. Remove it or extend its date.`, "");
  out.push(describeExit(report.exitCode), "");
  return out.join("\n");
}
