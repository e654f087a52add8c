/**
 * A request budget shared by processes: with KRCLOUD_REQUEST_PACER set to a pacer's URL (krcloud-drift
 * serves one per run of a fleet check, drift/pacer.ts, and sets it for every process the run starts:
 * the providers, the programs, and itself), each attempt of each request first reserves its start
 * there and waits until then, so that all of them together keep to the budget. Without it requests
 * go at once, as always.
 *
 * The pacer answers at once with how long to wait (a reservation), so no connection is held open
 * while a request waits its turn. A pacer that does not answer fails the request, saying so: the
 * budget cannot be kept without it, and a fleet check that ignores it is what throttles the account.
 */
import type { Clock } from "./clock";

export const PACER_ENV = "KRCLOUD_REQUEST_PACER";

let undiciModule: typeof import("undici") | undefined;

/** Waits until the pacer named by KRCLOUD_REQUEST_PACER lets the next attempt start; at once without one. */
export async function reserveStart(clock: Clock, signal?: AbortSignal, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const url = env[PACER_ENV];
  if (!url) return;
  let waitMs: number;
  try {
    undiciModule ??= require("undici") as typeof import("undici");
    const res = await undiciModule.request(url, { method: "POST", signal });
    const body = (await res.body.json()) as { waitMs?: unknown };
    if (res.statusCode !== 200 || typeof body.waitMs !== "number") throw new Error(`answered ${res.statusCode}`);
    waitMs = body.waitMs;
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new Error(`the request pacer at ${url} (${PACER_ENV}, set by krcloud-drift for a request budget) did not answer: ${(e as Error).message}`, {
      cause: e,
    });
  }
  if (waitMs > 0) await clock.sleep(waitMs, signal);
}
