/** diff (provider/core/operations/diff.ts): in place or replace, unknowns, and the write-only inputs the cloud never shows. */
import { z } from "zod";
import { buildProvider, keepWriteOnly, UNKNOWN } from "../../../provider/core";
import { fakeDefinition, PROVIDER } from "./thing";

describe("diff", () => {
  const p = buildProvider(fakeDefinition(new Map()));
  const olds = { name: "abcd", size: 1, tags: {}, adopt: false, createdAt: "x", __provider: PROVIDER };

  test("no changes when inputs match outputs; computed outputs never cause a diff", async () => {
    const d = await p.diff("abcd", { ...olds, createdAt: "changed" }, { name: "abcd", size: 1, tags: {}, adopt: false, __provider: "other-stub" });
    expect(d.changes).toBe(false);
    expect(d.replaces).toEqual([]);
  });

  test("an in-place change and a replacing change", async () => {
    expect(await p.diff("abcd", olds, { ...olds, size: 2 })).toMatchObject({ changes: true, replaces: [] });
    // A new name does not collide with the old one: the replacement is created first.
    expect(await p.diff("abcd", olds, { ...olds, name: "efgh" })).toMatchObject({ changes: true, replaces: ["name"], deleteBeforeReplace: false });
  });

  test("an unknown non-string input plans an update, not a replacement: defaults of replace-on keys are applied", async () => {
    const withType = buildProvider({
      ...fakeDefinition(new Map()),
      inputs: () =>
        z
          .object({
            name: z.string(),
            kind: z.literal("STANDARD").default("STANDARD"),
            size: z.number(),
            tags: z.record(z.string(), z.string()).default({}),
            adopt: z.boolean().default(false),
          })
          .strict() as never,
      replaceOn: { name: "a thing has no rename", kind: "a thing's kind is fixed" },
    });
    const old = { name: "abcd", kind: "STANDARD", size: 1, tags: {}, adopt: false, __provider: PROVIDER };
    const { inputs } = await withType.check(old, { name: "abcd", size: UNKNOWN, __provider: PROVIDER });
    expect(await withType.diff("abcd", old, inputs)).toMatchObject({ changes: true, replaces: [] });
  });

  test("an unknown value is a change (and a replacement for replace-on keys)", async () => {
    expect(await p.diff("abcd", olds, { ...olds, tags: { a: UNKNOWN } })).toMatchObject({ changes: true, replaces: [] });
    expect(await p.diff("abcd", olds, { ...olds, name: UNKNOWN })).toMatchObject({ changes: true, replaces: ["name"] });
  });
});

describe("write-only inputs (what the cloud never shows: passwords)", () => {
  const p = buildProvider({
    ...fakeDefinition(new Map()),
    replaceOn: { name: "a thing has no rename", tags: "a thing's tags are fixed" },
    writeOnly: { paths: ["tags.token"] },
  });
  // What `pulumi import` records: the cloud showed the tag's name, never its value.
  const imported = { name: "abcd", size: 1, tags: { token: "" }, adopt: false, createdAt: "x", __provider: PROVIDER };
  const declared = { name: "abcd", size: 1, tags: { token: "s3cret" }, adopt: false, __provider: PROVIDER };

  test("right after an import the program's value stands: no change, no new name at check", async () => {
    expect(await p.diff("abcd", imported, declared)).toMatchObject({ changes: false, replaces: [] });
    const { inputs } = await p.check({ ...imported }, { size: 1, tags: { token: "s3cret" }, __provider: PROVIDER });
    expect(inputs.name).toBe("abcd");
  });

  test("once recorded (the native plugin gives the recorded inputs), a change is a change", async () => {
    const recorded = { ...declared };
    expect(await p.diff("abcd", imported, declared, recorded)).toMatchObject({ changes: false });
    expect(await p.diff("abcd", imported, { ...declared, tags: { token: "other" } }, recorded)).toMatchObject({ changes: true, replaces: ["tags"] });
    // Recorded in the outputs (the dynamic door records what it sent): compared as any input.
    expect(await p.diff("abcd", { ...imported, tags: { token: "s3cret" } }, { ...declared, tags: { token: "other" } })).toMatchObject({ replaces: ["tags"] });
  });

  test("a refresh keeps what an up recorded: the read's inputs get the recorded value back", () => {
    const def = { ...fakeDefinition(new Map()), writeOnly: { paths: ["tags.token"] } };
    expect(keepWriteOnly(def, { name: "abcd", tags: { token: "" } }, { name: "abcd", tags: { token: "s3cret" } })).toEqual({
      name: "abcd",
      tags: { token: "s3cret" },
    });
    // What the cloud does show wins.
    expect(keepWriteOnly(def, { tags: { token: "shown" } }, { tags: { token: "s3cret" } })).toEqual({ tags: { token: "shown" } });
  });

  test("matches can refuse the program's value when what the cloud shows disagrees", async () => {
    const strict = buildProvider({
      ...fakeDefinition(new Map()),
      replaceOn: { name: "a thing has no rename", tags: "a thing's tags are fixed" },
      writeOnly: { paths: ["tags.token"], matches: () => false },
    });
    expect(await strict.diff("abcd", imported, declared)).toMatchObject({ changes: true, replaces: ["tags"] });
  });
});
