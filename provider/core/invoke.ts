/**
 * Lookup functions run in the Pulumi program's process (not the provider's): settings come from
 * the stack config (`krcloud:*`) and the environment, read at call time.
 */
import * as pulumi from "@pulumi/pulumi";
import { resolveSettings, type Settings } from "../../sdk/core";

export function programSettings(): Settings {
  return resolveSettings({}, (k) => pulumi.runtime.getConfig(`krcloud:${k}`), process.env);
}

/** `fooOutput(args)` for a `foo(args)`: accepts Inputs, returns an Output. */
export function outputForm<A extends object, R>(fn: (args: A) => Promise<R>): (args: { [K in keyof A]: pulumi.Input<A[K]> }) => pulumi.Output<R> {
  return (args) => pulumi.output(args).apply((a) => fn(a as unknown as A)) as unknown as pulumi.Output<R>;
}
