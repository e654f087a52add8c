/**
 * The move from one BucketObject per file to one BucketFolder (docs/moving-to-bucket-folder.md)
 * through the real engine: a stack of 300 BucketObjects whose program now declares one folder with
 * `adopt: true` over the same keys. One `up` takes the objects into the folder and drops the old
 * resources from state with no object written or deleted, on both doors (the dynamic classes from
 * JavaScript, the plugin from YAML). On the plugin door also the other orders: the old resources
 * dropped in an earlier `up` (they are deleted: no folder held them; the folder's `up` puts every
 * file back), the folder declared beside them first and the old resources dropped by a later `up`
 * (nothing written or deleted), and a CLI killed in the middle of the move, then `up`.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { changedSteps, ENGINE_TEST_TIMEOUT_MS, eventCollector } from "../harness/engine";
import { spawnPulumi } from "../support/faults/reliability";
import { killedPulumi } from "../support/faults/reliability-steps";
import { engineFile, jsProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "folder-move", project: "foldermove", yaml: true, plugin: true });
const FILES = 300;

type Shape = "objects" | "both" | "folder" | "none";

const cursor = () => engine.cloud.control.requests().at(-1)?.seq ?? 0;
const operations = (since: number) =>
  engine.cloud.control
    .requests(since)
    .filter((e) => e.service === "object-storage")
    .map((e) => e.operation);
const count = (ops: string[], op: string) => ops.filter((o) => o === op).length;

async function fault(body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${engine.cloud.controlUrl}/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ service: "object-storage", ...body }),
  });
  expect(res.status).toBe(201);
}
const clearFaults = async () => void (await fetch(`${engine.cloud.controlUrl}/faults`, { method: "DELETE" }));

/** The folder's files, relative, in key order. */
function filesOf(folder: string): string[] {
  return (fs.readdirSync(folder, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(folder, f)).isFile())
    .map((f) => f.split(path.sep).join("/"))
    .sort();
}

/** The keys under `site/` with the MD5 of each file: what the bucket must hold. */
function expected(folder: string): Record<string, string> {
  return Object.fromEntries(
    filesOf(folder).map((rel) => [
      `site/${rel}`,
      createHash("md5")
        .update(fs.readFileSync(path.join(folder, rel)))
        .digest("hex"),
    ]),
  );
}

async function bucketContent(bucket: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  let marker = "";
  for (;;) {
    const res = await fetch(
      `${engine.cloud.url}/object-storage/v1/${engine.project.projectId}/${bucket}?format=json&prefix=site/${marker ? `&marker=${encodeURIComponent(marker)}` : ""}`,
      { headers: { "x-auth-token": engine.project.token } },
    );
    const page = (await res.json()) as { name: string; hash: string }[];
    if (page.length === 0) return out;
    for (const o of page) out[o.name] = o.hash;
    marker = page.at(-1)!.name;
  }
}

/** The program of each door: the bucket, then the per-file objects, the folder, both or neither. */
const JS = jsProgram(
  "krcloud-test-folder-move-js",
  [
    'const fs = require("node:fs");',
    'const path = require("node:path");',
    "const config = new pulumi.Config();",
    'const shape = config.require("shape");',
    'const folder = config.require("folder");',
    'const bucket = new krcloud.objectstorage.Bucket("files", { forceDestroy: true });',
    'if (shape === "objects" || shape === "both") {',
    "  const files = fs.readdirSync(folder, { recursive: true }).filter((f) => fs.statSync(path.join(folder, f)).isFile()).sort();",
    "  for (const rel of files) {",
    "    // What a per-file program (pulumi-synced-folder's managed mode) declares: one object per file, its content type by extension.",
    '    new krcloud.objectstorage.BucketObject(`o-${rel.replace(/[^A-Za-z0-9]/g, "-")}`, { bucket: bucket.name, key: `site/${rel}`, source: path.join(folder, rel), contentType: "text/plain" });',
    "  }",
    "}",
    'if (shape === "folder" || shape === "both") new krcloud.objectstorage.BucketFolder("site", { bucket: bucket.name, path: folder, prefix: "site/", adopt: true });',
    "exports.bucketName = bucket.name;",
  ],
  { pulumi: true },
);

function yamlText(shape: Shape, folder: string): string {
  const lines = [
    "name: krcloud-test-folder-move-yaml",
    "runtime: yaml",
    "resources:",
    "  files:",
    "    type: krcloud:objectstorage:Bucket",
    "    properties: { forceDestroy: true }",
  ];
  if (shape === "objects" || shape === "both")
    for (const rel of filesOf(folder))
      lines.push(
        `  o-${rel.replace(/[^A-Za-z0-9]/g, "-")}:`,
        "    type: krcloud:objectstorage:BucketObject",
        `    properties: { bucket: "\${files.name}", key: ${JSON.stringify(`site/${rel}`)}, source: ${JSON.stringify(path.join(folder, rel))}, contentType: text/plain }`,
      );
  if (shape === "folder" || shape === "both")
    lines.push(
      "  site:",
      "    type: krcloud:objectstorage:BucketFolder",
      `    properties: { bucket: "\${files.name}", path: ${JSON.stringify(folder)}, prefix: site/, adopt: true }`,
    );
  lines.push("outputs:", "  bucketName: ${files.name}", "");
  return lines.join("\n");
}

describe.each(["js", "yaml"])("the %s door", (door) => {
  let stack: Stack;
  let dir: string;
  let folder: string;

  beforeAll(async () => {
    folder = path.join(engine.sandbox.root, `content-${door}`);
    for (let i = 0; i < FILES; i++) {
      fs.mkdirSync(path.join(folder, `d${i % 10}`), { recursive: true });
      fs.writeFileSync(path.join(folder, `d${i % 10}`, `f${i}.txt`), `file ${i}\n`.repeat(1 + (i % 7)));
    }
    dir = engine.program(`move-${door}`, door === "js" ? JS : { "Pulumi.yaml": yamlText("objects", folder) });
    stack = await engine.stack(dir, `move-${door}`, door === "js" ? { "krcloud-test-folder-move-js:folder": { value: folder } } : {});
  });

  /** The program declares `shape` from the next run on. */
  async function declare(shape: Shape): Promise<void> {
    if (door === "js") await stack.setConfig("krcloud-test-folder-move-js:shape", { value: shape });
    else fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlText(shape, folder));
  }

  async function types(): Promise<string[]> {
    const resources = (await stack.exportStack()).deployment.resources as { type: string }[];
    return [...new Set(resources.map((r) => r.type.split(/[:/]/).pop()!))].sort();
  }

  /**
   * `up` of `shape`. `checkpoints: false`: the engine writes the state once, at the end, instead of
   * after each of its 300 steps (PULUMI_SKIP_CHECKPOINTS; the same state): a quarter of the time
   * (measured on the plugin door: about 25 s -> 7 s for the 300 creates, 18 s -> 4 s for 300 deletes). For
   * the runs a test needs done but never interrupts: the stack of 300 BucketObjects each test starts
   * from, and their drop in the wrong order. The moves run as a user's `up` does (the killed one must).
   */
  async function up(shape: Shape, o: { checkpoints?: boolean } = {}): Promise<{ ops: string[]; bucket: string }> {
    await declare(shape);
    const env = (stack.workspace as unknown as { envVars: Record<string, string> }).envVars;
    if (o.checkpoints === false) env.PULUMI_SKIP_CHECKPOINTS = "true";
    try {
      const since = cursor();
      const r = await stack.up({ color: "never" });
      return { ops: operations(since), bucket: r.outputs.bucketName!.value as string };
    } finally {
      delete env.PULUMI_SKIP_CHECKPOINTS;
    }
  }

  /** The stack every test starts from: 300 BucketObjects, each file put once. */
  async function objectsStack(): Promise<void> {
    expect(count((await up("objects", { checkpoints: false })).ops, "PutObject")).toBe(FILES);
  }

  test("300 BucketObjects moved into one BucketFolder in one up: no object written or deleted, each still there with its content, the old resources gone from state; then a preview with no changes", async () => {
    await objectsStack();
    const move = await up("folder");
    expect({ puts: count(move.ops, "PutObject"), deletes: count(move.ops, "DeleteObject") }).toEqual({ puts: 0, deletes: 0 });
    expect(await bucketContent(move.bucket)).toEqual(expected(folder));
    expect(await types()).toContain("BucketFolder");
    expect(await types()).not.toContain("BucketObject");
    const quiet = eventCollector();
    await stack.preview({ color: "never", onEvent: quiet.onEvent, expectNoChanges: true } as never);
    expect(changedSteps(quiet.events)).toEqual([]);
    await engine.destroyLeavesNothing(stack);
  });

  if (door !== "yaml") return;

  test("the old resources dropped in an earlier up: they are deleted (no folder held them yet), and the folder's up puts every file back; no object lost", async () => {
    await objectsStack();
    const dropped = await up("none", { checkpoints: false });
    expect(count(dropped.ops, "DeleteObject")).toBe(FILES);
    const folderUp = await up("folder");
    expect(count(folderUp.ops, "PutObject")).toBe(FILES);
    expect(await bucketContent(folderUp.bucket)).toEqual(expected(folder));
    await engine.destroyLeavesNothing(stack);
  });

  test("the folder declared beside the old resources first, the old resources dropped by a later up: nothing written or deleted", async () => {
    await objectsStack();
    const beside = await up("both");
    const dropped = await up("folder");
    expect([...beside.ops, ...dropped.ops].filter((o) => o === "PutObject" || o === "DeleteObject")).toEqual([]);
    expect(await bucketContent(dropped.bucket)).toEqual(expected(folder));
    await engine.destroyLeavesNothing(stack);
  });

  test("a CLI killed in the middle of the move, then up: no object lost, none written or deleted", async () => {
    await objectsStack();
    await declare("folder");
    // Slow reads of the bucket's metadata (each old resource's delete asks whether a folder holds
    // its object), so that the CLI is killed with some deleted from state and some not.
    await fault({ operation: "HeadContainer", action: "latency", latencyMs: 300 });
    const start = cursor();
    // Four steps at a time, so that the deletes are spread over seconds however many the engine would start at once.
    await killedPulumi(
      engine.sandbox,
      ["up", "--yes", "--skip-preview", "--non-interactive", "--parallel", "4", "--stack", `move-${door}`],
      dir,
      "the old resources' deletes are under way",
      async () => count(operations(start), "HeadContainer") >= 30,
    );
    await clearFaults();
    expect(await types()).toContain("BucketObject");
    await spawnPulumi(engine.sandbox, ["cancel", "--yes", "--stack", `move-${door}`], dir).done;
    const again = await stack.up({ color: "never" });
    const ops = operations(start);
    expect({ puts: count(ops, "PutObject"), deletes: count(ops, "DeleteObject") }).toEqual({ puts: 0, deletes: 0 });
    expect(await bucketContent(again.outputs.bucketName!.value as string)).toEqual(expected(folder));
    expect(await types()).not.toContain("BucketObject");
    await engine.destroyLeavesNothing(stack);
  });
});
