/**
 * Noise control: the ignore file (`.krcloud-driftignore`, YAML) and the baseline.
 *
 * An ignore rule selects drift by stack, URN or type glob and property path glob, says why
 * (`reason`) and may say until when (`expires`). Ignored drift stays in every report, marked with
 * its rule and reason; it no longer fails the check. A rule past its date no longer applies and
 * fails the check (exit 1) naming the rule, so that a temporary exception cannot become permanent
 * unnoticed. The baseline is a file of fingerprints of known drift (`--write-baseline` records
 * today's): drift found there is reported as known and does not fail the check either.
 */
import * as fs from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { Disposition, ExpiredRule, IgnoredBy, ResourceResult, StackReport } from "./model";
import { globToRegExp } from "./values";

export const IGNORE_FILE = ".krcloud-driftignore";

const DATE = /^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2})?)?$/;

function ruleSchema() {
  return z
    .object({
      id: z.string().min(1).optional().describe("A name for messages; default `#<position>`."),
      stack: z.string().min(1).optional().describe("Stack name glob (`prod`, `prod-*`, `org/project/prod`)."),
      urn: z.string().min(1).optional().describe("Resource URN glob."),
      type: z.string().min(1).optional().describe("Type token glob (`krcloud:cache:*`)."),
      property: z
        .string()
        .min(1)
        .optional()
        .describe(
          "Property path glob (`metadata.*`); it also covers what lies below (`rules` covers `rules[0].allowedOrigins[0]`); absent: every property, and the resource's deletion.",
        ),
      reason: z.string().trim().min(1, "every rule needs a reason").describe("Why this drift is accepted; shown next to it in every report."),
      expires: z
        .union([z.string(), z.date()])
        .transform((v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v))
        .refine((v) => DATE.test(v) && !Number.isNaN(Date.parse(v)), "must be a date, YYYY-MM-DD")
        .optional()
        .describe("After this date (UTC) the rule no longer applies and the check fails naming it."),
    })
    .strict()
    .refine((r) => r.stack ?? r.urn ?? r.type ?? r.property, { message: "a rule needs at least one of stack, urn, type or property" });
}

function fileSchema() {
  return z
    .object({
      version: z.literal(1).optional(),
      rules: z.array(ruleSchema()).default([]),
    })
    .strict();
}

export interface IgnoreRule {
  /** `#2` or the rule's id. */
  name: string;
  stack?: RegExp;
  urn?: RegExp;
  type?: RegExp;
  property?: RegExp;
  reason: string;
  expires?: string;
  /** The rule as written, for messages. */
  source: string;
}

export class IgnoreFileError extends Error {
  override readonly name = "IgnoreFileError";
}

/** Parses an ignore file's text; throws IgnoreFileError naming the file and each problem. */
export function parseIgnoreFile(text: string, file: string): IgnoreRule[] {
  let doc: unknown;
  try {
    doc = parseYaml(text) ?? {};
  } catch (e) {
    throw new IgnoreFileError(`${file}: not valid YAML: ${(e as Error).message}`);
  }
  const parsed = fileSchema().safeParse(doc);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) => `${i.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("") || "(file)"}: ${i.message}`,
    );
    throw new IgnoreFileError(`${file}: ${problems.join("; ")}`);
  }
  return parsed.data.rules.map((r, i) => {
    const selectors = (["stack", "urn", "type", "property"] as const).filter((k) => r[k] !== undefined).map((k) => `${k} ${r[k]}`);
    return {
      name: r.id ?? `#${i + 1}`,
      stack: r.stack === undefined ? undefined : globToRegExp(r.stack),
      urn: r.urn === undefined ? undefined : globToRegExp(r.urn),
      type: r.type === undefined ? undefined : globToRegExp(r.type),
      property: r.property === undefined ? undefined : globToRegExp(r.property),
      reason: r.reason,
      expires: r.expires,
      source: selectors.join(", "),
    };
  });
}

export function loadIgnoreFile(file: string): IgnoreRule[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new IgnoreFileError(`cannot read the ignore file ${file}: ${(e as Error).message}`);
  }
  return parseIgnoreFile(text, file);
}

/** Past its date: `expires` is the last day the rule applies (UTC). */
export function isExpired(rule: IgnoreRule, now: Date): boolean {
  if (rule.expires === undefined) return false;
  const end = rule.expires.length === 10 ? Date.parse(`${rule.expires}T23:59:59.999Z`) : Date.parse(rule.expires);
  return now.getTime() > end;
}

export function expiredRules(rules: readonly IgnoreRule[], now: Date): ExpiredRule[] {
  return rules.filter((r) => isExpired(r, now)).map((r) => ({ rule: `${r.name} (${r.source})`, expires: r.expires!, reason: r.reason }));
}

/** The stack part of a URN: `urn:pulumi:<stack>::…`. */
function urnStack(urn: string): string {
  return /^urn:pulumi:([^:]+)::/.exec(urn)?.[1] ?? "";
}

function matches(rule: IgnoreRule, stack: string, r: ResourceResult, path: string | undefined): boolean {
  if (rule.stack && !rule.stack.test(stack) && !rule.stack.test(urnStack(r.urn))) return false;
  if (rule.urn && !rule.urn.test(r.urn)) return false;
  if (rule.type && !rule.type.test(r.type)) return false;
  if (rule.property) return path !== undefined && ancestors(path).some((p) => rule.property!.test(p));
  return true;
}

/** `rules[0].allowedOrigins[1]` and the paths above it: `rules[0].allowedOrigins`, `rules[0]`, `rules`. */
export function ancestors(path: string): string[] {
  const out = [path];
  for (let i = path.length - 1; i > 0; i--) if (path[i] === "." || path[i] === "[") out.push(path.slice(0, i));
  return out;
}

function by(rule: IgnoreRule): IgnoredBy {
  return { rule: rule.name, reason: rule.reason };
}

export interface Baseline {
  version: 1;
  generatedAt: string;
  fingerprints: { fingerprint: string; stack: string; urn: string; path: string }[];
}

export function loadBaseline(file: string): Set<string> {
  let doc: unknown;
  try {
    doc = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (e) {
    throw new IgnoreFileError(`cannot read the baseline ${file}: ${(e as Error).message}`);
  }
  const parsed = z
    .object({ version: z.literal(1), fingerprints: z.array(z.object({ fingerprint: z.string().min(1) }).passthrough()) })
    .passthrough()
    .safeParse(doc);
  if (!parsed.success) throw new IgnoreFileError(`${file} is not a krcloud-drift baseline (version 1, fingerprints: [{fingerprint}])`);
  return new Set(parsed.data.fingerprints.map((f) => f.fingerprint));
}

/** Today's drift that is not ignored, as a baseline. */
export function baselineOf(stacks: readonly StackReport[], now: Date): Baseline {
  const fingerprints: Baseline["fingerprints"] = [];
  for (const s of stacks) {
    for (const r of s.resources) {
      if (r.status === "deleted" && r.fingerprint && r.disposition !== "ignored")
        fingerprints.push({ fingerprint: r.fingerprint, stack: s.stack, urn: r.urn, path: "(deleted)" });
      if (r.status !== "drifted") continue;
      for (const p of r.properties) {
        if (p.origin !== "program" && p.disposition !== "ignored") fingerprints.push({ fingerprint: p.fingerprint, stack: s.stack, urn: r.urn, path: p.path });
      }
    }
  }
  fingerprints.sort((a, b) => a.stack.localeCompare(b.stack) || a.urn.localeCompare(b.urn) || a.path.localeCompare(b.path));
  return { version: 1, generatedAt: now.toISOString(), fingerprints };
}

/**
 * Marks each drifted property and deleted resource of `stack` ignored (first matching live rule)
 * or baseline (fingerprint known), else new; a resource is new when any of its drift is.
 */
export function applyNoiseControl(stack: string, resources: ResourceResult[], rules: readonly IgnoreRule[], baseline: ReadonlySet<string>, now: Date): void {
  const live = rules.filter((r) => !isExpired(r, now));
  for (const r of resources) {
    if (r.status === "deleted") {
      const rule = live.find((x) => matches(x, stack, r, undefined));
      if (rule) {
        r.disposition = "ignored";
        r.ignoredBy = by(rule);
      } else r.disposition = r.fingerprint && baseline.has(r.fingerprint) ? "baseline" : "new";
      continue;
    }
    if (r.status !== "drifted") continue;
    for (const p of r.properties) {
      if (p.origin === "program") continue;
      const rule = live.find((x) => matches(x, stack, r, p.path));
      if (rule) {
        p.disposition = "ignored";
        p.ignoredBy = by(rule);
      } else if (baseline.has(p.fingerprint)) p.disposition = "baseline";
      else p.disposition = "new";
    }
    const drift = r.properties.filter((p) => p.origin !== "program");
    const pick = (d: Disposition) => drift.some((p) => p.disposition === d);
    r.disposition = pick("new") ? "new" : pick("baseline") ? "baseline" : "ignored";
    if (r.disposition === "ignored") r.ignoredBy = drift.find((p) => p.ignoredBy)?.ignoredBy;
  }
}
