/**
 * The request budget of a fleet check (`--request-budget R`): R requests per second to the cloud
 * account, for all shards together. The shards run on separate runners and cannot talk to each
 * other, so each takes an equal share, floor(R / N) requests per window; within a shard every
 * process that sends requests (the krcloud-drift process, each stack's provider and program) takes
 * its turn from one pacer, this one, which the run serves on loopback and names in
 * KRCLOUD_REQUEST_PACER (client/core/pacer.ts).
 *
 * The pacer spaces the starts evenly, WINDOW_MS / share apart, so no window of WINDOW_MS holds
 * more than the share. The window is a quarter longer than the second the budget is counted in, so
 * that requests that reach the cloud up to 250 ms later than their reserved starts (a busy machine, a
 * slow connect) still cannot put a second over the budget. The cost: a shard sends at 80% of its share.
 *
 * A retry is a new attempt and waits its turn like any other, so backing off on 429 and Retry-After
 * (client/core/retry.ts) never bursts past the budget either.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** The window the pacer counts starts in, ms: one second plus the margin for a late arrival. */
export const WINDOW_MS = 1250;

/** The starts per window one shard may make of a budget of `budget` requests per second shared by `shards`. */
export function shareOf(budget: number, shards: number): number {
  return Math.floor(budget / shards);
}

/**
 * Reservations spaced evenly: each start at least `windowMs / perWindow` after the one before, first
 * come first served, so no window of `windowMs` holds more than `perWindow` starts. Even spacing,
 * not a burst of `perWindow` at the start of each window: a burst reaches the cloud as a queue, and
 * the last of it is taken later than its start by the time the others take, which could push it
 * into the next second beside the next burst. Pure: tests give it the times.
 */
export class PacerSchedule {
  /** The last start handed out. */
  private last = -Infinity;
  granted = 0;
  /** Reservations that had to wait, and the longest wait. */
  waited = 0;
  maxWaitMs = 0;

  constructor(
    readonly perWindow: number,
    readonly windowMs: number = WINDOW_MS,
  ) {
    if (!Number.isInteger(perWindow) || perWindow < 1) throw new Error(`a pacer needs at least 1 start per window (got ${perWindow})`);
  }

  reserve(now: number): number {
    // Whole milliseconds, rounded up: perWindow spacings never add up to less than the window.
    const at = Math.max(now, this.last + Math.ceil(this.windowMs / this.perWindow));
    this.last = at;
    this.granted++;
    if (at > now) {
      this.waited++;
      this.maxWaitMs = Math.max(this.maxWaitMs, at - now);
    }
    return at;
  }
}

/** A pacer served on loopback: POST → `{waitMs}`. */
export class RequestPacer {
  readonly schedule: PacerSchedule;
  private server?: http.Server;

  constructor(
    perWindow: number,
    private readonly now: () => number = Date.now,
  ) {
    this.schedule = new PacerSchedule(perWindow);
  }

  /** Starts serving; resolves to the URL for KRCLOUD_REQUEST_PACER. */
  async start(): Promise<string> {
    const server = http.createServer((req, res) => {
      req.resume();
      if (req.method !== "POST") {
        res.writeHead(405, { allow: "POST" }).end();
        return;
      }
      const now = this.now();
      const body = JSON.stringify({ waitMs: this.schedule.reserve(now) - now });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    });
    // Keep-alive connections of the processes must not hold the run open after it ends.
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, "127.0.0.1", () => resolve()));
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/reserve`;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
