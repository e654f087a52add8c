export const DAY_MS = 86_400_000;

export type ClockSource = (() => number) | { now(): number };

/**
 * The local cloud's clock: a base source (real time by default) plus an offset moved forward by the
 * control API, so tests can jump days without sleeping.
 */
export class VirtualClock {
  private readonly source: () => number;
  private offsetMs = 0;

  constructor(source: ClockSource = Date.now) {
    this.source = typeof source === 'function' ? source : () => source.now();
  }

  now(): number {
    return this.source() + this.offsetMs;
  }

  get offset(): number {
    return this.offsetMs;
  }

  set offset(ms: number) {
    this.offsetMs = ms;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the clock only moves forward');
    this.offsetMs += ms;
    for (const w of [...this.waiters]) w();
  }

  private readonly waiters = new Set<() => void>();

  /**
   * Resolves once the clock has moved `ms` from now: by real time passing or by `advance`, whichever
   * comes first (so a latency fault of a minute ends at once when a test advances the clock).
   */
  sleep(ms: number): Promise<void> {
    const until = this.now() + ms;
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const check = (): void => {
        if (this.now() < until) return;
        if (timer) clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const arm = (): void => {
        check();
        if (this.waiters.has(check)) timer = setTimeout(arm, Math.max(1, until - this.now()));
      };
      this.waiters.add(check);
      arm();
    });
  }
}

/** Start (00:00 UTC) of the day containing `ms`. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}
