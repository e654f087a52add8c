/**
 * krcloud-drift's reading of engine events, on synthetic events shaped like the ones the engine
 * sends for krcloud's dynamic resources (no `diffs`/`detailedDiff`: the dynamic provider protocol
 * cannot return them, so the tool compares the step's old and new inputs). No engine runs here.
 */
import type { EngineEvent, OpType, StepEventMetadata } from "@pulumi/pulumi/automation";
import { analyzeEvents, diffPaths, errorSummary, exitCode } from "../../bin/krcloud-drift";

const TYPE = "pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket";
const urn = (name: string, type = TYPE) => `urn:pulumi:dev::proj::${type}::${name}`;

function step(op: OpType, name: string, old?: Record<string, unknown>, next?: Record<string, unknown>, extra: Partial<StepEventMetadata> = {}): EngineEvent {
  const state = (inputs?: Record<string, unknown>) =>
    inputs === undefined ? undefined : { type: TYPE, urn: urn(name), id: name, parent: "", inputs, outputs: inputs, provider: "" };
  return {
    sequence: 0,
    timestamp: 0,
    resourcePreEvent: { metadata: { op, urn: urn(name), type: TYPE, old: state(old), new: state(next), provider: "", ...extra } },
  };
}

function refreshed(name: string, gone: boolean): EngineEvent {
  return {
    sequence: 0,
    timestamp: 0,
    resOutputsEvent: {
      metadata: {
        op: "refresh",
        urn: urn(name),
        type: TYPE,
        old: { type: TYPE, urn: urn(name), id: name, parent: "", inputs: {}, outputs: {}, provider: "" },
        new: gone ? undefined : { type: TYPE, urn: urn(name), id: name, parent: "", inputs: {}, outputs: {}, provider: "" },
        provider: "",
      },
    },
  };
}

test("an update reports the leaf paths that differ, cloud and program values, and skips __ keys", () => {
  const rows = analyzeEvents([
    step("same", "quiet", { a: 1 }, { a: 1 }),
    step(
      "update",
      "site",
      { __provider: "x", acl: { public: "deny" }, rules: [{ origins: ["https://evil"] }], name: "site-1" },
      { __provider: "y", acl: { public: "read-only" }, rules: [{ origins: ["https://ok"], maxAge: 5 }], name: "site-1" },
    ),
  ]);
  expect(rows).toEqual([
    {
      urn: urn("site"),
      name: "site",
      type: "krcloud:objectstorage:Bucket",
      operation: "update",
      properties: [
        { path: "acl.public", cloud: "deny", program: "read-only" },
        { path: "rules[0].maxAge", program: 5 },
        { path: "rules[0].origins[0]", cloud: "https://evil", program: "https://ok" },
      ],
    },
  ]);
});

test("secret values are flagged, not compared; provider-reported diffs are used when present", () => {
  expect(diffPaths({ metadata: "[secret]", a: 1 }, { metadata: "[secret]", a: 1 }, "")).toEqual([{ path: "metadata", secret: true }]);
  const [row] = analyzeEvents([step("update", "b", { x: 1, y: { z: 1 } }, { x: 1, y: { z: 2 } }, { diffs: ["y"] })]);
  expect(row?.properties).toEqual([{ path: "y.z", cloud: 1, program: 2 }]);
});

test("a resource deleted outside Pulumi shows as create with a note; replacements collapse into one row", () => {
  const rows = analyzeEvents([
    refreshed("gone", true),
    refreshed("kept", false),
    step("create", "gone", undefined, { name: "gone" }),
    step("create", "brand-new", undefined, { name: "n" }),
    step("create-replacement", "moved", { name: "a" }, { name: "b" }),
    step("replace", "moved", { name: "a" }, { name: "b" }),
    step("delete-replaced", "moved", { name: "a" }, { name: "b" }),
    step("delete", "orphan", { name: "o" }),
  ]);
  expect(rows.map((r) => [r.name, r.operation, r.note ?? r.properties.map((p) => p.path).join(",")])).toEqual([
    ["gone", "create", "deleted outside Pulumi: refresh found it gone, up recreates it"],
    ["brand-new", "create", "not created yet"],
    ["moved", "replace", "name"],
    ["orphan", "delete", "in the stack but no longer declared by the program"],
  ]);
});

test("exit codes: error wins over drift, drift over clean", () => {
  expect(exitCode([{ stack: "a", status: "clean", resources: [] }])).toBe(0);
  expect(
    exitCode([
      { stack: "a", status: "clean", resources: [] },
      { stack: "b", status: "drift", resources: [] },
    ]),
  ).toBe(1);
  expect(
    exitCode([
      { stack: "a", status: "drift", resources: [] },
      { stack: "b", status: "error", resources: [] },
    ]),
  ).toBe(2);
});

test("errorSummary keeps the Diagnostics section of an Automation API error", () => {
  const msg = [
    "code: 255",
    " stdout: Previewing update (dev):",
    "@ previewing update....",
    "Diagnostics:",
    "  pulumi:pulumi:Stack (p-dev):",
    "    error: 401 Unauthorized",
    "",
    "Resources:",
    "    1 errored",
    " stderr: Command failed with exit code 255",
  ].join("\n");
  expect(errorSummary(new Error(msg))).toBe("pulumi:pulumi:Stack (p-dev):\n  error: 401 Unauthorized");
  expect(errorSummary(new Error("code: -2\n stderr: Command failed\nerror: no stack named 'x' found\nerror: no stack named 'x' found"))).toBe(
    "error: no stack named 'x' found",
  );
});
