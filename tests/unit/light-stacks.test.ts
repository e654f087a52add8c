/**
 * Once a krcloud resource is constructed, the stacks the Pulumi SDK makes for its promise
 * bookkeeping (`debuggablePromise`) are formatted without frames, and every other stack still goes
 * to the program's formatter (ts-node's source maps in a Pulumi program). The engine tests check
 * the declaration's position each resource records (tests/engine/native-ts-migration.test.ts).
 */
import { lightStacks } from "../../provider/core/light-stacks";

// The SDK's own function (internal to @pulumi/pulumi, so not in its types).
const { debuggablePromise } = require("@pulumi/pulumi/runtime/debuggable") as { debuggablePromise: <T>(p: Promise<T>, ctx: string) => Promise<T> };

type Format = (error: Error, frames: NodeJS.CallSite[]) => unknown;
const errors = Error as unknown as { prepareStackTrace?: Format };

/** The stack the SDK recorded for a promise it made. */
const sdkStack = (): unknown => {
  const p = Promise.resolve();
  void debuggablePromise(p, "test");
  return (p as unknown as { _debugStackTrace: unknown })._debugStackTrace;
};

describe("lightStacks", () => {
  let saved: Format | undefined;
  const formatted: number[] = [];
  // Stands for the program's source-map formatter (ts-node's): records how many frames it formatted.
  const installed: Format = (error, frames) => {
    formatted.push(frames.length);
    return `${String(error)} [${frames.length} frames]`;
  };
  beforeEach(() => {
    saved = errors.prepareStackTrace;
    errors.prepareStackTrace = installed;
    formatted.length = 0;
    delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
  });
  afterEach(() => {
    errors.prepareStackTrace = saved;
    delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
  });

  it("formats the SDK's promise stacks without frames and never calls the program's formatter for them", () => {
    expect(sdkStack()).toMatch(/^Error \[\d+ frames\]$/);
    formatted.length = 0;
    lightStacks();
    const stacks = Array.from({ length: 50 }, sdkStack);
    expect(new Set(stacks)).toEqual(new Set(["Error"]));
    expect(formatted).toEqual([]);
  });

  it("leaves every other stack to the program's formatter: the program's errors and the SDK's declaration lookup", () => {
    lightStacks();
    expect(new Error("mine").stack).toMatch(/^Error: mine \[\d+ frames\]$/);
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Infinity;
    const where = new Error().stack;
    Error.stackTraceLimit = limit;
    expect(where).toMatch(/^Error \[\d+ frames\]$/);
    expect(formatted).toHaveLength(2);
  });

  it("wraps the formatter once, however many resources are constructed", () => {
    lightStacks();
    const wrapped = errors.prepareStackTrace;
    lightStacks();
    lightStacks();
    expect(errors.prepareStackTrace).toBe(wrapped);
    expect(new Error("once").stack).toMatch(/^Error: once \[\d+ frames\]$/);
    expect(formatted).toHaveLength(1);
  });

  it("wraps a formatter the program installs later in turn", () => {
    lightStacks();
    const mine: Format = () => "mine";
    errors.prepareStackTrace = mine;
    lightStacks();
    expect(sdkStack()).toBe("Error");
    expect(new Error().stack).toBe("mine");
  });

  it("changes nothing where no formatter is installed or with PULUMI_DEBUG_PROMISE_LEAKS", () => {
    delete errors.prepareStackTrace;
    lightStacks();
    expect(errors.prepareStackTrace).toBeUndefined();
    expect(sdkStack()).toMatch(/\n +at debuggablePromise /);

    errors.prepareStackTrace = installed;
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "true";
    lightStacks();
    expect(errors.prepareStackTrace).toBe(installed);
    expect(sdkStack()).toMatch(/^Error \[\d+ frames\]$/);
  });
});
