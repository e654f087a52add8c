/**
 * The components through the real engine, each on both doors: the TypeScript class (children: the
 * dynamic classes) and the native plugin's Construct from a YAML program (children: the plugin's
 * own resources). Each stack: up, a preview with no changes, destroy leaving nothing; a StaticSite
 * serves its index without a token; a CacheWithParameters parameter change updates the group and
 * leaves the cache (same id, no replace step).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { backendFiles, changedSteps, ENGINE_TEST_TIMEOUT_MS, eventCollector, REPO_ROOT } from "../harness/engine";
import { parseComponentInputs } from "../../provider/core/component";
import { siteLayout, staticSite } from "../../provider/objectstorage/static-site";
import { driftedPaths, parseReport, resourceNamed, runDrift } from "../support/drift";
import { engineFile, jsProgram } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "components", project: "components", yaml: true, plugin: true });

/** The YAML door runs the example program; the TypeScript one the same choices on the same files. */
const SITE_EXAMPLE = path.join(REPO_ROOT, "examples", "yaml-static-site-component");
/** The site's files, in the program's folder `site/`. */
const SITE = Object.fromEntries(
  ["index.html", "404.html", "app.js", "app.js.map"].map((f) => [f, fs.readFileSync(path.join(SITE_EXAMPLE, "site", f), "utf8")]),
);

/**
 * The layout every StaticSite below records: the component's defaults (pinned in
 * tests/unit/components.test.ts) and the program's two choices, as the component computes it.
 */
function expectedLayout(bucketName: string) {
  const inputs = parseComponentInputs(staticSite, "www", { path: path.join(SITE_EXAMPLE, "site"), exclude: ["**/*.map"], errorDocument: "404.html" });
  return siteLayout(inputs, bucketName);
}

function withSite(files: Record<string, string>): Record<string, string> {
  return { ...files, ...Object.fromEntries(Object.entries(SITE).map(([k, v]) => [`site/${k}`, v])) };
}

const PROGRAMS: Record<string, Record<string, string>> = {
  typescript: jsProgram("krcloud-test-site-ts", [
    'const site = new krcloud.objectstorage.StaticSite("www", { path: "site", exclude: ["**/*.map"], errorDocument: "404.html" });',
    "exports.indexUrl = site.indexUrl;",
    "exports.errorUrl = site.errorUrl;",
    "exports.bucketName = site.bucketName;",
    "exports.fileCount = site.fileCount;",
    "exports.layout = site.layout;",
  ]),
  // The example program, as it is (examples/yaml-static-site-component: the same site and choices).
  yaml: Object.fromEntries(["Pulumi.yaml", ...Object.keys(SITE).map((f) => `site/${f}`)].map((f) => [f, fs.readFileSync(path.join(SITE_EXAMPLE, f), "utf8")])),
};

describe.each(["typescript", "yaml"])("StaticSite from %s", (door) => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await engine.programStack(`site-${door}`, door === "yaml" ? PROGRAMS.yaml! : withSite(PROGRAMS[door]!));
  });

  test("up: a public site with the recorded layout, then a preview with no changes", async () => {
    const up = await stack.up({ color: "never" });
    const bucketName = up.outputs.bucketName!.value as string;
    expect(bucketName).toMatch(/^www-/);
    expect(up.outputs.layout!.value).toEqual(expectedLayout(bucketName));
    expect(up.outputs.fileCount!.value).toBe(3);
    // Public read: the index and error documents answer without a token.
    const index = await fetch(up.outputs.indexUrl!.value as string);
    expect([index.status, await index.text()]).toEqual([200, SITE["index.html"]]);
    const error = await fetch(up.outputs.errorUrl!.value as string);
    expect([error.status, await error.text()]).toEqual([200, SITE["404.html"]]);
    // The children: bucket, CORS policy, lifecycle and folder, each under the component.
    const children = (await stack.exportStack()).deployment.resources
      .map((r: { type: string; parent?: string }) => [r.type.split(":").pop(), r.parent?.split("::")[2]?.split("$").pop()])
      .filter(([, parent]: (string | undefined)[]) => parent === "krcloud:objectstorage:StaticSite")
      .map(([type]: (string | undefined)[]) => type)
      .sort();
    expect(children).toEqual(["Bucket", "BucketCors", "BucketFolder", "BucketLifecycle"]);

    const quiet = eventCollector();
    await stack.preview({ color: "never", onEvent: quiet.onEvent, expectNoChanges: true } as never);
    expect(changedSteps(quiet.events)).toEqual([]);
  });

  test("krcloud-drift through the component: its access logs are not drift, a file changed behind Pulumi's back is, by key", async () => {
    const bucketName = (await stack.outputs()).bucketName!.value as string;
    const put = (key: string, body: string) =>
      fetch(`${engine.cloud.url}/object-storage/v1/${engine.project.projectId}/${bucketName}/${key}`, {
        method: "PUT",
        headers: { "x-auth-token": engine.project.token, "content-type": "text/plain" },
        body,
      });
    expect((await put("logs/2026-11-27.log", "GET /index.html 200\n")).status).toBe(201);
    expect((await put("index.html", "defaced\n")).status).toBe(201);
    const out = path.join(engine.sandbox.root, `drift-site-${door}.json`);
    const r = await runDrift(engine.sandbox, ["--cwd", stack.workspace.workDir, "--stack", `site-${door}`, "--out", `json=${out}`]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: "" });
    const report = parseReport(fs.readFileSync(out, "utf8"));
    expect(
      driftedPaths(resourceNamed(report.stacks[0], "www-content"))
        .map((p) => p[0])
        .sort(),
    ).toEqual(["manifestDigest", 'manifest["index.html"]']);
  });

  test("destroy leaves nothing", async () => {
    await engine.destroyLeavesNothing(stack);
  });
});

test("StaticSite refuses an index document the folder does not have, naming the property and the rule", async () => {
  const dir = engine.program("site-bad", {
    ...PROGRAMS.yaml!,
    "Pulumi.yaml": PROGRAMS.yaml!["Pulumi.yaml"]!.replace("errorDocument: 404.html", "errorDocument: missing.html"),
    "site/index.html": SITE["index.html"]!,
  });
  const stack = await engine.stack(dir, "site-bad");
  const failure = await stack.preview({ color: "never" }).then(
    () => "",
    (e: Error) => e.message,
  );
  expect(failure).toContain('errorDocument: "missing.html" is not a file of the folder "site"');
});

const CLUSTER = {
  version: "7.0.15",
  flavorId: "redis.small",
  subnetIds: ["sn-a", "sn-b"],
  securityGroupIds: ["sg-1"],
  shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] }],
};
/** A password given in plain text by the program: the component's `user` is secret, so no state holds it in clear. */
const PASSWORD = "Pw-component-7f3a9c";
const INSTANCE_SET = { version: "7.0.15", flavorId: "redis.small", subnetIds: ["sn-a", "sn-b"], securityGroupIds: ["sg-1"], primarySubnetId: "sn-a" };

/** A cluster from TypeScript, an instance set from YAML; `timeout` comes from the stack's config. */
const CACHE_PROGRAMS: Record<string, { files: Record<string, string>; base: string }> = {
  typescript: {
    base: "default.redis7.0.cluster",
    files: jsProgram(
      "krcloud-test-cache-ts",
      [
        'const timeout = new pulumi.Config().require("timeout");',
        'const cache = new krcloud.cache.CacheWithParameters("sessions", {',
        '  baseParameterGroupId: "default.redis7.0.cluster",',
        '  parameters: { "maxmemory-policy": "allkeys-lru", timeout },',
        `  cluster: ${JSON.stringify(CLUSTER)},`,
        `  user: { name: "app", password: "${PASSWORD}" },`,
        "});",
        "exports.cacheId = cache.cacheId;",
        "exports.kind = cache.kind;",
        "exports.primaryEndpoint = cache.primaryEndpoint;",
        "exports.parameterGroupId = cache.parameterGroupId;",
        "exports.parameters = cache.parameters;",
        "exports.syncStatus = cache.syncStatus;",
      ],
      { pulumi: true },
    ),
  },
  yaml: {
    base: "default.redis7.0.standalone",
    files: {
      "Pulumi.yaml": [
        "name: krcloud-test-cache-yaml",
        "runtime: yaml",
        "configuration:",
        "  timeout:",
        "    type: String",
        "resources:",
        "  sessions:",
        "    type: krcloud:cache:CacheWithParameters",
        "    properties:",
        "      baseParameterGroupId: default.redis7.0.standalone",
        "      parameters:",
        "        maxmemory-policy: allkeys-lru",
        "        timeout: ${timeout}",
        `      instanceSet: ${JSON.stringify(INSTANCE_SET)}`,
        `      user: { name: app, password: ${PASSWORD} }`,
        "outputs:",
        "  cacheId: ${sessions.cacheId}",
        "  kind: ${sessions.kind}",
        "  primaryEndpoint: ${sessions.primaryEndpoint}",
        "  parameterGroupId: ${sessions.parameterGroupId}",
        "  parameters: ${sessions.parameters}",
        "  syncStatus: ${sessions.syncStatus}",
        "",
      ].join("\n"),
    },
  },
};

describe.each(["typescript", "yaml"])("CacheWithParameters from %s", (door) => {
  let stack: Stack;
  let cacheId: string;
  let groupId: string;

  beforeAll(async () => {
    stack = await engine.programStack(`cache-${door}`, CACHE_PROGRAMS[door]!.files);
    await stack.setConfig("timeout", { value: "300" });
  });

  test("up: the cache and its own group from the map, then a preview with no changes", async () => {
    const up = await stack.up({ color: "never" });
    const o = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
    expect(o.kind).toBe(door === "typescript" ? "cluster" : "instanceSet");
    expect(o.parameters).toEqual({ "maxmemory-policy": "allkeys-lru", timeout: "300" });
    expect(o.syncStatus).toBe("In-Sync");
    expect(o.primaryEndpoint).toEqual(expect.any(String));
    // What the backend stores (its files, secrets encrypted), for every stack of the file.
    expect(backendFiles(engine.sandbox.backendDir).filter((f) => f.text.includes(PASSWORD))).toEqual([]);
    cacheId = o.cacheId as string;
    groupId = o.parameterGroupId as string;
    const quiet = eventCollector();
    await stack.preview({ color: "never", onEvent: quiet.onEvent, expectNoChanges: true } as never);
    expect(changedSteps(quiet.events)).toEqual([]);
  });

  test("a parameter change updates the group; the cache is neither replaced nor updated", async () => {
    await stack.setConfig("timeout", { value: "600" });
    const { events, onEvent } = eventCollector();
    const up = await stack.up({ color: "never", onEvent });
    // The resources' steps (a provider's config change is not one): the group updated, nothing else.
    const steps = changedSteps(events)
      .map((s) => [s.urn.split("::")[2]!.split("$").pop()!, s.op])
      .filter(([type]) => !type!.startsWith("pulumi:"))
      .map(([type, op]) => [type!.split(":").pop(), op]);
    expect(steps).toEqual([["ParameterGroup", "update"]]);
    expect(up.outputs.cacheId!.value).toBe(cacheId);
    expect(up.outputs.parameterGroupId!.value).toBe(groupId);
    expect(up.outputs.parameters!.value).toEqual({ "maxmemory-policy": "allkeys-lru", timeout: "600" });
    expect(up.outputs.syncStatus!.value).toBe("In-Sync");
  });

  test("destroy leaves nothing", async () => {
    await engine.destroyLeavesNothing(stack);
  });
});
