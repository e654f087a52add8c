/**
 * Waiting inside a provider call: the SDK waiter plus progress lines on stdout, which the
 * `pulumi up` display shows, so a long create does not look hung.
 *
 * When the context carries a deadline (the engine's `customTimeouts`, native plugin), the wait ends
 * at it whatever its own timeout, including in the middle of a slow poll, with an error naming the
 * resource and the timeout. The definition's own timeout still applies when it is shorter.
 */
import { waitFor, type WaiterOptions } from "../../sdk/core";
import type { Context, Deadline } from "./resource";

/** Minimum time between two progress lines for the same wait. */
export const PROGRESS_EVERY_MS = 10_000;

/** Thrown when a wait reaches the operation's deadline. */
export class DeadlineExceededError extends Error {
  readonly code = "KRCLOUD_DEADLINE_EXCEEDED";
  override readonly name = "DeadlineExceededError";
}

export async function waitWithProgress<T>(ctx: Pick<Context, "progress" | "deadline">, o: WaiterOptions<T>): Promise<T | undefined> {
  let lastLine = -Infinity;
  let lastState: string | undefined;
  const deadline = ctx.deadline;
  const target = o.targetGone ? "gone" : o.target.join(" or ");
  const expired = (state: string | undefined): DeadlineExceededError =>
    new DeadlineExceededError(`${o.resource} was not ${target} within ${deadline!.description}; last state: ${state ?? "none"}`);
  try {
    return await waitFor({
      ...o,
      signal: deadline ? (o.signal ? AbortSignal.any([o.signal, deadline.signal]) : deadline.signal) : o.signal,
      status: deadline ? () => beforeDeadline(o.status(), deadline, () => expired(lastState)) : o.status,
      onProgress: (p) => {
        o.onProgress?.(p);
        // Nothing to report when the first look already shows the target: nothing was waited for.
        if (p.attempt === 1 && p.state !== undefined && (o.targetGone ? p.state === "(gone)" : o.target.includes(p.state))) return;
        if (p.state !== lastState || p.elapsedMs - lastLine >= PROGRESS_EVERY_MS) {
          ctx.progress(`${p.resource}: ${p.state ?? "unknown"}, waiting for ${target} (${Math.round(p.elapsedMs / 1000)}s)`);
          lastLine = p.elapsedMs;
        }
        lastState = p.state;
      },
    });
  } catch (e) {
    if (deadline?.signal.aborted && (e as { code?: unknown })?.code !== "KRCLOUD_DEADLINE_EXCEEDED") throw expired(lastState);
    throw e;
  }
}

/** `p`, or the deadline's error when the deadline comes first (a poll hung on a slow answer). */
function beforeDeadline<T>(p: Promise<T>, deadline: Deadline, error: () => Error): Promise<T> {
  if (deadline.signal.aborted) return Promise.reject(error());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(error());
    deadline.signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        deadline.signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        deadline.signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
