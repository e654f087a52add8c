/** Wording of the policy findings (`--policy`) and the live state, shared by the formats. */
import type { DriftReport, PolicyViolation } from "../model";

/** `site`, or `site (unmanaged)` for what no stack manages. */
export function resourceWord(v: PolicyViolation): string {
  return v.managed ? v.name : `${v.name} (unmanaged)`;
}

/** `2 policy violation(s) (krcloud 0.1.0): 1 mandatory, 1 advisory.` */
export function policySummary(report: DriftReport): string | undefined {
  const p = report.policy;
  if (!p) return undefined;
  const packs = p.packs.map((x) => `${x.name} ${x.version}`).join(", ") || "the policy pack";
  const mandatory = p.violations.filter((v) => v.level === "mandatory").length;
  return `${p.violations.length} policy violation(s) (${packs}): ${mandatory} mandatory, ${p.violations.length - mandatory} advisory.`;
}

/** `Live state: 40 managed and 2 unmanaged resource(s) read.` plus what could not be read. */
export function liveLines(report: DriftReport): string[] {
  const l = report.live;
  if (!l) return [];
  return [`Live state: ${l.managed} managed and ${l.unmanaged} unmanaged resource(s) read.`, ...l.errors.map((e) => `  ${e.service}: not read: ${e.error}`)];
}

/** Where a violation of a managed resource points: its stack's program file and the resource's line. */
export function locationOf(report: DriftReport, v: PolicyViolation): { file?: string; line?: number } {
  if (!v.managed) return {};
  const file = report.stacks.find((s) => s.stack === v.stack)?.programFile;
  return file ? { file, line: v.line ?? 1 } : {};
}

/**
 * A violation's message as its finding and its fix: the pack's rules end each message with
 * `Fix: …` (policy/rules.ts); a pack of one's own may not, and then the fix is empty.
 */
export function splitFix(message: string): { finding: string; fix: string } {
  const at = message.lastIndexOf(" Fix: ");
  return at < 0 ? { finding: message, fix: "" } : { finding: message.slice(0, at), fix: message.slice(at + " Fix: ".length) };
}
