/**
 * fast-check arbitraries of values that keep a schema's rules (re-exported by rules.ts):
 * the valid inputs, and the valid values the broken ones start from. The helpers exported beside
 * `validValue` are shared with violations.ts only.
 */
import fc, { type Arbitrary } from "fast-check";
import { schemaPathText, type Field, type Node, type Refinement, type Step, type StringNode } from "./schema";

export type Input = Record<string, unknown>;

export interface ValueOptions {
  /**
   * Values for schema paths whose rules are not in the schema's leaves (a cron checked by the
   * object's refinement, a file that must exist): `backupSchedule.cron`, `source<0>`.
   */
  values?: Readonly<Record<string, Arbitrary<unknown>>>;
  /** Every optional property set, every array at least one element long (where the rules allow). */
  dense?: boolean;
}

export const INT32 = 2 ** 31 - 1;

/** An integer in [lo, hi] with bias to both ends, beyond 32 bits too. */
export function intBetween(lo: number, hi: number): Arbitrary<number> {
  if (lo >= -INT32 && hi <= INT32) return fc.integer({ min: lo, max: hi });
  return fc.oneof(fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(Number), fc.constantFrom(lo, hi));
}

export function numberRange(n: Extract<Node, { kind: "number" }>): { lo: number; hi: number } {
  const step = n.int ? 1 : Number.EPSILON;
  const lo = n.low === undefined ? -Number.MAX_SAFE_INTEGER : n.low.exclusive ? n.low.value + step : n.low.value;
  const hi = n.high === undefined ? Number.MAX_SAFE_INTEGER : n.high.exclusive ? n.high.value - step : n.high.value;
  return { lo, hi };
}

/** zod counts a string's length in code points (a surrogate pair is one character). */
const codePoints = (s: string): string[] => [...s];
export const length = (s: string) => codePoints(s).length;
/** The first `n` characters (code points) of `s`. */
export const head = (s: string, n: number) => codePoints(s).slice(0, n).join("");

/**
 * `arb.filter(keep)`, after making sure enough candidates pass: a rule the candidates almost never
 * keep (or break) would make the generator spin; it fails with what to add instead.
 */
export function filtered<T>(arb: Arbitrary<T>, keep: (v: T) => boolean, what: string): Arbitrary<T> {
  const sample = fc.sample(arb, { seed: 1, numRuns: 200 });
  const kept = sample.filter(keep).length;
  if (kept < 2) throw new Error(`${what}: ${kept} of ${sample.length} candidates qualify; give the generator values for it (cross-field-rules.ts \`values\`)`);
  return arb.filter(keep);
}

function keeps(n: { refinements: Refinement[] }, v: unknown): boolean {
  return n.refinements.every((r) => r.run(v).length === 0);
}

function stringKeeps(n: StringNode, s: string): boolean {
  return (
    length(s) >= (n.min?.value ?? 0) && length(s) <= (n.max?.value ?? Infinity) && n.patterns.every((p) => p.re.test(s)) && keeps(n, s) && s !== "__proto__"
  );
}

/**
 * Any code point, any grapheme: one instance each, shared, because fast-check builds a reverse
 * mapping of every character (over a million entries) for each new instance it shrinks.
 */
export const CODE_POINT = fc.string({ unit: "binary", minLength: 1, maxLength: 1 });
const GRAPHEME = fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 });

const VALID_STRINGS = new WeakMap<StringNode, Arbitrary<string>>();
const GIVEN_STRINGS = new WeakMap<Arbitrary<unknown>, Arbitrary<unknown>>();

export function validString(n: StringNode, where: string): Arbitrary<string> {
  let a = VALID_STRINGS.get(n);
  if (!a) VALID_STRINGS.set(n, (a = makeValidString(n, where)));
  return a;
}

function makeValidString(n: StringNode, where: string): Arbitrary<string> {
  const min = n.min?.value ?? 0;
  const max = n.max?.value ?? min + 40;
  const candidates: Arbitrary<string>[] = [];
  if (n.patterns.length > 0) {
    const re = n.patterns[0]!.re;
    candidates.push(fc.stringMatching(re), fc.stringMatching(re, { size: "large" }));
  } else {
    const small = Math.min(max, min + 24);
    candidates.push(
      fc.string({ minLength: min, maxLength: small }),
      fc.string({ unit: GRAPHEME, minLength: min, maxLength: small }),
      // The longest values the rules allow, in ASCII and beyond the BMP (zod counts code points).
      fc.string({ minLength: max, maxLength: max }),
      fc.string({ unit: CODE_POINT, minLength: max, maxLength: max }),
    );
  }
  return filtered(fc.oneof(...candidates), (s) => stringKeeps(n, s), `valid strings at "${where}"`);
}

function validNode(n: Node, steps: Step[], o: ValueOptions): Arbitrary<unknown> {
  const where = schemaPathText(steps);
  const given = o.values?.[where];
  // Values given for a path still keep the rules the schema states there.
  if (given) {
    if (n.kind !== "string") return given;
    let a = GIVEN_STRINGS.get(given);
    if (!a) GIVEN_STRINGS.set(given, (a = filtered(given, (v) => typeof v === "string" && stringKeeps(n, v), `values given for "${where}"`)));
    return a;
  }
  switch (n.kind) {
    case "string":
      return validString(n, schemaPathText(steps));
    case "number": {
      const { lo, hi } = numberRange(n);
      const a = n.int ? intBetween(Math.ceil(lo), Math.floor(hi)) : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
      return a.filter((v) => keeps(n, v));
    }
    case "boolean":
      return fc.boolean();
    case "literal":
      return fc.constantFrom(...n.values);
    case "enum":
      return fc.constantFrom(...n.values);
    case "array": {
      const min = Math.max(n.min?.value ?? 0, o.dense ? Math.min(1, n.max?.value ?? 1) : 0);
      const max = n.max?.value ?? min + 3;
      const element = validNode(n.element.node, [...steps, { element: true }], o);
      return fc
        .oneof(fc.array(element, { minLength: min, maxLength: Math.min(max, min + 3) }), fc.array(element, { minLength: max, maxLength: max }))
        .filter((v) => keeps(n, v));
    }
    case "record": {
      const value = validNode(n.value.node, [...steps, { value: true }], o);
      return fc.dictionary(validString(n.key, `${schemaPathText(steps)} (keys)`), value, { minKeys: o.dense ? 1 : 0, maxKeys: 4 }).filter((v) => keeps(n, v));
    }
    case "object": {
      const model: Record<string, Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [k, f] of Object.entries(n.shape)) {
        model[k] = validNode(f.node, [...steps, { key: k }], o);
        if (!f.optional || o.dense) required.push(k);
      }
      // Object refinements are cross-field rules: the resource's `keep` makes them hold.
      return fc.record(model, { requiredKeys: required });
    }
    case "union":
      return fc.oneof(...n.options.map((opt, i) => validNode(opt, [...steps, { option: i }], o)));
  }
}

/** Values of a field that keep its rules (cross-field rules aside). */
export function validValue(f: Field, steps: Step[] = [], o: ValueOptions = {}): Arbitrary<unknown> {
  return validNode(f.node, steps, o);
}
