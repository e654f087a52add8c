/**
 * Bulk paths: listing and emptying a bucket of many objects with the client against the naive
 * client (one request at a time, a new connection each, no paging help).
 */
import { ObjectStorageClient } from "../../client/objectstorage";
import { timed } from "../measure";
import { sized, type Study } from "../study";
import { withCloud } from "./cloud";
import { naive } from "./naive";

export const bulkStudy: Study = {
  name: "bulk",
  run: (ctx) =>
    withCloud(async ({ settings, endpoint, token, projectId }) => {
      const n = sized(ctx, 1500, 30);
      const c = new ObjectStorageClient({ settings });
      const keys = Array.from({ length: n }, (_, i) => `obj/${String(i).padStart(5, "0")}`);
      const fill = async (bucket: string) => {
        await c.createBucket({ name: bucket });
        for (let i = 0; i < keys.length; i += 16) await Promise.all(keys.slice(i, i + 16).map((k) => c.putObject(bucket, k, "x")));
      };
      await fill("bench-client");
      await fill("bench-naive");
      const base = `${endpoint}/v1/${projectId}`;
      const auth = { "x-auth-token": token };
      // Each path once to warm up (JIT, the local cloud's first listing), then measured.
      await c.listAllObjects("bench-client");
      const [list, listed] = await timed(() => c.listAllObjects("bench-client"));
      const [listNaive, names] = await timed(async () => {
        const names: string[] = [];
        for (let marker = ""; ;) {
          const page = (await naive(`${base}/bench-naive?format=json${marker ? `&marker=${encodeURIComponent(marker)}` : ""}`, { headers: auth })).text;
          const got = (JSON.parse(page || "[]") as { name: string }[]).map((o) => o.name);
          if (got.length === 0) break;
          names.push(...got);
          marker = got[got.length - 1]!;
        }
        return names;
      });
      if (listed.length !== n || names.length !== n) throw new Error(`listed ${listed.length} and ${names.length} objects, expected ${n}`);
      const [empty] = await timed(() => c.emptyBucket("bench-client"));
      const [emptyNaive] = await timed(async () => {
        for (const k of keys) await naive(`${base}/bench-naive/${k}`, { method: "DELETE", headers: auth });
      });
      const count = n.toLocaleString("en");
      return {
        rows: [
          {
            figure: `list ${count} objects (ms)`,
            ours: list.toFixed(0),
            baseline: listNaive.toFixed(0),
            ratio: `${(listNaive / list).toFixed(2)}x faster`,
            goal: "-",
          },
          {
            figure: `empty ${count} objects (ms)`,
            ours: empty.toFixed(0),
            baseline: emptyNaive.toFixed(0),
            ratio: `${(emptyNaive / empty).toFixed(2)}x faster`,
            goal: "-",
          },
        ],
      };
    }),
};
