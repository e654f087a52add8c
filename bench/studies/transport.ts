/** Transport: small requests through the keep-alive pool against a new connection each. */
import { Transport } from "../../client/core";
import { timed } from "../measure";
import { sized, type Study } from "../study";
import { withCloud } from "./cloud";
import { naive } from "./naive";

export const transportStudy: Study = {
  name: "transport",
  run: (ctx) =>
    withCloud(async ({ endpoint }) => {
      const n = sized(ctx, 2000, 20);
      const t = new Transport({ service: "objectstorage", endpoint });
      const [pooled] = await timed(async () => {
        for (let i = 0; i < n; i++) await t.request({ operation: "GetInfo", method: "GET", path: "/info", auth: false, idempotent: true });
      });
      const [fresh] = await timed(async () => {
        for (let i = 0; i < n; i++) await naive(`${endpoint}/info`);
      });
      return {
        rows: [
          {
            figure: `${n} small requests (req/s)`,
            ours: `${((n / pooled) * 1000).toFixed(0)}`,
            baseline: `${((n / fresh) * 1000).toFixed(0)}`,
            ratio: `${(fresh / pooled).toFixed(2)}x faster`,
            goal: "keep-alive faster",
          },
        ],
      };
    }),
};
