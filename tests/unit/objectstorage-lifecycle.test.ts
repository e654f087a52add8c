import fc from "fast-check";
import { XMLParser } from "fast-xml-parser";
import { buildLifecycleXml, isInvalidArgument, isXmlRepresentable, parseLifecycleXml, type LifecycleRule } from "../../client/objectstorage";

const rule = (prefix: string, extra: Partial<LifecycleRule> = {}): LifecycleRule => ({ prefix, status: "Enabled", days: 30, ...extra });

test("builds the spec's shape: LifecycleConfiguration > Rule > ID, Prefix directly in Rule, Status, Expiration", () => {
  const xml = buildLifecycleXml([rule("logs/", { id: "expire-logs" }), { prefix: "", status: "Disabled", date: "2030-01-01T00:00:00.000Z" }]);
  expect(xml).toBe(
    '<?xml version="1.0" encoding="UTF-8"?><LifecycleConfiguration>' +
      "<Rule><ID>expire-logs</ID><Prefix>logs/</Prefix><Status>Enabled</Status><Expiration><Days>30</Days></Expiration></Rule>" +
      "<Rule><Prefix></Prefix><Status>Disabled</Status><Expiration><Date>2030-01-01T00:00:00.000Z</Date></Expiration></Rule>" +
      "</LifecycleConfiguration>",
  );
});

test("section 2.3 characters in Prefix and ID are written as entities, CR and LF as character references", () => {
  const xml = buildLifecycleXml([rule(`a'b"c&d<e>f\r\ng`, { id: `id'"&<>\r\n` })]);
  expect(xml).toContain("<Prefix>a&apos;b&quot;c&amp;d&lt;e&gt;f&#13;&#10;g</Prefix>");
  expect(xml).toContain("<ID>id&apos;&quot;&amp;&lt;&gt;&#13;&#10;</ID>");
  expect(xml).not.toMatch(/[\r\n]/);
  expect(parseLifecycleXml(xml)).toEqual([{ id: `id'"&<>\r\n`, prefix: `a'b"c&d<e>f\r\ng`, status: "Enabled", days: 30 }]);
});

test("reads Prefix directly under Rule, under Rule/Filter, and under Filter/And; the direct one wins", () => {
  const xml = `<?xml version="1.0"?>
<LifecycleConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Rule>
    <ID>direct</ID>
    <Prefix>a/</Prefix>
    <Status>Enabled</Status>
    <Expiration><Days> 7 </Days></Expiration>
  </Rule>
  <Rule>
    <ID>filter</ID>
    <Filter><Prefix>b&#x0D;&#x0A;/</Prefix></Filter>
    <Status>Disabled</Status>
    <Expiration><Date>2031-02-03T00:00:00.000Z</Date></Expiration>
  </Rule>
  <Rule>
    <Filter><And><Prefix>c/</Prefix></And></Filter>
    <Status>enabled</Status>
    <Expiration><Days>1</Days></Expiration>
  </Rule>
  <Rule>
    <Prefix>wins/</Prefix>
    <Filter><Prefix>loses/</Prefix></Filter>
    <Status>Enabled</Status>
    <Expiration><Days>2</Days></Expiration>
  </Rule>
</LifecycleConfiguration>`;
  expect(parseLifecycleXml(xml)).toEqual([
    { id: "direct", prefix: "a/", status: "Enabled", days: 7 },
    { id: "filter", prefix: "b\r\n/", status: "Disabled", date: "2031-02-03T00:00:00.000Z" },
    { prefix: "c/", status: "Enabled", days: 1 },
    { prefix: "wins/", status: "Enabled", days: 2 },
  ]);
});

test("an empty Prefix element (<Prefix/>) and a configuration without rules", () => {
  expect(
    parseLifecycleXml("<LifecycleConfiguration><Rule><Prefix/><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>"),
  ).toEqual([{ prefix: "", status: "Enabled", days: 1 }]);
  expect(parseLifecycleXml("<LifecycleConfiguration/>")).toEqual([]);
  expect(() => parseLifecycleXml("<Other/>")).toThrow(/no LifecycleConfiguration/);
  expect(() => parseLifecycleXml("<LifecycleConfiguration><Rule>")).toThrow(/not well-formed/);
});

test("prefixes are not trimmed or turned into numbers", () => {
  const rules = [rule(" 007 "), rule("1e3"), rule("true")];
  expect(parseLifecycleXml(buildLifecycleXml(rules)).map((r) => r.prefix)).toEqual([" 007 ", "1e3", "true"]);
});

test.each<[string, LifecycleRule[], RegExp]>([
  ["both days and date", [rule("a", { date: "2030-01-01T00:00:00.000Z" })], /exactly one of days and date/],
  ["neither days nor date", [{ prefix: "a", status: "Enabled" }], /exactly one of days and date/],
  ["zero days", [rule("a", { days: 0 })], /positive integer/],
  ["fractional days", [rule("a", { days: 1.5 })], /positive integer/],
  ["date without milliseconds", [rule("a", { days: undefined, date: "2030-01-01T00:00:00Z" })], /YYYY-MM-DDThh:mm:ss.000Z/],
  ["an id of 256 characters", [rule("a", { id: "x".repeat(256) })], /longer than 255/],
  ["duplicate ids", [rule("a", { id: "same" }), rule("b", { id: "same" })], /duplicate id "same"/],
  ["a bad status", [rule("a", { status: "On" as never })], /Enabled or Disabled/],
  ["a NUL in the prefix", [rule("a\u0000b")], /cannot be written in XML/],
])("rejects %s before sending anything", (_name, rules, message) => {
  let err: unknown;
  try {
    buildLifecycleXml(rules);
  } catch (e) {
    err = e;
  }
  expect(isInvalidArgument(err)).toBe(true);
  expect((err as Error).message).toMatch(message);
});

/** Strings drawn mostly from the characters section 2.3 singles out, plus whitespace and non-ASCII. */
const trickyString = fc.string({ unit: fc.constantFrom("'", '"', "&", "<", ">", "\r", "\n", "\r\n", " ", "\t", "a", "/", "é", "😀", "&amp;", "]]>", "#13;") });

test("property: any XML-representable prefix and id round-trip exactly through build + parse", () => {
  fc.assert(
    fc.property(
      fc.oneof(trickyString, fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" })),
      fc.option(trickyString, { nil: undefined }),
      (prefix, id) => {
        if (!isXmlRepresentable(prefix)) {
          expect(() => buildLifecycleXml([rule(prefix)])).toThrow(/cannot be written in XML/);
          return;
        }
        const rules = [rule(prefix, id === undefined ? {} : { id: id.slice(0, 255) })];
        expect(parseLifecycleXml(buildLifecycleXml(rules))).toEqual(rules);
      },
    ),
    { numRuns: 500 },
  );
});

test("property: the document is well-formed for an independent parser configuration", () => {
  fc.assert(
    fc.property(trickyString, (prefix) => {
      const strict = new XMLParser({ trimValues: false, parseTagValue: false, htmlEntities: true });
      const doc = strict.parse(buildLifecycleXml([rule(prefix)]), true) as { LifecycleConfiguration: { Rule: { Prefix: string } } };
      expect(String(doc.LifecycleConfiguration.Rule.Prefix)).toBe(prefix);
    }),
    { numRuns: 200 },
  );
});
