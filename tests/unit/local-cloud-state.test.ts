import { ManagedState } from "../../local-cloud/core/managed-state";
import { VirtualClock, dayStart } from "../../local-cloud/core/clock";
import { FaultInjector } from "../../local-cloud/core/faults";
import { hasPermission } from "../../local-cloud/core/credentials";
import { ipAllowed, isIpOrCidr } from "../../local-cloud/core/ip";

function fakeClock(start = Date.UTC(2025, 0, 1, 12)): { now(): number; tick(ms: number): void } {
  let t = start;
  return { now: () => t, tick: (ms) => (t += ms) };
}

describe("ManagedState", () => {
  test("immediate: the create response already shows the target status", () => {
    const state = new ManagedState(fakeClock());
    expect(state.begin("cache", "cluster", "c1", "Creating", "Running")).toBe("Running");
    expect(state.read("cache", "cluster", "c1")).toBe("Running");
  });

  test("reads: N reads return the old status, read N+1 the new one", () => {
    const state = new ManagedState(fakeClock());
    state.setProgression("cache", "cluster", { mode: "reads", reads: 2 });
    expect(state.begin("cache", "cluster", "c1", "Creating", "Running")).toBe("Creating");
    expect(state.peek("cache", "cluster", "c1")).toBe("Creating");
    expect(state.read("cache", "cluster", "c1")).toBe("Creating");
    expect(state.peek("cache", "cluster", "c1")).toBe("Creating");
    expect(state.read("cache", "cluster", "c1")).toBe("Creating");
    expect(state.read("cache", "cluster", "c1")).toBe("Running");
    expect(state.read("cache", "cluster", "c1")).toBe("Running");
  });

  test("duration: the status changes once the clock passes start + ms, whether read or not", () => {
    const clock = fakeClock();
    const state = new ManagedState(clock);
    state.setProgression("cache", "cluster", { mode: "duration", ms: 5000 });
    expect(state.begin("cache", "cluster", "c1", "Creating", "Running")).toBe("Creating");
    clock.tick(4999);
    expect(state.read("cache", "cluster", "c1")).toBe("Creating");
    clock.tick(1);
    expect(state.peek("cache", "cluster", "c1")).toBe("Running");
  });

  test("a progression is captured when the transition begins; other kinds and defaults are separate", () => {
    const clock = fakeClock();
    const state = new ManagedState(clock);
    state.defineKind("cache", "instance-set", { mode: "reads", reads: 1 });
    state.setProgression("cache", "cluster", { mode: "duration", ms: 1000 });
    state.begin("cache", "cluster", "c1", "Creating", "Running");
    state.setProgression("cache", "cluster", { mode: "immediate" });
    expect(state.read("cache", "cluster", "c1")).toBe("Creating");
    expect(state.begin("cache", "cluster", "c2", "Creating", "Running")).toBe("Running");
    expect(state.begin("cache", "instance-set", "i1", "PROVISIONING", "Running")).toBe("PROVISIONING");
    expect(state.read("cache", "instance-set", "i1")).toBe("PROVISIONING");
    expect(state.read("cache", "instance-set", "i1")).toBe("Running");
    expect(state.progression("hadoop", "cluster")).toEqual({ mode: "immediate" });
  });

  test("set forces a status, remove forgets, snapshot/restore keeps pending transitions", () => {
    const clock = fakeClock();
    const state = new ManagedState(clock);
    state.setProgression("cache", "cluster", { mode: "reads", reads: 1 });
    state.begin("cache", "cluster", "c1", "Creating", "Running");
    state.set("cache", "cluster", "c2", "FAILED");
    const copy = new ManagedState(clock);
    copy.restore(state.snapshot());
    expect(copy.read("cache", "cluster", "c1")).toBe("Creating");
    expect(copy.read("cache", "cluster", "c1")).toBe("Running");
    expect(copy.read("cache", "cluster", "c2")).toBe("FAILED");
    expect(state.pendingTarget("cache", "cluster", "c1")).toBe("Running");
    state.remove("cache", "cluster", "c1");
    expect(state.read("cache", "cluster", "c1")).toBeUndefined();
  });

  test("invalid progressions are rejected", () => {
    const state = new ManagedState(fakeClock());
    expect(() => state.setProgression("s", "k", { mode: "reads", reads: -1 })).toThrow(RangeError);
    expect(() => state.setProgression("s", "k", { mode: "duration", ms: Number.NaN })).toThrow(RangeError);
  });
});

describe("VirtualClock", () => {
  test("adds a forward-only offset to its source", () => {
    const clock = new VirtualClock(() => 1000);
    clock.advance(500);
    expect(clock.now()).toBe(1500);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(dayStart(Date.UTC(2025, 4, 6, 23, 59))).toBe(Date.UTC(2025, 4, 6));
  });

  test("sleep(ms) ends when advances add up to ms, without waiting real time", async () => {
    const clock = new VirtualClock(() => 1000);
    let woke = false;
    const sleeping = clock.sleep(60_000).then(() => {
      woke = true;
    });
    clock.advance(59_999);
    await Promise.resolve();
    expect(woke).toBe(false);
    clock.advance(1);
    await sleeping;
    expect(woke).toBe(true);
    await clock.sleep(0);
  });
});

describe("FaultInjector", () => {
  test("matches on service, operation, method and path; times and probability are honoured", () => {
    const rolls = [0.9, 0.1];
    const faults = new FaultInjector(() => rolls.shift() ?? 0);
    const target = { service: "object-storage", operation: "PutObject", method: "PUT", path: "/v1/p/b/o" };
    const once = faults.add({ operation: "PutObject", method: "put", pathRegex: "^/v1/p/", times: 1, action: "error" });
    expect(faults.match({ ...target, operation: "GetObject" })).toBeUndefined();
    expect(faults.match(target)?.id).toBe(once.id);
    expect(faults.match(target)).toBeUndefined();
    faults.add({ service: "object-storage", probability: 0.5, action: "drop" });
    expect(faults.match(target)).toBeUndefined();
    expect(faults.match(target)?.action).toBe("drop");
    expect(faults.list().map((f) => [f.fired, f.remaining])).toEqual([
      [1, 0],
      [1, null],
    ]);
  });
});

describe("permissions and IP lists", () => {
  test("exact names, subtree wildcards and *", () => {
    const id = (permissions: string[]) => ({ projectId: "p", permissions, kind: "token" as const });
    expect(hasPermission(id(["*"]), "storage.buckets.get")).toBe(true);
    expect(hasPermission(id(["storage.buckets.*"]), "storage.buckets.delete")).toBe(true);
    expect(hasPermission(id(["storage.buckets.*"]), "storage.objects.get")).toBe(false);
    expect(hasPermission(id(["storage.buckets.get"]), "storage.buckets.getIamPolicy")).toBe(false);
  });

  test("IPv4/IPv6 addresses and CIDR ranges", () => {
    expect(isIpOrCidr("10.0.0.0/8")).toBe(true);
    expect(isIpOrCidr("2001:db8::/32")).toBe(true);
    expect(isIpOrCidr("10.0.0.0/33")).toBe(false);
    expect(isIpOrCidr("example.com")).toBe(false);
    expect(ipAllowed("::ffff:10.1.2.3", ["10.0.0.0/8"])).toBe(true);
    expect(ipAllowed("192.168.0.1", ["10.0.0.0/8", "2001:db8::1"])).toBe(false);
    expect(ipAllowed("2001:db8::1", ["2001:db8::1"])).toBe(true);
  });
});
