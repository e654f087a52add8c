#!/usr/bin/env node
/**
 * krcloud-drift: reports resources whose cloud state no longer matches what the Pulumi program
 * declares, for one or more stacks, without changing anything; and, with --unmanaged, the
 * resources no stack manages. The tool lives in drift/ (docs/drift.md). Programs in other
 * languages run the same tool from the native plugin (`pulumi plugin run krcloud-drift -- ...`).
 */
import "../provider/core/node-version";
import { runDriftProcess } from "./drift-process";

void runDriftProcess(process.argv.slice(2));
