/**
 * Every file of this build that the benchmarks and the tests start as a process by its path (`node
 * <file>`, `--require <file>`, a launcher's `exec`): one table, resolved through `entry`, which fails
 * at once naming the missing file. A file that moved used to be found only when its study or test
 * ran, minutes in (`make bench` started its 3 GiB upload from a path gone since a move; a `dist/`
 * left from before the move hid it, since tsc never deletes outputs).
 * tests/unit/entries.test.ts resolves every entry, and fails on a path built by hand elsewhere.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "./engine/paths";

/** Each entry's source, relative to the repository, without `.ts`; it runs from `dist/<source>.js`. */
export const ENTRIES = {
  /** krcloud-drift. */
  drift: "bin/krcloud-drift",
  /** krcloud-local-cloud. */
  localCloud: "bin/krcloud-local-cloud",
  /** The native provider plugin (pulumi-resource-krcloud). */
  plugin: "bin/pulumi-resource-krcloud",
  /** What `pulumi-krcloud/runtime` loads (a process that requires it to see it start). */
  runtime: "provider/runtime",
  /** One BucketObject check and create in a process of its own, measuring its memory. */
  providerProcess: "tests/harness/provider-process",
  /** Captures a process's output for the secrets scan (`--require`). */
  teeOutput: "tests/support/secrets/tee-output",
  /** The args types' generator (`--check`). */
  genArgs: "tools/gen-args",
  /** Packs the native plugin and the krcloud-drift tool plugin (`make plugin`). */
  packPlugin: "tools/pack-plugin",
  /** The scale benchmarks' provider calls without the engine. */
  providerCalls: "bench/provider-calls",
  /** The scale benchmarks' no-op floors: a dynamic provider and a plugin that do nothing. */
  floorDynamic: "bench/floors/dynamic",
  floorPlugin: "bench/floors/plugin",
  /** Preloaded into the scale benchmarks' Node processes (`--require`). */
  preload: "bench/preload",
} as const;

export type EntryName = keyof typeof ENTRIES;

/** The built file of `name`; throws naming it (and its source) when it is not there. */
export function entry(name: EntryName): string {
  return builtEntry(ENTRIES[name], name);
}

/** The built file of a source path (relative to the repository, without `.ts`). */
export function builtEntry(source: string, name = source, root = REPO_ROOT): string {
  const file = path.join(root, "dist", `${source}.js`);
  if (fs.existsSync(file)) return file;
  const why = fs.existsSync(path.join(root, `${source}.ts`))
    ? "run `make build`"
    : `its source ${source}.ts does not exist either: it moved or was removed; update ENTRIES in tests/harness/entries.ts`;
  throw new Error(`process entry ${name}: ${path.relative(root, file)} does not exist: ${why}`);
}
