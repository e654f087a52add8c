/**
 * What the engine test files share around their tests: a local cloud, a sandbox and (most often) a
 * project of their own, opened before the file's tests and closed after them; and the small
 * programs a test writes from text (a JavaScript program of the dynamic classes, a YAML program for
 * the native plugin). Each file still starts its own cloud and sandbox, so files stay independent
 * and can run in parallel workers (tests/harness/engine).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../../local-cloud";
import {
  changedSteps,
  eventCollector,
  installNativePlugin,
  newProject,
  providerConfig,
  pulumiYamlBinDir,
  Sandbox,
  startCloud,
  type CloudProject,
  type InventoryEntry,
} from ".";
import { writeFiles } from "../programs";

/** The file's cloud, sandbox and project: set before its first test runs (its first `beforeAll`). */
export interface EngineFile {
  readonly cloud: LocalCloud;
  readonly sandbox: Sandbox;
  /** Set only when the file asked for one (`project`). */
  readonly project: CloudProject;
  /** A new stack of the program in `dir`, configured for the file's project (plus `extra`). */
  stack(dir: string, stackName: string, extra?: ConfigMap): Promise<Stack>;
  /** What the local cloud holds for the file's project. */
  inventory(): Promise<InventoryEntry[]>;
  /** Writes `files` as the program `name` of the file's sandbox and returns its copy (`writeProgram`). */
  program(name: string, files: Record<string, string>): string;
  /**
   * The program `name` written from `files` and a stack of it, also called `name`, configured for
   * the project; the native plugin installed first where the program needs it (`plugin`).
   */
  programStack(name: string, files: Record<string, string>, opts?: { plugin?: boolean }): Promise<Stack>;
  /** `destroy` of `stack` succeeds, and the file's project holds nothing after it. */
  destroyLeavesNothing(stack: Stack): Promise<void>;
}

export interface EngineFileOptions {
  /** The sandbox's label (the prefix of its temp directory). */
  label: string;
  /** The label of the file's project; without it the file makes its own projects. */
  project?: string;
  /** The file runs YAML programs: it fails at once, saying what to install, without pulumi-language-yaml. */
  yaml?: boolean;
  /** Installs the native plugin of this working tree into the sandbox. */
  plugin?: boolean;
  /** Starts the cloud, when the file needs other options than `startCloud`'s. */
  start?: () => Promise<LocalCloud>;
}

/**
 * Registers the `beforeAll` that opens the file's cloud, sandbox and project and the `afterAll`
 * that closes them. Call it at the top of the file, before the file's own hooks: Jest runs the
 * hooks of a block in the order they were registered, so the file's own `beforeAll` sees them open.
 */
export function engineFile(opts: EngineFileOptions): EngineFile {
  const open: { cloud?: LocalCloud; sandbox?: Sandbox; project?: CloudProject } = {};
  const file: EngineFile = {
    get cloud() {
      return opened("cloud", open.cloud);
    },
    get sandbox() {
      return opened("sandbox", open.sandbox);
    },
    get project() {
      return opened("project", open.project);
    },
    stack: (dir, stackName, extra) => file.sandbox.createStack(dir, stackName, providerConfig(file.project, extra)),
    inventory: () => file.project.control.inventory(file.project.projectId),
    program: (name, files) => writeProgram(file.sandbox, name, files),
    programStack: async (name, files, opts = {}) => {
      if (opts.plugin) await installNativePlugin(file.sandbox);
      return file.stack(file.program(name, files), name);
    },
    destroyLeavesNothing: async (stack) => {
      const destroyed = await stack.destroy({ color: "never" });
      expect(destroyed.summary.result).toBe("succeeded");
      expect(await file.inventory()).toEqual([]);
    },
  };
  beforeAll(async () => {
    if (opts.yaml) requireYamlHost();
    open.cloud = await (opts.start ?? startCloud)();
    open.sandbox = new Sandbox({ label: opts.label });
    if (opts.project !== undefined) open.project = await newProject(open.cloud, opts.project);
    if (opts.plugin) await installNativePlugin(open.sandbox);
  });
  afterAll(async () => {
    await open.cloud?.close();
    open.sandbox?.cleanup();
  });
  return file;
}

function opened<T>(what: string, value: T | undefined): T {
  if (value === undefined) throw new Error(`the engine file's ${what} is not open (used before its beforeAll, or not asked for)`);
  return value;
}

/** The steps a preview of `stack` plans that are not `same` (tests/harness/engine/state.ts `changedSteps`). */
export async function previewSteps(stack: Stack): Promise<{ urn: string; op: string }[]> {
  const { events, onEvent } = eventCollector();
  await stack.preview({ color: "never", onEvent });
  return changedSteps(events);
}

/** YAML programs need the YAML language host next to the Pulumi CLI. */
export function requireYamlHost(): void {
  if (!pulumiYamlBinDir()) throw new Error("pulumi-language-yaml is missing: run `make pulumi-yaml`");
}

/** Writes `files` as the program `name` of the sandbox and returns its copy, ready for a stack (Sandbox.copyProgram). */
export function writeProgram(sandbox: Sandbox, name: string, files: Record<string, string>): string {
  const src = path.join(sandbox.root, "src", name);
  fs.mkdirSync(src, { recursive: true });
  writeFiles(src, files);
  return sandbox.copyProgram(src);
}

/**
 * A JavaScript program of the dynamic classes: Pulumi.yaml, and index.js in strict mode with
 * `krcloud` (and `pulumi` when asked) required before `lines`; package.json when asked (its `main`
 * is index.js).
 */
export function jsProgram(project: string, lines: string[], opts: { pulumi?: boolean; packageJson?: boolean } = {}): Record<string, string> {
  const requires = [...(opts.pulumi ? ['const pulumi = require("@pulumi/pulumi");'] : []), 'const krcloud = require("pulumi-krcloud");'];
  return {
    "Pulumi.yaml": `name: ${project}\nruntime: nodejs\nmain: index.js\n`,
    ...(opts.packageJson ? { "package.json": `{ "name": "${project}", "main": "index.js" }\n` } : {}),
    "index.js": ['"use strict";', ...requires, ...lines, ""].join("\n"),
  };
}

/** The smallest site of the native plugin, as YAML resources: a bucket `site` and its object `index` (index.html). */
export const YAML_SITE_RESOURCES = [
  "resources:",
  "  site:",
  "    type: krcloud:objectstorage:Bucket",
  "    properties: { forceDestroy: true }",
  "  index:",
  "    type: krcloud:objectstorage:BucketObject",
  '    properties: { bucket: "${site.name}", key: index.html, content: "<h1>hi</h1>" }',
];

/** A Pulumi YAML program: its Pulumi.yaml, the project's name and runtime before `lines`. */
export function yamlProgram(project: string, lines: string[]): Record<string, string> {
  return { "Pulumi.yaml": [`name: ${project}`, "runtime: yaml", ...lines, ""].join("\n") };
}

/** A YAML program of one resource, `name` of `type`, its properties given as YAML lines below `properties:`. */
export function yamlResourceProgram(project: string, name: string, type: string, properties: string[]): Record<string, string> {
  return yamlProgram(project, ["resources:", `  ${name}:`, `    type: ${type}`, "    properties:", ...properties.map((l) => `      ${l}`)]);
}
