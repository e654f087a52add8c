/** What every benchmark measures: wall time, and the requests the local cloud counted. */

/** Runs `fn` and returns its wall time in milliseconds beside its value. */
export async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

/**
 * The sequence number of the last request the local cloud at `controlUrl` counted: the difference
 * of two readings is the number of requests sent in between.
 */
export async function lastRequestSeq(controlUrl: string): Promise<number> {
  return ((await (await fetch(`${controlUrl}/requests`)).json()) as { lastSeq: number }).lastSeq;
}
