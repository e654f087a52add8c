/**
 * Ownership through the real Pulumi CLI, on both doors:
 *
 * - Twin stacks: stack `dev` of the same program from two backends (two sandboxes), against one
 *   cloud project. Auto-names come from the URN, which names neither backend; what tells the two
 *   apart is the stack's identity (the id of the dynamic classes' krcloud-stack provider
 *   resource, the native plugin's provider id). Both `up`s succeed, each makes its own resources, and each `destroy`
 *   deletes only its own.
 * - A `pulumi up` killed during a shard scale-out (1 → 2 shards), then `pulumi cancel` and `up`:
 *   the shard the killed run added is recognised (the step is recorded in the cluster's
 *   description) and managed; no third shard, no orphan.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalCloud } from "../../local-cloud";
import { ENGINE_TEST_TIMEOUT_MS, installNativePlugin, providerConfig, REPO_ROOT, runPulumi, Sandbox, startCloud } from "../harness/engine";
import { audit, controlCall, FAULTS_PROGRAM, hold, NS, projectBed, release, stackInventory, type Bed } from "../support/faults/reliability";
import { findings, killedUp, NONE } from "../support/faults/reliability-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const NATIVE_PROGRAM = path.join(REPO_ROOT, "tests", "programs", "ownership-native");

let cloud: LocalCloud;
const sandboxes: Sandbox[] = [];

beforeAll(async () => {
  cloud = await startCloud();
});

afterAll(async () => {
  await cloud?.close();
  for (const s of sandboxes) s.cleanup();
});

function sandbox(label: string): Sandbox {
  const s = new Sandbox({ label });
  sandboxes.push(s);
  return s;
}

type Door = "dynamic" | "native";

/** Stack `dev` of the door's program in `sb`'s backend, against the project of `p`. */
async function devStack(door: Door, sb: Sandbox, p: Awaited<ReturnType<typeof projectBed>>, config: Record<string, string>): Promise<Bed> {
  if (door === "native") await installNativePlugin(sb);
  const dir = sb.copyProgram(door === "native" ? NATIVE_PROGRAM : FAULTS_PROGRAM, `${door}-dev`);
  const program = { keyId: p.keyId, instanceId: p.instanceId, resultBucket: p.resultBucket, ...config };
  const stack = await sb.createStack(
    dir,
    "dev",
    providerConfig(p.project, Object.fromEntries(Object.entries(program).map(([k, v]) => [`${NS}:${k}`, { value: v }]))),
  );
  return { ...p, dir, stack, stackName: "dev", backendDir: sb.backendDir };
}

/** The cloud ids a stack's state records. */
async function ids(bed: Bed): Promise<string[]> {
  return (await audit(bed)).entries.map((e) => e.id).sort();
}

describe.each<Door>(["dynamic", "native"])("%s door", (door) => {
  test("twin stacks (stack dev of one program in two backends): both ups succeed, each makes its own, each destroy deletes only its own", async () => {
    const p = await projectBed(cloud, `twin${door}`);
    const a = await devStack(door, sandbox(`twin-a-${door}`), p, { res: "bucket,object,cluster,ds" });
    const b = await devStack(door, sandbox(`twin-b-${door}`), p, { res: "bucket,object,cluster,ds" });

    expect((await a.stack.up({ color: "never" })).summary.result).toBe("succeeded");
    const upB = await b.stack.up({ color: "never" });
    expect(upB.summary.result).toBe("succeeded");
    expect(upB.stdout).not.toMatch(/taking over/);
    const [mineA, mineB] = [await ids(a), await ids(b)];
    expect(mineA).toHaveLength(4);
    expect(mineB).toHaveLength(4);
    expect(mineA.filter((id) => mineB.includes(id))).toEqual([]);
    // Everything in the project is one stack's or the other's: what one stack's state lacks is the other's.
    const theirs = (of: string[]) => (o: string) => of.some((id) => o.includes(id));
    expect((await audit(a)).orphans.filter((o) => !theirs(mineB)(o))).toEqual([]);
    expect((await audit(b)).orphans.filter((o) => !theirs(mineA)(o))).toEqual([]);
    expect((await audit(a)).ghosts).toEqual([]);
    await b.stack.preview({ expectNoChanges: true, color: "never" });

    await b.stack.destroy({ color: "never" });
    expect(await ids(b)).toEqual([]);
    // The first stack's resources are all there, and its state still matches the cloud exactly.
    expect(findings(await audit(a))).toEqual(NONE);
    expect(await ids(a)).toEqual(mineA);
    await a.stack.preview({ expectNoChanges: true, color: "never" });
    await a.stack.destroy({ color: "never" });
    expect(await stackInventory(a)).toEqual([]);
  });

  test("a pulumi up killed during a shard scale-out: cancel and up converge on two shards, the added one managed, none made twice", async () => {
    const p = await projectBed(cloud, `kill${door}`);
    const sb = sandbox(`shards-${door}`);
    const bed = await devStack(door, sb, p, { res: "cluster", shards: "1" });
    expect((await bed.stack.up({ color: "never" })).summary.result).toBe("succeeded");
    const clusterId = (await audit(bed)).entries.find((e) => e.token === "krcloud:cache:Cluster")!.id;
    const shardCount = async () => (await bed.cache.shards.list(clusterId)).length;

    // Two shards: the added shard's nodes are held while they start, and the CLI is killed then.
    if (door === "native") {
      const file = path.join(bed.dir, "Pulumi.yaml");
      fs.writeFileSync(
        file,
        fs
          .readFileSync(file, "utf8")
          .replace(
            "          replicaSubnetIds: [sn-b]\n",
            "          replicaSubnetIds: [sn-b]\n        - primarySubnetId: sn-b\n          replicaSubnetIds: [sn-c]\n",
          ),
      );
    } else {
      await bed.stack.setConfig(`${NS}:shards`, { value: "2" });
    }
    const seq = ((await controlCall(cloud, "GET", "/requests")) as { lastSeq: number }).lastSeq;
    await hold(cloud, "cache", "node");
    await killedUp(sb, bed, "the shard is added", async () => (await shardCount()) === 2);
    await release(cloud, "cache", "node");
    // The killed run recorded one shard; the cloud has two.
    expect(findings(await audit(bed)).orphans).toHaveLength(1);

    await runPulumi(sb, ["cancel", "--yes", "--stack", bed.stackName], bed.dir);
    expect((await bed.stack.up({ color: "never" })).summary.result).toBe("succeeded");
    expect(await shardCount()).toBe(2);
    expect(findings(await audit(bed))).toEqual(NONE);
    const requests = ((await controlCall(cloud, "GET", `/requests?since=${seq}`)) as { requests: { operation?: string; path: string }[] }).requests;
    expect(requests.filter((r) => r.operation === "AddShard")).toHaveLength(1);
    await bed.stack.preview({ expectNoChanges: true, color: "never" });
    await bed.stack.destroy({ color: "never" });
    expect(await stackInventory(bed)).toEqual([]);
  });
});
