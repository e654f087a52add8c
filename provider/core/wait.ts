/**
 * Waiting inside a provider call: the SDK waiter plus progress lines on stdout, which the
 * `pulumi up` display shows, so a long create does not look hung.
 */
import { waitFor, type WaiterOptions } from "../../sdk/core";
import type { Context } from "./resource";

/** Minimum time between two progress lines for the same wait. */
export const PROGRESS_EVERY_MS = 10_000;

export async function waitWithProgress<T>(ctx: Pick<Context, "progress">, o: WaiterOptions<T>): Promise<T | undefined> {
  let lastLine = -Infinity;
  let lastState: string | undefined;
  return waitFor({
    ...o,
    onProgress: (p) => {
      o.onProgress?.(p);
      if (p.state !== lastState || p.elapsedMs - lastLine >= PROGRESS_EVERY_MS) {
        const target = o.targetGone ? "gone" : o.target.join(" or ");
        ctx.progress(`${p.resource}: ${p.state ?? "unknown"}, waiting for ${target} (${Math.round(p.elapsedMs / 1000)}s)`);
        lastLine = p.elapsedMs;
        lastState = p.state;
      }
    },
  });
}
