/** check (provider/core/operations/check.ts): validation with property paths, defaults, unknowns, derivations, auto-names, the adopt notice. */
import { z } from "zod";
import { buildProvider, UNKNOWN } from "../../../provider/core";
import { fakeDefinition, PROVIDER, visible } from "./thing";

describe("check", () => {
  const p = buildProvider(fakeDefinition(new Map()));

  test("rejects bad input with the property path and the rule, before any request", async () => {
    const r = await p.check({}, { name: "ab", size: 0, __provider: PROVIDER });
    expect(r.failures).toEqual([
      { property: "name", reason: "name: must be at least 4 characters" },
      { property: "size", reason: "size: must be at least 1" },
    ]);
  });

  test("applies defaults and keeps __provider", async () => {
    const r = await p.check({}, { name: "abcd", size: 2, __provider: PROVIDER });
    expect(r.failures).toBeUndefined();
    expect(visible(r.inputs)).toEqual({ name: "abcd", size: 2, tags: {}, adopt: false, __provider: PROVIDER });
  });

  test("unknown values during preview: not validated, kept as unknown, and every default still applied", async () => {
    const r = await p.check({}, { name: UNKNOWN, size: UNKNOWN, __provider: PROVIDER });
    expect(r.failures).toBeUndefined();
    expect(visible(r.inputs)).toEqual({ name: UNKNOWN, size: UNKNOWN, tags: {}, adopt: false, __provider: PROVIDER });
  });

  test("an unknown inside a map keeps the map's known entries validated and the other defaults applied", async () => {
    const ok = await p.check({}, { name: "abcd", size: 1, tags: { a: UNKNOWN, b: "x" }, __provider: PROVIDER });
    expect(ok.failures).toBeUndefined();
    expect(visible(ok.inputs)).toEqual({ name: "abcd", size: 1, tags: { a: UNKNOWN, b: "x" }, adopt: false, __provider: PROVIDER });
    const bad = await p.check({}, { name: "ab", size: UNKNOWN, tags: { a: UNKNOWN, b: 5 }, bogus: 1, __provider: PROVIDER });
    expect(bad.failures).toEqual([
      { property: "bogus", reason: 'bogus: unrecognized key "bogus"' },
      { property: "name", reason: "name: must be at least 4 characters" },
      { property: "tags", reason: "tags.b: Invalid input: expected string, received number" },
    ]);
  });

  test("derivations never run on an unknown input: their result is unknown", async () => {
    const computed: unknown[] = [];
    const def = fakeDefinition(new Map());
    const withDigest = buildProvider({
      ...def,
      inputs: () => (def.inputs() as unknown as z.ZodObject).extend({ digest: z.string().optional() }) as never,
      derive: [{ from: ["tags"], to: "digest", compute: (i) => (computed.push(i.tags), `d:${Object.keys(i.tags).length}`) }],
    });
    const unknown = await withDigest.check({}, { name: "abcd", size: 1, tags: { a: UNKNOWN }, __provider: PROVIDER });
    expect(unknown.inputs.digest).toBe(UNKNOWN);
    expect(computed).toEqual([]);
    const known = await withDigest.check({}, { name: "abcd", size: 1, tags: { a: "1" }, __provider: PROVIDER });
    expect(known.inputs.digest).toBe("d:1");
    expect(computed).toEqual([{ a: "1" }]);
  });

  test("auto-names from the logical name with a suffix, and keeps the name on later runs", async () => {
    const first = await p.check({}, { size: 1, __logicalName: "My_Thing", __provider: PROVIDER });
    expect(first.inputs.name).toMatch(/^my-thing-[0-9a-f]{7}$/);
    const again = await p.check(first.inputs, { size: 2, __logicalName: "My_Thing", __provider: PROVIDER });
    expect(again.inputs.name).toBe(first.inputs.name);
    expect(again.inputs).not.toHaveProperty("__logicalName");
  });

  test("adopt: true on a resource not in the state yet: a notice says up takes the existing one over (the engine shows a create); none afterwards or without adopt", async () => {
    const adoptable = buildProvider(fakeDefinition(new Map()));
    const notices: string[] = [];
    const notice = (m: string) => notices.push(m);
    const first = await adoptable.check({}, { name: "found", size: 1, adopt: true, __logicalName: "kept", __provider: PROVIDER }, { notice });
    expect(notices).toEqual([
      'kept: will be adopted (adopt: true): pulumi up takes over the existing thing "found" instead of creating it; the engine shows the step as a create',
    ]);
    // In the state (old inputs given): an update, not a takeover.
    await adoptable.check(first.inputs, { name: "found", size: 2, adopt: true, __logicalName: "kept", __provider: PROVIDER }, { notice });
    await adoptable.check({}, { name: "made", size: 1, __logicalName: "new", __provider: PROVIDER }, { notice });
    // A name not known yet at preview is not shown as the sentinel.
    await adoptable.check({}, { name: UNKNOWN, size: 1, adopt: true, __logicalName: "later", __provider: PROVIDER }, { notice });
    expect(notices.slice(1)).toEqual([
      "later: will be adopted (adopt: true): pulumi up takes over the existing Thing it names instead of creating it; the engine shows the step as a create",
    ]);
  });
});
