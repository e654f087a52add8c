/**
 * krcloud's provider calls outside the engine (part of `scale/index.ts --profile`): in a process of
 * its own, as the engine runs the provider, N buckets go through the calls the engine makes, by the
 * entry point the dynamic stub uses (`pulumi-krcloud/runtime` `call`): configure, then per bucket
 * check and create, then diff (no change), read, delete. Each phase's CPU time per call is measured
 * with process.cpuUsage (the first call, which loads the modules, apart), and the whole run is
 * CPU-profiled (--cpu-prof, read by scale/profile.ts). Also timed alone: building a definition's
 * input and output schemas (zod), which the provider and the classes do once per definition and
 * process (resource.ts `inputSchema`, `outputSchema`).
 *
 *   node --cpu-prof --cpu-prof-dir=DIR dist/bench/provider-calls.js '{"n":1000,"config":{...}}'
 *
 * Prints one line `RESULT {...}`.
 */
import { call, definition } from "../provider/runtime";

const TOKEN = "krcloud:objectstorage:Bucket";
const ENTRY = "configure|create|check|read|update";
const ENTRY2 = "diff|delete";

type Props = Record<string, unknown>;

async function main(): Promise<void> {
  const { n, config } = JSON.parse(process.argv[2]!) as { n: number; config: Record<string, string> };
  const phases: Record<string, number> = {};
  const timed = async (phase: string, fn: () => Promise<void>, calls = n): Promise<void> => {
    const c = process.cpuUsage();
    await fn();
    const d = process.cpuUsage(c);
    phases[phase] = (d.user + d.system) / 1000 / calls;
  };
  const stub = "stub"; // the engine hands the serialized provider in `__provider`; the runtime passes it through
  const checked: Props[] = [];
  const created: { id: string; outs: Props }[] = [];
  // The first call loads the modules (once per provider process): timed apart from the per-call figures.
  await timed(
    "configure and a first check (loads the modules, once per process)",
    async () => {
      await call(TOKEN, ENTRY, [{ config: { get: (k: string) => config[k] } }]);
      await call(TOKEN, ENTRY, [{}, { __provider: stub, __logicalName: "warm-up" }]);
    },
    1,
  );
  await timed("check", async () => {
    for (let i = 0; i < n; i++) {
      const r = (await call(TOKEN, ENTRY, [{}, { __provider: stub, __logicalName: `b${i}` }])) as { inputs: Props };
      checked.push(r.inputs);
    }
  });
  await timed("create", async () => {
    // Eight at a time, as the engine's default --parallel does.
    for (let i = 0; i < n; i += 8) {
      const batch = await Promise.all(checked.slice(i, i + 8).map((inputs) => call(TOKEN, ENTRY, [inputs]) as Promise<{ id: string; outs: Props }>));
      created.push(...batch);
    }
  });
  await timed("diff", async () => {
    for (let i = 0; i < n; i++) await call(TOKEN, ENTRY2, [created[i]!.id, created[i]!.outs, checked[i]!]);
  });
  await timed("read", async () => {
    for (let i = 0; i < n; i += 8) await Promise.all(created.slice(i, i + 8).map((c) => call(TOKEN, ENTRY, [c.id, c.outs])));
  });
  await timed("delete", async () => {
    for (let i = 0; i < n; i += 8) await Promise.all(created.slice(i, i + 8).map((c) => call(TOKEN, ENTRY2, [c.id, c.outs])));
  });
  const def = definition(TOKEN) as unknown as { inputs: () => unknown; outputs: () => unknown };
  const schema: Record<string, number> = {};
  for (const [name, build] of [
    ["inputs schema", def.inputs],
    ["outputs schema", def.outputs],
  ] as const) {
    const c = process.cpuUsage();
    for (let i = 0; i < n; i++) build();
    const d = process.cpuUsage(c);
    schema[name] = (d.user + d.system) / 1000 / n;
  }
  process.stdout.write(`RESULT ${JSON.stringify({ n, msPerCall: phases, msPerSchemaBuild: schema })}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
