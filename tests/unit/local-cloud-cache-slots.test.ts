/**
 * The cache local cloud's slot bookkeeping, which decides what a real cluster moves when a shard is
 * added or removed: planMoves must leave every remaining primary with an even share, move each slot
 * once and only from where it is, and empty the leaving ones; the range helpers must round-trip;
 * CLUSTER NODES lines must parse as Redis writes them; and a key's slot (which a restore's MIGRATE
 * routes by) must be the one Redis gives.
 */
import fc from "fast-check";
import { parseNodes, planMoves, SLOTS, slotList, slotRanges } from "../../local-cloud/cache/redis/cluster";
import { keySlot } from "../../local-cloud/cache/redis/transfer";

test.each([
  // CLUSTER KEYSLOT of redis-server 7.0.15.
  ["foo", 12182],
  ["bar", 5061],
  ["somekey", 11058],
  ["{user1000}.following", 3443],
  ["{user1000}.followers", 3443],
  ["{}x", 10595],
  ["a{}b{c}", 7353],
  ["k:12345", 1495],
])("the slot of %s is %i, as Redis computes it (CRC16-XMODEM of the key or its hash tag)", (key, slot) => {
  expect(keySlot(Buffer.from(key))).toBe(slot);
});

/** `n` primaries holding contiguous even shares, in order (what a formation or a settled rebalance leaves). */
function evenOwners(n: number): Map<string, number[]> {
  const owners = new Map<string, number[]>();
  for (let i = 0; i < n; i++) owners.set(`p${i}`, []);
  for (let s = 0; s < SLOTS; s++) owners.get(`p${Math.min(n - 1, Math.floor(s / Math.floor(SLOTS / n)))}`)!.push(s);
  return owners;
}

describe("planMoves", () => {
  test("a joining or leaving primary: every primary that stays ends with an even share, each slot moves once from its owner", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 11 }), fc.boolean(), fc.nat(), (n, join, pick) => {
        const owners = evenOwners(join ? n : n + 1);
        const joining = join ? ["new"] : [];
        const leaving = join ? [] : [`p${pick % (n + 1)}`];
        const moves = planMoves(owners, joining, leaving);

        const after = new Map([...owners].map(([id, slots]) => [id, new Set(slots)]));
        for (const id of joining) after.set(id, new Set());
        const moved = new Set<number>();
        const wrong: string[] = [];
        for (const m of moves) {
          for (const s of m.slots) {
            if (!after.get(m.from)!.has(s)) wrong.push(`${s} moved from ${m.from}, which does not hold it`);
            if (moved.has(s)) wrong.push(`${s} moved twice`);
            moved.add(s);
            after.get(m.from)!.delete(s);
            after.get(m.to)!.add(s);
          }
        }
        expect(wrong).toEqual([]);
        for (const id of leaving) expect(after.get(id)!.size).toBe(0);
        const staying = [...after].filter(([id]) => !leaving.includes(id)).map(([, slots]) => slots.size);
        expect(staying.reduce((a, b) => a + b, 0)).toBe(SLOTS);
        expect(Math.max(...staying) - Math.min(...staying)).toBeLessThanOrEqual(1);
        // Nothing moves that need not: only the new share, or only what the leaving one held.
        expect(moved.size).toBe(join ? Math.floor(SLOTS / (n + 1)) + (n < SLOTS % (n + 1) ? 1 : 0) : owners.get(leaving[0]!)!.length);
      }),
      { numRuns: 60 },
    );
  });

  test("3 shards to 4: each old primary gives a quarter of the slots from the end of its share", () => {
    const moves = planMoves(evenOwners(3), ["new"], []);
    expect(moves.map((m) => [m.from, m.to, m.slots.length])).toEqual([
      ["p0", "new", 1365],
      ["p1", "new", 1365],
      ["p2", "new", 1366],
    ]);
    expect(slotRanges(moves[0]!.slots)).toEqual([[4096, 5460]]);
  });
});

test("slotRanges and slotList round-trip any set of slots", () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.integer({ min: 0, max: SLOTS - 1 }), { maxLength: 300 }), (slots) => {
      const ranges = slotRanges(slots);
      expect(slotList(ranges)).toEqual([...slots].sort((a, b) => a - b));
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBeGreaterThan(ranges[i - 1]![1] + 1);
    }),
  );
});

test("CLUSTER NODES lines: address, flags, primary, slots; an open migration is noticed", () => {
  const text = [
    "6d9ca918cc307251c664761c4995d9e7f919f817 127.0.0.1:44551@46459 myself,master - 0 1795500242000 1 connected 0-5460 [5461->-904d4bdaef0b19974b3cda6921bbbb8912856741]",
    "185743acf6fdca623fe89d33191767398423d0cc 127.0.0.1:41591@35131 slave 6d9ca918cc307251c664761c4995d9e7f919f817 0 1795500243052 1 connected",
    "904d4bdaef0b19974b3cda6921bbbb8912856741 127.0.0.1:33475@43773 master,fail? - 1795500243000 1795500243153 3 connected 5461-10921 16000",
  ].join("\n");
  expect(parseNodes(text)).toEqual([
    {
      redisId: "6d9ca918cc307251c664761c4995d9e7f919f817",
      port: 44551,
      flags: ["myself", "master"],
      primaryId: undefined,
      slots: [[0, 5460]],
      migrating: true,
    },
    {
      redisId: "185743acf6fdca623fe89d33191767398423d0cc",
      port: 41591,
      flags: ["slave"],
      primaryId: "6d9ca918cc307251c664761c4995d9e7f919f817",
      slots: [],
      migrating: false,
    },
    {
      redisId: "904d4bdaef0b19974b3cda6921bbbb8912856741",
      port: 33475,
      flags: ["master", "fail?"],
      primaryId: undefined,
      slots: [
        [5461, 10921],
        [16000, 16000],
      ],
      migrating: false,
    },
  ]);
});
