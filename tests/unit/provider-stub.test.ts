import { stubProvider } from "../../provider/core";
import { REGISTRY } from "../../provider/registry";
import { methodOf } from "../../provider/core/runtime";

// The same serializer pulumi.dynamic.Resource uses for `__provider`.
 
const { serializeFunction } = require("@pulumi/pulumi/runtime/closure/serializeClosure");

async function serializedProvider(token: string): Promise<string> {
  const provider = stubProvider(token);
  const sf = await serializeFunction(() => provider, { allowSecrets: true });
  return sf.text as string;
}

describe("serialized __provider", () => {
  const secret = "tok-very-secret-value-1234567890";
  let text: string;

  beforeAll(async () => {
    process.env.KRCLOUD_AUTH_TOKEN = secret;
    process.env.KRCLOUD_CREDENTIAL_SECRET = `${secret}-cs`;
    text = await serializedProvider("krcloud:objectstorage:Bucket");
  });
  afterAll(() => {
    delete process.env.KRCLOUD_AUTH_TOKEN;
    delete process.env.KRCLOUD_CREDENTIAL_SECRET;
  });

  test("is under 2 KB per resource, for every registered resource type", async () => {
    expect(Buffer.byteLength(text)).toBeLessThan(2048);
    for (const token of Object.keys(REGISTRY)) {
      expect([token, Buffer.byteLength(await serializedProvider(token)) < 2048]).toEqual([token, true]);
    }
  });

  test("requires the installed implementation by package name and names the resource type", () => {
    expect(text).toContain('require("pulumi-krcloud/runtime")');
    expect(text).toContain("krcloud:objectstorage:Bucket");
  });

  test("contains no credential and no copied SDK, zod or undici code", () => {
    expect(text).not.toContain(secret);
    for (const marker of ["X-Auth-Token", "x-auth-token", "undici", "zod", "Transport", "safeParse", "resolveSettings", "fast-xml-parser"]) {
      expect(text).not.toContain(marker);
    }
  });

  test("loads and forwards to the runtime when evaluated like the dynamic provider host does", async () => {
     
    const requireFromString = require("require-from-string");
    const provider = requireFromString(text).handler();
    expect(Object.keys(provider).sort()).toEqual(["check", "configure", "create", "delete", "diff", "read", "update"]);
    // configure(req) and create(props) share a function; so do check(olds, news) and read(id, props).
    expect(methodOf("configure|create", [{ config: { get: () => undefined } }])).toBe("configure");
    expect(methodOf("configure|create", [{ name: "a", __provider: "x" }])).toBe("create");
    expect(methodOf("check|read", [{}, { name: "a" }])).toBe("check");
    expect(methodOf("check|read", ["an-id", { name: "a" }])).toBe("read");
    // check runs the real implementation: a bad bucket name is rejected with its property path.
    const res = await provider.check({}, { name: "ab" });
    expect(res.failures?.[0]?.property).toBe("name");
  });
});
