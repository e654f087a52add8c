/**
 * `make bench`: figures measured in one run on this machine, compared as ratios (machines are
 * noisy). Prints a table; asserts nothing.
 *
 * 1. Transport: sequential GETs through the keep-alive pool vs a fresh connection per request.
 * 2. Object listing: full listing of a 1,500-object bucket (2 pages) and forceDestroy-style emptying.
 * 3. Serialized provider size per resource type (the `__provider` stored twice per resource).
 */
import { Agent, request } from "undici";
import { startLocalCloud } from "../emulator";
import { closeAllPools, resolveSettings, Transport } from "../sdk/core";
import { ObjectStorageClient } from "../sdk/objectstorage";
import { stubProvider } from "../provider/core";
import { REGISTRY } from "../provider/registry";

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = process.hrtime.bigint();
  const v = await fn();
  return [Number(process.hrtime.bigint() - t) / 1e6, v];
}

async function main(): Promise<void> {
  const cloud = await startLocalCloud({ port: 0 });
  try {
    const cred = (await (await fetch(`${cloud.controlUrl}/credentials`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as { token: string; projectId: string };
    const settings = resolveSettings({ localCloudUrl: cloud.url, authToken: cred.token, projectId: cred.projectId }, () => undefined, {});
    const N = 500;
    const t = new Transport({ service: "objectstorage", endpoint: settings.endpoints.objectstorage });
    const [pooled] = await time(async () => {
      for (let i = 0; i < N; i++) await t.request({ operation: "GetInfo", method: "GET", path: "/info", auth: false, idempotent: true });
    });
    const [fresh] = await time(async () => {
      for (let i = 0; i < N; i++) {
        const agent = new Agent({ pipelining: 0 });
        const r = await request(`${settings.endpoints.objectstorage}/info`, { dispatcher: agent, headers: { connection: "close" } });
        await r.body.arrayBuffer();
        await agent.close();
      }
    });

    const c = new ObjectStorageClient({ settings });
    await c.createBucket({ name: "bench-bucket" });
    const keys = Array.from({ length: 1500 }, (_, i) => `obj/${String(i).padStart(5, "0")}`);
    const [put] = await time(async () => {
      for (let i = 0; i < keys.length; i += 16) await Promise.all(keys.slice(i, i + 16).map((k) => c.putObject("bench-bucket", k, "x")));
    });
    const [list, all] = await time(() => c.listAllObjects("bench-bucket"));
    const [empty, deleted] = await time(() => c.emptyBucket("bench-bucket"));

    const { serializeFunction } = require("@pulumi/pulumi/runtime/closure/serializeClosure");
    const sizes: string[] = [];
    for (const token of Object.keys(REGISTRY)) {
      const p = stubProvider(token);
      const sf = await serializeFunction(() => p, { allowSecrets: true });
      sizes.push(`${token}: ${Buffer.byteLength(sf.text)} bytes`);
    }

    const rows = [
      [`GET /info x${N}, keep-alive pool`, `${pooled.toFixed(0)} ms`, `${((pooled / N) * 1000).toFixed(0)} us/req`],
      [`GET /info x${N}, new connection each`, `${fresh.toFixed(0)} ms`, `${((fresh / N) * 1000).toFixed(0)} us/req`],
      ["ratio fresh / pooled", `${(fresh / pooled).toFixed(2)}x`, ""],
      ["PUT 1,500 objects (16 at a time)", `${put.toFixed(0)} ms`, ""],
      [`list all objects (${all.length}, 2 pages)`, `${list.toFixed(0)} ms`, ""],
      [`empty bucket (${deleted} deleted)`, `${empty.toFixed(0)} ms`, ""],
    ];
    for (const r of rows) console.log(`${r[0].padEnd(42)} ${r[1].padStart(10)} ${r[2]}`);
    console.log("serialized __provider size:");
    for (const s of sizes) console.log(`  ${s}`);
  } finally {
    await closeAllPools();
    await cloud.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
