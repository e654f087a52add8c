/**
 * Settle detection: a cache cluster that settles after 2, 20 and 120 s, waited for by our waiter
 * (first poll at once, 1 s growing to 15 s) and by a conventional one (30 s initial delay, then
 * every 10 s: terraform-provider-aws's ElastiCache waiter). Time is the local cloud's virtual
 * clock: a waiter's sleep advances it, so the 120 s case takes milliseconds of wall time and
 * measures the same thing (the cluster's status is computed from that clock). The same at both sizes.
 */
import { CacheClient } from "../../client/cache";
import { waitFor, type Clock } from "../../client/core";
import type { LocalCloud } from "../../local-cloud";
import { clusterSnapshot, clusterState, SETTLED } from "../../provider/cache/waiters";
import { smallClusterInput } from "../../tests/harness/cache-data";
import type { Row, Study } from "../study";
import { withCloud } from "./cloud";

export const settleStudy: Study = {
  name: "settle",
  run: () =>
    withCloud(async ({ cloud, settings }) => {
      const client = new CacheClient({ settings });
      const rows: Row[] = [];
      for (const s of [2_000, 20_000, 120_000]) {
        const ours = await settle(cloud, client, s, false);
        const conv = await settle(cloud, client, s, true);
        rows.push({
          figure: `settle ${s / 1000} s: lag (s) / status calls`,
          ours: `${(ours.lag / 1000).toFixed(1)} / ${ours.calls}`,
          baseline: `${(conv.lag / 1000).toFixed(1)} / ${conv.calls}`,
          ratio: ours.lag > 0 ? `${(conv.lag / ours.lag).toFixed(1)}x less lag` : "no lag",
          goal: `lag <= ${Math.max(1, s / 10_000).toFixed(0)} s${s === 120_000 ? ", <= 15 calls" : ""}: ${ours.lag <= Math.max(1_000, s / 10) && (s !== 120_000 || ours.calls <= 15) ? "met" : "missed"}`,
        });
      }
      return { rows };
    }),
};

/** A clock whose sleeps advance the local cloud's. */
function virtualClock(cloud: LocalCloud): Clock & { t: number } {
  const c = {
    t: 0,
    now: () => c.t,
    random: () => 0.5,
    sleep: async (ms: number) => {
      c.t += ms;
      cloud.control.advanceClock({ ms });
    },
  };
  return c;
}

async function settle(cloud: LocalCloud, client: CacheClient, settleMs: number, conventional: boolean): Promise<{ lag: number; calls: number }> {
  await fetch(`${cloud.controlUrl}/transitions`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ service: "cache", kind: "cluster", mode: "duration", ms: settleMs }),
  });
  const name = `bench-${settleMs / 1000}-${conventional ? "c" : "o"}`;
  const { id } = await client.clusters.create(smallClusterInput(name, "sg"));
  const clock = virtualClock(cloud);
  let calls = 0;
  if (conventional) await clock.sleep(30_000);
  await waitFor({
    resource: name,
    status: async () => (calls++, clusterSnapshot(client, id)),
    stateOf: clusterState,
    target: [SETTLED],
    timeoutMs: 3_600_000,
    clock,
    ...(conventional ? { minDelayMs: 10_000, maxDelayMs: 10_000 } : {}),
  });
  await client.clusters.delete(id);
  return { lag: clock.t - settleMs, calls };
}
