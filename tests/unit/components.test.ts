/**
 * The components' own logic (provider/core/component.ts and the two definitions): validation
 * messages that name the property and the rule, the defaults the StaticSite layout records, and the
 * children a CacheWithParameters declares from a plain parameter map (through Pulumi's mocks: no
 * engine, no cloud).
 */
import * as pulumi from "@pulumi/pulumi";
import { parseComponentInputs } from "../../provider/core/component";
import { allComponents } from "../../provider/registry";
import { siteLayout, staticSite } from "../../provider/objectstorage/static-site";
import { cacheWithParameters } from "../../provider/cache/cache-with-parameters";
import { cluster } from "../../provider/cache/cluster";
import { parameterGroup } from "../../provider/cache/parameter-group";
import { treeForFile } from "../support/files";

let site: string;
treeForFile("krcloud-site-", { "index.html": "<h1>hi</h1>\n", "404.html": "<h1>no</h1>\n" }, (d) => (site = d));

const siteError = (args: object): string => {
  try {
    parseComponentInputs(staticSite, "www", args);
  } catch (e) {
    return (e as Error).message;
  }
  return "";
};

describe("StaticSite", () => {
  test("the layout records every default: public read from anywhere, GET from any https origin, logs/ expired after 30 days and left out of the folder, objects that are no file of the site kept", () => {
    const inputs = parseComponentInputs(staticSite, "www", { path: site });
    expect(siteLayout(inputs, "www-1234")).toEqual({
      bucketName: "www-1234",
      publicRead: "read-only",
      publicReadAllowIpList: [],
      corsRules: [{ allowedOrigins: ["https://*"], allowedMethods: ["GET"], maxAgeSeconds: 3600 }],
      logPrefix: "logs/",
      logExpirationDays: 30,
      prefix: "",
      exclude: ["logs/**"],
      indexDocument: "index.html",
      forceDestroy: true,
      deleteExtraObjects: false,
    });
  });

  test("what the program sets is what the layout records", () => {
    const chosen = {
      prefix: "v2/",
      errorDocument: "404.html",
      publicReadAllowIpList: ["10.0.0.0/8"],
      logPrefix: "access/",
      logExpirationDays: 7,
      forceDestroy: false,
    };
    const inputs = parseComponentInputs(staticSite, "www", { path: site, ...chosen });
    // The logs are outside the site's prefix: nothing to leave out of the folder for them.
    expect(siteLayout(inputs, "b")).toMatchObject({ ...chosen, exclude: [] });
  });

  test.each([
    [{ path: "/nonexistent-krcloud-folder" }, 'path: "/nonexistent-krcloud-folder" is not a folder'],
    [{ indexDocument: "home.html" }, 'indexDocument: "home.html" is not a file of the folder'],
    [{ errorDocument: "missing.html" }, 'errorDocument: "missing.html" is not a file of the folder'],
    [{ publicReadAllowIpList: ["10.0.0.300"] }, "publicReadAllowIpList[0]: must be an IP address or CIDR range"],
    [{ prefix: "logs/site/" }, 'prefix: must not be under logPrefix "logs/": the lifecycle rule would expire the site'],
    [{ logExpirationDays: 0 }, "logExpirationDays: must be greater than 0"],
    [{ corsRules: [] }, "corsRules: at least one rule is required"],
    [{ corsRules: [{ allowedOrigins: ["example.com"], allowedMethods: ["GET"] }] }, "corsRules[0].allowedOrigins[0]: origins must include the protocol"],
    [{ colour: "blue" }, 'Unrecognized key: "colour"'],
  ])("%j is refused: %s", (args, message) => {
    const error = siteError({ path: site, ...args });
    expect(error).toContain('StaticSite "www": invalid inputs: ');
    expect(error).toContain(message);
  });
});

describe("CacheWithParameters", () => {
  const clusterArgs = {
    version: "7.0.15",
    flavorId: "redis.small",
    subnetIds: ["sn-a"],
    securityGroupIds: ["sg-a"],
    shards: [{ primarySubnetId: "sn-a" }],
  };

  test.each([
    [{}, "cluster: set exactly one of cluster and instanceSet"],
    [
      { cluster: clusterArgs, instanceSet: { ...clusterArgs, shards: undefined, primarySubnetId: "sn-a" } },
      "cluster: set exactly one of cluster and instanceSet",
    ],
    [{ cluster: { ...clusterArgs, parameterGroupId: "g" } }, 'Unrecognized key: "parameterGroupId"'],
    [{ cluster: clusterArgs, parameters: { "": "1" } }, "parameters.: parameter names must not be empty"],
    [{ cluster: clusterArgs, baseParameterGroupId: "" }, "baseParameterGroupId: "],
  ])("%j is refused: %s", (args, message) => {
    expect(() => parseComponentInputs(cacheWithParameters, "c", { baseParameterGroupId: "default.redis7.0.cluster", ...args })).toThrow(message);
  });

  test("an input sent as null (the generated SDKs send every declared input of a remote component) counts as not set", () => {
    const inputs = parseComponentInputs(cacheWithParameters, "c", {
      baseParameterGroupId: "default.redis7.0.cluster",
      cluster: clusterArgs,
      instanceSet: null,
      parameterGroupName: null,
    });
    expect(inputs.cluster).toMatchObject(clusterArgs);
    expect([inputs.instanceSet, inputs.parameterGroupName]).toEqual([undefined, undefined]);
  });

  test("a parameter change is an update of the group: neither the group's parameters nor the cache's group id replace", () => {
    expect(Object.keys(parameterGroup.replaceOn)).not.toContain("parameters");
    expect(Object.keys(cluster.replaceOn)).not.toContain("parameterGroupId");
  });

  test("the parameter map becomes the group's parameters, and the cache points at the group by id", async () => {
    const registered: { type: string; name: string; inputs: Record<string, unknown> }[] = [];
    await pulumi.runtime.setMocks(
      {
        newResource: (a) => {
          registered.push({ type: a.type, name: a.name, inputs: a.inputs });
          return { id: `${a.name}-id`, state: { ...a.inputs, syncStatus: "In-Sync", primaryEndpoint: "cache.local:6379" } };
        },
        call: () => ({}),
      },
      "project",
      "stack",
      false,
    );
    const { CacheWithParameters } = await import("../../provider/cache/cache-with-parameters");
    const c = new CacheWithParameters("sessions", {
      baseParameterGroupId: "default.redis7.0.cluster",
      parameters: { "maxmemory-policy": "allkeys-lru", timeout: "300" },
      // The cache's own options pass through, the data-keeping replacement's among them (issue 35).
      cluster: { ...clusterArgs, dataOnReplace: "keep" },
    });
    const outs = await new Promise<unknown[]>((resolve) =>
      pulumi.all([c.kind, c.parameterGroupId, c.parameters, c.syncStatus, c.primaryEndpoint]).apply((v) => resolve(v)),
    );
    expect(outs).toEqual(["cluster", "sessions-params-id", { "maxmemory-policy": "allkeys-lru", timeout: "300" }, "In-Sync", "cache.local:6379"]);
    const byType = (t: string) => registered.filter((r) => r.type.endsWith(t));
    expect(byType(":ParameterGroup").map((r) => [r.name, r.inputs.parameters, r.inputs.baseParameterGroupId])).toEqual([
      ["sessions-params", { "maxmemory-policy": "allkeys-lru", timeout: "300" }, "default.redis7.0.cluster"],
    ]);
    expect(byType(":Cluster").map((r) => [r.name, r.inputs.parameterGroupId, r.inputs.flavorId, r.inputs.dataOnReplace])).toEqual([
      ["sessions", "sessions-params-id", "redis.small", "keep"],
    ]);
    expect(byType(":InstanceSet")).toEqual([]);
  });
});

test("the registry lists both components", () => {
  expect(
    allComponents()
      .map((c) => c.token)
      .sort(),
  ).toEqual(["krcloud:cache:CacheWithParameters", "krcloud:objectstorage:StaticSite"]);
});
