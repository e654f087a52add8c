/**
 * The provider object Pulumi serializes into every resource's state (`__provider`).
 *
 * It is a thin stub: each method requires the installed implementation by package name at run
 * time and forwards to it. The serialized text therefore holds the resource's type token and a few
 * one-line functions, nothing else: state stays small, no credential or client can be captured, and
 * refresh and delete of existing resources run the code that is installed now, not the code that
 * created them. Keep these functions free of references to anything but `token` and `require`.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";

const STUBS = new Map<string, dynamic.ResourceProvider>();

/** One stub object per token, so Pulumi's per-object serialization cache serializes it once. */
export function stubProvider(token: string): dynamic.ResourceProvider {
  let stub = STUBS.get(token);
  if (!stub) {
    if (STUBS.size === 0) loadSqliteQuietly();
    stub = makeStub(token);
    STUBS.set(token, stub);
  }
  return stub;
}

// Pulumi serializes every function with ~190 bytes of wrapper, and this text is stored twice in
// each resource's state. To stay under 1 KB, the seven methods share two functions, and
// `runtime.methodOf` tells the calls apart by their arguments, which the dynamic provider host
// makes distinguishable:
//   configure(req)             one object without `__provider`
//   create(props)              one object with `__provider`
//   check(olds, news)          two arguments, the first an object
//   read(id, props)            two arguments, the first the id (a string)
//   update(id, olds, news)     three arguments
//   diff(id, olds, news)       three arguments  } the second function
//   delete(id, props)          two arguments    }
// The stub requires "pulumi-krcloud/runtime": the package's `exports` map points it at runtime.js.
function makeStub(token: string): dynamic.ResourceProvider {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const one = (...a: any[]): any => require("pulumi-krcloud/runtime").call(token, "configure|create|check|read|update", a);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const two = (...a: any[]): any => require("pulumi-krcloud/runtime").call(token, "diff|delete", a);
  return { configure: one, create: one, check: one, read: one, update: one, diff: two, delete: two };
}

/**
 * Pulumi's closure serializer loads every built-in module to name them, `node:sqlite` included,
 * and Node 24 then prints "SQLite is an experimental feature" into every `pulumi up` as a
 * diagnostic. Loading it once first, with that one warning dropped, keeps the output clean;
 * every other warning passes through.
 */
export function loadSqliteQuietly(): void {
  // Restored as it was; never called unbound.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const emit = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    return (emit as (...a: unknown[]) => void).call(this, warning, ...rest);
  };
  try {
    require("node:sqlite");
  } catch {
    // Older Node without node:sqlite: nothing to silence.
  } finally {
    process.emitWarning = emit;
  }
}
