/**
 * Cheap stack traces for the Pulumi SDK's promise bookkeeping.
 *
 * Pulumi's Node.js SDK formats a stack trace for every promise it makes (`debuggablePromise` in
 * @pulumi/pulumi/runtime/debuggable.js keeps it for the report of promises a program leaks): dozens
 * per resource (its output properties, URN, id, keep-alives, the registration's steps), and each
 * frame goes through the program's source-map support (ts-node). At 1,000 resources that was half
 * of a TypeScript program's CPU (docs/benchmarks.md, "Profiles"). Once a krcloud resource is
 * constructed, the program's stack formatter is wrapped: a stack made by `debuggablePromise` (the
 * function that made the error is the first frame) is the error's text without frames; every other
 * stack (the program's errors, the SDK's lookup of where a resource was declared, an error the SDK
 * pre-allocates) goes to the program's formatter as before.
 *
 * The trade-off: the SDK's leaked-promise report (printed only when a program exits with promises
 * it never settled) shows no creation stack. `PULUMI_DEBUG_PROMISE_LEAKS`, the setting that turns
 * that report on in earnest, turns this off. Without a formatter installed (a program not started
 * by Pulumi's Node.js host) nothing changes.
 */
type Format = (error: Error, frames: NodeJS.CallSite[]) => unknown;
/** V8 reads the formatter from here when a stack is first read. */
const errors = Error as unknown as { prepareStackTrace?: Format & { [LIGHT]?: true } };
const LIGHT = Symbol.for("pulumi-krcloud.lightStacks");

/** The first frame is the SDK's debuggablePromise: the stack is its bookkeeping. */
function madeByDebuggablePromise(frames: NodeJS.CallSite[]): boolean {
  const top = frames[0];
  return top?.getFunctionName() === "debuggablePromise" && /[\\/]@pulumi[\\/]pulumi[\\/]runtime[\\/]debuggable\.js$/.test(top.getFileName() ?? "");
}

/** Wraps the program's stack formatter (once: it is a no-op when the installed one is the wrapper). */
export function lightStacks(): void {
  const installed = errors.prepareStackTrace;
  if (!installed || installed[LIGHT] || process.env.PULUMI_DEBUG_PROMISE_LEAKS) return;
  const light: Format = (error, frames) => (madeByDebuggablePromise(frames) ? Error.prototype.toString.call(error) : installed(error, frames));
  errors.prepareStackTrace = Object.assign(light, { [LIGHT]: true as const });
}
