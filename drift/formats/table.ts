/** The human-readable report: one row per finding, then the details and the fixes of each. */
import type { DriftReport, PropertyFinding, ResourceResult, StackReport } from "../model";
import { show } from "../values";
import { liveLines, policySummary, resourceWord } from "./policy";
import { describeExit, seconds, statusWord } from "./text";

function propertyCell(p: PropertyFinding): string {
  const tag = p.origin === "program" ? " (program)" : p.disposition === "ignored" ? " (ignored)" : p.disposition === "baseline" ? " (known)" : "";
  return `${p.path}${p.secret ? " [secret]" : ""}${tag}`;
}

function rowsOf(s: StackReport): string[][] {
  const interesting = s.resources.filter((r) => r.status !== "clean" && r.status !== "unverifiable");
  if (s.status === "error") return [[s.stack, "-", "-", "error", "see below"]];
  if (interesting.length === 0) return [[s.stack, "-", "-", "-", "no drift"]];
  return interesting.map((r) => [
    s.stack,
    r.name,
    r.type,
    statusWord(r),
    r.properties.map(propertyCell).join(", ") || r.note || r.error?.split("\n")[0] || "-",
  ]);
}

function detailLines(r: ResourceResult): string[] {
  const out = [`  urn: ${r.urn}`];
  if (r.ignoredBy) out.push(`  ignored by rule ${r.ignoredBy.rule}: ${r.ignoredBy.reason}`);
  if (r.note) out.push(`  ${r.note}`);
  if (r.error) out.push(...r.error.split("\n").map((l) => `  ${l}`));
  for (const p of r.properties) {
    const what = p.secret ? "secret, not compared" : `cloud ${show(p.cloud)}, program ${show(p.program)}`;
    const tag =
      p.origin === "program"
        ? " (a change of the program not applied yet: not drift)"
        : p.disposition === "ignored"
          ? ` (ignored by rule ${p.ignoredBy?.rule}: ${p.ignoredBy?.reason})`
          : p.disposition === "baseline"
            ? " (known: in the baseline)"
            : "";
    out.push(`  ${p.path}: ${what}${tag}`);
  }
  if (r.fix) out.push(`  revert: ${r.fix.revert}`, `  accept: ${r.fix.accept}`);
  return out;
}

/** The policy violations: a row each, then each one's URN and message. */
function policyLines(report: DriftReport): string[] {
  const p = report.policy;
  if (!p) return [];
  const out: string[] = [""];
  if (p.violations.length === 0 && p.error === undefined) out.push("Policy: no violation.");
  if (p.violations.length > 0) {
    const head = ["STACK", "RESOURCE", "TYPE", "LEVEL", "POLICY"];
    const rows = p.violations.map((v) => [v.stack, resourceWord(v), v.type, v.level, v.policy]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ");
    out.push(line(head), ...rows.map(line));
    for (const v of p.violations) out.push("", `${v.stack}: ${resourceWord(v)} (${v.type}) ${v.policy} [${v.level}]`, `  urn: ${v.urn}`, `  ${v.message}`);
  }
  if (p.error !== undefined) out.push("", "policy: the pack did not run to the end", ...p.error.split("\n").map((l) => `  ${l}`));
  return out;
}

export function formatTable(report: DriftReport): string {
  const rows = report.stacks.flatMap(rowsOf);
  const head = ["STACK", "RESOURCE", "TYPE", "STATUS", "PROPERTIES"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ");
  const out = [line(head), ...rows.map(line)];

  for (const s of report.stacks) {
    for (const r of s.resources) {
      if (r.status === "clean" || r.status === "unverifiable") continue;
      out.push("", `${s.stack}: ${r.name} (${r.type}) ${statusWord(r)}${r.operation ? `, up would ${r.operation} it` : ""}`, ...detailLines(r));
    }
    if (s.error) out.push("", `${s.stack}: ${s.status === "error" ? "error" : "incomplete"}`, ...s.error.split("\n").map((l) => `  ${l}`));
  }
  for (const e of report.expiredRules)
    out.push("", `ignore rule ${e.rule} expired on ${e.expires} (reason: ${e.reason}): remove it or extend its expires date`);

  out.push(...policyLines(report));
  const n = (st: string) => report.stacks.filter((s) => s.status === st).length;
  const unverifiable = report.stacks.reduce((a, s) => a + s.counts.unverifiable, 0);
  out.push(
    "",
    `${report.stacks.length} stack(s) checked in ${seconds(report.durationMs)} (${report.stacks.map((s) => `${s.stack} ${seconds(s.durationMs)}`).join(", ")}): ${n("drift")} with drift, ${n("partial")} partial, ${n("error")} failed.`,
  );
  if (unverifiable > 0) out.push(`${unverifiable} resource(s) keep no server state to compare (KMS ciphertexts and data keys, data queries): not checked.`);
  out.push(...liveLines(report));
  const summary = policySummary(report);
  if (summary) out.push(summary);
  out.push(describeExit(report.exitCode));
  return `${out.join("\n")}\n`;
}
