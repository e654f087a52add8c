/**
 * `krcloud-drift --unmanaged` on a local cloud holding one resource of every listed type made
 * outside Pulumi (a bucket with CORS, lifecycle rules and an object, a custom parameter group, a
 * cluster, an instance set, a data source, a Hadoop cluster), next to a YAML stack on the native
 * plugin that manages one bucket. Acceptance: discovery lists exactly what no stack tracks, with the
 * coverage per service; its import file, through `pulumi import --file` (the plugin and the YAML
 * language host generate the code), gives a stack whose `preview --expect-no-changes` passes (once
 * the data source's values its API never returns are declared and recorded by an up that changes
 * nothing in the cloud); its
 * TypeScript program adopts them (its preview names each resource it will adopt, up, then preview
 * with no changes) and protects them as `pulumi import` does (destroy fails, nothing deleted);
 * nothing is created or replaced in the cloud on the way (inventory and mutating requests before
 * and after). A stack without data query and Hadoop keys has those services skipped, not partial.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { parse as parseYaml, stringify as toYaml } from "yaml";
import { startLocalCloud } from "../../local-cloud";
import { programDependencies, type UnmanagedReport } from "../../drift/unmanaged/cli";
import { ENGINE_TEST_TIMEOUT_MS, newProject, providerConfig, REPO_ROOT, runPulumi } from "../harness/engine";
import { smallCluster } from "../resources/hadoop/cluster";
import { EngineResource } from "../support/local-cloud";
import { mutatingRequests, runDrift } from "../support/drift";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const PASSWORD = `Found-${Date.now().toString(36)}!`;

let yamlDir: string;
let yamlStack: Stack;
let importFile: string;
let programDir: string;

/** Creates a resource through its provider in this process: in the cloud, in no stack. */
async function outside(token: string, args: Record<string, unknown>, name: string): Promise<string> {
  const r = new EngineResource(token);
  const cfg = providerConfig(engine.project);
  await r.configure(Object.fromEntries(Object.entries(cfg).map(([k, v]) => [k, v.value])));
  return (await r.up(args, name)).id;
}

const inventory = async () =>
  (await engine.inventory())
    .map((e) => `${e.service}/${e.kind}/${e.id}`)
    .filter((e) => !e.startsWith("kms/") && !e.includes("/instance/"))
    .sort();

const engine = engineFile({
  label: "drift-unmanaged",
  project: "unmanaged",
  plugin: true,
  start: () => startLocalCloud({ port: 0, cacheEngine: "simulated" }),
});

beforeAll(async () => {
  await engine.project.control.patchResource("data-query", "instance", "found-db", {
    projectId: engine.project.projectId,
    engine: "mysql",
    databases: { shop: "CREATE TABLE orders(id INTEGER);" },
  });

  const bucket = await outside(
    "krcloud:objectstorage:Bucket",
    { name: `found-${engine.project.projectId.slice(-10)}`, acl: { public: "read-only" }, metadata: { team: "ops" }, forceDestroy: true },
    "found",
  );
  await outside(
    "krcloud:objectstorage:BucketCors",
    { bucket, rules: [{ allowedOrigins: ["https://app.example.com"], allowedMethods: ["GET", "PUT"], maxAgeSeconds: 300 }] },
    "c",
  );
  await outside("krcloud:objectstorage:BucketLifecycle", { bucket, rules: [{ id: "tmp", prefix: "tmp/", status: "Enabled", expirationDays: 7 }] }, "l");
  await outside("krcloud:objectstorage:BucketObject", { bucket, key: "a.txt", content: "found\n" }, "o");
  const group = await outside(
    "krcloud:cache:ParameterGroup",
    { name: "found-params", baseParameterGroupId: "default.redis7.0.cluster", description: "made by hand", parameters: { timeout: "120" } },
    "pg",
  );
  await outside(
    "krcloud:cache:Cluster",
    {
      name: "found-cluster",
      description: "made by hand",
      version: "7.0.15",
      flavorId: "redis.small",
      parameterGroupId: group,
      subnetIds: ["sn-a", "sn-b"],
      securityGroupIds: ["sg-1"],
      shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] }],
    },
    "cl",
  );
  await outside(
    "krcloud:cache:InstanceSet",
    {
      name: "found-queue",
      version: "7.0.15",
      flavorId: "redis.small",
      parameterGroupId: "default.redis7.0.standalone",
      subnetIds: ["sn-a", "sn-b"],
      securityGroupIds: ["sg-1"],
      primarySubnetId: "sn-a",
      replicaSubnetIds: ["sn-b"],
    },
    "is",
  );
  await outside(
    "krcloud:dataquery:DataSource",
    { name: "found_shop", type: "MYSQL", instanceId: "found-db", username: "reporter", password: PASSWORD, description: "made by hand" },
    "ds",
  );
  await outside("krcloud:hadoop:Cluster", { name: "found-etl", ...smallCluster }, "hd");

  yamlDir = engine.sandbox.copyProgram(path.join(REPO_ROOT, "tests", "programs", "drift-import"));
  yamlStack = await engine.stack(yamlDir, "managed");
  await yamlStack.up({ color: "never" });
  importFile = path.join(engine.sandbox.root, "import.json");
  programDir = path.join(engine.sandbox.root, "generated", "adopted");
});

test("lists what no stack manages with the coverage per service, and writes the import file and the program; reads only", async () => {
  const before = await mutatingRequests(engine.cloud.controlUrl);
  const r = await runDrift(engine.sandbox, [
    "--cwd",
    yamlDir,
    "--stack",
    "managed",
    "--unmanaged",
    "--import-file",
    importFile,
    "--program-dir",
    programDir,
    "--format",
    "table",
    "--format",
    "json",
  ]);
  expect(await mutatingRequests(engine.cloud.controlUrl)).toEqual(before);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(2);
  const [table, json] = r.stdout.split(/\n(?=\{)/);
  process.stdout.write(table!);
  const report = JSON.parse(json!) as UnmanagedReport;
  const unmanaged = report.resources.filter((x) => !x.managed).map((x) => [x.token, x.name]);
  expect(unmanaged.sort()).toEqual(
    [
      ["krcloud:objectstorage:Bucket", expect.stringMatching(/^found-/)],
      ["krcloud:objectstorage:BucketCors", expect.stringMatching(/^found-/)],
      ["krcloud:objectstorage:BucketLifecycle", expect.stringMatching(/^found-/)],
      ["krcloud:cache:ParameterGroup", "found-params"],
      ["krcloud:cache:Cluster", "found-cluster"],
      ["krcloud:cache:InstanceSet", "found-queue"],
      ["krcloud:dataquery:DataSource", "found_shop"],
      ["krcloud:hadoop:Cluster", "found-etl"],
    ].sort(),
  );
  expect(table).toContain("objectstorage: 1 of 2 buckets managed; 0 of 1 object managed; 0 of 1 CORS policy managed; 0 of 1 lifecycle configuration managed");
  expect(table).toMatch(/cache: 0 of 1 cluster managed; 0 of 1 instance set managed; 0 of 1 custom parameter group managed/);
  expect(JSON.parse(fs.readFileSync(importFile, "utf8")).resources).toHaveLength(8);
  expect(fs.readdirSync(programDir).sort()).toEqual(["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json"]);
  const program = fs.readFileSync(path.join(programDir, "index.ts"), "utf8");
  expect(program).not.toContain(PASSWORD);
  // Protected as pulumi import protects: every adopted resource.
  expect(program.match(/^\}, \{ protect: true \}\);$/gm)).toHaveLength(8);
  // Installed the way the README installs the package: the registry does not have it.
  const pkg = JSON.parse(fs.readFileSync(path.join(programDir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  expect(pkg.dependencies["pulumi-krcloud"]).toBe(programDependencies().krcloud);
  expect(pkg.dependencies["pulumi-krcloud"]).toMatch(/^git\+https:\/\/github\.com\/krcloud\/pulumi-krcloud\.git#v\d+\.\d+\.\d+/);
  // What the cloud does not give back is named, for both ways in.
  expect(table).toContain("found_shop: the cloud does not give back instanceId, username, password: declare them in the generated code");
  expect(table).toContain("pulumi config set --secret foundShopPassword <value>");
  expect(table).toContain("pulumi config set foundShopInstanceId <value>");
});

test("pulumi import --file through the native plugin generates YAML that previews with no changes; nothing created or replaced", async () => {
  const inv = await inventory();
  const generated = path.join(engine.sandbox.root, "generated.yaml");
  await runPulumi(engine.sandbox, ["import", "--file", importFile, "--stack", "managed", "--yes", "--non-interactive", "--out", generated], yamlDir);
  const code = parseYaml(fs.readFileSync(generated, "utf8")) as {
    resources: Record<string, { properties?: Record<string, unknown>; options?: Record<string, unknown> }>;
  };
  process.stdout.write(fs.readFileSync(generated, "utf8"));
  const program = parseYaml(fs.readFileSync(path.join(yamlDir, "Pulumi.yaml"), "utf8")) as Record<string, any>;
  // What the data source API does not return is declared, as the discovery says.
  const shop = Object.values(code.resources).find((x) => x.properties?.name === "found_shop")!;
  Object.assign(shop.properties!, { instanceId: "found-db", username: "reporter", password: "${shopPassword}" });
  // pulumi-language-yaml 1.13 reads declared config from `configuration:`.
  program.configuration = { shopPassword: { type: "String", secret: true } };
  program.resources = { ...program.resources, ...code.resources };
  fs.writeFileSync(path.join(yamlDir, "Pulumi.yaml"), toYaml(program));
  await yamlStack.setConfig("shopPassword", { value: PASSWORD, secret: true });
  // The first up changes nothing: what the data source never shows back (write-only) stands as the
  // program declares it, and is recorded; nothing is sent to the cloud but reads.
  const mutating = await mutatingRequests(engine.cloud.controlUrl);
  const up = await yamlStack.up({ color: "never" });
  expect(up.summary.resourceChanges).toEqual({ same: 10 });
  expect(await mutatingRequests(engine.cloud.controlUrl)).toEqual(mutating);
  await yamlStack.preview({ color: "never", expectNoChanges: true });
  expect(await inventory()).toEqual(inv);
});

test("the TypeScript program adopts every resource: its preview names each adoption, up, then preview with no changes; destroy refuses (protected); nothing created, replaced or deleted", async () => {
  const inv = await inventory();
  const mutatingBefore = await mutatingRequests(engine.cloud.controlUrl);
  const dir = engine.sandbox.copyProgram(programDir, "adopted");
  const stack = await engine.stack(dir, "adopted", {
    "adopted:foundShopInstanceId": { value: "found-db" },
    "adopted:foundShopUsername": { value: "reporter" },
    "adopted:foundShopPassword": { value: PASSWORD, secret: true },
  });
  // The engine shows each as a create; the provider says beside it that up takes the existing one over.
  const preview = await stack.preview({ color: "never" });
  const adopted = (JSON.parse(fs.readFileSync(importFile, "utf8")) as { resources: { name: string }[] }).resources;
  expect(adopted).toHaveLength(8);
  for (const r of adopted)
    expect([r.name, preview.stdout.includes(`${r.name}: will be adopted (adopt: true): pulumi up takes over the existing`)]).toEqual([r.name, true]);
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  const ops = (await mutatingRequests(engine.cloud.controlUrl)).operations.slice(mutatingBefore.operations.length);
  expect(ops.filter((o) => /\.(Create|Delete)/.test(o))).toEqual([]);
  await stack.preview({ color: "never", expectNoChanges: true });
  // What existed before the program outlives a destroy of it.
  await expect(stack.destroy({ color: "never" })).rejects.toThrow(/protected/);
  expect(await inventory()).toEqual(inv);
});

test("after the import, nothing is left unmanaged", async () => {
  const r = await runDrift(engine.sandbox, ["--cwd", yamlDir, "--stack", "managed", "--unmanaged"]);
  expect(r.stdout).toContain("Every resource of the project is managed by the given stacks.");
  expect(r.code).toBe(0);
});

test("a stack without data query and Hadoop keys: those services are skipped with what to set, and the check is complete (exit 0)", async () => {
  const own = await newProject(engine.cloud, "skipped");
  const dir = engine.sandbox.copyProgram(path.join(REPO_ROOT, "tests", "programs", "drift-import"), "no-access-key");
  const { "krcloud:credentialId": _id, "krcloud:credentialSecret": _secret, ...tokenOnly } = providerConfig(own);
  const stack = await engine.sandbox.createStack(dir, "objects", tokenOnly);
  await stack.up({ color: "never" });
  const r = await runDrift(engine.sandbox, ["--cwd", dir, "--stack", "objects", "--unmanaged", "--program-dir", path.join(engine.sandbox.root, "none")]);
  process.stdout.write(r.stdout);
  expect(r.stderr).toBe("");
  expect(r.stdout).toContain("Every resource listed is managed by the given stacks (the services skipped below were not listed).");
  expect(r.stdout).toContain("  dataquery: skipped: no access key for dataquery: set krcloud:credentialId and krcloud:credentialSecret");
  expect(r.stdout).toContain("  hadoop: skipped: no access key for hadoop: set krcloud:credentialId and krcloud:credentialSecret");
  expect(r.stdout).not.toMatch(/: not listed|partial|needs:/);
  expect(r.code).toBe(0);
});
