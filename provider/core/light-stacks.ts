/**
 * Cheap stack traces while a resource is constructed.
 *
 * Pulumi's Node.js SDK formats a stack trace for every promise it makes (`debuggablePromise` keeps
 * it for its leaked-promise report): dozens per resource, made while the resource's constructor
 * runs (its output properties, URN, id, keep-alives), and each frame goes through the program's
 * source-map support (ts-node). At 1,000 resources that is half of the program's CPU (profiled in
 * docs/benchmarks.md). While a krcloud resource is constructed, those stacks are formatted the cheap
 * way: the error's text without frames. Two kinds keep their full, source-mapped stack:
 * - the one the SDK takes on purpose to record where the resource was declared (`Resource.callsites`
 *   asks for every frame by setting `Error.stackTraceLimit` to Infinity), which goes to the installed
 *   formatter as before;
 * - an error made here but read later (the SDK pre-allocates the error a failed registration throws):
 *   V8 formats a stack when it is first read, by the formatter installed then.
 * `PULUMI_DEBUG_PROMISE_LEAKS` (whose report prints those stacks) turns it off.
 *
 * Use: `const restore = lightStacks(); try { super(...); } finally { restore(); }`.
 */
type Format = (error: Error, frames: NodeJS.CallSite[]) => unknown;
/** V8 reads the formatter from here when a stack is first read; unset, it formats the Node way. */
const errors = Error as unknown as { prepareStackTrace?: Format; stackTraceLimit: number };

/** Node's own format, for a program that installed no formatter (a V8 call site prints as Node prints it). */
const plain: Format = (error, frames) =>
  [Error.prototype.toString.call(error), ...frames.map((f) => `    at ${(f as unknown as { toString(): string }).toString()}`)].join("\n");

export function lightStacks(): () => void {
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => undefined;
  const installed = errors.prepareStackTrace;
  const full = installed ?? plain;
  const light: Format = (error, frames) => (errors.stackTraceLimit === Infinity ? full(error, frames) : Error.prototype.toString.call(error));
  errors.prepareStackTrace = light;
  return () => {
    // Restored only if nothing replaced it meanwhile (a formatter installed by the program stays).
    if (errors.prepareStackTrace !== light) return;
    if (installed) errors.prepareStackTrace = installed;
    else delete errors.prepareStackTrace;
  };
}
