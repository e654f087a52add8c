/**
 * Review class 3: the real `pulumi up` is SIGKILLed while creates wait on slow transitions (a cache
 * cluster, an instance set, a Hadoop cluster and a query run, held through the control API), then
 * the user runs `pulumi cancel` (a kill leaves the lock) and `pulumi up`: nothing may be orphaned
 * or made twice, and the query may not run a second time.
 *
 * Then Pulumi's commands for the pending operations a kill leaves, for the dynamic door (the
 * TypeScript classes) and the native plugin (YAML). What Pulumi 3.259 does with them, found here:
 *
 * - `pulumi up` after the kill warns about the pending creates and keeps them in state, even once
 *   it has taken the resources over; `pulumi refresh --clear-pending-creates` drops them.
 * - `pulumi refresh --import-pending-creates <urn> <id>` turns each named pending create into a
 *   pending import, which the refresh then drops without reading it: no request for the id reaches
 *   the provider (the local cloud's request log shows none), whichever door, and nothing is added
 *   to state. So it does what `--clear-pending-creates` does. The resource is not lost: its name is
 *   derived from the stack and the resource (deterministic), so the next `up` finds it and takes it
 *   over instead of creating a second one.
 */
import * as path from "node:path";
import { ENGINE_TEST_TIMEOUT_MS, installNativePlugin, providerConfig, REPO_ROOT, runPulumi } from "../harness/engine";
import { audit, controlCall, faultsBed, hold, projectBed, recorded, release, stackInventory, type Bed } from "../support/faults/reliability";
import { engineFile } from "../harness/engine/engine-file";
import { findings, killedUp, NONE } from "../support/faults/reliability-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "reliability-kill" });

/** The transitions the slow creates wait on. */
const SLOW = [
  ["cache", "node"],
  ["cache", "instance"],
  ["hadoop", "cluster"],
  ["data-query", "query"],
] as const;

/** `pulumi up` of the bed's stack, SIGKILLed once `ready` says the creates are under way. */
const killedUpWhen = (bed: Pick<Bed, "dir" | "stackName">, ready: () => Promise<boolean>) => killedUp(engine.sandbox, bed, "the creates are under way", ready);

/** Ids of the project's stack resources in the cloud, per inventory kind. */
async function cloudIds(bed: Pick<Bed, "cloud" | "project" | "resultBucket">): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const e of await stackInventory(bed)) {
    const [kind, id] = [e.slice(0, e.indexOf(":")), e.slice(e.indexOf(":") + 1)];
    (out[kind] ??= []).push(id);
  }
  return out;
}

describe("dynamic door: SIGKILL during four slow creates", () => {
  let bed: Bed;

  beforeAll(async () => {
    bed = await faultsBed(engine.cloud, engine.sandbox, "killall", { res: "cluster,iset,ds,query,hadoop" });
  });

  test("cancel, then up: what the killed run made is taken over, nothing is orphaned or made twice, the query ran once", async () => {
    for (const [service, kind] of SLOW) await hold(engine.cloud, service, kind);
    await killedUpWhen(bed, async () => {
      const kinds = Object.keys(await cloudIds(bed));
      return ["cache/cluster", "cache/instance-set", "hadoop/cluster"].every((k) => kinds.includes(k)) && (await bed.dq.listQueries({ size: 10 })).length > 0;
    });
    const made = await cloudIds(bed);
    const killed = await audit(bed);
    // Only the data source finished before the kill; the four slow creates are pending, outside state.
    expect(killed.entries.map((e) => e.logical)).toEqual(["ds"]);
    expect(killed.pending.map((p) => p.resource.urn.split("::").pop()).sort()).toEqual(["cluster", "hadoop", "iset", "query"]);
    // Made by the killed run, outside state (the query run carries a create key the pending operation recorded).
    expect(killed.orphans.map((o) => o.split(":")[0]).sort()).toEqual(["cache/cluster", "cache/instance-set", "cache/shard", "hadoop/cluster"]);
    for (const [service, kind] of SLOW) await release(engine.cloud, service, kind);

    await runPulumi(engine.sandbox, ["cancel", "--yes", "--stack", bed.stackName], bed.dir);
    const up = await bed.stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(up.stdout).toMatch(
      /cache cluster "cluster-[0-9a-f]{7}": it exists already, and it carries this stack's ownership marker \(made by an earlier attempt\); taking over cluster-/,
    );

    const after = await audit(bed);
    expect(findings(after)).toEqual(NONE);
    expect(await cloudIds(bed)).toEqual(made);
    expect(after.entries.map((e) => e.logical).sort()).toEqual(["cluster", "ds", "hadoop", "iset", "query"]);
    expect((await bed.dq.listQueries({ size: 10 })).map((q) => q.queryInfo.queryId)).toEqual([after.entries.find((e) => e.logical === "query")!.id]);
    // Pulumi keeps the pending creates after the up that took the resources over.
    expect(after.pending).toHaveLength(4);
  });

  test("refresh --clear-pending-creates then drops the stale pending creates; state and cloud stay as they are", async () => {
    await runPulumi(engine.sandbox, ["refresh", "--yes", "--non-interactive", "--skip-preview", "--clear-pending-creates", "--stack", bed.stackName], bed.dir);
    const after = await audit(bed);
    expect(after.pending).toEqual([]);
    expect(findings(after)).toEqual(NONE);
    expect(after.entries).toHaveLength(5);
    await bed.stack.preview({ expectNoChanges: true, color: "never" });
  });
});

/**
 * A kill during a cluster's create, then `refresh --import-pending-creates <urn> <id>` with the id
 * the killed run made; then `up`. Returns nothing: asserts as it goes.
 */
async function importPendingThenUp(bed: Bed, engineType: string): Promise<void> {
  await hold(engine.cloud, "cache", "node");
  await killedUpWhen(bed, async () => (await stackInventory(bed)).some((e) => e.startsWith("cache/cluster:")));
  await release(engine.cloud, "cache", "node");
  await runPulumi(engine.sandbox, ["cancel", "--yes", "--stack", bed.stackName], bed.dir);
  const [id] = (await cloudIds(bed))["cache/cluster"]!;
  const { pending } = recorded(await bed.stack.exportStack());
  expect(pending.map((p) => [p.type, p.resource.type])).toEqual([["creating", engineType]]);

  const seq = ((await controlCall(engine.cloud, "GET", "/requests")) as { lastSeq: number }).lastSeq;
  await runPulumi(
    engine.sandbox,
    [
      "refresh",
      "--yes",
      "--non-interactive",
      "--skip-preview",
      "--stack",
      bed.stackName,
      "--import-pending-creates",
      pending[0]!.resource.urn,
      "--import-pending-creates",
      id!,
    ],
    bed.dir,
  );
  const imported = recorded(await bed.stack.exportStack());
  expect(imported.pending).toEqual([]);
  // Pulumi dropped the pending create without asking the provider to read the id.
  expect(imported.entries).toEqual([]);
  const requests = ((await controlCall(engine.cloud, "GET", `/requests?since=${seq}`)) as { requests: { path: string }[] }).requests;
  expect(requests.filter((r) => r.path.includes(id!))).toEqual([]);

  const up = await bed.stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  // The dynamic door's progress lines reach the display; the native plugin's go to its stdout, which the engine does not show.
  if (!engineType.startsWith("krcloud:")) expect(up.stdout).toContain(`taking over ${id}`);
  const after = await audit(bed);
  expect(findings(after)).toEqual(NONE);
  expect(after.entries.map((e) => e.id)).toEqual([id]);
  expect((await cloudIds(bed))["cache/cluster"]).toEqual([id]);
  await bed.stack.preview({ expectNoChanges: true, color: "never" });
}

test("dynamic door: refresh --import-pending-creates drops the pending create unread; the next up takes the cluster over", async () => {
  const bed = await faultsBed(engine.cloud, engine.sandbox, "killimport", { res: "cluster" });
  await importPendingThenUp(bed, "pulumi-nodejs:dynamic/krcloud/cache:Cluster");
});

test("native door: refresh --import-pending-creates drops the pending create unread; the next up takes the cluster over", async () => {
  await installNativePlugin(engine.sandbox);
  const p = await projectBed(engine.cloud, "nativekill");
  const dir = engine.sandbox.copyProgram(path.join(REPO_ROOT, "tests", "programs", "faults-native"), "faults-native");
  const stack = await engine.sandbox.createStack(dir, "nativekill", providerConfig(p.project));
  await importPendingThenUp({ ...p, dir, stack, stackName: "nativekill", backendDir: engine.sandbox.backendDir }, "krcloud:cache:Cluster");
});
