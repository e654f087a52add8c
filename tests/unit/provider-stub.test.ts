import { stubProvider } from "../../provider/core";
import { allDefinitions } from "../../provider/registry";
import { methodOf } from "../../provider/runtime";

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

  test("is under 1 KB per resource, for every registered resource type", async () => {
    expect(Buffer.byteLength(text)).toBeLessThan(1024);
    for (const { token } of allDefinitions()) {
      expect([token, Buffer.byteLength(await serializedProvider(token)) < 1024]).toEqual([token, true]);
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
    // Each method, called as the dynamic provider host calls it, reaches the same method of the
    // runtime's provider (the seven share two functions; the arguments tell them apart).
    const token = "krcloud:objectstorage:Bucket";
    // The stub's require runs outside jest's module sandbox: the runtime it loads keeps its
    // providers on the process's real global object.
    const realGlobal = requireFromString("module.exports = globalThis");
    const built = (realGlobal[Symbol.for("krcloud.runtime.providers")] ??= new Map()) as Map<string, unknown>;
    const real = built.get(token);
    const reached: string[] = [];
    built.set(token, Object.fromEntries(["configure", "check", "diff", "create", "read", "update", "delete"].map((m) => [m, async () => reached.push(m)])));
    try {
      const props = { name: "a", __provider: "x" };
      await provider.configure({ config: { get: () => undefined } });
      await provider.create(props);
      await provider.check({}, props);
      await provider.read("an-id", props);
      await provider.update("an-id", props, props);
      await provider.diff("an-id", props, props);
      await provider.delete("an-id", props);
    } finally {
      if (real === undefined) built.delete(token);
      else built.set(token, real);
    }
    expect(reached).toEqual(["configure", "create", "check", "read", "update", "diff", "delete"]);
    // The labels of earlier stubs, still in the state of stacks created before, keep working.
    expect(methodOf("configure|create", [{ config: { get: () => undefined } }])).toBe("configure");
    expect(methodOf("configure|create", [{ name: "a", __provider: "x" }])).toBe("create");
    expect(methodOf("check|read", [{}, { name: "a" }])).toBe("check");
    expect(methodOf("check|read", ["an-id", { name: "a" }])).toBe("read");
    expect(methodOf("diff", ["an-id", {}, {}])).toBe("diff");
    // check runs the real implementation: a bad bucket name is rejected with its property path.
    const res = await provider.check({}, { name: "ab" });
    expect(res.failures?.[0]?.property).toBe("name");
  });
});
