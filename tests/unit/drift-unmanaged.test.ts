/**
 * What `krcloud-drift --unmanaged` writes and says, without an engine: the program adopting what it
 * found protects every resource (as `pulumi import` protects what it imports) and depends on
 * pulumi-krcloud the way the README installs it; a service the stack's settings give no endpoint
 * or credentials for is skipped (named with what to set), not a failure that makes the run partial;
 * no line announces a list that does not follow.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { resolveSettings, type Settings } from "../../client/core";
import { formatUnmanaged, installSpec, programDependencies, programNotes, type UnmanagedReport } from "../../drift/unmanaged/cli";
import { discover, listedTypes, plural, unconfigured, type CloudResource } from "../../drift/unmanaged/discover";
import { defineResource, listAll, type AnyDefinition, type Context, type ListRequest } from "../../provider/core/resource";
import { systemClock } from "../../client/core";
import { importFileOf, PROGRAM_TSCONFIG, typescriptProgram, type AdoptedResource } from "../../drift/unmanaged/generate";
import { allDefinitions } from "../../provider/registry";

const ROOT = path.join(__dirname, "..", "..", "..");
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  version: string;
  repository: { url: string };
  dependencies: Record<string, string>;
};

const bucket: CloudResource = {
  token: "krcloud:objectstorage:Bucket",
  id: "found-1",
  name: "found-1",
  service: "objectstorage",
  kind: "bucket",
  managed: false,
};
const hadoop: CloudResource = { token: "krcloud:hadoop:Cluster", id: "hd-1", name: "etl", service: "hadoop", kind: "cluster", managed: false };
const adopted = (r: CloudResource, inputs: Record<string, unknown>, adoptable = true): AdoptedResource => ({
  resource: r,
  logicalName: r.name,
  inputs,
  fromConfig: [],
  adoptable,
});

const local = (config: Record<string, string>): Settings => resolveSettings({}, (k) => config[k], {});
const FULL = { localCloudUrl: "http://127.0.0.1:1", projectId: "p1", authToken: "t", credentialId: "id", credentialSecret: "s" };

describe("the program that adopts what --unmanaged found", () => {
  const program = typescriptProgram([adopted(bucket, { name: "found-1", acl: { public: "deny" } }), adopted(hadoop, { name: "etl" }, false)], "adopted", {
    krcloud: "git+https://github.com/krcloud/pulumi-krcloud.git#v0.1.0",
    pulumi: "3.260.0",
  });
  const index = program.files["index.ts"]!;

  test("every adopted resource is protected, and the program says why", () => {
    expect(index).toContain('new krcloud.objectstorage.Bucket("found-1", {');
    expect(index).toMatch(/ {2}adopt: true,\n\}, \{ protect: true \}\);/);
    expect(index).toContain("as `pulumi import` protects what it imports");
    // Nothing comes from config here: no Config, and no import left unused.
    expect(index).not.toMatch(/import \* as pulumi|new pulumi\.Config/);
    // The type without an adopt input stays a comment, protected too once uncommented.
    expect(index).toContain('// new krcloud.hadoop.Cluster("etl", {');
    expect(index).toContain("// }, { protect: true });");
  });

  test("its package.json depends on pulumi-krcloud as given, approves its build, and asks for TypeScript 6", () => {
    const pkg = JSON.parse(program.files["package.json"]!) as Record<string, Record<string, unknown>>;
    expect(pkg.dependencies).toEqual({ "@pulumi/pulumi": "3.260.0", "pulumi-krcloud": "git+https://github.com/krcloud/pulumi-krcloud.git#v0.1.0" });
    expect(pkg.allowScripts).toEqual({ "git+https://github.com/krcloud/pulumi-krcloud.git": true });
    expect(pkg.devDependencies?.typescript).toBe("^6.0.3");
    expect(JSON.parse(program.files["tsconfig.json"]!)).toEqual(PROGRAM_TSCONFIG);
  });

  test("the package's own dependencies: its git repository at this version's tag (what the README installs), and its @pulumi/pulumi", () => {
    expect(programDependencies()).toEqual({ krcloud: `${PKG.repository.url}#v${PKG.version}`, pulumi: PKG.dependencies["@pulumi/pulumi"] });
    expect(installSpec({ version: "1.2.3", repository: { url: "git+https://example.com/x.git" } })).toBe("git+https://example.com/x.git#v1.2.3");
  });
});

describe("services the settings cannot reach are skipped", () => {
  test("no endpoint, no token, no access key, no project: each named with what to set", () => {
    expect(unconfigured(local(FULL), "dataquery")).toBeUndefined();
    expect(unconfigured(local({ ...FULL, credentialId: "" }), "dataquery")).toMatch(/^no access key for dataquery: set krcloud:credentialId/);
    expect(unconfigured(local({ ...FULL, credentialSecret: "" }), "hadoop")).toMatch(/^no access key for hadoop/);
    // A token comes from the access key too (the identity service issues it): with neither, none.
    expect(unconfigured(local({ ...FULL, authToken: "" }), "cache")).toBeUndefined();
    expect(unconfigured(local({ ...FULL, authToken: "", credentialId: "", credentialSecret: "" }), "cache")).toMatch(
      /^no credentials for cache: set one of .*krcloud:authToken/,
    );
    expect(unconfigured(local({ ...FULL, projectId: "" }), "objectstorage")).toBe("no project ID: set krcloud:projectId or KRCLOUD_PROJECT_ID");
    expect(unconfigured(local({ objectstorageEndpoint: "https://os.example", projectId: "p1", authToken: "t" }), "cache")).toMatch(
      /^no endpoint for the cache service: set krcloud:cacheEndpoint/,
    );
  });

  test("discover sends nothing for a skipped service and counts it as no error", async () => {
    // Nothing listens on the local cloud URL: a request would be an error, not a skip.
    const d = await discover(local({ localCloudUrl: "http://127.0.0.1:1", projectId: "p1" }), new Set());
    expect(d.errors).toEqual([]);
    expect(d.resources).toEqual([]);
    expect(d.skipped.map((s) => s.service).sort()).toEqual(["cache", "dataquery", "hadoop", "objectstorage"]);
  });
});

describe("the report", () => {
  const report = (over: Partial<UnmanagedReport>): UnmanagedReport => ({
    version: 1,
    stacks: [{ stack: "dev", resources: 2 }],
    projects: [{ projectId: "p1", region: "kr-central-2" }],
    resources: [{ ...bucket, managed: true }],
    coverage: [{ service: "objectstorage", kind: "bucket", managed: 1, total: 1 }],
    errors: [],
    skipped: [],
    exitCode: 0,
    ...over,
  });

  test("skipped services are listed with what to set, and the check is complete", () => {
    const text = formatUnmanaged(
      report({
        skipped: [
          { service: "dataquery", reason: "no access key for dataquery: set krcloud:credentialId and krcloud:credentialSecret" },
          { service: "hadoop", reason: "no access key for hadoop: set krcloud:credentialId and krcloud:credentialSecret" },
        ],
      }),
    );
    expect(text).toContain("Every resource listed is managed by the given stacks (the services skipped below were not listed).");
    expect(text).toContain("  dataquery: skipped: no access key for dataquery: set krcloud:credentialId and krcloud:credentialSecret\n");
    expect(text).toContain("  hadoop: skipped: no access key for hadoop");
    expect(text).not.toContain("partial");
    expect(text.trimEnd().split("\n").at(-1)).toBe("Exit 0: every resource listed is managed.");
  });

  test("what the stack needs is announced only when there is something to list", () => {
    const none = programNotes("adopted", { configKeys: [], leftOut: [] });
    expect(none).toEqual(["wrote a TypeScript program adopting them in adopted (each protected, as pulumi import protects what it imports)"]);
    const text = formatUnmanaged(report({ resources: [bucket], exitCode: 2 }), none);
    expect(text).not.toContain("needs:");
    expect(text).toMatch(/imports\)\n\nExit 2: unmanaged resources found\.\n$/);

    const some = programNotes("adopted", { configKeys: [{ key: "shopPassword", secret: true }], leftOut: ["etl (krcloud:hadoop:Cluster)"] });
    expect(some).toEqual([
      "wrote a TypeScript program adopting them in adopted (each protected, as pulumi import protects what it imports); its stack needs:",
      "  pulumi config set --secret shopPassword <value>",
      "left out of the program (no adopt input; use the import file):",
      "  etl (krcloud:hadoop:Cluster)",
    ]);
  });
});

describe("discovery is the types' own lists", () => {
  test("every listed type of the package, per service; a bucket's objects are counted on its line; KMS keeps nothing to list", () => {
    const listed = listedTypes().map((s) => [s.service, s.types.map((t) => [t.def.token, t.within.map((w) => w.token)])]);
    expect(listed).toEqual([
      [
        "objectstorage",
        [
          ["krcloud:objectstorage:Bucket", ["krcloud:objectstorage:BucketObject"]],
          ["krcloud:objectstorage:BucketCors", []],
          ["krcloud:objectstorage:BucketLifecycle", []],
        ],
      ],
      [
        "cache",
        [
          ["krcloud:cache:Cluster", []],
          ["krcloud:cache:InstanceSet", []],
          ["krcloud:cache:ParameterGroup", []],
        ],
      ],
      ["dataquery", [["krcloud:dataquery:DataSource", []]]],
      ["hadoop", [["krcloud:hadoop:Cluster", []]]],
    ]);
    expect([plural("CORS policy", 2), plural("custom parameter group", 0), plural("object", 1)]).toEqual([
      "CORS policies",
      "custom parameter groups",
      "object",
    ]);
  });

  test("listAll follows the continuation page after page, and refuses a filter the type does not take", async () => {
    const asked: ListRequest[] = [];
    const pages: Record<string, { items: { id: string; name: string }[]; continuation?: string }> = {
      start: { items: [{ id: "a", name: "a" }], continuation: "2" },
      "2": { items: [], continuation: "3" },
      "3": { items: [{ id: "b", name: "b" }] },
    };
    const def = defineResource("krcloud:test:Thing", undefined as never, undefined as never, {
      description: "",
      replaceOn: {},
      describe: (id) => id,
      create: () => Promise.reject(new Error("no")),
      read: () => Promise.resolve(undefined),
      update: () => Promise.reject(new Error("no")),
      delete: () => Promise.resolve(),
      list: {
        kind: ["thing", "things"],
        inputs: { group: "Only this group." },
        page: (_ctx, request) => (asked.push(request), Promise.resolve(pages[request.continuation ?? "start"]!)),
      },
    }) as AnyDefinition;
    const ctx: Context = { settings: local(FULL), progress: () => undefined, clock: systemClock };
    expect(await listAll(def, ctx, { group: "g" })).toEqual([
      { id: "a", name: "a" },
      { id: "b", name: "b" },
    ]);
    expect(asked.map((r) => [r.query, r.continuation])).toEqual([
      [{ group: "g" }, undefined],
      [{ group: "g" }, "2"],
      [{ group: "g" }, "3"],
    ]);
    await expect(listAll(def, ctx, { color: "red" })).rejects.toThrow("krcloud:test:Thing cannot be listed by color: it takes group");
  });
});

describe("logical names", () => {
  const found = (token: string, name: string): CloudResource => ({ token, id: name, name, service: "objectstorage", kind: "x", managed: false });

  test("a bucket's CORS policy and lifecycle configuration, named by their bucket, get their definitions' name suffix beside it", () => {
    const resources = [
      found("krcloud:objectstorage:Bucket", "site"),
      found("krcloud:objectstorage:BucketCors", "site"),
      found("krcloud:objectstorage:BucketLifecycle", "site"),
    ];
    expect(importFileOf(resources).resources.map((r) => r.name)).toEqual(["site", "site-cors", "site-lifecycle"]);
  });

  test("the suffixes come from the definitions (list.nameSuffix), and no two listed types share one", () => {
    const suffixes = allDefinitions().flatMap((d) => (d.list?.nameSuffix ? [[d.token, d.list.nameSuffix] as const] : []));
    expect(Object.fromEntries(suffixes)).toEqual({ "krcloud:objectstorage:BucketCors": "-cors", "krcloud:objectstorage:BucketLifecycle": "-lifecycle" });
    expect(new Set(suffixes.map(([, s]) => s)).size).toBe(suffixes.length);
  });
});
