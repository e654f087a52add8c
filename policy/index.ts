/**
 * pulumi-krcloud/policy: krcloud's guardrails as a Pulumi policy pack (@pulumi/policy).
 *
 * The ready pack is the directory `PACK_DIR` (`node_modules/pulumi-krcloud/policy/pack`):
 *
 *   pulumi preview --policy-pack node_modules/pulumi-krcloud/policy/pack
 *   pulumi policy analyze --file state.json --policy-pack node_modules/pulumi-krcloud/policy/pack
 *
 * or `krcloudPolicies()` inside a pack of your own, beside your own policies. The rules are in
 * rules.ts, each documented with a violation and its fix in docs/policy.md.
 */
import * as path from "node:path";
import type {
  EnforcementLevel as PulumiEnforcementLevel,
  Policies,
  PolicyResource,
  ReportViolation,
  ResourceValidationArgs,
  StackValidationArgs,
} from "@pulumi/policy";
import { RULES, stackOf, tokenOf, type EnforcementLevel, type ResourceRule, type Rule, type RuleContext, type StackRule, type Subject } from "./rules";

export * from "./rules";
export { sqlWrites } from "./sql";

/** The policy pack's directory (PulumiPolicy.yaml), for `--policy-pack`. */
export const PACK_DIR = path.resolve(__dirname, "..", "..", "policy", "pack");
/** The pack's name in Pulumi's output and in krcloud-drift's reports. */
export const PACK_NAME = "krcloud";

/** How SARIF and the reports rank a level. */
export const SEVERITY: Readonly<Record<EnforcementLevel, "high" | "medium" | "low">> = { mandatory: "high", advisory: "medium", disabled: "low" };

/** A rule's configuration: its defaults, with what the pack config sets (never its enforcement level). */
function configOf<C extends object>(rule: Rule, given: object | undefined): C {
  const out: Record<string, unknown> = { ...(rule.defaults as Record<string, unknown>) };
  for (const [k, v] of Object.entries(given ?? {})) if (k !== "enforcementLevel" && v !== undefined) out[k] = v;
  return out as C;
}

function resourcePolicy(rule: ResourceRule<object>, level: EnforcementLevel) {
  return {
    ...common(rule, level),
    validateResource: (args: ResourceValidationArgs, report: ReportViolation) => {
      const token = tokenOf(args.type);
      // Not Object.hasOwn: Pulumi's policy runtime compiles the pack's sources with ts-node, whose lib predates it.
      if (rule.reads[token] === undefined) return;
      const ctx: RuleContext<object> = { stack: stackOf(args.urn), stackTags: args.stackTags, config: configOf(rule, args.getConfig()) };
      for (const message of rule.check({ token, name: args.name, urn: args.urn, props: args.props }, ctx)) report(message);
    },
  };
}

function stackPolicy(rule: StackRule<object>, level: EnforcementLevel) {
  return {
    ...common(rule, level),
    validateStack: (args: StackValidationArgs, report: ReportViolation) => {
      const subjects = args.resources.map(subjectOf).filter((s) => rule.reads[s.token] !== undefined);
      const first = args.resources[0];
      const ctx: RuleContext<object> = { stack: first ? stackOf(first.urn) : "", stackTags: args.stackTags, config: configOf(rule, args.getConfig()) };
      for (const v of rule.check(subjects, ctx)) report(v.message, v.urn);
    },
  };
}

function subjectOf(r: PolicyResource): Subject {
  return { token: tokenOf(r.type), name: r.name, urn: r.urn, props: r.props };
}

function common(rule: Rule, level: EnforcementLevel) {
  return {
    name: rule.id,
    description: rule.description,
    enforcementLevel: level as PulumiEnforcementLevel,
    severity: SEVERITY[level],
    remediationSteps: rule.remediationSteps,
    ...(rule.configSchema ? { configSchema: rule.configSchema as never } : {}),
  };
}

/**
 * The pack's policies, each at its default enforcement level or the one `levels` gives it (a pack
 * config file, `--policy-pack-config`, can still change it per stack run).
 */
export function krcloudPolicies(levels: Readonly<Record<string, EnforcementLevel>> = {}): Policies {
  return RULES.map((rule) => {
    const level = levels[rule.id] ?? rule.enforcementLevel;
    return rule.kind === "resource" ? resourcePolicy(rule, level) : stackPolicy(rule, level);
  });
}
