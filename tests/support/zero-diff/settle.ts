/**
 * How a fixture's `outside` (tests/resources/*) waits for what it made through the client to reach
 * `target` before the stack takes it over: the same bounds for every type, so that one slow type
 * does not get a longer budget than the others.
 */
import { waitFor } from "../../../client/core";

/** Polls `status` until it reads one of `target` (two minutes at the most, a second between polls at the most). */
export async function settled(resource: string, status: () => Promise<string | undefined>, target: string[]): Promise<void> {
  await waitFor({ resource, status, stateOf: (s) => s, target, timeoutMs: 120_000, minDelayMs: 100, maxDelayMs: 1_000 });
}
