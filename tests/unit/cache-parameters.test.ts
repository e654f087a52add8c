/** The parameter catalogue validator (spec 02 §2.3): formats, data types, every failure at once. */
import fc from "fast-check";
import {
  checkParameterValue,
  compareDecimal,
  flattenParameterGroup,
  matchesNumericFormat,
  parseDecimal,
  parseNumericFormat,
  validateParameterValues,
  type ParameterDefinition,
} from "../../client/cache";
import * as fx from "../support/cache/answers";

const catalogue = flattenParameterGroup(fx.parameterGroupDetail, "reading").parameters;
const def = (over: Partial<ParameterDefinition>): ParameterDefinition => ({
  parameterKey: "k",
  valueKind: "number",
  dataType: "INTEGER",
  editable: true,
  ...over,
});

describe("numeric formats: values, ranges with ~, alternatives with |", () => {
  test("the spec's example 5|10|11~100", () => {
    const f = parseNumericFormat("5|10|11~100")!;
    expect(["5", "10", "11", "50", "100"].map((v) => matchesNumericFormat(v, f))).toEqual([true, true, true, true, true]);
    expect(["4", "6", "9", "101", "-5", "10.5", " 10", "1e1", "", "ten"].map((v) => matchesNumericFormat(v, f))).toEqual(Array(10).fill(false));
  });
  test("open ends, negatives, spaces around tokens, reversed ranges, 64-bit bounds", () => {
    expect(matchesNumericFormat("999999", parseNumericFormat("1~")!)).toBe(true);
    expect(matchesNumericFormat("0", parseNumericFormat("1~")!)).toBe(false);
    expect(matchesNumericFormat("-7", parseNumericFormat("~0")!)).toBe(true);
    expect(matchesNumericFormat("-1", parseNumericFormat(" -1 | 1 ~ 3 ")!)).toBe(true);
    expect(matchesNumericFormat("50", parseNumericFormat("100~5")!)).toBe(true);
    const big = parseNumericFormat("0~9223372036854775807")!;
    expect(matchesNumericFormat("9223372036854775807", big)).toBe(true);
    expect(matchesNumericFormat("9223372036854775808", big)).toBe(false);
  });
  test("fractional bounds allow fractional values; integer formats do not", () => {
    expect(matchesNumericFormat("0.5", parseNumericFormat("0~1.0")!)).toBe(true);
    expect(matchesNumericFormat("0.5", parseNumericFormat("0~1")!)).toBe(false);
  });
  test.each(["", "a~b", "1~2~3", "~", "1||2", "5|x", "1-5"])("%p is not a numeric format", (f) => {
    expect(parseNumericFormat(f)).toBeUndefined();
  });

  // Property tests: a generated format is parsed back into the alternatives it was built from, and
  // membership agrees with a reference built directly from those alternatives.
  const bound = fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n });
  const alternative = fc.oneof(
    bound.map((v) => ({ kind: "value" as const, lo: v, hi: v })),
    fc.tuple(bound, bound).map(([a, b]) => ({ kind: "range" as const, lo: a < b ? a : b, hi: a < b ? b : a })),
  );
  const spaces = fc.constantFrom("", " ", "  ");
  const render = (alts: { kind: "value" | "range"; lo: bigint; hi: bigint }[], sp: string) =>
    alts.map((a) => (a.kind === "value" ? `${sp}${a.lo}${sp}` : `${sp}${a.lo}${sp}~${sp}${a.hi}${sp}`)).join("|");

  test("property: parse(render(alternatives)) has the same alternatives", () => {
    fc.assert(
      fc.property(fc.array(alternative, { minLength: 1, maxLength: 6 }), spaces, (alts, sp) => {
        const f = parseNumericFormat(render(alts, sp));
        expect(f).toBeDefined();
        expect(f!.fractional).toBe(false);
        expect(f!.alternatives.map((a) => (a.kind === "value" ? [a.value.n, a.value.n] : [a.min!.n, a.max!.n]))).toEqual(alts.map((a) => [a.lo, a.hi]));
      }),
    );
  });

  test("property: a value matches exactly when some alternative contains it", () => {
    fc.assert(
      fc.property(fc.array(alternative, { minLength: 1, maxLength: 6 }), bound, spaces, (alts, v, sp) => {
        const f = parseNumericFormat(render(alts, sp))!;
        const expected = alts.some((a) => v >= a.lo && v <= a.hi);
        return matchesNumericFormat(v.toString(), f) === expected;
      }),
    );
  });

  test("property: range bounds are inclusive and their neighbours outside are excluded", () => {
    fc.assert(
      fc.property(bound, fc.bigInt({ min: 0n, max: 10n ** 6n }), (lo, width) => {
        const hi = lo + width;
        const f = parseNumericFormat(`${lo}~${hi}`)!;
        return (
          matchesNumericFormat(`${lo}`, f) &&
          matchesNumericFormat(`${hi}`, f) &&
          !matchesNumericFormat(`${lo - 1n}`, f) &&
          !matchesNumericFormat(`${hi + 1n}`, f)
        );
      }),
    );
  });

  test("property: the parser never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."0123456789~|-+. ax"), maxLength: 20 }), (s) => {
        parseNumericFormat(s);
        return true;
      }),
    );
  });

  test("property: decimal comparison agrees with exact rational comparison", () => {
    const dec = fc.tuple(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }));
    const text = ([n, scale]: [bigint, number]) => {
      const neg = n < 0n;
      const digits = (neg ? -n : n).toString().padStart(scale + 1, "0");
      return `${neg ? "-" : ""}${scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits}`;
    };
    fc.assert(
      fc.property(dec, dec, (a, b) => {
        const x = a[0] * 10n ** BigInt(6 - a[1]);
        const y = b[0] * 10n ** BigInt(6 - b[1]);
        return compareDecimal(parseDecimal(text(a))!, parseDecimal(text(b))!) === (x < y ? -1 : x > y ? 1 : 0);
      }),
    );
  });
});

describe("per data type", () => {
  test("NUMBER (a sample) and INTEGER (the table) are checked the same way", () => {
    for (const dataType of ["NUMBER", "INTEGER", "number"]) {
      const d = def({ dataType, valueKind: undefined, validationValueFormat: "5|10|11~100" });
      expect(checkParameterValue(d, "11")).toBeUndefined();
      expect(checkParameterValue(d, "7")).toMatch(/an integer: 5 or 10 or 11 to 100/);
    }
  });
  test("a numeric type with an unreadable format still needs a number", () => {
    expect(checkParameterValue(def({ validationValueFormat: "see docs" }), "12")).toBeUndefined();
    expect(checkParameterValue(def({ validationValueFormat: "see docs" }), "twelve")).toMatch(/number/);
  });
  test("ENUM: values separated by |, exact match", () => {
    const d = def({ dataType: "ENUM", valueKind: "enum", validationValueFormat: "yes|no" });
    expect(checkParameterValue(d, "yes")).toBeUndefined();
    expect(checkParameterValue(d, "YES")).toMatch(/one of yes, no/);
  });
  test("STRING: the whole value must match the regular expression; an invalid one is not enforced", () => {
    const d = def({ dataType: "STRING", valueKind: "string", validationValueFormat: "[a-z]+" });
    expect(checkParameterValue(d, "abc")).toBeUndefined();
    expect(checkParameterValue(d, "abc1")).toMatch(/must match/);
    expect(checkParameterValue(def({ dataType: "STRING", valueKind: "string", validationValueFormat: "(?<=x" }), "anything")).toBeUndefined();
    expect(checkParameterValue(def({ dataType: "STRING", valueKind: "string", validationValueFormat: "^a|b$" }), "b")).toBeUndefined();
  });
  test("unknown data types are not checked", () => {
    expect(checkParameterValue(def({ dataType: "BOOLEAN", valueKind: "unknown", validationValueFormat: "true|false" }), "maybe")).toBeUndefined();
  });
  test("non-editable parameters: only their current value is accepted", () => {
    const d = catalogue.find((p) => p.parameterKey === "databases")!;
    expect(checkParameterValue(d, "16")).toBeUndefined();
    expect(checkParameterValue(d, "32")).toMatch(/not editable/);
  });
});

describe("validateParameterValues", () => {
  test("valid values against the spec's catalogue", () => {
    expect(
      validateParameterValues(catalogue, { "maxmemory-policy": "allkeys-lru", timeout: "300", hz: "100", "notify-keyspace-events": "KEA", databases: "16" }),
    ).toEqual([]);
  });

  test("every failing parameter in one list, each with its rule, in the order given", () => {
    const f = validateParameterValues(catalogue, {
      hz: "7",
      "maxmemory-policy": "lru",
      Timeout: "1",
      databases: "32",
      "notify-keyspace-events": "Q",
      timeout: "-1",
      "no-such": "1",
    });
    expect(f.map((x) => [x.parameterKey, x.rule])).toEqual([
      ["hz", "NUMBER 5|10|11~100"],
      ["maxmemory-policy", "ENUM volatile-lru|allkeys-lru|noeviction"],
      ["Timeout", "unknown parameter"],
      ["databases", "not editable"],
      ["notify-keyspace-events", "STRING [KEg$lshzxentdmA]*"],
      ["timeout", "INTEGER 0~2147483647"],
      ["no-such", "unknown parameter"],
    ]);
    expect(f[2]!.reason).toMatch(/did you mean "timeout"/);
    expect(f.every((x) => x.property === `parameters.${x.parameterKey}`)).toBe(true);
  });

  test("accepts the list form, numbers and booleans (sent as strings), and a whole parameter group", () => {
    const group = flattenParameterGroup(fx.parameterGroupDetail, "reading");
    expect(validateParameterValues(group, [{ parameterKey: "hz", parameterValue: "10" }])).toEqual([]);
    expect(validateParameterValues(catalogue, { hz: 10, timeout: 5 })).toEqual([]);
    expect(validateParameterValues(catalogue, { hz: 6 })[0]).toMatchObject({ value: "6" });
  });
});
