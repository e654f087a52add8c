/**
 * Lookup functions run in the Pulumi program's process (not the provider's): settings come from
 * the stack config (`krcloud:*`) and the environment, read at call time.
 */
// Submodules, not the package's index (which loads all of @pulumi/pulumi): see class.ts.
import type * as pulumi from "@pulumi/pulumi";
import { output, unknown } from "@pulumi/pulumi/output";
import { getConfig } from "@pulumi/pulumi/runtime/config";
import { isDryRun } from "@pulumi/pulumi/runtime/settings";
import { isNotFound, resolveSettings, type Settings } from "../../client/core";

export function programSettings(): Settings {
  return resolveSettings({}, (k) => getConfig(`krcloud:${k}`), process.env);
}

/** Where a lookup runs outside the program's process (the native plugin's invoke): its provider's settings. */
export interface LookupOptions {
  settings?: Settings;
}

/** The settings a lookup uses: the plugin's provider's when it runs an invoke, else the program's. */
export function lookupSettings(opts: LookupOptions = {}): Settings {
  return opts.settings ?? programSettings();
}

/**
 * `fooOutput(args)` for a `foo(args)`: accepts Inputs, returns an Output.
 *
 * During preview a lookup may name a resource that this same update creates (auto-names are known
 * from `check` already), so "not found" in a preview makes the result unknown instead of failing
 * the preview; `up` then looks it up for real after the resource exists.
 */
export function outputForm<A extends object, R>(fn: (args: A) => Promise<R>): (args: { [K in keyof A]: pulumi.Input<A[K]> }) => pulumi.Output<R> {
  return (args) =>
    output(args).apply(async (a) => {
      try {
        return await fn(a as unknown as A);
      } catch (e) {
        if (isDryRun() && isNotFound(e)) return unknown as unknown as R;
        throw e;
      }
    });
}
