import { z } from "zod";
import * as pulumi from "@pulumi/pulumi";
import { autoName, buildProvider, CREATE_KEY, keepWriteOnly, PartialFailure, UNKNOWN, withSecretInputs, type ResourceDefinition } from "../../provider/core";

/** Checked inputs without the create key check records (tested in provider-recovery.test.ts). */
const visible = (inputs: Record<string, unknown>) => {
  const { [CREATE_KEY]: key, ...rest } = inputs;
  expect(key).toMatch(/^[0-9a-f]{32}$/);
  return rest;
};

type In = { name: string; size: number; tags: Record<string, string>; adopt: boolean };
type Out = In & { createdAt: string };

/** An in-memory resource: enough to exercise the shared mechanics without a cloud. */
function fakeDefinition(store: Map<string, Out>, failAfterCreate = false): ResourceDefinition<In, Out> {
  const inputs = () =>
    z
      .object({
        name: z.string().min(4, "must be at least 4 characters").max(20),
        size: z.number().int().min(1, "must be at least 1"),
        tags: z.record(z.string(), z.string()).default({}),
        adopt: z.boolean().default(false),
      })
      .strict();
  return {
    token: "krcloud:test:Thing",
    description: "test",
    inputs,
    outputs: () => inputs().extend({ createdAt: z.string() }),
    replaceOn: ["name"],
    deleteBeforeReplace: true,
    localInputs: ["adopt"],
    autoName: { property: "name", minLength: 4, maxLength: 20, lowerCase: true },
    describe: (id) => `thing "${id}"`,
    async create(_ctx, i) {
      store.set(i.name, { ...i, createdAt: "2026-01-01T00:00:00Z" });
      if (failAfterCreate) throw new PartialFailure(i.name, { ...i }, new Error("waiting for thing: timed out"));
      return { id: i.name, outs: store.get(i.name)! };
    },
    async read(_ctx, id) {
      const v = store.get(id);
      return v ? { ...v } : undefined;
    },
    async update(_ctx, id, _cur, n) {
      store.set(id, { ...store.get(id)!, ...n });
      return store.get(id)!;
    },
    async delete(_ctx, id) {
      store.delete(id);
    },
  };
}

const PROVIDER = "stub-text";

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

describe("autoName", () => {
  test("fits the length and character rules", () => {
    const rule = { property: "name", minLength: 4, maxLength: 20, lowerCase: true };
    expect(autoName("A", rule, (n) => "0".repeat(n))).toBe("a-0000000");
    expect(autoName("a-very-long-logical-name-indeed", rule, (n) => "f".repeat(n))).toBe("a-very-long-fffffff");
    expect(autoName("9lives", { ...rule, maxLength: 20 }, (n) => "1".repeat(n))).toBe("r9lives-1111111");
    expect(autoName("x", { ...rule, minLength: 12, suffixLength: 2 }, (n) => "2".repeat(n))).toHaveLength(12);
  });
});

describe("write-only inputs (what the cloud never shows: passwords)", () => {
  const p = buildProvider({ ...fakeDefinition(new Map()), replaceOn: ["name", "tags"], writeOnly: { paths: ["tags.token"] } });
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
    const strict = buildProvider({ ...fakeDefinition(new Map()), replaceOn: ["name", "tags"], writeOnly: { paths: ["tags.token"], matches: () => false } });
    expect(await strict.diff("abcd", imported, declared)).toMatchObject({ changes: true, replaces: ["tags"] });
  });
});

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
      replaceOn: ["name", "kind"],
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

describe("create, read, update, delete", () => {
  test("a create that fails after the cloud accepted it raises an error the engine records: id, properties with __provider, reasons", async () => {
    const store = new Map<string, Out>();
    const p = buildProvider(fakeDefinition(store, true));
    const err = await p.create({ name: "abcd", size: 1, tags: {}, adopt: false, __provider: PROVIDER }).catch((e) => e);
    expect(err.id).toBe("abcd");
    expect(err.properties.__provider).toBe(PROVIDER);
    expect(err.properties.size).toBe(1);
    expect(err.reasons).toEqual(["waiting for thing: timed out"]);
    expect(store.has("abcd")).toBe(true);
  });

  test("read of a resource gone behind our back returns an empty id; inputs mirror the cloud", async () => {
    const store = new Map<string, Out>();
    const p = buildProvider(fakeDefinition(store));
    await p.create({ name: "abcd", size: 1, tags: {}, adopt: true, __provider: PROVIDER });
    store.get("abcd")!.size = 7;
    const r = await p.read("abcd", { name: "abcd", size: 1, tags: {}, adopt: true, createdAt: "x" });
    expect(r.props).toMatchObject({ size: 7, adopt: true });
    expect(r.inputs).toEqual({ name: "abcd", size: 7, tags: {}, adopt: true });
    store.delete("abcd");
    expect(await p.read("abcd", { name: "abcd" })).toEqual({ id: "", props: {} });
  });

  test("update converges from what the cloud has now; outputs are plain JSON", async () => {
    const store = new Map<string, Out>();
    const p = buildProvider(fakeDefinition(store));
    await p.create({ name: "abcd", size: 1, tags: {}, adopt: false, __provider: PROVIDER });
    const r = await p.update(
      "abcd",
      { name: "abcd", size: 99, createdAt: "stale" },
      { name: "abcd", size: 3, tags: { a: "b" }, adopt: false, __provider: PROVIDER },
    );
    expect(r.outs).toEqual({ name: "abcd", size: 3, tags: { a: "b" }, adopt: false, createdAt: "2026-01-01T00:00:00Z" });
  });

  test("update of a resource deleted behind our back says to refresh", async () => {
    const p = buildProvider(fakeDefinition(new Map()));
    const err = await p.update("gone", { name: "gone" }, { name: "gone", size: 1, __provider: PROVIDER }).catch((e) => e);
    expect(err.message).toContain('thing "gone" no longer exists');
  });
});

describe("waitWithProgress", () => {
  test("prints a progress line when the state changes and at most every 10 s otherwise", async () => {
    const { waitWithProgress } = await import("../../provider/core");
    const states = ["Creating", "Creating", "Creating", "Creating", "Modifying", "Running"];
    let i = 0;
    let t = 0;
    const lines: string[] = [];
    const v = await waitWithProgress(
      { progress: (m) => lines.push(m) },
      {
        resource: 'cluster "web"',
        status: async () => ({ s: states[i++]! }),
        stateOf: (x) => x.s,
        target: ["Running"],
        minDelayMs: 4000,
        maxDelayMs: 4000,
        timeoutMs: 600_000,
        clock: { now: () => t, random: () => 0, sleep: async (ms) => void (t += ms) },
      },
    );
    expect(v).toEqual({ s: "Running" });
    expect(lines).toEqual([
      'cluster "web": Creating, waiting for Running (0s)',
      'cluster "web": Creating, waiting for Running (12s)',
      'cluster "web": Modifying, waiting for Running (16s)',
      'cluster "web": Running after 20s',
    ]);
  });
});

describe("resource class helpers", () => {
  test("withSecretInputs: each named property that is set becomes a secret, whatever the program passed; unset ones stay unset; others are untouched", async () => {
    const args = { password: "hunter2", metastore: undefined as string | undefined, host: "db.internal" };
    const out = withSecretInputs(args, ["password", "metastore"]);
    expect(pulumi.Output.isInstance(out.password)).toBe(true);
    expect(await pulumi.isSecret(out.password as unknown as pulumi.Output<string>)).toBe(true);
    expect(out.metastore).toBeUndefined();
    expect(out.host).toBe("db.internal");
    expect(args.password).toBe("hunter2");
  });
});
