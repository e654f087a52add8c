/**
 * GitHub Actions workflow commands: an annotation per finding (`::warning file=…,line=…::…` for
 * drift that fails the check, `::notice` for ignored and known drift, `::error` for what could not
 * be read), shown on the run's summary page and, for files of the commit, next to the program's
 * line. Values are escaped as the Actions toolkit escapes them.
 */
import type { DriftReport, StackReport } from "../model";
import { locationOf, resourceWord } from "./policy";
import { propertySentence } from "./text";

/** The message part: `%`, CR and LF escaped. */
export function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A property value: also `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function command(kind: "error" | "warning" | "notice", props: Record<string, string | number | undefined>, message: string): string {
  const p = Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(",");
  return `::${kind}${p ? ` ${p}` : ""}::${escapeData(message)}`;
}

function linesOf(s: StackReport): string[] {
  const out: string[] = [];
  const at = (line?: number) => ({ file: s.programFile, line: s.programFile ? (line ?? 1) : undefined });
  for (const r of s.resources) {
    const head = `${r.name} (${r.type}, stack ${s.stack})`;
    if (r.status === "drifted") {
      for (const p of r.properties) {
        if (p.origin === "program") continue;
        const kind = p.disposition === "new" ? "warning" : "notice";
        const why =
          p.disposition === "ignored"
            ? ` Ignored by rule ${p.ignoredBy?.rule}: ${p.ignoredBy?.reason}.`
            : p.disposition === "baseline"
              ? " Known (baseline)."
              : "";
        const fix = r.fix && p.disposition === "new" ? `\nRevert: ${r.fix.revert}\nAccept: ${r.fix.accept}` : "";
        out.push(command(kind, { ...at(r.line), title: `krcloud drift: ${r.name} ${p.path}` }, `${head}: ${propertySentence(p)}.${why}${fix}`));
      }
    } else if (r.status === "deleted") {
      const kind = r.disposition === "new" ? "warning" : "notice";
      const fix = r.fix && r.disposition === "new" ? `\nRevert: ${r.fix.revert}\nAccept: ${r.fix.accept}` : "";
      out.push(command(kind, { ...at(r.line), title: `krcloud drift: ${r.name} deleted` }, `${head} was deleted outside Pulumi.${fix}`));
    } else if (r.status === "unreadable") {
      out.push(command("error", { ...at(r.line), title: `krcloud drift: ${r.name} unreadable` }, `${head} could not be read: ${r.error ?? ""}`));
    }
  }
  if (s.error) out.push(command("error", { title: `krcloud drift: stack ${s.stack} ${s.status === "error" ? "failed" : "incomplete"}` }, s.error));
  return out;
}

/** A violation: `::error` when mandatory, `::warning` when advisory, at the resource's line for a managed one. */
function policyCommands(report: DriftReport): string[] {
  const p = report.policy;
  if (!p) return [];
  const out = p.violations.map((v) =>
    command(
      v.level === "mandatory" ? "error" : "warning",
      { ...locationOf(report, v), title: `krcloud policy: ${v.policy} ${v.name}` },
      `${resourceWord(v)} (${v.type}, stack ${v.stack}) breaks ${v.policy} [${v.level}]: ${v.message}`,
    ),
  );
  if (p.error !== undefined) out.push(command("error", { title: "krcloud policy: the pack did not run to the end" }, p.error));
  for (const e of report.live?.errors ?? []) out.push(command("error", { title: `krcloud policy: ${e.service} not read` }, e.error));
  return out;
}

export function formatGithub(report: DriftReport): string {
  const lines = [...report.stacks.flatMap(linesOf), ...policyCommands(report)];
  for (const e of report.expiredRules) {
    lines.push(
      command(
        "error",
        { title: "krcloud drift: expired ignore rule" },
        `ignore rule ${e.rule} expired on ${e.expires} (${e.reason}): remove it or extend its expires date`,
      ),
    );
  }
  return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}
