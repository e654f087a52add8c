/**
 * The parameter catalogue validator: checks desired parameter values against a parameter group's
 * own catalogue (spec 02 §2.3) without a request, so the provider's `check` can report every bad
 * value at once.
 *
 * `validationValueFormat` per data type (§2.3):
 * - numbers (`INTEGER`, or `NUMBER` as a sample shows): alternatives separated by `|`, each a value
 *   or an inclusive range `a~b` (`5|10|11~100`); an open end (`1~`, `~100`) is read as unbounded.
 *   Compared exactly (bigint with a decimal scale), so 64-bit limits like `maxmemory` are safe.
 * - `ENUM`: allowed values separated by `|`.
 * - `STRING`: a regular expression the whole value must match.
 * A format that cannot be read (a regular expression JavaScript rejects, a numeric format with
 * other text) is not enforced: the server remains the judge, and `check` must not block a value
 * only because we misread a rule.
 */

import type { ParameterDefinition, ParameterGroup, ParameterSetting } from "./types";
import { parameterValueKind } from "./parse";

// ---------------------------------------------------------------------------------------------
// Exact decimals

export interface Decimal {
  /** The digits as an integer: value = n / 10^scale. */
  n: bigint;
  scale: number;
}

/** A plain decimal (`-12`, `3.50`, `+7`); no exponent, no spaces inside. */
export function parseDecimal(text: string): Decimal | undefined {
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  const frac = m[3] ?? "";
  const n = BigInt(`${m[2]}${frac}`);
  return { n: m[1] === "-" ? -n : n, scale: frac.length };
}

export function compareDecimal(a: Decimal, b: Decimal): number {
  const s = Math.max(a.scale, b.scale);
  const x = a.n * 10n ** BigInt(s - a.scale);
  const y = b.n * 10n ** BigInt(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Numeric formats

export type NumericAlternative = { kind: "value"; value: Decimal } | { kind: "range"; min?: Decimal; max?: Decimal };

export interface NumericFormat {
  alternatives: NumericAlternative[];
  /** Some bound has a fractional part: then fractional values are allowed too. */
  fractional: boolean;
}

/**
 * Parses `5|10|11~100` (spaces around tokens allowed). Returns undefined when any alternative is
 * not a number or a range, or when the format is empty. A reversed range (`100~5`) is read in order.
 */
export function parseNumericFormat(format: string): NumericFormat | undefined {
  if (format.trim() === "") return undefined;
  const alternatives: NumericAlternative[] = [];
  let fractional = false;
  for (const token of format.split("|")) {
    const t = token.trim();
    const tilde = t.indexOf("~");
    if (tilde < 0) {
      const v = parseDecimal(t);
      if (!v) return undefined;
      fractional ||= v.scale > 0;
      alternatives.push({ kind: "value", value: v });
      continue;
    }
    if (t.indexOf("~", tilde + 1) >= 0) return undefined;
    const lo = t.slice(0, tilde).trim();
    const hi = t.slice(tilde + 1).trim();
    const min = lo === "" ? undefined : parseDecimal(lo);
    const max = hi === "" ? undefined : parseDecimal(hi);
    if ((lo !== "" && !min) || (hi !== "" && !max) || (lo === "" && hi === "")) return undefined;
    fractional ||= (min?.scale ?? 0) > 0 || (max?.scale ?? 0) > 0;
    if (min && max && compareDecimal(min, max) > 0) alternatives.push({ kind: "range", min: max, max: min });
    else alternatives.push({ kind: "range", min, max });
  }
  return { alternatives, fractional };
}

/** Whether `value` is a number the format allows; integers only unless the format has fractions. */
export function matchesNumericFormat(value: string, format: NumericFormat): boolean {
  const v = parseNumericValue(value, format.fractional);
  if (!v) return false;
  return format.alternatives.some((a) =>
    a.kind === "value"
      ? compareDecimal(v, a.value) === 0
      : (a.min === undefined || compareDecimal(v, a.min) >= 0) && (a.max === undefined || compareDecimal(v, a.max) <= 0),
  );
}

function parseNumericValue(value: string, fractional: boolean): Decimal | undefined {
  if (value !== value.trim()) return undefined;
  const d = parseDecimal(value);
  if (!d || (!fractional && d.scale > 0)) return undefined;
  return d;
}

// ---------------------------------------------------------------------------------------------
// Catalogue validation

export interface ParameterFailure {
  parameterKey: string;
  /** The desired value, as it would be sent. */
  value: string;
  /** Property path for `check`: `parameters.<key>`. */
  property: string;
  /** The rule that failed, e.g. `INTEGER 5|10|11~100`, `not editable`, `unknown parameter`. */
  rule: string;
  reason: string;
}

export type DesiredParameters = Record<string, string | number | boolean> | readonly ParameterSetting[];

/** The rule of one catalogue entry, for messages: data type and format. */
export function describeRule(def: ParameterDefinition): string {
  const type = def.dataType ?? "UNKNOWN";
  return def.validationValueFormat ? `${type} ${def.validationValueFormat}` : type;
}

/** The problem with one value under one catalogue entry, or undefined when it is acceptable. */
export function checkParameterValue(def: ParameterDefinition, value: string): string | undefined {
  if (def.editable === false && value !== def.parameterValue) {
    return `is not editable (current value ${JSON.stringify(def.parameterValue ?? "")})`;
  }
  const format = def.validationValueFormat ?? "";
  const kind = def.valueKind ?? parameterValueKind(def.dataType);
  switch (kind) {
    case "number": {
      const f = parseNumericFormat(format);
      if (f) return matchesNumericFormat(value, f) ? undefined : `must be ${describeNumeric(f)} (got ${JSON.stringify(value)})`;
      return parseNumericValue(value, true) ? undefined : `must be a number (got ${JSON.stringify(value)})`;
    }
    case "enum": {
      const options = format
        .split("|")
        .map((o) => o.trim())
        .filter((o) => o !== "");
      if (options.length === 0 || options.includes(value)) return undefined;
      return `must be one of ${options.join(", ")} (got ${JSON.stringify(value)})`;
    }
    case "string": {
      if (format === "") return undefined;
      const re = compileFullMatch(format);
      if (!re) return undefined;
      return re.test(value) ? undefined : `must match /${format}/ (got ${JSON.stringify(value)})`;
    }
    default:
      return undefined;
  }
}

/**
 * Every desired value that the catalogue rejects, in the order given: unknown keys (with a
 * case-insensitive suggestion), values of non-editable parameters that differ from the current
 * one, and values outside `validationValueFormat`. Empty when all are acceptable.
 */
export function validateParameterValues(catalogue: readonly ParameterDefinition[] | ParameterGroup, desired: DesiredParameters): ParameterFailure[] {
  const defs = Array.isArray(catalogue) ? (catalogue as readonly ParameterDefinition[]) : (catalogue as ParameterGroup).parameters;
  const byKey = new Map(defs.map((d) => [d.parameterKey, d]));
  const entries: [string, string][] = Array.isArray(desired)
    ? (desired as readonly ParameterSetting[]).map((s) => [s.parameterKey, String(s.parameterValue)])
    : Object.entries(desired as Record<string, string | number | boolean>).map(([k, v]) => [k, String(v)]);
  const failures: ParameterFailure[] = [];
  for (const [key, value] of entries) {
    const property = `parameters.${key}`;
    const def = byKey.get(key);
    if (!def) {
      const near = defs.find((d) => d.parameterKey.toLowerCase() === key.toLowerCase());
      failures.push({
        parameterKey: key,
        value,
        property,
        rule: "unknown parameter",
        reason: `is not a parameter of this group${near ? ` (did you mean "${near.parameterKey}"?)` : ""}`,
      });
      continue;
    }
    const reason = checkParameterValue(def, value);
    if (reason)
      failures.push({
        parameterKey: key,
        value,
        property,
        rule: def.editable === false && value !== def.parameterValue ? "not editable" : describeRule(def),
        reason,
      });
  }
  return failures;
}

function describeNumeric(f: NumericFormat): string {
  const show = (d: Decimal) => {
    const neg = d.n < 0n;
    let digits = (neg ? -d.n : d.n).toString().padStart(d.scale + 1, "0");
    if (d.scale > 0) digits = `${digits.slice(0, -d.scale)}.${digits.slice(-d.scale)}`;
    return `${neg ? "-" : ""}${digits}`;
  };
  const parts = f.alternatives.map((a) =>
    a.kind === "value" ? show(a.value) : a.min && a.max ? `${show(a.min)} to ${show(a.max)}` : a.min ? `at least ${show(a.min)}` : `at most ${show(a.max!)}`,
  );
  return `${f.fractional ? "a number" : "an integer"}: ${parts.join(" or ")}`;
}

/** The format as a whole-value regular expression, or undefined when JavaScript cannot compile it. */
function compileFullMatch(format: string): RegExp | undefined {
  try {
    return new RegExp(`^(?:${format})$`);
  } catch {
    return undefined;
  }
}
