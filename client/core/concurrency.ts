/** Bounded concurrency for bulk operations (empty a bucket, upload parts, a folder's files). */

/**
 * Runs `fn` over `items` with at most `limit` calls in flight. On the first failure no new call is
 * started; the calls already running are awaited, then the first error is thrown.
 */
export async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  let firstError: unknown;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        await fn(items[i]!, i);
      } catch (e) {
        if (!failed) {
          failed = true;
          firstError = e;
        }
      }
    }
  };
  const n = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: n }, worker));
  if (failed) throw firstError;
}
