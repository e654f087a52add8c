/**
 * Every reference example is a complete, valid program: each example file
 * (`provider/<module>/*.example.yaml`, the program its docs/reference page shows) goes through
 * `pulumi preview` with the native plugin and pulumi-language-yaml against the local cloud (the
 * schema's types, every input's `check`, and the invokes whose arguments are known at preview). To
 * keep the time down they run as one program: the examples' config, variables, resources and
 * outputs merged, a name shared by two examples only for an identical declaration. What the
 * examples take to exist (`provider/<module>/example-fixtures.yaml`: KMS keys, a bucket and its
 * object) is created first. Measured on the 2-core build machine: the whole file about 8 s, its one
 * preview about 4 s; one preview per example takes 1.5 to 2.5 s each, 50 to 80 s for the 34.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { resolveSettings } from "../../client/core";
import { ObjectStorageClient } from "../../client/objectstorage";
import { exampleFiles, exampleFixtures } from "../../tools/gen-reference";
import { ENGINE_TEST_TIMEOUT_MS, eventCollector, logicalName, providerConfig, REPO_ROOT } from "../harness/engine";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

// js-yaml comes with @pulumi/pulumi (no type declarations installed): the two calls used here.
const yaml = require("js-yaml") as { load(text: string): unknown; dump(value: unknown, options?: { lineWidth?: number }): string };

const PROJECT = "krcloud-docs-reference";
const SECTIONS = ["configuration", "variables", "resources", "outputs"] as const;

interface Program {
  name?: string;
  runtime?: string;
  configuration?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  resources?: Record<string, { type: string }>;
  outputs?: Record<string, unknown>;
}

function examples(): { file: string; program: Program }[] {
  return exampleFiles(REPO_ROOT).map((file) => ({ file, program: yaml.load(fs.readFileSync(path.join(REPO_ROOT, file), "utf8")) as Program }));
}

/** One program of all examples; `from` tells which example files declare each name. */
function merge(all: { file: string; program: Program }[]): { program: Program; from: Map<string, string[]> } {
  const program: Program = { name: PROJECT, runtime: "yaml" };
  const from = new Map<string, string[]>();
  for (const { file, program: p } of all) {
    expect([file, p.runtime]).toEqual([file, "yaml"]);
    for (const section of SECTIONS) {
      const target = (program[section] ??= {}) as Record<string, unknown>;
      for (const [name, decl] of Object.entries(p[section] ?? {})) {
        const key = `${section}.${name}`;
        if (name in target && JSON.stringify(target[name]) !== JSON.stringify(decl)) {
          throw new Error(`${key} is declared differently by ${file} and ${from.get(key)!.join(", ")}: use another name or the same declaration`);
        }
        target[name] = decl;
        from.set(key, [...(from.get(key) ?? []), file]);
      }
    }
  }
  return { program, from };
}

const engine = engineFile({ label: "docs-reference", project: "docsref", yaml: true, plugin: true });

beforeAll(async () => {
  const storage = new ObjectStorageClient({
    settings: resolveSettings({ localCloudUrl: engine.cloud.url, authToken: engine.project.token, projectId: engine.project.projectId }),
  });
  for (const f of exampleFixtures(REPO_ROOT)) {
    if (f.kind === "key") await engine.project.control.patchResource("kms", f.kind, f.id, { projectId: engine.project.projectId, type: f.type });
    else if (f.kind === "bucket") await storage.createBucket({ name: f.id });
    else await storage.putObject(f.id.slice(0, f.id.indexOf("/")), f.id.slice(f.id.indexOf("/") + 1), f.content);
  }
});

test("every example previews: valid inputs, known invokes answered, every resource planned", async () => {
  const all = examples();
  expect(all.length).toBeGreaterThan(30);
  const { program, from } = merge(all);
  const src = path.join(engine.sandbox.root, "src", "docs-reference");
  fs.mkdirSync(src, { recursive: true });
  fs.writeFileSync(path.join(src, "Pulumi.yaml"), yaml.dump(program, { lineWidth: -1 }));
  // The folder the BucketFolder example uploads (bucket-folder.example.yaml: `./site`).
  fs.mkdirSync(path.join(src, "site"), { recursive: true });
  fs.writeFileSync(path.join(src, "site", "index.html"), "<h1>Hello from krcloud</h1>\n");
  const secrets = Object.fromEntries(Object.keys(program.configuration ?? {}).map((k) => [`${PROJECT}:${k}`, { value: `docs-example-${k}`, secret: true }]));
  const stack = await engine.sandbox.createStack(engine.sandbox.copyProgram(src), "docs", providerConfig(engine.project, secrets));

  const { events, onEvent } = eventCollector();
  let failure: string | undefined;
  try {
    await stack.preview({ color: "never", onEvent });
  } catch (e) {
    failure = (e as Error).message;
  }
  const diagnostics = events
    .map((e: EngineEvent) => e.diagnosticEvent)
    .filter((d) => d && d.severity === "error")
    .map((d) => `${d!.urn ? logicalName(d!.urn) : "program"}: ${d!.message.trim()}`);
  if (failure !== undefined || diagnostics.length > 0) {
    const where = [...from].map(([key, ps]) => `  ${key}: ${ps.join(", ")}`).join("\n");
    throw new Error(`preview of the reference examples failed:\n${diagnostics.join("\n")}\n${failure ?? ""}\nwhich example declares what:\n${where}`);
  }
  const planned = events
    .map((e) => e.resourcePreEvent?.metadata)
    // The examples' own resources: a component's children (their URN's type names the component) are its business.
    .filter((m) => m?.op === "create" && m.type.startsWith("krcloud:") && !m.urn.split("::")[2]!.includes("$"))
    .map((m) => logicalName(m!.urn))
    .sort();
  expect(planned).toEqual(Object.keys(program.resources ?? {}).sort());
});
