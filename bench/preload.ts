/**
 * Loaded by `make bench` into every Node process of a measured Pulumi run (NODE_OPTIONS=--require):
 * the program, the provider (dynamic host or plugin), krcloud-drift. When the process ends it
 * appends one JSON line to $KRCLOUD_BENCH_USAGE: its pid, argv and its own CPU time and peak RSS
 * (process.resourceUsage), exact where sampling /proc would miss the last interval.
 *
 * The engine stops plugins with SIGINT (then SIGKILL after 5 s): a SIGINT here ends the process
 * through process.exit, so the line is written, and so is a --cpu-prof profile (profiling runs).
 * Nothing is written to stdout (a plugin's first stdout line is its port).
 */
import * as fs from "node:fs";

const file = process.env.KRCLOUD_BENCH_USAGE;
if (file) {
  let written = false;
  const report = (): void => {
    if (written) return;
    written = true;
    const u = process.resourceUsage();
    const line = { pid: process.pid, argv: process.argv.slice(1, 3), userMs: u.userCPUTime / 1000, systemMs: u.systemCPUTime / 1000, maxRssKb: u.maxRSS };
    try {
      fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
    } catch {
      // The bench reads what it can; a missing line falls back to its /proc samples.
    }
  };
  process.on("exit", report);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));
}
