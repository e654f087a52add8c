#!/usr/bin/env node
/**
 * krcloud-drift: reports resources whose cloud state no longer matches what the Pulumi program
 * declares, for one or more stacks, without changing anything; and, with --unmanaged, the
 * resources no stack manages. The tool lives in drift/ (docs/drift.md).
 */
import "../provider/core/node-version";
import { main } from "../drift/cli";
import { EXIT } from "../drift/model";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`krcloud-drift: ${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = EXIT.error;
  },
);
