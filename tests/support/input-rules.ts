/**
 * The rules of a resource's inputs, read from its zod schema (zod 4's `schema._zod.def`: types,
 * lengths, patterns, ranges, enums, strict objects, required properties, record keys, unions), and
 * fast-check arbitraries derived from them: inputs that break one rule, each with the property path
 * `check` must name and the rule's text its reason must carry, and inputs that keep every rule.
 *
 * Rules the schema states only as functions (refinements) are of two kinds. A refinement of one
 * value (`must not contain a NUL character`) is read as an oracle: candidates are kept or dropped by
 * running it. A refinement of several properties (every shard with the same number of replicas) is
 * the resource's cross-field rule: `CrossFieldRules` (cross-field-rules.ts) states it by hand, and
 * `refinedContainers` lists where the schema has one, so that a new refinement without a hand-written
 * counterpart is noticed.
 */
import fc, { type Arbitrary } from "fast-check";
import type { z } from "zod";

/** A concrete property path: `["shards", 1, "replicaSubnetIds"]`. */
export type Path = (string | number)[];

/** A step of a schema path: a property, any array element, any record value, a union's option. */
export type Step = { key: string } | { element: true } | { value: true } | { option: number };

/** `shards[].replicaSubnetIds[]`, `metadata{}`, `source<1>.path`: where in the schema. */
export function schemaPathText(steps: readonly Step[]): string {
  let s = "";
  for (const st of steps) {
    if ("key" in st) s += s ? `.${st.key}` : st.key;
    else if ("element" in st) s += "[]";
    else if ("value" in st) s += "{}";
    else s += `<${st.option}>`;
  }
  return s;
}

/** The property path as the engine shows it: `shards[1].replicaSubnetIds`. */
export function propertyPath(path: readonly (string | number)[]): string {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : s ? `.${p}` : p;
  return s;
}

// ---------------------------------------------------------------------------------------------
// The schema, read

/** A rule's text: the schema's own message when it has one, else what zod's default message says. */
interface Limit {
  value: number;
  /** Exclusive bound (numbers): `gt`, `lt`. */
  exclusive?: boolean;
  text: string;
}

interface Pattern {
  re: RegExp;
  text: string;
}

/** A refinement of one value: the messages of the issues it raises for `v` (none: kept). */
export interface Refinement {
  run(v: unknown): string[];
}

export interface StringNode {
  kind: "string";
  min?: Limit;
  max?: Limit;
  patterns: Pattern[];
  refinements: Refinement[];
  typeText: string;
}

export type Node =
  | StringNode
  | { kind: "number"; int?: { text: string }; low?: Limit; high?: Limit; refinements: Refinement[]; typeText: string }
  | { kind: "boolean"; refinements: Refinement[]; typeText: string }
  | { kind: "literal"; values: unknown[]; refinements: Refinement[]; typeText: string }
  | { kind: "enum"; values: string[]; refinements: Refinement[]; typeText: string }
  | { kind: "array"; element: Field; min?: Limit; max?: Limit; refinements: Refinement[]; typeText: string }
  | { kind: "object"; shape: Record<string, Field>; strict: boolean; refinements: Refinement[]; typeText: string }
  | { kind: "record"; key: StringNode; value: Field; refinements: Refinement[]; typeText: string }
  | { kind: "union"; options: Node[]; refinements: Refinement[]; typeText: string };

export interface Field {
  node: Node;
  /** May be left out (optional, or has a default). */
  optional: boolean;
}

interface CheckDef {
  check: string;
  minimum?: number;
  maximum?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
  error?: (issue: unknown) => unknown;
}

interface ZodCheck {
  _zod: { def: CheckDef; check(payload: { value: unknown; issues: { message?: string }[] }): unknown };
}

interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, string>;
  checks?: ZodCheck[];
  error?: (issue: unknown) => unknown;
}

const defOf = (s: z.ZodType): ZodDef => (s as unknown as { _zod: { def: ZodDef } })._zod.def;

function messageOf(error: ((issue: unknown) => unknown) | undefined): string | undefined {
  const m = error?.({});
  if (typeof m === "string") return m;
  if (m !== null && typeof m === "object" && typeof (m as { message?: unknown }).message === "string") return (m as { message: string }).message;
  return undefined;
}

function refinementOf(c: ZodCheck): Refinement {
  return {
    run(v) {
      const payload = { value: v, issues: [] as { message?: string }[] };
      const r = c._zod.check(payload);
      if (r instanceof Promise) throw new Error("an asynchronous refinement: check never runs one");
      return payload.issues.map((i) => i.message ?? messageOf(c._zod.def.error) ?? "Invalid input");
    },
  };
}

/** Reads a schema into its rules. Throws on a construct the generator does not know, so none is skipped silently. */
export function readField(schema: z.ZodType): Field {
  let s = schema;
  let optional = false;
  const wrapperChecks: ZodCheck[] = [];
  for (;;) {
    const d = defOf(s);
    if (["optional", "default", "prefault", "nullable", "readonly"].includes(d.type)) {
      // `.default({...}).refine(...)` puts the refinement on the wrapper.
      wrapperChecks.push(...(d.checks ?? []));
      if (d.type !== "nullable" && d.type !== "readonly") optional = true;
      s = d.innerType!;
      continue;
    }
    break;
  }
  const node = readNode(s);
  for (const c of wrapperChecks) {
    if (c._zod.def.check !== "custom") throw new Error(`a ${c._zod.def.check} check on a wrapper: the generator does not know it`);
    node.refinements.push(refinementOf(c));
  }
  return { node, optional };
}

function readNode(schema: z.ZodType): Node {
  const d = defOf(schema);
  const checks = d.checks ?? [];
  const refinements: Refinement[] = [];
  const typeMessage = messageOf(d.error);
  const unknownCheck = (c: ZodCheck) => new Error(`a ${d.type} schema with a ${c._zod.def.check} check: the generator does not know it`);
  switch (d.type) {
    case "string": {
      const n: StringNode = { kind: "string", patterns: [], refinements, typeText: typeMessage ?? "expected string" };
      for (const c of checks) {
        const cd = c._zod.def;
        const m = messageOf(cd.error);
        if (cd.check === "min_length") n.min = { value: cd.minimum!, text: m ?? `>=${cd.minimum}` };
        else if (cd.check === "max_length") n.max = { value: cd.maximum!, text: m ?? `<=${cd.maximum}` };
        else if (cd.check === "string_format" && cd.format === "regex") n.patterns.push({ re: cd.pattern!, text: m ?? "must match pattern" });
        else if (cd.check === "custom") refinements.push(refinementOf(c));
        else throw unknownCheck(c);
      }
      return n;
    }
    case "number": {
      const n: Extract<Node, { kind: "number" }> = { kind: "number", refinements, typeText: typeMessage ?? "expected number" };
      for (const c of checks) {
        const cd = c._zod.def;
        const m = messageOf(cd.error);
        if (cd.check === "number_format" && cd.format === "safeint") n.int = { text: m ?? "expected int" };
        else if (cd.check === "greater_than") n.low = { value: cd.value!, exclusive: !cd.inclusive, text: m ?? `${cd.inclusive ? ">=" : ">"}${cd.value}` };
        else if (cd.check === "less_than") n.high = { value: cd.value!, exclusive: !cd.inclusive, text: m ?? `${cd.inclusive ? "<=" : "<"}${cd.value}` };
        else if (cd.check === "custom") refinements.push(refinementOf(c));
        else throw unknownCheck(c);
      }
      return n;
    }
    case "boolean":
      return { kind: "boolean", refinements: customsOnly(d, checks), typeText: typeMessage ?? "expected boolean" };
    case "literal":
      return { kind: "literal", values: d.values!, refinements: customsOnly(d, checks), typeText: typeMessage ?? "Invalid input: expected" };
    case "enum":
      return { kind: "enum", values: Object.values(d.entries!), refinements: customsOnly(d, checks), typeText: typeMessage ?? "expected one of" };
    case "array": {
      const n: Extract<Node, { kind: "array" }> = { kind: "array", element: readField(d.element!), refinements, typeText: typeMessage ?? "expected array" };
      for (const c of checks) {
        const cd = c._zod.def;
        const m = messageOf(cd.error);
        if (cd.check === "min_length") n.min = { value: cd.minimum!, text: m ?? `>=${cd.minimum}` };
        else if (cd.check === "max_length") n.max = { value: cd.maximum!, text: m ?? `<=${cd.maximum}` };
        else if (cd.check === "custom") refinements.push(refinementOf(c));
        else throw unknownCheck(c);
      }
      return n;
    }
    case "object": {
      const shape: Record<string, Field> = {};
      for (const [k, v] of Object.entries(d.shape ?? {})) shape[k] = readField(v);
      const strict = d.catchall !== undefined && defOf(d.catchall).type === "never";
      if (d.catchall !== undefined && !strict) throw new Error("an object with a catchall schema: the generator does not know it");
      return { kind: "object", shape, strict, refinements: customsOnly(d, checks), typeText: typeMessage ?? "expected object" };
    }
    case "record": {
      const key = readNode(d.keyType!);
      if (key.kind !== "string") throw new Error(`a record keyed by ${key.kind}: the generator does not know it`);
      return { kind: "record", key, value: readField(d.valueType!), refinements: customsOnly(d, checks), typeText: typeMessage ?? "expected record" };
    }
    case "union":
      // zod's own text for a value no option takes is "Invalid input", which names no rule: a union needs a message saying what it takes.
      return {
        kind: "union",
        options: d.options!.map(readNode),
        refinements: customsOnly(d, checks),
        typeText: typeMessage ?? "(a message naming what the union takes: z.union(..., { error }))",
      };
    default:
      throw new Error(`a ${d.type} schema: the generator does not know it`);
  }
}

function customsOnly(d: ZodDef, checks: readonly ZodCheck[]): Refinement[] {
  return checks.map((c) => {
    if (c._zod.def.check !== "custom") throw new Error(`a ${d.type} schema with a ${c._zod.def.check} check: the generator does not know it`);
    return refinementOf(c);
  });
}

/** Every place a container (object, array, record, union) carries a refinement: the cross-field rules, which are hand-written. */
export function refinedContainers(root: Field): string[] {
  const out: string[] = [];
  const walk = (n: Node, steps: Step[]) => {
    const leaf = n.kind === "string" || n.kind === "number" || n.kind === "boolean" || n.kind === "literal" || n.kind === "enum";
    if (!leaf && n.refinements.length > 0) out.push(schemaPathText(steps));
    if (n.kind === "object") for (const [k, f] of Object.entries(n.shape)) walk(f.node, [...steps, { key: k }]);
    else if (n.kind === "array") walk(n.element.node, [...steps, { element: true }]);
    else if (n.kind === "record") walk(n.value.node, [...steps, { value: true }]);
    else if (n.kind === "union") n.options.forEach((o, i) => walk(o, [...steps, { option: i }]));
  };
  walk(root.node, []);
  return out.sort();
}

// ---------------------------------------------------------------------------------------------
// Values that keep the rules

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

const INT32 = 2 ** 31 - 1;

/** An integer in [lo, hi] with bias to both ends, beyond 32 bits too. */
function intBetween(lo: number, hi: number): Arbitrary<number> {
  if (lo >= -INT32 && hi <= INT32) return fc.integer({ min: lo, max: hi });
  return fc.oneof(fc.bigInt({ min: BigInt(lo), max: BigInt(hi) }).map(Number), fc.constantFrom(lo, hi));
}

function numberRange(n: Extract<Node, { kind: "number" }>): { lo: number; hi: number } {
  const step = n.int ? 1 : Number.EPSILON;
  const lo = n.low === undefined ? -Number.MAX_SAFE_INTEGER : n.low.exclusive ? n.low.value + step : n.low.value;
  const hi = n.high === undefined ? Number.MAX_SAFE_INTEGER : n.high.exclusive ? n.high.value - step : n.high.value;
  return { lo, hi };
}

/** zod counts a string's length in code points (a surrogate pair is one character). */
const codePoints = (s: string): string[] => [...s];
const length = (s: string) => codePoints(s).length;
/** The first `n` characters (code points) of `s`. */
const head = (s: string, n: number) => codePoints(s).slice(0, n).join("");

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
const CODE_POINT = fc.string({ unit: "binary", minLength: 1, maxLength: 1 });
const GRAPHEME = fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 });

const VALID_STRINGS = new WeakMap<StringNode, Arbitrary<string>>();
const GIVEN_STRINGS = new WeakMap<Arbitrary<unknown>, Arbitrary<unknown>>();

function validString(n: StringNode, where: string): Arbitrary<string> {
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

// ---------------------------------------------------------------------------------------------
// Rules broken

/** One way to break one rule at one place of the schema. */
export interface Violation {
  /** Where: the schema path of the value broken (`shards[].replicaSubnetIds`). */
  at: Step[];
  /** The rule: `max_length`, `pattern 1`, `unknown key`, ... */
  kind: string;
  /** Whether zod aborts on it (type errors): inside a union, the union's own failure is reported instead. */
  aborts: boolean;
  /** Makes the broken value from the valid `current` (undefined when absent). */
  make: Arbitrary<(current: unknown) => Broken>;
}

export interface Broken {
  /** The new value; `REMOVE` removes the property. */
  value: unknown;
  /** The property path check must name, below the broken value's own (a record key, else empty). */
  path: Path;
  /** Texts the reason must carry (each in some failure at `path`). */
  texts: string[];
}

export const REMOVE = Symbol("remove");

const OTHER_TYPES: Record<Node["kind"], unknown[]> = {
  string: [42, true, ["x"], { v: "x" }],
  number: ["42", true, [1], { n: 1 }],
  boolean: ["true", 1, [true]],
  literal: [42, ["x"]],
  enum: [42, true],
  array: ["x", 42, { 0: "x" }],
  record: ["x", 42, ["x"]],
  object: ["x", 42, ["x"]],
  union: [42, true, [42]],
};

/** Characters outside most of the schemas' patterns, and values that break common refinements. */
const NASTY_STRINGS: readonly string[] = [
  "",
  " ",
  "   ",
  "\t",
  "a\u0000b",
  "line\nbreak",
  "carriage\rreturn",
  "emoji \u{1F600}",
  "flag \u{1F1F0}\u{1F1F7}",
  "UPPER",
  "-lead",
  "trail-",
  "dou--ble",
  "a b",
  "a/b",
  "**",
  "http://a.*.*.example.com",
  "soon",
  "10x",
  "0s",
  "2030-02-30T00:00:00.000Z",
  "2030-01-01T24:00:00.000Z",
  "300.1.1.1",
  "10.0.0.0/33",
  "::1/129",
  "/lead/slash",
  "bucket-only",
  "bucket//file",
  "x".repeat(4097),
  "\u{D55C}".repeat(1366),
  "x".repeat(65537),
  "\u{D55C}".repeat(21846),
];

/** Longer than common limits, in bytes or characters: 1-byte and 3-byte characters. */
const LONG_STRINGS = fc
  .tuple(fc.constantFrom(64, 100, 200, 255, 396, 512, 1024, 4096, 65536), fc.constantFrom("x", "\u{D55C}", "\u{1F600}"), fc.integer({ min: 1, max: 3 }))
  .map(([limit, c, more]) => c.repeat(Math.ceil(limit / Buffer.byteLength(c)) + more));

function candidatesFor(valid: Arbitrary<string>): Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...NASTY_STRINGS),
    LONG_STRINGS,
    // A valid value with one character changed or added: the near misses.
    fc.tuple(valid, fc.nat(), fc.constantFrom(..." -_./*@#%ÄA\u0000\n\u{1F600}Z9")).map(([s, i, c]) => {
      const at = s.length === 0 ? 0 : i % (s.length + 1);
      return s.slice(0, at) + c + s.slice(at);
    }),
    fc.tuple(valid, fc.nat(), fc.constantFrom(..." -_./*@#ÄA\u0000\n\u{1F600}")).map(([s, i, c]) => {
      if (s.length === 0) return c;
      const at = i % s.length;
      return s.slice(0, at) + c + s.slice(at + 1);
    }),
    fc.string({ unit: CODE_POINT, maxLength: 12 }),
  );
}

function typeViolation(n: Node): Violation["make"] {
  return fc.constantFrom(...OTHER_TYPES[n.kind]).map((v) => () => ({ value: v, path: [], texts: [n.typeText] }));
}

/**
 * Every way the generator knows to break the rules of `root`, each at one place. `skipMissing`
 * names root properties that may be left out although the schema requires them (the auto-name).
 */
export function violations(root: Field, o: { skipMissing?: readonly string[]; values?: ValueOptions["values"] } = {}): Violation[] {
  const out: Violation[] = [];
  const vo: ValueOptions = { values: o.values };
  const add = (at: Step[], kind: string, aborts: boolean, make: Violation["make"]) => out.push({ at, kind, aborts, make });

  const walk = (n: Node, at: Step[]) => {
    add(at, "type", true, typeViolation(n));
    switch (n.kind) {
      case "string": {
        const valid = validValue({ node: n, optional: false }, at, vo) as Arbitrary<string>;
        if (n.min && n.min.value > 0) {
          const min = n.min;
          add(
            at,
            "min_length",
            false,
            fc.tuple(valid, fc.nat()).map(([s, k]) => () => ({ value: head(s, k % min.value), path: [], texts: [min.text] })),
          );
        }
        if (n.max) {
          const max = n.max;
          add(
            at,
            "max_length",
            false,
            fc.tuple(valid, fc.integer({ min: 1, max: 40 }), fc.constantFrom("a", "0", "-", "x")).map(([s, k, c]) => () => {
              let v = s.length ? s : c;
              while (length(v) <= max.value) v += v;
              return { value: head(v, max.value + k), path: [], texts: [max.text] };
            }),
          );
        }
        n.patterns.forEach((p, i) =>
          add(
            at,
            `pattern ${i + 1}`,
            false,
            filtered(candidatesFor(valid), (s) => !p.re.test(s), `strings breaking pattern ${p.re} at "${schemaPathText(at)}"`).map((s) => () => ({
              value: s,
              path: [],
              texts: [p.text],
            })),
          ),
        );
        n.refinements.forEach((r, i) => add(at, `refinement ${i + 1}`, false, refinementViolation(r, candidatesFor(valid), schemaPathText(at))));
        return;
      }
      case "number": {
        const { lo, hi } = numberRange(n);
        const inRange = intBetween(Math.max(Math.ceil(lo), -INT32), Math.min(Math.floor(hi), INT32));
        if (n.int) {
          const int = n.int;
          add(
            at,
            "int",
            false,
            fc.tuple(inRange, fc.constantFrom(0.5, 0.25, 0.001)).map(([v, f]) => () => ({ value: v === hi ? v - f : v + f, path: [], texts: [int.text] })),
          );
        }
        if (n.low) {
          const low = n.low;
          add(
            at,
            "minimum",
            false,
            fc.integer({ min: 0, max: 1000 }).map((k) => () => ({ value: (low.exclusive ? low.value : low.value - 1) - k, path: [], texts: [low.text] })),
          );
        }
        if (n.high) {
          const high = n.high;
          add(
            at,
            "maximum",
            false,
            fc.integer({ min: 0, max: 1000 }).map((k) => () => ({ value: (high.exclusive ? high.value : high.value + 1) + k, path: [], texts: [high.text] })),
          );
        }
        n.refinements.forEach((r, i) => add(at, `refinement ${i + 1}`, false, refinementViolation(r, inRange, schemaPathText(at))));
        return;
      }
      case "enum":
      case "literal": {
        const values = n.values.map(String);
        const others = fc
          .oneof(
            fc.constantFrom(...values).map((v) => v.toLowerCase()),
            fc.constantFrom(...values).map((v) => v.toUpperCase()),
            fc.constantFrom(...values).map((v) => ` ${v}`),
            fc.string({ maxLength: 10 }),
          )
          .filter((v) => !values.includes(v));
        add(
          at,
          "value",
          true,
          others.map((v) => () => ({ value: v, path: [], texts: [n.typeText] })),
        );
        return;
      }
      case "boolean":
        return;
      case "array": {
        const element = validValue(n.element, [...at, { element: true }], vo);
        if (n.min && n.min.value > 0) {
          const min = n.min;
          add(
            at,
            "min_items",
            false,
            fc.tuple(fc.array(element, { maxLength: min.value - 1 })).map(([v]) => () => ({ value: v, path: [], texts: [min.text] })),
          );
        }
        if (n.max) {
          const max = n.max;
          add(
            at,
            "max_items",
            false,
            fc.array(element, { minLength: max.value + 1, maxLength: max.value + 3 }).map((v) => () => ({ value: v, path: [], texts: [max.text] })),
          );
        }
        walk(n.element.node, [...at, { element: true }]);
        return;
      }
      case "record": {
        const key = n.key;
        const value = validValue(n.value, [...at, { value: true }], vo);
        const keyValid = validString(key, `${schemaPathText(at)} (keys)`);
        const keyRules: { kind: string; bad: Arbitrary<string>; text?: string }[] = [];
        if (key.min && key.min.value > 0) keyRules.push({ kind: "key min_length", bad: keyValid.map((s) => head(s, key.min!.value - 1)), text: key.min.text });
        if (key.max)
          keyRules.push({ kind: "key max_length", bad: keyValid.map((s) => head(s + "k".repeat(key.max!.value), key.max!.value + 1)), text: key.max.text });
        key.patterns.forEach((p, i) =>
          keyRules.push({
            kind: `key pattern ${i + 1}`,
            bad: filtered(candidatesFor(keyValid), (s) => !p.re.test(s), `keys breaking ${p.re} at "${schemaPathText(at)}"`),
            text: p.text,
          }),
        );
        key.refinements.forEach((r, i) =>
          keyRules.push({
            kind: `key refinement ${i + 1}`,
            bad: filtered(candidatesFor(keyValid), (s) => r.run(s).length > 0, `keys breaking a refinement at "${schemaPathText(at)}"`),
          }),
        );
        for (const kr of keyRules) {
          add(
            at,
            kr.kind,
            false,
            fc
              .tuple(
                kr.bad.filter((k) => k !== "__proto__"),
                value,
              )
              .map(([k, v]) => (current: unknown) => {
                const texts = kr.text !== undefined ? [kr.text] : key.refinements.flatMap((r) => r.run(k));
                const base = isPlainObject(current) ? current : {};
                return { value: { ...base, [k]: v }, path: [k], texts };
              }),
          );
        }
        walk(n.value.node, [...at, { value: true }]);
        return;
      }
      case "object": {
        for (const [k, f] of Object.entries(n.shape)) {
          if (!f.optional && !(at.length === 0 && o.skipMissing?.includes(k))) {
            add(
              [...at, { key: k }],
              "missing",
              true,
              fc.constant(() => ({ value: REMOVE, path: [], texts: [f.node.typeText] })),
            );
          }
          walk(f.node, [...at, { key: k }]);
        }
        if (n.strict) {
          const names = Object.keys(n.shape);
          add(
            at,
            "unknown key",
            false,
            fc
              .tuple(fc.stringMatching(/^[a-z][A-Za-z0-9]{2,12}$/), fc.jsonValue({ maxDepth: 1 }))
              .filter(([k]) => !names.includes(k))
              .map(([k, v]) => (current: unknown) => ({
                value: { ...(isPlainObject(current) ? current : {}), [k]: v },
                path: [],
                texts: [`Unrecognized key: "${k}"`],
              })),
          );
        }
        return;
      }
      case "union":
        n.options.forEach((opt, i) => walkOption(opt, [...at, { option: i }]));
        return;
    }
  };
  // Inside a union option, the option's own type is the union's choice: no type violation of its own.
  const walkOption = (n: Node, at: Step[]) => {
    const before = out.length;
    walk(n, at);
    const own = out.findIndex((v, i) => i >= before && v.kind === "type" && v.at.length === at.length);
    if (own >= 0) out.splice(own, 1);
  };
  walk(root.node, []);
  return out;
}

function refinementViolation(r: Refinement, candidates: Arbitrary<unknown>, where: string): Violation["make"] {
  return filtered(
    candidates.map((v) => ({ v, messages: r.run(v) })),
    ({ messages }) => messages.length > 0,
    `values breaking a refinement at "${where}"`,
  ).map(({ v, messages }) => () => ({ value: v, path: [], texts: messages }));
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------
// Putting a broken value into a valid input

/** The node and field at each step of `at`, from the root. */
export function nodesAlong(root: Field, at: readonly Step[]): Field[] {
  const out: Field[] = [root];
  let f = root;
  for (const st of at) {
    const n = f.node;
    if ("key" in st && n.kind === "object") f = n.shape[st.key]!;
    else if ("element" in st && n.kind === "array") f = n.element;
    else if ("value" in st && n.kind === "record") f = n.value;
    else if ("option" in st && n.kind === "union") f = { node: n.options[st.option]!, optional: false };
    else throw new Error(`no step ${JSON.stringify(st)} in a ${n.kind}`);
    out.push(f);
  }
  return out;
}

/** The value of each field along `at`, valid and dense: what an absent container is filled with. */
export function fillersAlong(root: Field, at: readonly Step[], o: ValueOptions): Arbitrary<unknown[]> {
  const fields = nodesAlong(root, at);
  // The root is never absent: no filler for it.
  return fc.tuple(...fields.map((f, i) => (i === 0 ? fc.constant(undefined) : validValue(f, at.slice(0, i), { ...o, dense: true }))));
}

/** Whether `v` has the JSON type of `n` (for unions: of the option chosen). */
function hasTypeOf(n: Node, v: unknown): boolean {
  switch (n.kind) {
    case "object":
    case "record":
      return isPlainObject(v);
    case "array":
      return Array.isArray(v);
    case "string":
      return typeof v === "string";
    case "number":
      return typeof v === "number";
    case "boolean":
      return typeof v === "boolean";
    default:
      return v !== undefined;
  }
}

/**
 * Puts the broken value into a clone of `input` at `at` (choosing an element or record entry by
 * `pick` where the path goes through one, filling absent containers with `fillers`) and returns the
 * input with the property path check must name and the texts its reason must carry.
 */
export function applyViolation(
  root: Field,
  input: Input,
  v: Violation,
  make: (current: unknown) => Broken,
  fillers: unknown[],
  pick: number,
): { input: Input; path: string; texts: string[] } {
  const fields = nodesAlong(root, v.at);
  const out = structuredClone(input);
  const where: Path = [];
  let unionPath: Path | undefined;
  let unionText = "";
  // Walks to the broken value; `set` writes the last step's slot.
  let set: (value: unknown) => void = () => {
    throw new Error("a violation of the root itself");
  };
  let current: unknown = out;
  for (let i = 0; i < v.at.length; i++) {
    const st = v.at[i]!;
    const field = fields[i + 1]!;
    if ("option" in st) {
      unionPath ??= [...where];
      unionText = fields[i]!.node.typeText;
      if (!hasTypeOf(field.node, current)) {
        current = structuredClone(fillers[i + 1]);
        set(current);
      }
      continue;
    }
    const parent = current as Record<string, unknown> | unknown[];
    let key: string | number;
    if ("key" in st) key = st.key;
    else if ("element" in st) {
      const arr = parent as unknown[];
      if (arr.length === 0) arr.push(structuredClone(fillers[i + 1]));
      key = pick % arr.length;
    } else {
      const rec = parent as Record<string, unknown>;
      const keys = Object.keys(rec);
      if (keys.length === 0) {
        const filler = fillers[i] as Record<string, unknown>;
        Object.assign(rec, structuredClone(filler));
      }
      const ks = Object.keys(rec);
      key = ks[pick % ks.length]!;
    }
    where.push(key);
    const k = key;
    const c = parent as Record<string | number, unknown>;
    set = (value) => {
      if (value === REMOVE) delete c[k];
      else c[k] = value;
    };
    current = c[k];
    const last = i === v.at.length - 1;
    if (!last && (current === undefined || !hasTypeOf(field.node, current))) {
      current = structuredClone(fillers[i + 1]);
      set(current);
    }
  }
  if (v.at.length === 0) {
    // The root itself: only object-level violations (unknown keys) apply here.
    const b = make(out);
    return { input: b.value as Input, path: propertyPath(b.path), texts: b.texts };
  }
  const b = make(current);
  set(b.value);
  // Inside a union, an aborting violation makes no option match: zod reports the union.
  if (unionPath !== undefined && v.aborts) return { input: out, path: propertyPath(unionPath), texts: [unionText] };
  return { input: out, path: propertyPath([...where, ...b.path]), texts: b.texts };
}
