/**
 * Runs one BucketObject check + create in a process of its own, as the engine's provider process
 * would, and reports its memory: the local cloud stays in the caller's process, so what is measured
 * here is the provider alone. Shared by tests/local/objectstorage-large-upload.test.ts and `make
 * bench` (its 3 GiB upload row).
 *
 * argv[2]: JSON `{config, args}`. Prints progress lines, then one line `RESULT {...}`.
 */
import { provider } from "../../provider/runtime";

async function main(): Promise<void> {
  const { config, args } = JSON.parse(process.argv[2]!) as { config: Record<string, string>; args: Record<string, unknown> };
  const p = provider("krcloud:objectstorage:BucketObject");
  await p.configure({ config: { get: (k: string) => config[k] } } as never);
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakArrayBuffers = before.arrayBuffers;
  // A collection before each sample: what is measured is memory the upload holds, not garbage
  // (freed 256 KiB read buffers) that V8 has not yet collected.
  const sample = () => {
    (globalThis as { gc?: () => void }).gc?.();
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakArrayBuffers = Math.max(peakArrayBuffers, m.arrayBuffers);
  };
  const timer = setInterval(sample, 100);
  const started = Date.now();
  const checked = await p.check({}, { ...args, __provider: "stub" });
  if (checked.failures?.length) throw new Error(JSON.stringify(checked.failures));
  const created = await p.create(checked.inputs);
  sample();
  clearInterval(timer);
  process.stdout.write(
    `RESULT ${JSON.stringify({ inputs: checked.inputs, id: created.id, outs: created.outs, ms: Date.now() - started, before: { rss: before.rss, arrayBuffers: before.arrayBuffers }, peakRss, peakArrayBuffers })}\n`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
