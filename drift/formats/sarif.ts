/**
 * SARIF 2.1.0 for code scanning (GitHub's upload-sarif and others): one result per drifted
 * property, per deleted and per unreadable resource, located at the line of the program file that
 * declares the resource (the resource's URN as its logical location). Rule ids and fingerprints are
 * stable across runs: the identity fingerprint is the resource's URN and property path, so the
 * same drift stays the same alert; the full fingerprint adds both values (the baseline's).
 * Ignored drift carries an external suppression with the rule's reason; with a baseline, results
 * say whether they are new or unchanged (`baselineState`). With `--policy`, each rule that found
 * something is a SARIF rule of its own (the policy's id, its enforcement level as the default level:
 * mandatory `error`, advisory `warning`) and each violation a result, at the program's line for a
 * managed resource, by URN alone for an unmanaged one.
 */
import { createHash } from "node:crypto";
import { EXIT, type DriftReport, type PolicyViolation, type PropertyFinding, type ResourceResult, type StackReport } from "../model";
import { propertySentence } from "./text";

/** A SARIF reportingDescriptor, its fields in the order the report has always written them. */
function rule(id: string, name: string, short: string, full: string, level: "warning" | "error", tags: readonly string[]) {
  return { id, name, shortDescription: { text: short }, fullDescription: { text: full }, defaultConfiguration: { level }, properties: { tags } };
}

const RULES = [
  rule(
    "drift/property-changed",
    "PropertyChangedOutsidePulumi",
    "A property of a managed resource was changed outside Pulumi",
    "Refresh read a value from the cloud that differs from what the Pulumi program declares, and the state shows the change did not come from the program. Revert it with the targeted `pulumi up --refresh` in the result, or accept it by putting the cloud's value in the program.",
    "warning",
    ["drift", "iac"],
  ),
  rule(
    "drift/resource-deleted",
    "ResourceDeletedOutsidePulumi",
    "A managed resource was deleted outside Pulumi",
    "Refresh found the resource gone. `pulumi up` would create it again; to accept the deletion, remove it from the program.",
    "warning",
    ["drift", "iac"],
  ),
  rule(
    "drift/resource-unreadable",
    "ResourceUnreadable",
    "A managed resource could not be read",
    "The provider's read failed (after its retries), so the resource could not be checked for drift; the rest of the stack was.",
    "error",
    ["drift"],
  ),
] as const;

const RULE_INDEX: Readonly<Record<string, number>> = Object.fromEntries(RULES.map((r, i) => [r.id, i]));

function identity(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 32);
}

function location(s: StackReport, r: ResourceResult) {
  const loc: Record<string, unknown> = {
    logicalLocations: [{ name: r.name, fullyQualifiedName: r.urn, kind: "resource" }],
  };
  if (s.programFile) {
    loc.physicalLocation = { artifactLocation: { uri: s.programFile, uriBaseId: "%SRCROOT%" }, region: { startLine: r.line ?? 1 } };
  }
  return loc;
}

function disposition(
  d: ResourceResult["disposition"] | PropertyFinding["disposition"],
  ignoredBy: ResourceResult["ignoredBy"],
  withBaseline: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = { level: d === "new" ? "warning" : "note" };
  if (withBaseline) out.baselineState = d === "baseline" ? "unchanged" : "new";
  if (d === "ignored" && ignoredBy)
    out.suppressions = [{ kind: "external", status: "accepted", justification: `ignore rule ${ignoredBy.rule}: ${ignoredBy.reason}` }];
  return out;
}

function fixText(r: ResourceResult): string {
  return r.fix ? ` Revert: \`${r.fix.revert}\`. Accept: ${r.fix.accept}.` : "";
}

function resultsOf(s: StackReport, withBaseline: boolean): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const r of s.resources) {
    const head = `${r.name} (${r.type}, stack ${s.stack})`;
    const common = { stack: s.stack, urn: r.urn, type: r.type };
    if (r.status === "drifted") {
      for (const p of r.properties) {
        if (p.origin === "program") continue;
        const id = identity(r.urn, p.path);
        out.push({
          ruleId: RULES[0].id,
          ruleIndex: RULE_INDEX[RULES[0].id],
          ...disposition(p.disposition, p.ignoredBy, withBaseline),
          message: { text: `${head}: ${propertySentence(p)}.${fixText(r)}` },
          locations: [location(s, r)],
          partialFingerprints: { primaryLocationLineHash: id, "krcloudDriftIdentity/v1": id },
          fingerprints: { "krcloudDrift/v1": p.fingerprint },
          properties: { ...common, path: p.path, cloud: p.cloud, program: p.program, secret: p.secret === true, revert: r.fix?.revert, accept: r.fix?.accept },
        });
      }
    } else if (r.status === "deleted") {
      const id = identity(r.urn, "(deleted)");
      out.push({
        ruleId: RULES[1].id,
        ruleIndex: RULE_INDEX[RULES[1].id],
        ...disposition(r.disposition, r.ignoredBy, withBaseline),
        message: { text: `${head} was deleted outside Pulumi.${fixText(r)}` },
        locations: [location(s, r)],
        partialFingerprints: { primaryLocationLineHash: id, "krcloudDriftIdentity/v1": id },
        fingerprints: { "krcloudDrift/v1": r.fingerprint ?? id },
        properties: { ...common, revert: r.fix?.revert, accept: r.fix?.accept },
      });
    } else if (r.status === "unreadable") {
      const id = identity(r.urn, "(unreadable)");
      out.push({
        ruleId: RULES[2].id,
        ruleIndex: RULE_INDEX[RULES[2].id],
        level: "error",
        message: { text: `${head} could not be read: ${r.error ?? "unknown error"}` },
        locations: [location(s, r)],
        partialFingerprints: { primaryLocationLineHash: id, "krcloudDriftIdentity/v1": id },
        properties: common,
      });
    }
  }
  return out;
}

/** A rule per policy that found something: its id, the pack's description of it, its level as the default. */
function policyRules(report: DriftReport) {
  const seen = new Map<string, PolicyViolation>();
  for (const v of report.policy?.violations ?? []) if (!seen.has(v.policy)) seen.set(v.policy, v);
  return [...seen.values()].map((v) => ({
    id: v.policy,
    name: v.policy,
    shortDescription: { text: `${v.policy} (policy pack ${v.pack} ${v.packVersion})` },
    fullDescription: {
      text: `A rule of the policy pack ${v.pack}, run on what the cloud holds now (managed and unmanaged resources). Enforcement: ${v.level}.`,
    },
    defaultConfiguration: { level: levelOf(v) },
    properties: { tags: ["policy", v.pack], enforcementLevel: v.level, "problem.severity": v.level === "mandatory" ? "error" : "warning" },
  }));
}

function levelOf(v: PolicyViolation): "error" | "warning" {
  return v.level === "mandatory" ? "error" : "warning";
}

function policyResults(report: DriftReport, firstRule: number): Record<string, unknown>[] {
  const index = new Map(policyRules(report).map((r, i) => [r.id, firstRule + i]));
  return (report.policy?.violations ?? []).map((v) => {
    const stack = report.stacks.find((s) => s.stack === v.stack);
    const loc: Record<string, unknown> = { logicalLocations: [{ name: v.name, fullyQualifiedName: v.urn, kind: "resource" }] };
    if (v.managed && stack?.programFile) {
      loc.physicalLocation = { artifactLocation: { uri: stack.programFile, uriBaseId: "%SRCROOT%" }, region: { startLine: v.line ?? 1 } };
    }
    const id = identity(v.policy, v.urn);
    return {
      ruleId: v.policy,
      ruleIndex: index.get(v.policy),
      level: levelOf(v),
      message: { text: `${v.name} (${v.type}, stack ${v.stack}${v.managed ? "" : ", unmanaged"}): ${v.message}` },
      locations: [loc],
      partialFingerprints: { primaryLocationLineHash: id, "krcloudPolicyIdentity/v1": id },
      properties: { stack: v.stack, urn: v.urn, type: v.type, managed: v.managed, pack: v.pack, packVersion: v.packVersion, enforcementLevel: v.level },
    };
  });
}

export function formatSarif(report: DriftReport): string {
  const withBaseline = report.baselineFile !== undefined;
  const notifications = [
    ...report.stacks
      .filter((s) => s.error)
      .map((s) => ({ level: "error", message: { text: `stack ${s.stack}: ${s.error}` }, descriptor: { id: "stack-error" } })),
    ...report.expiredRules.map((e) => ({
      level: "error",
      message: { text: `ignore rule ${e.rule} expired on ${e.expires}` },
      descriptor: { id: "expired-ignore-rule" },
    })),
    ...(report.policy?.error !== undefined
      ? [{ level: "error", message: { text: `policy pack: ${report.policy.error}` }, descriptor: { id: "policy-error" } }]
      : []),
    ...(report.live?.errors ?? []).map((e) => ({
      level: "error",
      message: { text: `${e.service}: not read: ${e.error}` },
      descriptor: { id: "live-state-error" },
    })),
  ];
  const sarif = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: report.tool.name,
            version: report.tool.version,
            semanticVersion: report.tool.version,
            rules: [...RULES, ...policyRules(report)],
          },
        },
        automationDetails: { id: `krcloud-drift/${report.stacks.map((s) => s.stack).join(",")}/` },
        invocations: [
          {
            executionSuccessful: report.exitCode !== EXIT.error,
            exitCode: report.exitCode,
            ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}),
          },
        ],
        results: [...report.stacks.flatMap((s) => resultsOf(s, withBaseline)), ...policyResults(report, RULES.length)],
        properties: { stacks: report.stacks.map((s) => ({ stack: s.stack, status: s.status, durationMs: s.durationMs, counts: s.counts })) },
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
