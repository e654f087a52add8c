/**
 * The loader of provider/core/list-reads.ts on a definition of its own (no cloud): who shares a
 * walk (the type and the credential, never another's), a walk that fails, and the switch that turns
 * it off. The counts against the local cloud's request log, the keep and the writes are
 * tests/local/list-reads.test.ts. The batch window is 0 ms and the keep's clock a fake one.
 */
import { resolveSettings } from "../../client/core";
import { forgetListings, READS_FROM_LIST_ENV, readFromListOrOwn, setListReadTiming, type ListReadTiming } from "../../provider/core/list-reads";
import type { AnyDefinition, Context } from "../../provider/core/resource";

type Outs = Record<string, unknown>;

/** A type whose cloud holds `records`; counts its walks and its own reads. */
function fakeType(token: string, records: Record<string, Outs>, failWalk = false) {
  const calls = { walks: 0, own: [] as string[] };
  const def = {
    token,
    read: async (_ctx: Context, id: string) => {
      calls.own.push(id);
      return records[id];
    },
    readsFromList: {
      walk: async () => {
        calls.walks++;
        if (failWalk) throw new Error("503 on the list");
        return new Map(Object.entries(records));
      },
      outputs: async (_ctx: Context, _id: string, record: unknown) => ({ ...(record as Outs), fromList: true }),
    },
  } as unknown as AnyDefinition;
  return { def, calls };
}

const ctxFor = (credentialId: string): Context =>
  ({
    settings: resolveSettings(
      { localCloudUrl: "http://127.0.0.1:9", authToken: "t", projectId: "p", credentialId, credentialSecret: "s" },
      () => undefined,
      {},
    ),
    progress: () => undefined,
  }) as unknown as Context;

let saved: ListReadTiming;
beforeEach(() => {
  saved = setListReadTiming({ windowMs: 0, keepMs: 60_000, now: () => 0 });
});
afterEach(() => {
  setListReadTiming(saved);
  delete process.env[READS_FROM_LIST_ENV];
});

const records = { a: { name: "a" }, b: { name: "b" }, c: { name: "c" } };

test("reads of one type and one credential share a walk; another credential's reads walk on their own", async () => {
  const { def, calls } = fakeType("krcloud:cache:Fake1", records);
  const mine = ctxFor("cred-1");
  const theirs = ctxFor("cred-2");
  const read = await Promise.all([
    readFromListOrOwn(def, mine, "a", {}),
    readFromListOrOwn(def, mine, "b", {}),
    readFromListOrOwn(def, theirs, "a", {}),
    readFromListOrOwn(def, theirs, "c", {}),
  ]);
  expect(read).toEqual([
    { name: "a", fromList: true },
    { name: "b", fromList: true },
    { name: "a", fromList: true },
    { name: "c", fromList: true },
  ]);
  expect(calls).toEqual({ walks: 2, own: [] });
  forgetListings("krcloud:cache:Fake1");
});

test("a walk that fails sends each of its reads to its own read", async () => {
  const { def, calls } = fakeType("krcloud:cache:Fake2", records, true);
  const ctx = ctxFor("cred-1");
  const read = await Promise.all(["a", "b", "gone"].map((id) => readFromListOrOwn(def, ctx, id, {})));
  expect(read).toEqual([{ name: "a" }, { name: "b" }, undefined]);
  expect(calls.walks).toBe(1);
  expect(calls.own.sort()).toEqual(["a", "b", "gone"]);
});

test(`${READS_FROM_LIST_ENV}=off: every read is its own, no walk`, async () => {
  process.env[READS_FROM_LIST_ENV] = "off";
  const { def, calls } = fakeType("krcloud:cache:Fake3", records);
  const ctx = ctxFor("cred-1");
  await Promise.all(["a", "b", "c"].map((id) => readFromListOrOwn(def, ctx, id, {})));
  expect(calls).toEqual({ walks: 0, own: ["a", "b", "c"] });
});

test("a type that declares no reads on its own", async () => {
  const { def, calls } = fakeType("krcloud:cache:Fake4", records);
  const no = { ...def, readsFromList: { no: "its read needs more than the list" } } as AnyDefinition;
  const ctx = ctxFor("cred-1");
  await Promise.all(["a", "b"].map((id) => readFromListOrOwn(no, ctx, id, {})));
  expect(calls).toEqual({ walks: 0, own: ["a", "b"] });
});
