/**
 * Upgrading the package takes effect for existing resources: refresh and destroy run the provider
 * code installed now, not the code that created the resources (the serialized `__provider` is only
 * a stub that requires `pulumi-krcloud/runtime`).
 *
 * The project here is installed like a user's: its node_modules holds a COPY of the package
 * (package.json + dist) and links to the other dependencies. After `up`, the copy's runtime is
 * "upgraded" (patched to log every provider call to a marker file); refresh and destroy must log.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { staticSite, ENGINE_TEST_TIMEOUT_MS, installProject, stateResources } from "../harness/engine";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

let stack: Stack;
let installed: string;
let marker: string;

function markerLines(): { token: string; method: string }[] {
  if (!fs.existsSync(marker)) return [];
  return fs
    .readFileSync(marker, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

const engine = engineFile({ label: "upgrade", project: "upgrade" });

beforeAll(async () => {
  const example = staticSite();
  const dir = path.join(engine.sandbox.root, "programs", "upgrade");
  installed = installProject(example.dir, dir);
  marker = path.join(engine.sandbox.root, "provider-calls.log");
  stack = await engine.stack(dir, "upgrade");
});

test("the project resolves pulumi-krcloud/runtime to the installed copy, not the repository", () => {
  // As the dynamic provider host does: a require from the program directory.
  const resolved = execFileSync(process.execPath, ["-p", 'require("fs").realpathSync(require.resolve("pulumi-krcloud/runtime"))'], {
    cwd: path.dirname(path.dirname(installed)),
    encoding: "utf8",
  }).trim();
  expect(resolved).toBe(fs.realpathSync(path.join(installed, "dist", "provider", "runtime.js")));
});

test("refresh and destroy of existing resources run the upgraded package", async () => {
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  const resources = stateResources(await stack.exportStack()).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/krcloud/"));
  expect(resources.length).toBeGreaterThan(0);
  expect(markerLines()).toEqual([]);

  // The "upgrade": a new runtime.js whose `call` (every stub call lands there) logs to the marker.
  const runtime = path.join(installed, "dist", "provider", "runtime.js");
  const original = fs.readFileSync(runtime, "utf8");
  const head = "function call(token, m, args) {";
  expect(original).toContain(head);
  fs.writeFileSync(
    runtime,
    original.replace(
      head,
      `${head}\n    require("node:fs").appendFileSync(${JSON.stringify(marker)}, JSON.stringify({ token, method: methodOf(m, args) }) + "\\n");`,
    ),
  );

  await stack.refresh({ color: "never" });
  const reads = markerLines().filter((l) => l.method === "read");
  expect(reads).toHaveLength(resources.length);

  const destroyed = await stack.destroy({ color: "never" });
  expect(destroyed.summary.result).toBe("succeeded");
  const deletes = markerLines().filter((l) => l.method === "delete");
  expect(deletes).toHaveLength(resources.length);
  expect(new Set(deletes.map((l) => l.token))).toEqual(new Set(resources.map((r) => `krcloud:${r.type.split("/").slice(2).join("/")}`)));
  expect(await engine.inventory()).toEqual([]);
});
