import { waitFor, waiterDelay, isKrcloudError, type Clock, type WaiterOptions } from "../../client/core";

function fakeClock(random = 0.5): Clock & { sleeps: number[]; t: () => number } {
  const sleeps: number[] = [];
  let t = 0;
  return { sleeps, t: () => t, now: () => t, random: () => random, sleep: async (ms) => void (sleeps.push(ms), (t += ms)) };
}

/** A status function that walks through the given states, one per poll ('-' means not found). */
function sequence(states: string[]) {
  let i = 0;
  const polls: string[] = [];
  const fn = async () => {
    const s = states[Math.min(i++, states.length - 1)]!;
    polls.push(s);
    return s === "-" ? undefined : { status: s };
  };
  return { fn, polls };
}

type Rec = { status: string };

/**
 * waitFor a record whose state is its `status`: of "x", for Running, within a minute, on a fake
 * clock, unless `o` says otherwise.
 */
function waitForStatus(o: Partial<WaiterOptions<Rec>> & Pick<WaiterOptions<Rec>, "status">): Promise<Rec | undefined> {
  return waitFor<Rec>({ resource: "x", stateOf: (x) => x.status, target: ["Running"], timeoutMs: 60_000, clock: fakeClock(), ...o });
}

test("past 10 s of waiting the pause grows with the time waited, a tenth of it, up to the backoff", async () => {
  const clock = fakeClock();
  const { fn } = sequence([...Array.from({ length: 30 }, () => "Creating"), "Running"]);
  await waitForStatus({
    status: fn,
    minDelayMs: 1000,
    maxDelayMs: 15_000,
    timeoutMs: 3_600_000,
    clock,
  });
  // Each pause is at most a tenth of the time already waited (never under minDelayMs).
  let t = 0;
  for (const s of clock.sleeps) {
    expect(s).toBeLessThanOrEqual(Math.max(1000, Math.floor(t / 10)));
    t += s;
  }
  expect(clock.sleeps.slice(0, 10)).toEqual(Array(10).fill(1000));
  expect(clock.sleeps[clock.sleeps.length - 1]).toBeGreaterThan(1000);
});

test("backoff grows from min to max with jitter between min and the ceiling", () => {
  expect([1, 2, 3, 4, 5].map((a) => waiterDelay(a, 1000, 8000, () => 0.5))).toEqual([1000, 1500, 2500, 4500, 4500]);
  expect([1, 2, 3].map((a) => waiterDelay(a, 1000, 8000, () => 0))).toEqual([1000, 1000, 1000]);
});

test("polls until the target state with the exact sleep sequence", async () => {
  const clock = fakeClock();
  const { fn, polls } = sequence(["Creating", "Creating", "Creating", "Modifying", "Running"]);
  const progress: string[] = [];
  const v = await waitForStatus({
    resource: 'cluster "web"',
    status: fn,
    minDelayMs: 1000,
    maxDelayMs: 8000,
    clock,
    onProgress: (p) => progress.push(`${p.attempt}:${p.state}@${p.elapsedMs}`),
  });
  expect(v).toEqual({ status: "Running" });
  expect(polls).toEqual(["Creating", "Creating", "Creating", "Modifying", "Running"]);
  // Never more than a tenth of the time waited: in the first 10 s, every minDelayMs.
  expect(clock.sleeps).toEqual([1000, 1000, 1000, 1000]);
  expect(progress).toEqual(["1:Creating@0", "2:Creating@1000", "3:Creating@2000", "4:Modifying@3000", "5:Running@4000"]);
});

test("tolerates a few not-found answers right after create", async () => {
  const clock = fakeClock();
  const { fn } = sequence(["-", "-", "Creating", "Running"]);
  const v = await waitForStatus({ status: fn, clock, notFoundTolerance: 2 });
  expect(v?.status).toBe("Running");
});

test("fails when not found more often than tolerated", async () => {
  const { fn } = sequence(["-", "-", "-"]);
  const err = await waitForStatus({
    status: fn,
    notFoundTolerance: 2,
  }).catch((e) => e);
  expect(err.code).toBe("KRCLOUD_WAITER_FAILURE");
});

test("a failure state stops the wait at once and lists the states seen", async () => {
  const { fn, polls } = sequence(["PROVISIONING", "FAILED", "Running"]);
  const err = await waitForStatus({
    resource: 'instance set "a"',
    status: fn,
    failure: (_x, state) => (state === "FAILED" ? "is FAILED: it will not become Running" : undefined),
  }).catch((e) => e);
  expect(isKrcloudError(err)).toBe(true);
  expect(err.message).toBe('instance set "a" is FAILED: it will not become Running (states seen: PROVISIONING -> FAILED)');
  expect(polls).toHaveLength(2);
});

test("times out naming the resource, the last state and the states seen; the last poll starts minDelayMs before the deadline", async () => {
  const clock = fakeClock();
  const { fn, polls } = sequence(["Creating", "Modifying"]);
  const err = await waitForStatus({
    resource: 'cluster "web"',
    status: fn,
    minDelayMs: 1000,
    maxDelayMs: 4000,
    timeoutMs: 10_500,
    clock,
  }).catch((e) => e);
  expect(err.code).toBe("KRCLOUD_WAITER_TIMEOUT");
  expect(err.message).toMatch(
    /^timed out after 10.5s waiting for cluster "web" to become Running \(last state: Modifying; states seen: Creating -> Modifying\)$/,
  );
  // A poll bounded by the deadline needs time to answer: the last pause is shortened so that the
  // last poll has at least minDelayMs before the deadline (a poll at the deadline could not answer).
  expect(clock.sleeps).toEqual([1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 500]);
  expect(clock.t()).toBe(9_500);
  expect(polls).toHaveLength(11);
});

/** A fake clock whose `timeout(ms)` signals fire when its time passes their due time. */
function timerClock(): Clock & { t: () => number; advance: (ms: number) => void; sleeps: number[] } {
  let t = 0;
  const sleeps: number[] = [];
  const timers: { at: number; ac: AbortController }[] = [];
  const advance = (ms: number) => {
    t += ms;
    for (const x of timers) if (x.at <= t && !x.ac.signal.aborted) x.ac.abort(new Error("deadline"));
  };
  return {
    t: () => t,
    sleeps,
    advance,
    now: () => t,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
      advance(ms);
    },
    timeout: (ms) => {
      const ac = new AbortController();
      timers.push({ at: t + ms, ac });
      return ac.signal;
    },
  };
}

test("a poll that hangs is cut at the wait's deadline: each poll gets a signal that fires then, and the deadline", async () => {
  const clock = timerClock();
  const seen: { aborted: boolean; deadline: number }[] = [];
  let n = 0;
  const err = await waitForStatus({
    resource: 'cluster "web"',
    status: (ctx: { signal: AbortSignal; deadline: number }) => {
      seen.push({ aborted: ctx.signal.aborted, deadline: ctx.deadline });
      if (++n === 1) return Promise.resolve({ status: "Creating" });
      // The second poll (at 1 s) never answers by itself; the clock runs on to the deadline.
      return new Promise((_, reject) => {
        ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason));
        clock.advance(9_000);
      });
    },
    minDelayMs: 1000,
    timeoutMs: 10_000,
    clock,
  }).catch((e) => e);
  expect(err.code).toBe("KRCLOUD_WAITER_TIMEOUT");
  expect(err.lastState).toBe("Creating");
  expect(seen).toEqual([
    { aborted: false, deadline: 10_000 },
    { aborted: false, deadline: 10_000 },
  ]);
  expect(err.elapsedMs).toBe(10_000);
});

test("an error of a poll cut by the caller's AbortSignal is an abort, not a timeout", async () => {
  const clock = timerClock();
  const ac = new AbortController();
  const err = await waitForStatus({
    status: (ctx: { signal: AbortSignal }) =>
      new Promise((_, reject) => {
        ctx.signal.addEventListener("abort", () => reject(new Error("cut")));
        ac.abort();
      }),
    timeoutMs: 10_000,
    clock,
    signal: ac.signal,
  }).catch((e) => e);
  expect(err.code).toBe("KRCLOUD_WAITER_ABORTED");
});

test("waiting for deletion succeeds on not-found", async () => {
  const { fn } = sequence(["Deleting", "Deleting", "-"]);
  const v = await waitForStatus({ status: fn, target: [], targetGone: true });
  expect(v).toBeUndefined();
});

test("an AbortSignal stops the wait", async () => {
  const ac = new AbortController();
  const { fn } = sequence(["Creating"]);
  const clock = fakeClock();
  clock.sleep = async () => {
    ac.abort();
    throw new Error("aborted");
  };
  const err = await waitForStatus({ status: fn, clock, signal: ac.signal }).catch((e) => e);
  expect(err.code).toBe("KRCLOUD_WAITER_ABORTED");
});
