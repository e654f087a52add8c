/**
 * While a krcloud resource is constructed, the stack traces the Pulumi SDK makes for its promises
 * are formatted without frames, and the two stacks a user relies on are not: where the resource was
 * declared (the SDK asks for every frame) and an error made during construction and read later.
 * The engine tests check the declaration's position in the state of a real program
 * (tests/engine/native-ts.test.ts, tests/engine/unknown-inputs.test.ts).
 */
import { lightStacks } from "../../provider/core/light-stacks";

type Format = (error: Error, frames: NodeJS.CallSite[]) => unknown;
const errors = Error as unknown as { prepareStackTrace?: Format };

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

  it("formats the stacks read during construction without frames, and never calls the program's formatter for them", () => {
    const restore = lightStacks();
    const stacks = Array.from({ length: 50 }, () => new Error().stack);
    restore();
    expect(new Set(stacks)).toEqual(new Set(["Error"]));
    expect(formatted).toEqual([]);
  });

  it("gives the SDK's declaration lookup (every frame asked for) the program's formatter and all frames", () => {
    const restore = lightStacks();
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = Infinity;
    const stack = new Error("where").stack;
    Error.stackTraceLimit = limit;
    restore();
    expect(stack).toMatch(/^Error: where \[\d+ frames\]$/);
    expect(formatted[0]).toBeGreaterThan(3);
  });

  it("leaves an error made during construction and read later its full stack", () => {
    const restore = lightStacks();
    const preallocated = new Error("registration failed");
    restore();
    expect(preallocated.stack).toMatch(/^Error: registration failed \[\d+ frames\]$/);
    expect(errors.prepareStackTrace).toBe(installed);
  });

  it("uses Node's format for the declaration lookup where the program installed none", () => {
    delete errors.prepareStackTrace;
    const restore = lightStacks();
    Error.stackTraceLimit = Infinity;
    const stack = new Error("where").stack ?? "";
    Error.stackTraceLimit = 10;
    restore();
    expect(stack.split("\n")[0]).toBe("Error: where");
    expect(stack).toMatch(/\n {4}at .*light-stacks\.test\.js:\d+:\d+/);
    expect(errors.prepareStackTrace).toBeUndefined();
  });

  it("is off with PULUMI_DEBUG_PROMISE_LEAKS, whose report prints those stacks", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "true";
    const restore = lightStacks();
    const stack = new Error().stack;
    restore();
    expect(stack).toMatch(/^Error \[\d+ frames\]$/);
  });

  it("keeps a formatter the program installs meanwhile", () => {
    const restore = lightStacks();
    const mine: Format = () => "mine";
    errors.prepareStackTrace = mine;
    restore();
    expect(errors.prepareStackTrace).toBe(mine);
  });
});
