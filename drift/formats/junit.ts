/**
 * JUnit XML, for CI systems that render test reports: a test suite per stack, a test case per
 * resource. Drift and deletions that fail the check are failures; ignored, known (baseline) drift
 * and resources with nothing to compare are skipped, with the reason; an unreadable resource or a
 * stack that could not be checked is an error; everything else passes.
 */
import { XMLBuilder } from "fast-xml-parser";
import type { DriftReport, ResourceResult, StackReport } from "../model";
import { show } from "../values";
import { resourceWord } from "./policy";
import { propertySentence, statusWord } from "./text";

// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const clean = (s: string) => s.replace(NOT_XML, "?");

type Case = Record<string, unknown>;

function caseOf(r: ResourceResult): Case {
  const c: Case = { "@_name": r.name, "@_classname": r.type };
  const drift = r.properties.filter((p) => p.origin !== "program");
  const details = [
    `urn: ${r.urn}`,
    ...(r.note ? [r.note] : []),
    ...drift.map(
      (p) => propertySentence(p) + (p.disposition === "ignored" ? ` (ignored: ${p.ignoredBy?.reason})` : p.disposition === "baseline" ? " (known)" : ""),
    ),
    ...(r.fix ? [`revert: ${r.fix.revert}`, `accept: ${r.fix.accept}`] : []),
  ].join("\n");
  const summary = drift.length > 0 ? `${statusWord(r)}: ${drift.map((p) => p.path).join(", ")}` : statusWord(r);
  if (r.status === "unreadable") {
    c.error = {
      "@_message": clean(`could not be read: ${r.error?.split("\n")[0] ?? ""}`),
      "@_type": "unreadable",
      "#text": clean(`urn: ${r.urn}\n${r.error ?? ""}`),
    };
  } else if ((r.status === "drifted" || r.status === "deleted") && r.disposition === "new") {
    c.failure = { "@_message": clean(summary), "@_type": r.status === "deleted" ? "deleted" : "drift", "#text": clean(details) };
  } else if (r.status === "drifted" || r.status === "deleted") {
    const why = r.disposition === "ignored" ? `ignored by rule ${r.ignoredBy?.rule}: ${r.ignoredBy?.reason}` : "known drift (in the baseline)";
    c.skipped = { "@_message": clean(`${summary}; ${why}`) };
    c["system-out"] = clean(details);
  } else if (r.status === "unverifiable") {
    c.skipped = { "@_message": clean(`not checked: ${r.note ?? ""}`) };
  } else if (r.status === "pending") {
    c["system-out"] = clean(
      [
        `pending (not drift): ${r.note ?? "the program changed since the last up"}`,
        ...r.properties.map((p) => `${p.path}: ${show(p.cloud)} -> ${show(p.program)}`),
      ].join("\n"),
    );
  }
  return c;
}

function suiteOf(s: StackReport): Record<string, unknown> {
  const cases = s.resources.map(caseOf);
  if (s.error) {
    cases.push({
      "@_name": "(stack)",
      "@_classname": "pulumi:pulumi:Stack",
      error: { "@_message": clean(s.error.split("\n")[0] ?? ""), "@_type": s.status === "error" ? "stack-error" : "incomplete", "#text": clean(s.error) },
    });
  }
  const count = (k: string) => cases.filter((c) => c[k] !== undefined).length;
  return {
    "@_name": s.stack,
    "@_tests": cases.length,
    "@_failures": count("failure"),
    "@_errors": count("error"),
    "@_skipped": count("skipped"),
    "@_time": (s.durationMs / 1000).toFixed(3),
    properties: {
      property: [
        { "@_name": "status", "@_value": s.status },
        ...(s.project ? [{ "@_name": "project", "@_value": s.project }] : []),
        ...(s.programFile ? [{ "@_name": "programFile", "@_value": s.programFile }] : []),
      ],
    },
    testcase: cases,
  };
}

/**
 * The policy findings as one more suite: a case per violation, failed when mandatory; an advisory
 * one passes with its finding as output (it does not fail the check); a pack that did not run to
 * the end is an error.
 */
function policySuite(report: DriftReport): Record<string, unknown> | undefined {
  const p = report.policy;
  if (!p) return undefined;
  const cases: Case[] = p.violations.map((v) => {
    const c: Case = { "@_name": `${v.policy} ${resourceWord(v)}`, "@_classname": v.type };
    const text = clean(`stack: ${v.stack}\nurn: ${v.urn}\n${v.message}`);
    if (v.level === "mandatory") c.failure = { "@_message": clean(v.message.split("\n")[0] ?? ""), "@_type": v.policy, "#text": text };
    else c["system-out"] = clean(`advisory: ${text}`);
    return c;
  });
  if (p.error !== undefined)
    cases.push({
      "@_name": "(policy pack)",
      "@_classname": "policy",
      error: { "@_message": clean(p.error.split("\n")[0] ?? ""), "@_type": "policy-error", "#text": clean(p.error) },
    });
  const count = (k: string) => cases.filter((c) => c[k] !== undefined).length;
  return {
    "@_name": "policy",
    "@_tests": cases.length,
    "@_failures": count("failure"),
    "@_errors": count("error"),
    "@_skipped": 0,
    "@_time": "0.000",
    testcase: cases,
  };
}

export function formatJunit(report: DriftReport): string {
  const policy = policySuite(report);
  const suites = [...report.stacks.map(suiteOf), ...(policy ? [policy] : [])];
  const sum = (k: string) => suites.reduce((a, s) => a + (s[k] as number), 0);
  const doc = {
    testsuites: {
      "@_name": "krcloud-drift",
      "@_tests": sum("@_tests"),
      "@_failures": sum("@_failures"),
      "@_errors": sum("@_errors"),
      "@_skipped": sum("@_skipped"),
      "@_time": (report.durationMs / 1000).toFixed(3),
      testsuite: suites,
    },
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", format: true, suppressEmptyNode: true, processEntities: true });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build(doc)}`;
}
