/**
 * The steps the static-site example of each language runs through the real CLI, the native plugin
 * and a language host (native-python.test.ts, native-go.test.ts, native-java.test.ts): up, preview
 * --expect-no-changes, a change behind Pulumi's back reported by krcloud-drift and taken in by
 * refresh, pulumi import of a bucket made elsewhere, destroy. Each file says how its program is
 * wired to its SDK; the steps, and what they expect, are the same in every language. The project
 * holds nothing of npm's (no package.json, no node_modules): krcloud-drift runs as its team would
 * run it, the Pulumi tool plugin (`pulumi plugin run krcloud-drift -- ...`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../local-cloud";
import { resolveSettings } from "../../client/core";
import { ObjectStorageClient } from "../../client/objectstorage";
import { driftedPaths, parseReport, runDriftTool } from "./drift";
import {
  discoverExamples,
  generateSdks,
  installDriftTool,
  installNativePlugin,
  sharedSdks,
  nativeResourcesOfType,
  newProject,
  providerConfig,
  runPulumi,
  Sandbox,
  startCloud,
  stateResources,
  type CloudProject,
} from "../harness/engine";

export interface StaticSiteLanguage {
  /** The example's directory under examples/, e.g. `go-static-site`. */
  example: string;
  /** Its Pulumi.yaml `runtime:` name. */
  runtime: string;
  /** The stack's name, the sandbox's label and the project's label. */
  stack: string;
  /** Why the language host is missing (the make target to run), or undefined when it is there. */
  hostMissing: () => string | undefined;
  /** The page the program writes when no `message` is configured. */
  greeting: string;
  /**
   * Which SDKs generateSdks builds besides the sources (the wheel, the Java SDK with Maven); `shared`:
   * the ones made once per schema.json and shared with the other tests and the benchmarks (sharedSdks).
   */
  sdks: { wheel: boolean; java?: boolean } | "shared";
  /** What the example's README tells users to do to wire the program to its SDK (`sdkDir` holds them all). */
  wire: (workDir: string, sdkDir: string) => Promise<void>;
  /** beforeAll's time: a cold toolchain cache falls in it, not in up's. */
  setupTimeoutMs: number;
}

/** Declares the file's hooks and tests for `lang`. */
export function staticSiteSteps(lang: StaticSiteLanguage): void {
  const STACK = lang.stack;
  let cloud: LocalCloud;
  let sandbox: Sandbox;
  let project: CloudProject;
  let stack: Stack;
  let workDir: string;
  let sdk: ObjectStorageClient;

  beforeAll(async () => {
    const missing = lang.hostMissing();
    if (missing) throw new Error(missing);
    const example = discoverExamples().find((e) => e.name === lang.example);
    if (!example || example.runtime !== lang.runtime) throw new Error(`examples/${lang.example} (runtime: ${lang.runtime}) is missing`);
    cloud = await startCloud();
    sandbox = new Sandbox({ label: `native-${lang.stack}` });
    project = await newProject(cloud, lang.stack);
    const sdks = lang.sdks;
    const [sdkDir] = await Promise.all([
      sdks === "shared" ? sharedSdks() : generateSdks(path.join(sandbox.root, "sdk"), sdks).then(() => path.join(sandbox.root, "sdk")),
      installNativePlugin(sandbox).then(() => installDriftTool(sandbox)),
    ]);
    workDir = sandbox.copyProgram(example.dir, undefined, { nodeModules: false });
    await lang.wire(workDir, sdkDir);
    stack = await sandbox.createStack(workDir, STACK, providerConfig(project));
    sdk = new ObjectStorageClient({ settings: resolveSettings({ localCloudUrl: cloud.url, authToken: project.token, projectId: project.projectId }) });
  }, lang.setupTimeoutMs);

  afterAll(async () => {
    await cloud?.close();
    sandbox?.cleanup();
  });

  test("up creates the bucket and its page through the plugin", async () => {
    const up = await stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    const bucket = up.outputs.bucketName!.value as string;
    expect(bucket).toMatch(/^site-[0-9a-f]{7}$/);
    expect(up.outputs.url!.value).toBe(`${cloud.url}/object-storage/v1/${project.projectId}/${bucket}/index.html`);

    const inventory = (await project.control.inventory(project.projectId)).map((e) => `${e.kind}:${e.id}`).sort();
    expect(inventory).toEqual([`bucket:${bucket}`, `object:${bucket}/index.html`]);
    expect(await (await fetch(up.outputs.url!.value as string)).text()).toBe(lang.greeting);
    const types = stateResources(await stack.exportStack()).map((r) => r.type);
    expect(types.filter((t) => t.startsWith("krcloud:")).sort()).toEqual(["krcloud:objectstorage:Bucket", "krcloud:objectstorage:BucketObject"]);
  });

  test("preview --expect-no-changes of the unchanged program succeeds", async () => {
    const { stdout } = await runPulumi(sandbox, ["preview", "--expect-no-changes", "--non-interactive", "--color", "never", "--stack", STACK], workDir);
    expect(stdout).toMatch(/\b3 unchanged\b/);
  });

  test("a change behind Pulumi's back: krcloud-drift (the tool plugin, from the project) reports it, refresh takes it in, up puts the program's value back", async () => {
    const bucket = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket")[0]!;
    await project.control.patchResource("object-storage", "bucket", bucket.id!, { acl: { public: "deny" } });

    expect(["package.json", "node_modules"].filter((f) => fs.existsSync(path.join(workDir, f)))).toEqual([]);
    const r = await runDriftTool(sandbox, ["--stack", STACK, "--format", "json"], workDir);
    expect({ code: r.code, stderr: r.stderr, out: r.code === 2 ? "" : r.stdout }).toEqual({ code: 2, stderr: "", out: "" });
    const site = parseReport(r.stdout).stacks[0]!.resources.find((x) => x.urn === bucket.urn)!;
    expect(driftedPaths(site)).toEqual([["acl.public", "deny", "read-only"]]);

    const refreshed = await stack.refresh({ color: "never" });
    expect(refreshed.summary.resourceChanges).toMatchObject({ update: 1 });
    const after = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket")[0]!;
    expect((after.outputs as { acl?: { public?: string } }).acl?.public).toBe("deny");

    const up = await stack.up({ color: "never" });
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await sdk.findBucket(bucket.id!))?.acl).toMatchObject({ public: "read-only" });
  });

  test("pulumi import adopts a bucket made behind Pulumi's back", async () => {
    const name = `adopt-${project.projectId.slice(-8)}`;
    await sdk.createBucket({ name });
    await runPulumi(
      sandbox,
      ["import", "krcloud:objectstorage:Bucket", "adopted", name, "--yes", "--generate-code=false", "--protect=false", "--non-interactive", "--stack", STACK],
      workDir,
    );
    const adopted = nativeResourcesOfType(await stack.exportStack(), "krcloud:objectstorage:Bucket").find((x) => x.urn.endsWith("::adopted"));
    expect(adopted?.id).toBe(name);
    expect(adopted?.inputs).toMatchObject({ name });
  });

  test("destroy leaves nothing behind, the imported bucket included", async () => {
    const destroyed = await stack.destroy({ color: "never" });
    expect(destroyed.summary.result).toBe("succeeded");
    expect(await project.control.inventory(project.projectId)).toEqual([]);
  });
}
