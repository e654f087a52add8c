/** Time, sleep and randomness, injectable so retries and waiters are tested without real sleeps. */

export interface Clock {
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
  /**
   * A signal that fires once `ms` of this clock's time have passed (a waiter's deadline). Optional
   * so that simple fake clocks stay simple: without it, `timeoutSignal` uses real time.
   */
  timeout?(ms: number): AbortSignal;
}

/** setTimeout's limit: a longer delay would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** A signal that fires after `ms` of the clock's time; never, for an infinite or too long `ms`. */
export function timeoutSignal(clock: Clock, ms: number): AbortSignal {
  if (clock.timeout) return clock.timeout(ms);
  if (!Number.isFinite(ms) || ms > MAX_TIMER_MS) return new AbortController().signal;
  return AbortSignal.timeout(Math.max(0, Math.ceil(ms)));
}

export const systemClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  // Unreferenced timer: a pending deadline does not keep the process alive.
  timeout: (ms) => (Number.isFinite(ms) && ms <= MAX_TIMER_MS ? AbortSignal.timeout(Math.max(0, Math.ceil(ms))) : new AbortController().signal),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
      const t = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        clearTimeout(t);
        reject(signal?.reason ?? new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};
