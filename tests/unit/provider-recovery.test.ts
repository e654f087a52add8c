/**
 * Never lose track, never create twice (provider/core/recovery.ts, provider.ts): deterministic
 * names, and a create whose outcome is unknown or that meets an existing resource, against an
 * in-memory cloud whose create can apply and then lose its answer, fail before applying, or
 * conflict.
 */
import { z } from "zod";
import { apiErrorFor, TransportError, type Clock } from "../../sdk/core";
import { AUTONAMED_KEY, buildProvider, CREATE_KEY, SEED_KEY, type ResourceDefinition } from "../../provider/core";

type In = { name: string; size: number; zone: string; adopt: boolean };
type Out = In & { id: string };

type Fault = "lose-answer" | "drop" | "conflict" | "500-applied" | "500" | undefined;

/** A cloud of things named uniquely; `faults` are taken one per create request. */
class FakeCloud {
  readonly things = new Map<string, Out>();
  readonly faults: Fault[] = [];
  creates = 0;
  finds = 0;
  updates = 0;
  private next = 1;

  create(i: In): string {
    this.creates++;
    const fault = this.faults.shift();
    if (fault === "drop")
      throw new TransportError("creating thing: POST /things failed after 1 attempt(s): other side closed", "t", "Create", "UND_ERR_SOCKET", false);
    if (fault === "500") throw apiErrorFor({ service: "t", operation: "Create", method: "POST", path: "/things", status: 500 });
    if ([...this.things.values()].some((t) => t.name === i.name) || fault === "conflict")
      throw apiErrorFor({ service: "t", operation: "Create", method: "POST", path: "/things", status: 409 });
    const id = `thing-${this.next++}`;
    this.things.set(id, { ...i, id });
    if (fault === "lose-answer")
      throw new TransportError("creating thing: POST /things failed after 1 attempt(s): other side closed", "t", "Create", "UND_ERR_SOCKET", false);
    if (fault === "500-applied") throw apiErrorFor({ service: "t", operation: "Create", method: "POST", path: "/things", status: 500 });
    return id;
  }
}

function definition(cloud: FakeCloud): ResourceDefinition<In, Out> {
  const inputs = () =>
    z
      .object({
        name: z.string().min(4).max(30),
        size: z.number().int().min(1),
        zone: z.string().default("a"),
        adopt: z.boolean().default(false),
      })
      .strict();
  return {
    token: "krcloud:test:Thing",
    description: "test",
    inputs,
    outputs: () => inputs().extend({ id: z.string() }),
    replaceOn: ["name", "zone"],
    deleteBeforeReplace: true,
    localInputs: ["adopt"],
    autoName: { property: "name", minLength: 4, maxLength: 30, lowerCase: true },
    recovery: {
      async find(_ctx, i) {
        cloud.finds++;
        return [...cloud.things.values()].find((t) => t.name === i.name)?.id;
      },
    },
    describe: (id) => `thing "${id}"`,
    async create(_ctx, i) {
      const id = cloud.create(i);
      return { id, outs: cloud.things.get(id)! };
    },
    async read(_ctx, id, olds) {
      const t = cloud.things.get(id);
      return t ? { ...t, adopt: olds.adopt ?? false } : undefined;
    },
    async update(_ctx, id, _current, news) {
      cloud.updates++;
      const t = { ...cloud.things.get(id)!, size: news.size };
      cloud.things.set(id, t);
      return { ...t, adopt: news.adopt };
    },
    async delete(_ctx, id) {
      cloud.things.delete(id);
    },
  };
}

const PROVIDER = "stub-text";

/** Recovery's pauses between two looks take no time here. */
const clock: Clock = { now: () => Date.now(), random: () => 0.5, sleep: async () => undefined };
const provider = (def: ResourceDefinition<In, Out>) => buildProvider(def, { clock });
const SEED = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/krcloud/test:Thing::web";

/** One engine step: check (with the class's hidden keys) then create. */
async function up(p: ReturnType<typeof buildProvider>, args: Record<string, unknown>, seed = SEED) {
  const { inputs, failures } = await p.check({}, { ...args, __provider: PROVIDER, __logicalName: "web", [SEED_KEY]: seed });
  expect(failures ?? []).toEqual([]);
  return { inputs, created: await p.create(inputs) };
}

let progress: string[];
let write: typeof process.stdout.write;
beforeEach(() => {
  progress = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method
  write = process.stdout.write;
  process.stdout.write = (chunk: unknown) => {
    progress.push(String(chunk).trim());
    return true;
  };
});
afterEach(() => {
  process.stdout.write = write;
});

describe("deterministic names", () => {
  const p = provider(definition(new FakeCloud()));
  const check = (olds: Record<string, unknown>, news: Record<string, unknown>, seed = SEED) =>
    p.check(olds, { ...news, __provider: PROVIDER, __logicalName: "web", [SEED_KEY]: seed });

  test("the same resource of the same stack gets the same name on every attempt; another stack or resource another name", async () => {
    const a = await check({}, { size: 1 });
    const b = await check({}, { size: 2 });
    expect(a.inputs.name).toMatch(/^web-[0-9a-f]{7}$/);
    expect(b.inputs.name).toBe(a.inputs.name);
    expect(b.inputs[CREATE_KEY]).toBe(a.inputs[CREATE_KEY]);
    expect(a.inputs[AUTONAMED_KEY]).toBe(true);
    const other = await check({}, { size: 1 }, SEED.replace(":dev::", ":prod::"));
    expect(other.inputs.name).not.toBe(a.inputs.name);
    // The native plugin passes the URN itself.
    const native = await p.check({}, { size: 1, __provider: PROVIDER, __logicalName: "web" }, { urn: SEED });
    expect(native.inputs.name).toBe(a.inputs.name);
  });

  test("later runs keep the name; a replacement gets a new one, deterministic too", async () => {
    const first = await check({}, { size: 1 });
    const later = await check(first.inputs, { size: 5 });
    expect(later.inputs.name).toBe(first.inputs.name);
    expect(later.inputs[CREATE_KEY]).toBe(first.inputs[CREATE_KEY]);
    const replacing = await check(first.inputs, { size: 1, zone: "b" });
    expect(replacing.inputs.name).not.toBe(first.inputs.name);
    expect(replacing.inputs.name).toMatch(/^web-[0-9a-f]{7}$/);
    expect((await check(first.inputs, { size: 1, zone: "b" })).inputs.name).toBe(replacing.inputs.name);
    // An explicit name is the program's; nothing is marked as generated.
    const named = await check({}, { name: "mine-1", size: 1 });
    expect(named.inputs.name).toBe("mine-1");
    expect(named.inputs[AUTONAMED_KEY]).toBeUndefined();
  });

  test("the engine's second check of a replacement (no old inputs) keeps the replacement's name, never the old one's", async () => {
    const first = await check({}, { size: 1 });
    const replacing = await check(first.inputs, { size: 1, zone: "b" });
    // pulumi v3.259 checks a replacement again with no olds; created before the old one is deleted,
    // the old name would meet the resource about to be deleted.
    const again = await check({}, { size: 1, zone: "b" });
    expect(again.inputs.name).toBe(replacing.inputs.name);
    expect(again.inputs[CREATE_KEY]).toBe(replacing.inputs[CREATE_KEY]);
    expect(again.inputs.name).not.toBe(first.inputs.name);
    // Only that one check: the next first create of the same resource is named as before.
    expect((await check({}, { size: 1 })).inputs.name).toBe(first.inputs.name);
  });

  test("a replacement the engine decides alone (replaceOnChanges on an updatable input) gets a new name at its second check too", async () => {
    const first = await check({}, { size: 1 });
    const kept = await check(first.inputs, { size: 2 });
    expect(kept.inputs.name).toBe(first.inputs.name);
    const again = await check({}, { size: 2 });
    expect(again.inputs.name).toMatch(/^web-[0-9a-f]{7}$/);
    expect(again.inputs.name).not.toBe(first.inputs.name);
  });

  test("a replacement under a new name is created before the old one is deleted; under the same name, deleted first", async () => {
    const olds = { name: "web-1234567", size: 1, zone: "a", adopt: false, id: "x" };
    expect(await p.diff("x", olds, { ...olds, zone: "b", name: "web-7654321" })).toMatchObject({ replaces: ["name", "zone"], deleteBeforeReplace: false });
    expect(await p.diff("x", olds, { ...olds, zone: "b" })).toMatchObject({ replaces: ["zone"], deleteBeforeReplace: true });
    // No replace-on change, but the engine may replace it anyway (`pulumi up --replace`), keeping the name.
    expect(await p.diff("x", olds, { ...olds, size: 2 })).toMatchObject({ replaces: [], deleteBeforeReplace: true });
  });
});

describe("a create whose outcome is unknown", () => {
  test("applied, then its answer lost: what it made is found and taken over, never made twice", async () => {
    const cloud = new FakeCloud();
    cloud.faults.push("lose-answer");
    const { created } = await up(provider(definition(cloud)), { size: 3 });
    expect(cloud.things.size).toBe(1);
    expect(cloud.creates).toBe(1);
    expect(created.id).toBe("thing-1");
    expect(created.outs).toMatchObject({ size: 3 });
    expect(progress.join("\n")).toMatch(/the answer to the create request was lost; taking over thing-1/);
  });

  test("a 5xx after the server applied it: taken over too", async () => {
    const cloud = new FakeCloud();
    cloud.faults.push("500-applied");
    await up(provider(definition(cloud)), { size: 3 });
    expect(cloud.things.size).toBe(1);
    expect(cloud.creates).toBe(1);
  });

  test("not applied (the connection dropped first, a 500 before applying): sent again once nothing is found, one resource", async () => {
    for (const fault of ["drop", "500"] as const) {
      const cloud = new FakeCloud();
      cloud.faults.push(fault);
      const { created } = await up(provider(definition(cloud)), { size: 3 });
      expect([fault, cloud.things.size, cloud.creates]).toEqual([fault, 1, 2]);
      expect(created.id).toBe("thing-1");
    }
  });

  test("never settled: the error says the resource may exist and what the next up does; the next up takes over what appeared", async () => {
    const cloud = new FakeCloud();
    cloud.faults.push("drop", "drop", "drop");
    const p = provider(definition(cloud));
    const err = await up(p, { size: 3 }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      /the request may or may not have been applied .*It may exist: the next `pulumi up` looks for it first and takes it over/,
    );
    expect(cloud.creates).toBe(3);
    expect(cloud.things.size).toBe(0);
  });
});

describe("a create that meets an existing resource", () => {
  test("its own deterministic name (an interrupted earlier up made it): taken over, not refused, not duplicated", async () => {
    const cloud = new FakeCloud();
    const p = provider(definition(cloud));
    // The first up made it, then the CLI was killed before the engine recorded it.
    const first = await up(p, { size: 3 });
    const second = await up(provider(definition(cloud)), { size: 3 });
    expect(second.created.id).toBe(first.created.id);
    expect(cloud.things.size).toBe(1);
    expect(progress.join("\n")).toMatch(/it exists already, made by an earlier attempt; taking over thing-1/);
  });

  test("a name the program chose, existing without proof it is this stack's: refused with the exact adopt instruction", async () => {
    const cloud = new FakeCloud();
    cloud.things.set("thing-9", { name: "shared-name", size: 1, zone: "a", adopt: false, id: "thing-9" });
    const err = await up(provider(definition(cloud)), { name: "shared-name", size: 3 }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      /creating thing "shared-name": one already exists with this name \(thing-9\), and nothing shows that this stack made it\. .*set `adopt: true` on this resource/,
    );
    expect(cloud.things.get("thing-9")!.size).toBe(1);
  });

  test("adopt: taken over without a create request; a replace-on property that differs is refused before anything changes", async () => {
    const cloud = new FakeCloud();
    cloud.things.set("thing-9", { name: "shared-name", size: 1, zone: "a", adopt: false, id: "thing-9" });
    const { created } = await up(provider(definition(cloud)), { name: "shared-name", size: 3, adopt: true });
    expect(created.id).toBe("thing-9");
    expect(cloud.creates).toBe(0);
    expect(cloud.things.get("thing-9")!.size).toBe(3);
    const err = await up(provider(definition(cloud)), { name: "shared-name", size: 4, zone: "b", adopt: true }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/adopting thing "thing-9": zone is "a" there but "b" in the program/);
    expect(cloud.things.get("thing-9")!.size).toBe(3);
  });

  test("what is taken over and then fails to converge stays in state (id and properties for the engine)", async () => {
    const cloud = new FakeCloud();
    cloud.faults.push("lose-answer");
    const def = definition(cloud);
    const p = provider({
      ...def,
      async update() {
        throw new Error("waiting for thing: timed out");
      },
    });
    const err = (await up(p, { size: 3 }).catch((e: unknown) => e)) as Error & { id?: string; properties?: Record<string, unknown> };
    expect(err.id).toBe("thing-1");
    expect(err.properties).toMatchObject({ __provider: PROVIDER, name: expect.stringMatching(/^web-/) });
  });
});

describe("look first (a create without a unique name: a query run)", () => {
  test("what an earlier attempt made is found by its create key and taken over: no second create request", async () => {
    const cloud = new FakeCloud();
    const keys: unknown[] = [];
    const def = definition(cloud);
    const p = provider({
      ...def,
      recovery: {
        lookFirst: true,
        async find(ctx) {
          keys.push(ctx.createKey);
          return [...cloud.things.values()].find((t) => t.name === `run-${ctx.createKey}`)?.id;
        },
      },
      async create(ctx, i) {
        const id = cloud.create({ ...i, name: `run-${ctx.createKey}` });
        return { id, outs: cloud.things.get(id)! };
      },
    });
    const first = await up(p, { name: "abcd", size: 1 });
    const again = await up(p, { name: "abcd", size: 1 });
    expect(again.created.id).toBe(first.created.id);
    expect(cloud.creates).toBe(1);
    expect(keys[0]).toBe(first.inputs[CREATE_KEY]);
    expect(keys[1]).toBe(keys[0]);
  });
});

describe("configuration", () => {
  test("a missing endpoint or credential fails check (so preview), naming the setting, before any request", async () => {
    const { provider: runtimeProvider } = await import("../../provider/core/runtime");
    const saved = { ...process.env };
    for (const k of Object.keys(process.env)) if (k.startsWith("KRCLOUD_")) delete process.env[k];
    try {
      const p = runtimeProvider("krcloud:cache:ParameterGroup");
      const news = { baseParameterGroupId: "default.redis7.cluster", __provider: PROVIDER, __logicalName: "pg" };
      await expect(p.check({}, news)).rejects.toThrow(/no endpoint for the cache service: set krcloud:cacheEndpoint \(or KRCLOUD_CACHE_ENDPOINT\)/);
      process.env.KRCLOUD_LOCAL_CLOUD_URL = "http://127.0.0.1:9";
      // Every source of tokens is named, in the chain's order.
      await expect(p.check({}, news)).rejects.toThrow(
        /no credentials for cache: set one of krcloud:authToken \(a token, as a secret\), krcloud:tokenCommand \(a command that prints one\), or an access key: krcloud:credentialId and krcloud:credentialSecret \(as a secret\) with krcloud:identityEndpoint/,
      );
      process.env.KRCLOUD_AUTH_TOKEN = "tok";
      expect((await p.check({}, news)).failures ?? []).toEqual([]);
    } finally {
      for (const k of Object.keys(process.env)) if (k.startsWith("KRCLOUD_")) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });
});
