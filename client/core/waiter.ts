/**
 * Resource waiter: polls a status function until the resource reaches a target state.
 *
 * An acceptor per observed state: target -> success, failure -> error, anything else (a state the
 * specs never listed) -> poll again. The specs say the full list of states is "not shown", so an
 * unknown state is treated as pending and reported through `onProgress`, never as a failure. The
 * failure acceptor is the one way a resource says "this will never reach the target": a function of
 * the observed value that returns why (a FAILED node, a query's error message), or nothing.
 *
 * A poll that fails for a reason that may pass (the network, a 5xx, throttling beyond the
 * transport's retries) does not end the wait: it is reported as progress and the wait polls again
 * until its own deadline, which then names the last poll error. Other errors (401, 403, 400, a
 * defect) end it at once.
 * Between polls the delay grows exponentially from `minDelayMs` to `maxDelayMs` with jitter (a
 * uniform draw between the minimum and the current ceiling), and is never more than a tenth of the
 * time waited so far: a resource that settles after S is seen at most max(minDelayMs, S/10) late.
 *
 * The deadline (`timeoutMs` after the start) bounds everything, the polls included: each poll gets
 * a signal that fires at the deadline and the deadline itself, to hand to every request it makes
 * (`RequestSpec.signal` / `deadline`), so a status call that hangs cannot outlive the wait. Since
 * a poll needs time to answer, the last one starts at least `minDelayMs` before the deadline; when
 * no poll fits any more, the wait ends with a timeout.
 */

import { systemClock, timeoutSignal, type Clock } from "./clock";
import { isApiError, isTransportError, WaiterAbortedError, WaiterFailureError, WaiterTimeoutError } from "./errors";

export interface WaiterProgress {
  resource: string;
  state: string | undefined;
  attempt: number;
  elapsedMs: number;
  /** Set when this poll failed (and the wait goes on): the error's message. */
  pollError?: string;
}

/** What a poll receives: pass both to every request it makes. */
export interface PollContext {
  /** Fires at the wait's deadline, or when the caller's signal fires. */
  signal: AbortSignal;
  /** The wait's deadline in the clock's ms (`clock.now()`), for `RequestSpec.deadline`. */
  deadline: number;
}

export interface WaiterOptions<T> {
  /** Human name for messages: `cache cluster "web" (c-123)`. */
  resource: string;
  /** One poll. Resolves undefined when the resource is not found. */
  status: (ctx: PollContext) => Promise<T | undefined>;
  /** The state of a found resource. */
  stateOf: (value: T) => string;
  target: readonly string[];
  /** Why the observed value can never reach the target (a terminal state), or undefined to go on waiting. */
  failure?: (value: T, state: string) => string | undefined;
  /** Not-found is the goal (deletion). */
  targetGone?: boolean;
  /** How many not-found answers are tolerated before failing (eventual consistency right after create). */
  notFoundTolerance?: number;
  minDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (p: WaiterProgress) => void;
  clock?: Clock;
}

export const GONE = "(gone)";
export const NOT_FOUND = "(not found)";

export const WAITER_DEFAULTS = Object.freeze({ minDelayMs: 1_000, maxDelayMs: 15_000, notFoundTolerance: 3 });

/** Delay before poll number `attempt + 1`, where `attempt` polls have been made (attempt >= 1). */
export function waiterDelay(attempt: number, minDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, minDelayMs * 2 ** (attempt - 1));
  return minDelayMs + Math.floor(random() * (ceiling - minDelayMs));
}

/** Polls until a target state; returns the last value seen (undefined when waiting for gone). */
export async function waitFor<T>(o: WaiterOptions<T>): Promise<T | undefined> {
  const clock = o.clock ?? systemClock;
  const minDelay = o.minDelayMs ?? WAITER_DEFAULTS.minDelayMs;
  const maxDelay = Math.max(minDelay, o.maxDelayMs ?? WAITER_DEFAULTS.maxDelayMs);
  const tolerance = o.notFoundTolerance ?? WAITER_DEFAULTS.notFoundTolerance;
  const start = clock.now();
  const deadline = start + o.timeoutMs;
  const atDeadline = timeoutSignal(clock, o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, atDeadline]) : atDeadline;
  const seen: string[] = [];
  let notFound = 0;
  let last: string | undefined;
  let pollError: string | undefined;
  const aborted = () => new WaiterAbortedError(`stopped waiting for ${o.resource}`);
  const timedOut = () => new WaiterTimeoutError(o.resource, o.targetGone ? [GONE] : o.target, last, seen, clock.now() - start, pollError, o.timeoutMs);

  for (let attempt = 1; ; attempt++) {
    if (o.signal?.aborted) throw aborted();
    if (atDeadline.aborted) throw timedOut();
    let value: T | undefined;
    let polled = true;
    try {
      value = await o.status({ signal, deadline });
      pollError = undefined;
    } catch (e) {
      // A poll cut by a signal ends the wait as what cut it, not as the poll's own error.
      if (o.signal?.aborted) throw aborted();
      if (atDeadline.aborted) throw timedOut();
      if (!transient(e)) throw e;
      polled = false;
      pollError = (e as Error).message;
      o.onProgress?.({ resource: o.resource, state: last, attempt, elapsedMs: clock.now() - start, pollError });
    }
    if (polled) {
      const state = value === undefined ? (o.targetGone ? GONE : NOT_FOUND) : o.stateOf(value);
      if (state !== last) seen.push(state);
      last = state;
      o.onProgress?.({ resource: o.resource, state, attempt, elapsedMs: clock.now() - start });

      if (value === undefined) {
        if (o.targetGone) return undefined;
        notFound++;
        if (notFound > tolerance) throw new WaiterFailureError(o.resource, NOT_FOUND, seen);
      } else {
        if (o.target.includes(state)) return value;
        const why = o.failure?.(value, state);
        if (why !== undefined) throw new WaiterFailureError(o.resource, state, seen, why);
      }
    }

    // The next poll must start at least minDelay before the deadline to have time to answer.
    const room = deadline - minDelay - clock.now();
    if (room <= 0) throw timedOut();
    // Never more than a tenth of the time waited so far (nor less than minDelay): a resource that
    // settles after S is seen at most max(minDelay, S/10) late, whatever S is (make bench).
    const proportional = Math.max(minDelay, Math.floor((clock.now() - start) / 10));
    const delay = Math.min(room, proportional, waiterDelay(attempt, minDelay, maxDelay, clock.random));
    try {
      await clock.sleep(delay, o.signal);
    } catch {
      throw aborted();
    }
  }
}

/** A poll error that may pass by itself: the network, a 5xx, throttling. */
function transient(e: unknown): boolean {
  if (isTransportError(e)) return true;
  return isApiError(e) && (e.status >= 500 || e.status === 429);
}
