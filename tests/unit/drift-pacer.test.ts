/**
 * The request budget of a fleet check (drift/pacer.ts, client/core/pacer.ts), on fake clocks: the
 * pacer's reservations never put more than a shard's share in a window, first come first served;
 * the shares of N shards add up to no more than the budget; every attempt of every request waits
 * its turn through KRCLOUD_REQUEST_PACER, a retry after 429 too; a pacer that does not answer fails
 * the request, saying so. The engine tier proves it on the local cloud's request log
 * (tests/engine/drift-fleet.test.ts).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { PACER_ENV, reserveStart, Transport, type Clock } from "../../client/core";
import { PacerSchedule, RequestPacer, shareOf, WINDOW_MS } from "../../drift/pacer";

/** A clock whose sleeps only record and move its time. */
function fakeClock(): Clock & { slept: number[]; t: number } {
  const c = {
    t: 1_000_000,
    slept: [] as number[],
    now: () => c.t,
    random: () => 0.5,
    sleep: async (ms: number) => {
      c.slept.push(ms);
      c.t += ms;
    },
  };
  return c;
}

test("reservations: evenly spaced at the share's rate, in order of arrival, each as early as that allows", () => {
  const s = new PacerSchedule(2, 1000);
  expect([0, 0, 0, 10, 2500, 2600].map((t) => s.reserve(t))).toEqual([0, 500, 1000, 1500, 2500, 3000]);
  expect([s.granted, s.waited, s.maxWaitMs]).toEqual([6, 4, 1490]);
});

test("whatever the arrivals, no window of the pacer's length holds more than its share, and no start precedes its request", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 6 }), fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 80 }), (share, gaps) => {
      const s = new PacerSchedule(share);
      let t = 0;
      const starts = gaps.map((g) => {
        t += g;
        const at = s.reserve(t);
        expect(at).toBeGreaterThanOrEqual(t);
        return at;
      });
      for (let i = 0; i + share < starts.length; i++) expect(starts[i + share]! - starts[i]!).toBeGreaterThanOrEqual(WINDOW_MS);
    }),
  );
});

test("the shards' shares add up to no more than the budget", () => {
  for (const [budget, shards] of [
    [10, 3],
    [12, 4],
    [7, 7],
    [100, 6],
  ]) {
    expect(shareOf(budget!, shards!) * shards!).toBeLessThanOrEqual(budget!);
    expect(shareOf(budget!, shards!)).toBeGreaterThanOrEqual(1);
  }
  expect(shareOf(3, 4)).toBe(0);
});

describe("through the transport", () => {
  let pacer: RequestPacer;
  let pacerNow: number;
  let api: http.Server;
  let apiUrl: string;
  let answers: number[];
  const hits: string[] = [];

  beforeAll(async () => {
    pacer = new RequestPacer(1, () => pacerNow);
    process.env[PACER_ENV] = await pacer.start();
    api = http.createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      const status = answers.shift() ?? 200;
      res.writeHead(status, status === 429 ? { "retry-after": "2" } : {}).end("{}");
    });
    await new Promise<void>((r) => api.listen(0, "127.0.0.1", () => r()));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    delete process.env[PACER_ENV];
    await pacer.close();
    await new Promise<void>((r) => api.close(() => r()));
  });

  test("each attempt waits its turn, the retry after a 429 included: the waits are the pacer's, the backoff Retry-After's", async () => {
    pacerNow = 0;
    answers = [429, 200];
    const clock = fakeClock();
    const t = new Transport({ service: "objectstorage", endpoint: apiUrl, clock });
    const first = t.request({ operation: "GetThing", method: "GET", path: "/a", idempotent: true });
    await first;
    // The pacer's own time stands still: 1 start per 1.25 s, so the second attempt (the retry) waits 1.25 s.
    expect(clock.slept).toEqual([2000, WINDOW_MS]);
    expect(hits).toEqual(["GET /a", "GET /a"]);
    expect(pacer.schedule.granted).toBe(2);
  });

  test("a pacer that does not answer fails the request before it is sent, naming the setting", async () => {
    hits.length = 0;
    const clock = fakeClock();
    await expect(reserveStart(clock, undefined, { [PACER_ENV]: "http://127.0.0.1:9/reserve" })).rejects.toThrow(
      /the request pacer at http:\/\/127\.0\.0\.1:9\/reserve \(KRCLOUD_REQUEST_PACER, set by krcloud-drift for a request budget\) did not answer/,
    );
    expect(hits).toEqual([]);
    // Without the setting nothing waits.
    await reserveStart(clock, undefined, {});
    expect(clock.slept).toEqual([]);
  });
});
