export const DAY_MS = 86_400_000;

export type ClockSource = (() => number) | { now(): number };

interface Sleeper {
  until: number;
  wake: () => void;
}

/**
 * The local cloud's clock: a base source (real time by default) plus an offset moved forward by the
 * control API, so tests can jump days without sleeping.
 */
export class VirtualClock {
  private readonly source: () => number;
  private offsetMs = 0;
  private readonly sleepers = new Set<Sleeper>();

  constructor(source: ClockSource = Date.now) {
    this.source = typeof source === "function" ? source : () => source.now();
  }

  now(): number {
    return this.source() + this.offsetMs;
  }

  get offset(): number {
    return this.offsetMs;
  }

  set offset(ms: number) {
    this.offsetMs = ms;
    this.wakeDue();
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError("the clock only moves forward");
    this.offsetMs += ms;
    this.wakeDue();
  }

  /**
   * Resolves once this clock has moved `ms` forward, whichever comes first: `ms` of real time, or
   * advances (plus base clock movement) adding up to `ms`. So a test can fast-forward a delay with
   * the control API, and a frozen base clock never makes a delay hang.
   */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        until: this.now() + ms,
        wake: () => {
          clearTimeout(timer);
          this.sleepers.delete(sleeper);
          resolve();
        },
      };
      // Unref'd: a delayed request must not keep a closed local cloud's process alive.
      const timer = setTimeout(sleeper.wake, Math.max(0, ms));
      timer.unref();
      this.sleepers.add(sleeper);
      this.wakeDue();
    });
  }

  private wakeDue(): void {
    const now = this.now();
    for (const sleeper of [...this.sleepers]) if (sleeper.until <= now) sleeper.wake();
  }
}

/** Start (00:00 UTC) of the day containing `ms`. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}
