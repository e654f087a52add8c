/**
 * krcloud-drift as a process: its arguments in, its exit status out. Shared by the npm package's
 * `krcloud-drift` command and the plugin's `drift` command (pulumi-resource-krcloud.ts), which the
 * Pulumi tool plugin `krcloud-drift` runs for programs in any language (tools/pack-plugin.ts).
 */
import { main } from "../drift/cli";
import { EXIT } from "../drift/model";

export function runDriftProcess(argv: string[]): Promise<void> {
  return main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`krcloud-drift: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = EXIT.error;
    },
  );
}
