/**
 * Moving a TypeScript stack from the dynamic classes to the native TypeScript SDK with the real CLI:
 * each TypeScript example is deployed with `import * as krcloud from "pulumi-krcloud"`, then the
 * program changes only its import to "pulumi-krcloud/native" and adds aliases of the dynamic types
 * (one transformation after the imports). The preview and the up that follow change nothing but
 * the default providers (the plugin's comes, the dynamic host's goes): no resource is replaced,
 * updated, created or deleted, and the ids in state stay. The next preview changes nothing at all;
 * destroy then runs through the plugin and leaves nothing behind.
 *
 * The package is the `npm pack` tarball installed by npm into a project of its own (no link to this
 * repository, no Go): the native SDK ships compiled in it. The plugin is installed from this tree.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { startLocalCloud } from "../../local-cloud";
import {
  applyLocalCloudSetup,
  byUrn,
  changedSteps,
  discoverExamples,
  ENGINE_TEST_TIMEOUT_MS,
  eventCollector,
  newProject,
  providerConfig,
  REPO_ROOT,
  stateResources,
  toolPath,
  withoutSecrets,
  type CloudProject,
  type SetupResource,
} from "../harness/engine";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS * 2);

const examples = discoverExamples().filter((e) => e.runtime === "nodejs");
const PKG = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const DYNAMIC_IMPORT = 'import * as krcloud from "pulumi-krcloud";';
const NATIVE_IMPORT = 'import * as krcloud from "pulumi-krcloud/native";';
/** What a user adds after the imports: every krcloud resource aliases the type the dynamic class gave it. */
const ALIASES = [
  "pulumi.runtime.registerStackTransformation(({ type, props, opts }) =>",
  '  type.startsWith("krcloud:")',
  '    ? { props, opts: pulumi.mergeOptions(opts, { aliases: [{ type: `pulumi-nodejs:dynamic/krcloud/${type.slice("krcloud:".length)}` }] }) }',
  "    : undefined,",
  ");",
].join("\n");

/** node_modules of a project that installed the packed tarball with npm. */
let installed: string;

// Simulated cache nodes: the move is about state and the engine, not the data plane.
const engine = engineFile({ label: "native-ts-migration", plugin: true, start: () => startLocalCloud({ port: 0, cacheEngine: "simulated" }) });

beforeAll(async () => {
  const npm = (args: string[], cwd: string): string =>
    execFileSync("npm", args, { cwd, encoding: "utf8", env: { ...process.env, PATH: toolPath(), npm_config_update_notifier: "false" } });
  const packed = JSON.parse(npm(["pack", "--json", "--pack-destination", engine.sandbox.root], REPO_ROOT)) as { filename: string }[];
  const consumer = path.join(engine.sandbox.root, "consumer");
  fs.mkdirSync(consumer);
  fs.writeFileSync(
    path.join(consumer, "package.json"),
    JSON.stringify({
      name: "krcloud-native-ts-consumer",
      private: true,
      dependencies: {
        [PKG.name]: `file:${path.join(engine.sandbox.root, packed[0]!.filename)}`,
        "@pulumi/pulumi": PKG.dependencies["@pulumi/pulumi"],
        typescript: PKG.devDependencies.typescript,
        "@types/node": PKG.devDependencies["@types/node"],
      },
    }),
  );
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], consumer);
  installed = path.join(consumer, "node_modules");
  expect(fs.lstatSync(path.join(installed, PKG.name)).isSymbolicLink()).toBe(false);
}, ENGINE_TEST_TIMEOUT_MS);

describe.each(examples.map((e) => [e.name, e] as const))("example %s", (_name, example) => {
  let project: CloudProject;
  let setup: SetupResource[] = [];
  let dir: string;
  let stack: Stack;

  beforeAll(async () => {
    project = await newProject(engine.cloud, example.name);
    setup = await applyLocalCloudSetup(project, example.dir);
    dir = path.join(engine.sandbox.root, "programs", example.name);
    fs.cpSync(example.dir, dir, {
      recursive: true,
      filter: (p) => path.basename(p) !== "node_modules" && !/^Pulumi\..+\.ya?ml$/.test(path.basename(p)),
    });
    fs.symlinkSync(installed, path.join(dir, "node_modules"), "dir");
    stack = await engine.sandbox.createStack(
      dir,
      "migration",
      providerConfig(project, {
        [`${example.project}:siteVerification`]: { value: `sv-${randomBytes(8).toString("hex")}`, secret: true },
        [`${example.project}:dbPassword`]: { value: `db-${randomBytes(8).toString("hex")}`, secret: true },
      }),
    );
  });

  test("made with the dynamic classes, it moves to pulumi-krcloud/native by its import and aliases with no resource changed", async () => {
    const first = await stack.up({ color: "never" });
    expect(first.summary.result).toBe("succeeded");
    // The program's resources (the stack's identity, krcloud-stack, is a provider resource the plugin does not need).
    const before = stateResources(await stack.exportStack()).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/krcloud/"));
    expect(before.length).toBeGreaterThan(1);
    const idsBefore = Object.fromEntries(before.map((r) => [r.urn.split("::").at(-1)!, r.id]));

    // The change a user makes: the import, and the aliases after the imports.
    const file = path.join(dir, "index.ts");
    const source = fs.readFileSync(file, "utf8");
    expect(source.split(DYNAMIC_IMPORT)).toHaveLength(2);
    fs.writeFileSync(file, source.replace(DYNAMIC_IMPORT, `${NATIVE_IMPORT}\n\n${ALIASES}`));

    const providerSteps = [
      { urn: expect.stringContaining("::pulumi:providers:krcloud::default"), op: "create" },
      { urn: expect.stringContaining("::pulumi:providers:pulumi-nodejs::default"), op: "delete" },
      // The dynamic classes' stack identity: the plugin needs none (its provider id is the stack's identity).
      { urn: expect.stringContaining("::pulumi:providers:pulumi::krcloud-stack"), op: "delete" },
    ];
    const preview = eventCollector();
    await stack.preview({ color: "never", onEvent: preview.onEvent });
    expect(byUrn(changedSteps(preview.events))).toEqual(providerSteps);

    const up = eventCollector();
    const moved = await stack.up({ color: "never", onEvent: up.onEvent });
    expect(moved.summary.result).toBe("succeeded");
    expect(byUrn(changedSteps(up.events))).toEqual(providerSteps);

    const state = await stack.exportStack();
    // The cloud's resources (a component, krcloud:cache:CacheWithParameters, has no id and keeps its type).
    const after = stateResources(state).filter((r) => r.type.startsWith("krcloud:") && r.id !== undefined);
    expect(Object.fromEntries(after.map((r) => [r.urn.split("::").at(-1)!, r.id]))).toEqual(idsBefore);
    expect(after.map((r) => r.type).sort()).toEqual(before.map((r) => r.type.replace("pulumi-nodejs:dynamic/krcloud/", "krcloud:")).sort());
    expect(stateResources(state).filter((r) => r.type.startsWith("pulumi-nodejs:"))).toEqual([]);
    expect(JSON.stringify(withoutSecrets(state.deployment))).not.toContain(project.token);
    // Each resource records the line of the program that declared it, though the SDK's stacks are
    // light while a krcloud resource is constructed (provider/core/light-stacks.ts).
    // (A component's children are declared by the component, not by a line of the program.)
    const lines = fs.readFileSync(file, "utf8").split("\n");
    for (const r of after.filter((x) => !x.urn.split("::")[2]!.includes("$"))) {
      const m = /^project:\/\/\/index\.ts#(\d+),\d+$/.exec(r.sourcePosition ?? "");
      expect({ urn: r.urn, declaration: m ? lines[Number(m[1]) - 1]?.trim() : r.sourcePosition }).toEqual({
        urn: r.urn,
        declaration: expect.stringMatching(/new krcloud\.\w+\.\w+\(/),
      });
    }

    const again = eventCollector();
    const next = await stack.preview({ color: "never", onEvent: again.onEvent });
    expect(changedSteps(again.events)).toEqual([]);
    expect(Object.keys(next.changeSummary)).toEqual(["same"]);

    const destroyed = await stack.destroy({ color: "never" });
    expect(destroyed.summary.result).toBe("succeeded");
    const left = (await project.control.inventory(project.projectId)).filter(
      (e) => !setup.some((r) => r.service === e.service && r.kind === e.kind && r.id === e.id),
    );
    expect(left).toEqual([]);
  });
});
