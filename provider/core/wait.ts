/**
 * Waiting inside a provider call: the client's waiter plus progress lines on stdout, which the
 * `pulumi up` display shows, so a long create does not look hung.
 *
 * When the context carries a deadline (the engine's `customTimeouts`, native plugin), the wait ends
 * at it whatever its own timeout, including in the middle of a slow poll, with an error naming the
 * resource and the timeout. The definition's own timeout still applies when it is shorter.
 */
import { z } from "zod";
import { GONE, waitFor, type WaiterOptions } from "../../client/core";
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
      status: deadline ? (pc) => beforeDeadline(o.status(pc), deadline, () => expired(lastState)) : o.status,
      onProgress: (p) => {
        o.onProgress?.(p);
        if (p.pollError !== undefined) {
          ctx.progress(`${p.resource}: reading its state failed (${p.pollError.split("\n")[0]}); trying again (${Math.round(p.elapsedMs / 1000)}s)`);
          return;
        }
        // Reaching the target: a closing line after a wait that printed any; nothing when it was there at once.
        if (p.state !== undefined && (o.targetGone ? p.state === GONE : o.target.includes(p.state))) {
          if (lastState !== undefined) ctx.progress(`${p.resource}: ${p.state} after ${Math.round(p.elapsedMs / 1000)}s`);
          return;
        }
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

/** `p`, or the deadline's error when the deadline comes first (a poll hung on a slow answer, a read past `customTimeouts.read`). */
export function beforeDeadline<T>(p: Promise<T>, deadline: Deadline, error: () => Error): Promise<T> {
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

// ---------------------------------------------------------------------------------------------
// Timeouts: dynamic providers never receive Pulumi's `customTimeouts`, so a waiting resource takes a
// `timeouts` input with the same shape and duration strings (`"60m"`, `"1h30m"`, `"90s"`).

export type Operation = "create" | "update" | "delete";
export type Timeouts = Partial<Record<Operation, string>>;

const DURATION = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;

/** `"1h30m"` -> 5 400 000; undefined for anything else (check rejects it first). */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m || text.trim() === "" || (m[1] === undefined && m[2] === undefined && m[3] === undefined)) return undefined;
  const ms = ((Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0)) * 60 + Number(m[3] ?? 0)) * 1000;
  return ms > 0 ? ms : undefined;
}

/** The `timeouts` input of a waiting resource, its defaults named in the docs. */
export function timeoutsInput(defaults: Readonly<Record<Operation, number>>) {
  const duration = (op: Operation) =>
    z
      .string()
      .refine((s) => parseDuration(s) !== undefined, 'must be a duration such as "45m", "1h30m" or "90s"')
      .optional()
      .describe(`How long ${op} may wait for the resource to settle (default ${formatMinutes(defaults[op])}).`);
  return z
    .strictObject({ create: duration("create"), update: duration("update"), delete: duration("delete") })
    .optional()
    .describe(
      `How long each operation may wait, like Pulumi's customTimeouts (which dynamic providers never receive): defaults create ${formatMinutes(defaults.create)}, update ${formatMinutes(defaults.update)}, delete ${formatMinutes(defaults.delete)}. Only steers the provider: changing it changes nothing in the cloud.`,
    );
}

/** The time limit of one operation: the engine's (native plugin), else the input's, else the default. */
export function timeoutFor(
  ctx: Pick<Context, "deadline">,
  timeouts: Timeouts | undefined,
  op: Operation,
  defaults: Readonly<Record<Operation, number>>,
): number {
  // A second past the engine's deadline: the deadline ends the wait first, with its own message
  // (which names customTimeouts), not the waiter's.
  if (ctx.deadline) return Math.max(1, ctx.deadline.at - Date.now()) + 1000;
  const given = timeouts?.[op];
  return (given === undefined ? undefined : parseDuration(given)) ?? defaults[op];
}

function formatMinutes(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} minutes` : `${ms / 1000} s`;
}
