/**
 * pulumi-krcloud/native is the generated SDK (sdk/nodejs/, pure generator output) behind a
 * hand-written entry (native.ts) that installs light stacks (provider/core/light-stacks.ts) when the
 * program imports it. Measured here: with the program's stack formatter installed first, as Pulumi's
 * Node.js host does before it loads a program, the first resource the program constructs makes no
 * SDK promise stack that goes through the formatter; the generated SDK alone makes dozens.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { REPO_ROOT } from "../harness/engine";

type Format = (error: Error, frames: NodeJS.CallSite[]) => unknown;
const errors = Error as unknown as { prepareStackTrace?: Format };
/** The part of the SDK used here (its types are compiled with it, by tsconfig.native.json). */
type Constructor = new (name: string, args: Record<string, unknown>) => unknown;
type Native = { objectstorage: { Bucket: Constructor }; cache: { ParameterGroup: Constructor } };

/** Stands for ts-node's source-map formatter: counts the SDK's promise stacks it is asked to format. */
let sdkStacksFormatted = 0;
const programFormatter: Format = (error, frames) => {
  if (frames[0]?.getFunctionName() === "debuggablePromise") sdkStacksFormatted++;
  return `${String(error)} [${frames.length} frames]`;
};

let saved: Format | undefined;
beforeAll(async () => {
  saved = errors.prepareStackTrace;
  await pulumi.runtime.setMocks({ newResource: (a) => ({ id: `${a.name}-id`, state: a.inputs }), call: () => ({}) }, "project", "stack", false);
});
beforeEach(() => {
  errors.prepareStackTrace = programFormatter;
  sdkStacksFormatted = 0;
});
afterAll(() => {
  errors.prepareStackTrace = saved;
});

test("the generated SDK alone formats every promise stack of a resource's construction (what the entry saves)", () => {
  const generated = require("../../sdk/nodejs") as Native;
  new generated.objectstorage.Bucket("without-entry", {});
  expect(sdkStacksFormatted).toBeGreaterThan(5);
});

test("imported as pulumi-krcloud/native, light stacks are in place before the first resource is constructed", () => {
  // The package's own export, as a program imports it (node_modules/pulumi-krcloud is this package).
  const native = require("pulumi-krcloud/native") as Native;
  expect(errors.prepareStackTrace).not.toBe(programFormatter);
  new native.objectstorage.Bucket("first", {});
  new native.cache.ParameterGroup("second", { name: "pg", baseParameterGroupId: "default.redis7.0.cluster" });
  expect(sdkStacksFormatted).toBe(0);
  // The program's own errors still reach its formatter.
  expect(new Error("mine").stack).toMatch(/^Error: mine \[\d+ frames\]$/);
});

test("the generated SDK imports nothing of krcloud's hand-written code (sdk/nodejs/ is pure generator output)", () => {
  const root = path.join(REPO_ROOT, "sdk", "nodejs");
  const files = (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
  expect(files.length).toBeGreaterThan(20);
  const outside = files.flatMap((f) =>
    [...fs.readFileSync(path.join(root, f), "utf8").matchAll(/(?:from |require\()["']([^"']+)["']/g)]
      .map((m) => m[1]!)
      .filter((spec) => spec.startsWith(".") && !path.resolve(root, path.dirname(f), spec).startsWith(root))
      .map((spec) => `${f}: ${spec}`),
  );
  expect(outside).toEqual([]);
});
