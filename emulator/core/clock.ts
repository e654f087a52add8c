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
  }
}

/** Start (00:00 UTC) of the day containing `ms`. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}
