/**
 * Request accounting: how many requests one operation (a resource's create, say) sent and how many
 * of them were retries, so the provider can report the throttling it rode out; and the process-wide
 * retry budget (`KRCLOUD_RETRY_BUDGET`), which bounds the requests a run may add by retrying (the
 * drift check sets it, so a throttled service is not hammered).
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface RequestStats {
  requests: number;
  /** Attempts after the first, for any reason. */
  retries: number;
  /** Answers saying "not processed, slow down" (429, 503 with Retry-After). */
  throttled: number;
}

const STORE = Symbol.for("krcloud.transport.stats");
const BUDGET = Symbol.for("krcloud.transport.retryBudget");

function storage(): AsyncLocalStorage<RequestStats> {
  const g = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestStats> | undefined>;
  return (g[STORE] ??= new AsyncLocalStorage<RequestStats>());
}

/** Runs `fn` counting the requests it sends (also those of nested calls), and returns both. */
export async function withRequestStats<T>(fn: () => Promise<T>): Promise<{ value: T; stats: RequestStats }> {
  const stats: RequestStats = { requests: 0, retries: 0, throttled: 0 };
  const value = await storage().run(stats, fn);
  return { value, stats };
}

/** The counters of the operation running now, if any. */
export function currentRequestStats(): RequestStats | undefined {
  return storage().getStore();
}

interface Budget {
  limit: number;
  left: number;
}

/** The retries left to this process (`KRCLOUD_RETRY_BUDGET`), or undefined when unbounded. */
export function retryBudget(env: NodeJS.ProcessEnv = process.env): Budget | undefined {
  const g = globalThis as unknown as Record<symbol, Budget | null | undefined>;
  if (g[BUDGET] === undefined) {
    const n = Number(env.KRCLOUD_RETRY_BUDGET);
    g[BUDGET] = env.KRCLOUD_RETRY_BUDGET !== undefined && Number.isInteger(n) && n >= 0 ? { limit: n, left: n } : null;
  }
  return g[BUDGET] ?? undefined;
}

/** Forgets the budget read from the environment (tests). */
export function resetRetryBudget(): void {
  (globalThis as unknown as Record<symbol, unknown>)[BUDGET] = undefined;
}
