/**
 * provider/core/coalesce.ts: reads that arrive together share one list call, and only those.
 */
import { readThroughList, sharedList } from "../../provider/core/coalesce";

/** A list call the test answers by hand, counting how often it was made. */
function manualList<T>() {
  const calls: ((v: T) => void)[] = [];
  let sent: () => void = () => undefined;
  let nextSent = new Promise<void>((r) => (sent = r));
  return {
    calls,
    list: (): Promise<T> =>
      new Promise<T>((resolve) => {
        calls.push(resolve);
        sent();
        nextSent = new Promise<void>((r) => (sent = r));
      }),
    /** Resolves once the next list call has been sent. */
    sent: () => nextSent,
  };
}

test("calls that arrive together make one list call and get its answer", async () => {
  const m = manualList<string[]>();
  const reads = [1, 2, 3, 4].map(() => sharedList("k-together", m.list, 0));
  await m.sent();
  m.calls[0]!(["a", "b"]);
  expect(await Promise.all(reads)).toEqual([
    ["a", "b"],
    ["a", "b"],
    ["a", "b"],
    ["a", "b"],
  ]);
  expect(m.calls).toHaveLength(1);
});

test("a call made after the batch's list call went out waits for a list call of its own; keys do not mix", async () => {
  const m = manualList<string>();
  const first = sharedList("k-after", m.list, 0);
  await m.sent();
  const second = sharedList("k-after", m.list, 0);
  const other = sharedList("k-other", async () => "other", 0);
  await m.sent();
  expect(m.calls).toHaveLength(2);
  m.calls[1]!("new");
  m.calls[0]!("old");
  expect(await first).toBe("old");
  expect(await second).toBe("new");
  expect(await other).toBe("other");
});

test("nothing is kept: a call after the answer sends a new list call", async () => {
  let n = 0;
  const list = async () => ++n;
  expect(await sharedList("k-kept", list, 0)).toBe(1);
  expect(await sharedList("k-kept", list, 0)).toBe(2);
});

test("a failed list call fails the reads of its batch only", async () => {
  let n = 0;
  const list = async () => {
    if (++n === 1) throw new Error("503");
    return ["x"];
  };
  const batch = [sharedList("k-fail", list, 0), sharedList("k-fail", list, 0)];
  await expect(batch[0]).rejects.toThrow("503");
  await expect(batch[1]).rejects.toThrow("503");
  expect(await sharedList("k-fail", list, 0)).toEqual(["x"]);
});

test("readThroughList: found in the shared answer, no call of its own; missing, its own lookup decides", async () => {
  /** A read under one key: `items` the shared answer, the item equal to `want` the one found in it. */
  const read = (items: string[], want: string, own: () => Promise<string | undefined>) =>
    readThroughList(
      "k-read",
      async () => items,
      (all) => all.find((x) => x === want),
      own,
    );
  const own = jest.fn(async () => "own");
  expect(await read(["a"], "a", own)).toBe("a");
  expect(own).not.toHaveBeenCalled();
  expect(await read(["a"], "b", own)).toBe("own");
  expect(own).toHaveBeenCalledTimes(1);
  const gone = jest.fn(async () => undefined);
  expect(await read([], "a", gone)).toBeUndefined();
  expect(gone).toHaveBeenCalledTimes(1);
});
