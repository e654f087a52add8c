/**
 * Preloaded (NODE_OPTIONS="--require <compiled file>") into every Node process the Pulumi CLI starts
 * during a secrets-scan test (tests/support/secrets/scan.ts): the program, the dynamic provider
 * host, the native plugin. A copy of what each writes to stdout and stderr goes to a file of its own
 * under KRCLOUD_TEST_TEE_DIR, named after its script and pid, so the test can scan what the
 * providers printed, whatever the CLI chose to show of it. Imports nothing of the repository.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const dir = process.env.KRCLOUD_TEST_TEE_DIR;
if (dir) {
  const script = (process.argv[1] ?? "node").split(path.sep).slice(-3).join("_");
  for (const [stream, ext] of [
    [process.stdout, "out"],
    [process.stderr, "err"],
  ] as const) {
    const file = path.join(dir, `${script}-${process.pid}.${ext}`);
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    const copying = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      try {
        fs.appendFileSync(file, chunk);
      } catch {
        // the copy is best effort; the write itself must happen
      }
      return write(chunk, ...rest);
    };
    stream.write = copying;
  }
}
