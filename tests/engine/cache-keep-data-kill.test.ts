/**
 * A replacement that keeps the data (`dataOnReplace: keep`), the real `pulumi up` SIGKILLed at each
 * of its steps, then `pulumi cancel` (a kill leaves the lock) and `pulumi up`, as a user recovers
 * (tests/engine/reliability-kill.test.ts does the same for plain creates). On the local cloud's real
 * redis-server nodes, with the TypeScript classes:
 *
 * - the backup taken, the create waiting for it (a generated name);
 * - the old cluster deleted (the same name), the restore request in flight;
 * - the restored cluster made, the create waiting for its nodes (the same name);
 * - the replacement recorded, the engine's delete of the old cluster in flight (a generated name).
 *
 * After the `up`: every key there with the checksum it had, the local cloud holding exactly what
 * the state names (0 orphans, 0 duplicates, nothing lost), and, once the pending operations a kill
 * leaves are cleared, a preview with no change.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { cacheClient, contents, expectedChecksum, writeKeys } from "../harness/cache-data";
import { ENGINE_TEST_TIMEOUT_MS, runPulumi, stateResources } from "../harness/engine";
import { engineFile, jsProgram } from "../harness/engine/engine-file";
import { killedUp } from "../support/faults/reliability-steps";

// Each cell is an up killed mid-replacement, a cancel and an up that finishes it, with 100,000 keys checked: twice an engine test's usual time under load.
jest.setTimeout(2 * ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "cache-keep-data-kill", project: "keepkill" });
const KEYS = 2_000;

/** A one-shard cluster keeping its data; `name` from config when the cell keeps the name. */
const PROGRAM = jsProgram(
  "keep-kill",
  [
    "const c = new pulumi.Config();",
    'const version = c.require("version");',
    'const group = version.startsWith("7.2") ? "7.2" : "7.0";',
    'const sessions = new krcloud.cache.Cluster("sessions", { name: c.get("name"), version, flavorId: "redis.small",',
    '  parameterGroupId: `default.redis${group}.cluster`, subnetIds: ["sn-a"], securityGroupIds: ["sg-1"],',
    '  shards: [{ primarySubnetId: "sn-a", replicaSubnetIds: [] }], dataOnReplace: "keep" });',
    "exports.endpoint = sessions.primaryEndpoint;",
    "exports.id = sessions.id;",
  ],
  { pulumi: true },
);

interface Cell {
  step: string;
  /** The explicit name the program keeps, or none (a generated one: a new name on replacement). */
  name?: string;
  /** What holds the run at the step (before the kill), and what lets it go (after). */
  arrange: () => Promise<void>;
  /** The run is at the step: kill it now. */
  ready: (oldId: string) => Promise<boolean>;
  release: () => Promise<void>;
}

const control = () => engine.project.control;
const inventoryOf = async (kind: string) => (await engine.inventory()).filter((e) => e.service === "cache" && e.kind === kind).map((e) => e.id);
/** Held an hour on the local cloud's clock; released by moving the clock past it. */
const hold = (kind: string) => control().setTransition({ service: "cache", kind, mode: "duration", ms: 3_600_000 });
async function releaseAll(): Promise<void> {
  for (const f of await control().faults()) await control().removeFault(f.id);
  for (const kind of ["backup", "node", "cluster"]) await control().setTransition({ service: "cache", kind, mode: "immediate" });
  // Held transitions end, and a request a latency fault holds is served (its answer goes to the killed CLI).
  await fetch(`${engine.cloud.controlUrl}/clock/advance`, {
    method: "POST",
    body: JSON.stringify({ ms: 7_200_000 }),
    headers: { "content-type": "application/json" },
  });
}
/** The request `operation` is held (ten minutes on the local cloud's clock) once it is sent. */
const delayed = async (operation: string) => {
  await control().addFault({ service: "cache", operation, action: "latency", latencyMs: 600_000, times: 1 });
};
const firedOnce = async () => (await control().faults()).some((f) => f.fired === 1);

const CELLS: Cell[] = [
  {
    step: "the backup taken, waiting for it (a new name)",
    arrange: () => hold("backup"),
    ready: async () => (await inventoryOf("backup")).length === 1,
    release: releaseAll,
  },
  {
    step: "the old cluster deleted, the restore request in flight (the same name)",
    name: "kill-restore",
    arrange: () => delayed("CreateCluster"),
    ready: async (oldId) => !(await inventoryOf("cluster")).includes(oldId) && (await firedOnce()),
    release: releaseAll,
  },
  {
    step: "the restored cluster made, waiting for its nodes (the same name)",
    name: "kill-nodes",
    arrange: () => hold("node"),
    ready: async (oldId) => (await inventoryOf("cluster")).some((id) => id !== oldId),
    release: releaseAll,
  },
  {
    step: "the replacement recorded, the engine deleting the old cluster (a new name)",
    arrange: () => delayed("DeleteCluster"),
    ready: firedOnce,
    release: releaseAll,
  },
];

/** The clusters the state holds and the backups their replacements took, as inventory entries. */
async function expectedFrom(stack: Stack): Promise<string[]> {
  const out: string[] = [];
  for (const r of stateResources(await stack.exportStack())) {
    if (!r.type.endsWith("cache:Cluster") || r.id === undefined) continue;
    out.push(`cluster:${r.id}`);
    const b = (r.outputs as { replacementBackup?: { id?: string } } | undefined)?.replacementBackup;
    if (b?.id) out.push(`backup:${b.id}`);
  }
  return out.sort();
}

test.each(CELLS.map((c) => [c.step, c] as const))("killed at %s: cancel, up: every key kept, 0 orphans, 0 duplicates", async (_step, cell) => {
  const stackName = `kill-${CELLS.indexOf(cell)}`;
  const dir = engine.program(stackName, PROGRAM);
  const stack = await engine.stack(dir, stackName);
  await stack.setAllConfig({ version: { value: "7.0.15" }, ...(cell.name ? { name: { value: cell.name } } : {}) });
  const first = await stack.up({ color: "never" });
  const oldId = String(first.outputs.id!.value);
  const c = cacheClient(String(first.outputs.endpoint!.value), true);
  await writeKeys(c, KEYS);
  c.disconnect();

  await stack.setConfig("version", { value: "7.2.4" });
  await cell.arrange();
  await killedUp(engine.sandbox, { dir, stackName }, cell.step, () => cell.ready(oldId));
  await cell.release();

  await runPulumi(engine.sandbox, ["cancel", "--yes", "--stack", stackName], dir);
  const up = await stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  expect(String(up.outputs.id!.value)).not.toBe(oldId);
  const after = cacheClient(String(up.outputs.endpoint!.value), true);
  try {
    expect(await contents(after)).toMatchObject({ keys: KEYS, checksum: expectedChecksum(KEYS) });
  } finally {
    after.disconnect();
  }
  const cloud = (await engine.inventory()).filter((e) => e.service === "cache").map((e) => `${e.kind}:${e.id}`);
  expect(cloud.sort()).toEqual(await expectedFrom(stack));

  // A kill leaves pending operations in state (reliability-kill.test.ts): cleared, nothing else changes.
  await runPulumi(engine.sandbox, ["refresh", "--yes", "--non-interactive", "--skip-preview", "--clear-pending-creates", "--stack", stackName], dir);
  await stack.preview({ color: "never", expectNoChanges: true });
  await engine.destroyLeavesNothing(stack);
});
