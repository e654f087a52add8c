/**
 * Inputs that break one of a schema's rules (re-exported by rules.ts): every way the
 * generator knows to break each rule at each place, and a broken value put into a valid input,
 * with the property path `check` must name and the texts its reason must carry.
 */
import fc, { type Arbitrary } from "fast-check";
import { propertyPath, schemaPathText, type Field, type Node, type Path, type Refinement, type Step } from "./schema";
import { CODE_POINT, filtered, head, INT32, intBetween, length, numberRange, validString, validValue, type Input, type ValueOptions } from "./values";

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

/** Strings of `valid` cut to fewer than `min` characters. */
const shorter = (valid: Arbitrary<string>, min: number): Arbitrary<string> => fc.tuple(valid, fc.nat()).map(([s, k]) => head(s, k % min));

/** Strings of `valid` (an empty one: of a filler character) repeated past `max` characters, by 1 to 40. */
const longer = (valid: Arbitrary<string>, max: number): Arbitrary<string> =>
  fc.tuple(valid, fc.integer({ min: 1, max: 40 }), fc.constantFrom("a", "0", "-", "x")).map(([s, k, c]) => {
    let v = s.length ? s : c;
    while (length(v) <= max) v += v;
    return head(v, max + k);
  });

/** Numbers of `inRange` moved off the integers (down from `hi`, which may be the last one allowed; up from the others). */
const fractional = (inRange: Arbitrary<number>, hi: number): Arbitrary<number> =>
  fc.tuple(inRange, fc.constantFrom(0.5, 0.25, 0.001)).map(([v, f]) => (v === hi ? v - f : v + f));

/** Numbers beyond `bound` by 0 to 1000 (`by` -1: below a minimum, 1: above a maximum); an exclusive bound is itself beyond. */
const beyond = (bound: { value: number; exclusive?: boolean }, by: -1 | 1): Arbitrary<number> =>
  fc.integer({ min: 0, max: 1000 }).map((k) => (bound.exclusive ? bound.value : bound.value + by) + by * k);

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
  /** A rule of the node at `at` broken by each value `bad` makes, which check reports with `text` and goes on. */
  const broken = (at: Step[], kind: string, text: string, bad: Arbitrary<unknown>) =>
    add(
      at,
      kind,
      false,
      bad.map((value) => () => ({ value, path: [], texts: [text] })),
    );

  const walk = (n: Node, at: Step[]) => {
    add(at, "type", true, typeViolation(n));
    switch (n.kind) {
      case "string": {
        const valid = validValue({ node: n, optional: false }, at, vo) as Arbitrary<string>;
        if (n.min && n.min.value > 0) broken(at, "min_length", n.min.text, shorter(valid, n.min.value));
        if (n.max) broken(at, "max_length", n.max.text, longer(valid, n.max.value));
        n.patterns.forEach((p, i) =>
          broken(
            at,
            `pattern ${i + 1}`,
            p.text,
            filtered(candidatesFor(valid), (s) => !p.re.test(s), `strings breaking pattern ${p.re} at "${schemaPathText(at)}"`),
          ),
        );
        n.refinements.forEach((r, i) => add(at, `refinement ${i + 1}`, false, refinementViolation(r, candidatesFor(valid), schemaPathText(at))));
        return;
      }
      case "number": {
        const { lo, hi } = numberRange(n);
        const inRange = intBetween(Math.max(Math.ceil(lo), -INT32), Math.min(Math.floor(hi), INT32));
        if (n.int) broken(at, "int", n.int.text, fractional(inRange, hi));
        if (n.low) broken(at, "minimum", n.low.text, beyond(n.low, -1));
        if (n.high) broken(at, "maximum", n.high.text, beyond(n.high, 1));
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
        if (n.min && n.min.value > 0) broken(at, "min_items", n.min.text, fc.array(element, { maxLength: n.min.value - 1 }));
        if (n.max) broken(at, "max_items", n.max.text, fc.array(element, { minLength: n.max.value + 1, maxLength: n.max.value + 3 }));
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
