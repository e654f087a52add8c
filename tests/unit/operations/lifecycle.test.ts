/**
 * create, read, update (provider/core/operations/): a partial failure the engine records, a read of
 * what is gone, an update that converges from the cloud. Unknown outcomes, recovery and deletes:
 * tests/unit/provider-recovery.test.ts.
 */
import { buildProvider } from "../../../provider/core";
import { fakeDefinition, PROVIDER, type Out } from "./thing";

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
