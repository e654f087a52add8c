/**
 * Never lose track, never create twice, never take over what another stack made
 * (provider/core/recovery.ts, identity.ts): deterministic names per stack, and a create whose
 * outcome is unknown or that meets an existing resource, against an in-memory cloud whose create
 * can apply and then lose its answer, fail before applying, or conflict. The definition marks what
 * it makes with its create key's ownership marker, as the real ones do (ownership.ts).
 */
import { z } from "zod";
import { apiErrorFor, TransportError, type Clock } from "../../client/core";
import { thingBasics, thingInputs } from "./operations/thing";
import { AUTONAMED_KEY, buildProvider, CREATE_KEY, markerOf, URN_KEY, STACK_KEY, UNKNOWN, type ResourceDefinition } from "../../provider/core";

type In = { name: string; size: number; zone: string; adopt: boolean };
type Out = In & { id: string };
/** A thing as the cloud keeps it: with the ownership marker its create request carried. */
type Thing = Out & { owner?: string };

type Fault = "lose-answer" | "drop" | "conflict" | "500-applied" | "500" | undefined;

/** A cloud of things named uniquely; `faults` are taken one per create request. */
class FakeCloud {
  readonly things = new Map<string, Thing>();
  readonly faults: Fault[] = [];
  creates = 0;
  finds = 0;
  updates = 0;
  private next = 1;

  create(i: In & { owner?: string }): string {
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
  const inputs = () => thingInputs(30, { zone: z.string().default("a") });
  return {
    ...thingBasics(30),
    inputs,
    outputs: () => inputs().extend({ id: z.string() }),
    replaceOn: { name: "a thing has no rename", zone: "a thing stays in its zone" },
    recovery: {
      async find(_ctx, i) {
        cloud.finds++;
        return [...cloud.things.values()].find((t) => t.name === i.name)?.id;
      },
      markerOf: async (_ctx, id) => cloud.things.get(id)?.owner,
    },
    async create(ctx, i) {
      const id = cloud.create({ ...i, owner: markerOf(ctx.createKey) });
      return { id, outs: outsOf(cloud.things.get(id)!) };
    },
    async read(_ctx, id, olds) {
      const t = cloud.things.get(id);
      return t ? { ...outsOf(t), adopt: olds.adopt ?? false } : undefined;
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

/** What read shows: never the marker (it is no output). */
function outsOf(t: Thing): Out {
  const { owner: _owner, ...outs } = t;
  return outs;
}

const PROVIDER = "stub-text";
/** The stack identities of two twin stacks: the same stack and project name, other backends. */
const STACK_A = "3c1f6a52-0d1e-4c55-9b0a-1f1f2a3b4c5d";
const STACK_B = "9e8d7c6b-5a49-4838-9726-150f0e0d0c0b";

/** Recovery's pauses between two looks take no time here. */
const clock: Clock = { now: () => Date.now(), random: () => 0.5, sleep: async () => undefined };
const provider = (def: ResourceDefinition<In, Out>) => buildProvider(def, { clock });
const URN = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/krcloud/test:Thing::web";

/** One engine step: check (with the class's hidden keys) then create. */
async function up(p: ReturnType<typeof buildProvider>, args: Record<string, unknown>, urn = URN, stack = STACK_A) {
  const { inputs, failures } = await p.check({}, { ...args, __provider: PROVIDER, __logicalName: "web", [URN_KEY]: urn, [STACK_KEY]: stack });
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
  const check = (olds: Record<string, unknown>, news: Record<string, unknown>, urn = URN) =>
    p.check(olds, { ...news, __provider: PROVIDER, __logicalName: "web", [URN_KEY]: urn });

  test("the same resource of the same stack gets the same name on every attempt; another stack or resource another name", async () => {
    const a = await check({}, { size: 1 });
    const b = await check({}, { size: 2 });
    expect(a.inputs.name).toMatch(/^web-[0-9a-f]{7}$/);
    expect(b.inputs.name).toBe(a.inputs.name);
    expect(b.inputs[CREATE_KEY]).toBe(a.inputs[CREATE_KEY]);
    expect(a.inputs[AUTONAMED_KEY]).toBe(true);
    const other = await check({}, { size: 1 }, URN.replace(":dev::", ":prod::"));
    expect(other.inputs.name).not.toBe(a.inputs.name);
    // The native plugin passes the URN itself.
    const native = await p.check({}, { size: 1, __provider: PROVIDER, __logicalName: "web" }, { urn: URN });
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
    expect(progress.join("\n")).toMatch(/the answer to the create request was lost, and it carries this stack's ownership marker .*; taking over thing-1/);
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
  test("made by an interrupted earlier up of this stack (it carries this stack's marker): taken over, not refused, not duplicated", async () => {
    for (const args of [{ size: 3 }, { name: "mine-1", size: 3 }]) {
      const cloud = new FakeCloud();
      // The first up made it, then the CLI was killed before the engine recorded it.
      const first = await up(provider(definition(cloud)), args);
      const second = await up(provider(definition(cloud)), args);
      expect(second.created.id).toBe(first.created.id);
      expect(cloud.things.size).toBe(1);
      expect(progress.join("\n")).toMatch(
        /it exists already, and it carries this stack's ownership marker \(made by an earlier attempt\); taking over thing-1/,
      );
    }
  });

  test("twin stacks (the same stack and project name in two backends): each its own generated name, never the other's resource", async () => {
    const cloud = new FakeCloud();
    const a = await up(provider(definition(cloud)), { size: 3 }, URN, STACK_A);
    const b = await up(provider(definition(cloud)), { size: 3 }, URN, STACK_B);
    expect(b.inputs.name).not.toBe(a.inputs.name);
    expect(b.created.id).not.toBe(a.created.id);
    expect(cloud.things.size).toBe(2);
    expect(cloud.things.get(a.created.id)!.owner).toBe(markerOf(a.inputs[CREATE_KEY] as string));
    expect(cloud.things.get(b.created.id)!.owner).toBe(markerOf(b.inputs[CREATE_KEY] as string));
  });

  test("a name the program chose that another stack holds: refused with the exact adopt instruction, with no fault and under any fault", async () => {
    for (const fault of [undefined, "conflict", "drop", "500"] as const) {
      const cloud = new FakeCloud();
      // The twin stack's resource, made first under the same URN.
      const theirs = await up(provider(definition(cloud)), { name: "shared-name", size: 1 }, URN, STACK_B);
      if (fault) cloud.faults.push(fault);
      const err = await up(provider(definition(cloud)), { name: "shared-name", size: 3 }, URN, STACK_A).catch((e: Error) => e);
      expect([fault, (err as Error).message]).toEqual([
        fault,
        expect.stringMatching(
          /creating thing "shared-name": one already exists with this name \(thing-1\), and it does not carry this stack's ownership marker, so another stack .*made it\. .*set `adopt: true` on this resource/,
        ),
      ]);
      expect(cloud.things.size).toBe(1);
      expect(cloud.things.get(theirs.created.id)!.size).toBe(1);
      expect(cloud.updates).toBe(0);
    }
  });

  test("one made outside Pulumi (no marker at all): refused too", async () => {
    const cloud = new FakeCloud();
    cloud.things.set("thing-9", { name: "shared-name", size: 1, zone: "a", adopt: false, id: "thing-9" });
    const err = await up(provider(definition(cloud)), { name: "shared-name", size: 3 }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/one already exists with this name \(thing-9\), and it does not carry this stack's ownership marker/);
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

describe("the stack's identity", () => {
  const p = provider(definition(new FakeCloud()));
  const check = (olds: Record<string, unknown>, news: Record<string, unknown>, stack: string) =>
    p.check(olds, { ...news, __provider: PROVIDER, __logicalName: "web", [URN_KEY]: URN, [STACK_KEY]: stack });

  test("unknown in the preview of a new stack: a new resource's generated name and create key are unknown, an existing one's kept", async () => {
    const preview = await check({}, { size: 1 }, UNKNOWN);
    expect(preview.failures ?? []).toEqual([]);
    expect(preview.inputs.name).toBe(UNKNOWN);
    expect(preview.inputs[CREATE_KEY]).toBe(UNKNOWN);
    const made = await check({}, { size: 1 }, STACK_A);
    // A stack made by an earlier version gets its identity now: what exists keeps its name and key.
    const existing = await check(made.inputs, { size: 2 }, UNKNOWN);
    expect(existing.inputs.name).toBe(made.inputs.name);
    expect(existing.inputs[CREATE_KEY]).toBe(made.inputs[CREATE_KEY]);
  });

  test("the native plugin's provider id serves as the identity: the same names as the dynamic door's for the same identity", async () => {
    const dynamic = await check({}, { size: 1 }, STACK_A);
    const native = await p.check({}, { size: 1, __provider: PROVIDER, __logicalName: "web" }, { urn: URN, stack: STACK_A });
    expect(native.inputs.name).toBe(dynamic.inputs.name);
    expect(native.inputs[CREATE_KEY]).toBe(dynamic.inputs[CREATE_KEY]);
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
    const { provider: runtimeProvider } = await import("../../provider/runtime");
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

describe("deletes and update steps whose outcome is unknown", () => {
  const lost = () =>
    new TransportError("deleting thing: DELETE /things/x failed after 5 attempt(s): other side closed", "t", "Delete", "UND_ERR_SOCKET", false);

  test("a delete whose every answer was lost, though the first one deleted it, is settled by one read: deleted", async () => {
    const cloud = new FakeCloud();
    const def = definition(cloud);
    const p = provider({
      ...def,
      async delete(_ctx, id) {
        cloud.things.delete(id);
        throw lost();
      },
    });
    const { created } = await up(p, { size: 1 });
    await expect(p.delete(created.id, created.outs)).resolves.toBeUndefined();
    expect(cloud.things.size).toBe(0);
    expect(progress.join("\n")).toMatch(/the answer to the delete request was lost, and it is gone: deleted/);
  });

  test("a delete whose answer was lost and that left the resource there fails saying it may not have been applied", async () => {
    const cloud = new FakeCloud();
    const p = provider({
      ...definition(cloud),
      async delete() {
        throw lost();
      },
    });
    const { created } = await up(p, { size: 1 });
    const err = (await p.delete(created.id, created.outs).catch((e: Error) => e)) as Error;
    expect(err.message).toMatch(
      /The delete request may or may not have been applied \(it is still there, so it may not have been applied\): run `pulumi destroy`/,
    );
    expect(cloud.things.size).toBe(1);
  });

  test("an update step whose answer was lost says the change may have been applied and that the next up reads the cloud first", async () => {
    const cloud = new FakeCloud();
    const def = definition(cloud);
    const p = provider({
      ...def,
      async update() {
        throw new TransportError(
          "adding a replica: POST /things/x/replicas failed after 1 attempt(s): other side closed",
          "t",
          "AddReplica",
          "UND_ERR_SOCKET",
          false,
        );
      },
    });
    const { inputs, created } = await up(p, { size: 1 });
    const checked = await p.check(inputs, { ...inputs, size: 2 });
    const err = (await p.update(created.id, created.outs, checked.inputs).catch((e: Error) => e)) as Error;
    expect(err.message).toMatch(/other side closed.*The change may have been applied before the answer was lost: the next `pulumi up` reads the resource/);
  });

  test("the create key is kept in the outputs and in what a read returns, so a refresh never makes the resource forget it", async () => {
    const cloud = new FakeCloud();
    const p = provider(definition(cloud));
    const { inputs, created } = await up(p, { size: 1 });
    expect(created.outs[CREATE_KEY]).toBe(inputs[CREATE_KEY]);
    const read = await p.read(created.id, created.outs);
    expect(read.props?.[CREATE_KEY]).toBe(inputs[CREATE_KEY]);
    expect(read.inputs?.[CREATE_KEY]).toBe(inputs[CREATE_KEY]);
    // The next check, from the refreshed inputs, keeps the key (and the name derived from it).
    const next = await p.check(read.inputs, { size: 2, __provider: PROVIDER, __logicalName: "web", [URN_KEY]: URN, [STACK_KEY]: STACK_A });
    expect(next.inputs[CREATE_KEY]).toBe(inputs[CREATE_KEY]);
  });
});
