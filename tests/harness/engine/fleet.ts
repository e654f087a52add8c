/**
 * A planted fleet (tests/engine/drift-fleet.test.ts, bench/fleet.ts): N stacks of
 * tests/programs/fleet in one project of the local cloud, each a private encrypted bucket with its
 * objects, then a known number of policy violations and of drifts planted in it, so that a fleet
 * check can be held to finding exactly those, no more.
 *
 * Violations, in turn: a public bucket without an IP allow list declared by a stack (mandatory), an
 * unencrypted one declared by a stack (advisory), and made outside Pulumi: a cache cluster without a
 * replica (mandatory in the production stacks sharing the account), a public bucket (mandatory), an
 * unencrypted one (advisory). Drifts, in turn, behind the stacks' backs: an object's content
 * defaced, the bucket's metadata changed, an object deleted.
 */
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { URN_KEY } from "../../../provider/core/resource";
import { provider } from "../../../provider/runtime";
import { mapLimit } from "../../../drift/run";
import { providerConfig, type CloudProject } from "./cloud";
import { REPO_ROOT } from "./paths";
import type { Sandbox } from "./sandbox";
import { resourcesOfType } from "./state";

export const FLEET_PROGRAM = path.join(REPO_ROOT, "tests", "programs", "fleet");
const OS = "object-storage";

type StackPlant = "public" | "plain";
type OutsidePlant = "cluster" | "public" | "plain";
type DriftKind = "content" | "metadata" | "deleted";

export interface FleetPlan {
  /** Stack names, sorted. */
  stacks: string[];
  /** Objects per stack's bucket. */
  objects: number;
  /** What each stack's config `plant` declares. */
  plants: Record<string, StackPlant[]>;
  outside: { kind: OutsidePlant; name: string }[];
  drifts: { stack: string; kind: DriftKind; object: number }[];
}

/** What a check of the planted fleet must find, and nothing else: `stack name status`, `policy name stack managed|unmanaged`. */
export interface FleetExpectation {
  drifts: string[];
  violations: string[];
}

const VIOLATION_CYCLE = ["stack:public", "stack:plain", "outside:cluster", "outside:public", "outside:plain"] as const;
const DRIFT_CYCLE: readonly DriftKind[] = ["content", "metadata", "deleted"];

export const POLICY = {
  public: "krcloud-bucket-public-without-allow-list",
  plain: "krcloud-bucket-without-encryption",
  replica: "krcloud-cache-replica-in-production",
} as const;

/** Which stacks get which plant, and the expectation. `stacks` need a production one (`prod-*`) for the cluster. */
export function fleetPlan(
  stacks: readonly string[],
  objects: number,
  violations: number,
  drifts: number,
  suffix: string,
): { plan: FleetPlan; expected: FleetExpectation } {
  const sorted = [...stacks].sort();
  const plan: FleetPlan = { stacks: sorted, objects, plants: Object.fromEntries(sorted.map((s) => [s, []])), outside: [], drifts: [] };
  const expected: FleetExpectation = { drifts: [], violations: [] };
  const firstProd = sorted.find((s) => s.startsWith("prod"));
  let next = 0;
  for (let i = 0; i < violations; i++) {
    const [where, kind] = VIOLATION_CYCLE[i % VIOLATION_CYCLE.length]!.split(":") as ["stack" | "outside", string];
    if (where === "stack") {
      const k = kind as StackPlant;
      // The next stack that does not have this plant yet.
      let stack = sorted[next++ % sorted.length]!;
      for (let tries = 0; plan.plants[stack]!.includes(k) && tries < sorted.length; tries++) stack = sorted[next++ % sorted.length]!;
      if (plan.plants[stack]!.includes(k)) throw new Error(`more ${k} plants than stacks`);
      plan.plants[stack]!.push(k);
      expected.violations.push(`${POLICY[k]} ${k === "public" ? "open" : "plain"} ${stack} managed`);
    } else {
      const k = kind as OutsidePlant;
      if (k === "cluster" && !firstProd) throw new Error("a fleet with an unmanaged cluster needs a production stack (prod-*)");
      // A cluster's name is 4 to 20 characters.
      const name = k === "cluster" ? `oc${i}-${suffix.slice(0, 12)}` : `orphan-${k}-${i}-${suffix}`;
      plan.outside.push({ kind: k, name });
      // Reported under the first stack of the account where the rule breaks.
      const rule = k === "cluster" ? POLICY.replica : k === "public" ? POLICY.public : POLICY.plain;
      expected.violations.push(`${rule} ${name} ${k === "cluster" ? firstProd : sorted[0]} unmanaged`);
    }
  }
  for (let i = 0; i < drifts; i++) {
    const kind = DRIFT_CYCLE[i % DRIFT_CYCLE.length]!;
    const stack = sorted[(i * 5 + 1) % sorted.length]!;
    const object = 2 * Math.floor(i / DRIFT_CYCLE.length) + (kind === "deleted" ? 1 : 0);
    if (plan.drifts.some((d) => d.stack === stack && d.kind === kind && d.object === object)) throw new Error("two drifts of one kind on one resource");
    plan.drifts.push({ stack, kind, object });
    expected.drifts.push(`${stack} ${kind === "metadata" ? "data" : `obj-${object}`} ${kind === "deleted" ? "deleted" : "drifted"}`);
  }
  expected.drifts.sort();
  expected.violations.sort();
  return { plan, expected };
}

/** The fleet's stacks, each configured for the project and its plants, deployed (`concurrency` at a time). */
export async function deployFleet(
  sandbox: Sandbox,
  project: CloudProject,
  plan: FleetPlan,
  suffix: string,
  concurrency = 2,
): Promise<{ dir: string; stacks: Stack[] }> {
  const dir = sandbox.copyProgram(FLEET_PROGRAM);
  const stacks = await mapLimit(plan.stacks, concurrency, async (name) => {
    const stack = await sandbox.createStack(
      dir,
      name,
      providerConfig(project, {
        "krcloud-test-fleet:suffix": { value: suffix },
        "krcloud-test-fleet:objects": { value: String(plan.objects) },
        "krcloud-test-fleet:plant": { value: plan.plants[name]!.join(",") },
      }),
    );
    await stack.up({ color: "never" });
    return stack;
  });
  return { dir, stacks };
}

/** Creates a resource through its provider in this process: in the cloud, in no stack. */
async function outside(project: CloudProject, token: string, args: Record<string, unknown>, name: string): Promise<string> {
  const p = provider(token);
  const cfg = providerConfig(project);
  await p.configure({ config: { get: (k: string) => cfg[k]?.value } } as never);
  const checked = await p.check({}, { [URN_KEY]: `urn:pulumi:outside::fleet::${token}::${name}`, ...args, __provider: "outside", __logicalName: name });
  if (checked.failures?.length) throw new Error(`${token} ${name}: ${JSON.stringify(checked.failures)}`);
  return (await p.create(checked.inputs)).id;
}

/**
 * A cache cluster's inputs with backups and TLS as the policy pack wants them, and one shard whose
 * replicas are `replicaSubnetIds`: none (the default) is the one violation the replica rule finds
 * in production.
 */
export function backedUpCluster(name: string, replicaSubnetIds: string[] = []): Record<string, unknown> {
  return {
    name,
    version: "7.0.15",
    flavorId: "redis.small",
    parameterGroupId: "default.redis7.0.cluster",
    subnetIds: ["sn-a", "sn-b"],
    securityGroupIds: ["sg-1"],
    shards: [{ primarySubnetId: "sn-a", replicaSubnetIds }],
    backupSchedule: { cron: "0 3 * * *", retentionDays: 7 },
    tlsEnabled: true,
  };
}

/** Plants the plan's outside resources and drifts (the stacks' own plants came with their deploy). */
export async function plantFleet(project: CloudProject, plan: FleetPlan, stacks: readonly Stack[]): Promise<void> {
  for (const o of plan.outside) {
    if (o.kind === "cluster") {
      await outside(project, "krcloud:cache:Cluster", backedUpCluster(o.name), o.name);
    } else {
      const args = o.kind === "public" ? { encryption: { type: "managed" }, acl: { public: "read-only" } } : {};
      await outside(project, "krcloud:objectstorage:Bucket", { name: o.name, ...args }, o.name);
    }
  }
  const byName = new Map(stacks.map((s) => [s.name, s]));
  for (const d of plan.drifts) {
    const deployment = await byName.get(d.stack)!.exportStack();
    if (d.kind === "metadata") {
      const bucket = resourcesOfType(deployment, "krcloud:objectstorage:Bucket").find((r) => r.urn.endsWith("::data"))!;
      await project.control.patchResource(OS, "bucket", bucket.id!, { metadata: { team: "changed-by-hand" } });
      continue;
    }
    const object = resourcesOfType(deployment, "krcloud:objectstorage:BucketObject").find((r) => r.urn.endsWith(`::obj-${d.object}`))!;
    if (d.kind === "content") await project.control.patchResource(OS, "object", object.id!, { content: "defaced\n" });
    else await project.control.deleteResource(OS, "object", object.id!);
  }
}

/** What a report found: its drifts and violations in the expectation's form. */
export function fleetFindings(report: {
  stacks: { stack: string; resources: { name: string; status: string }[] }[];
  policy?: { violations: { policy: string; name: string; stack: string; managed: boolean }[] };
}): FleetExpectation {
  return {
    drifts: report.stacks
      .flatMap((s) => s.resources.filter((r) => r.status === "drifted" || r.status === "deleted").map((r) => `${s.stack} ${r.name} ${r.status}`))
      .sort(),
    violations: (report.policy?.violations ?? []).map((v) => `${v.policy} ${v.name} ${v.stack} ${v.managed ? "managed" : "unmanaged"}`).sort(),
  };
}

export interface LoggedRequest {
  seq: number;
  /** When the local cloud took it (ISO, ms). */
  time: string;
  service: string;
  operation: string;
  method: string;
  status: number;
  fault?: string;
}

/** The local cloud's request log after `since` (a sequence number; 0: all it keeps). */
export async function requestsSince(project: CloudProject, since: number): Promise<{ requests: LoggedRequest[]; lastSeq: number }> {
  const res = await fetch(`${project.cloud.controlUrl}/requests?since=${since}`);
  if (!res.ok) throw new Error(`GET /_control/requests: ${res.status}`);
  return (await res.json()) as { requests: LoggedRequest[]; lastSeq: number };
}

/** The requests of the busiest second of the log (a window [t, t + 1000 ms) starting at a request). */
export function busiestWindow(requests: readonly LoggedRequest[]): LoggedRequest[] {
  const sorted = [...requests].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  const t = sorted.map((r) => Date.parse(r.time));
  let best: [number, number] = [0, 0];
  for (let i = 0, j = 0; i < t.length; i++) {
    while (j < t.length && t[j]! < t[i]! + 1000) j++;
    if (j - i > best[1] - best[0]) best = [i, j];
  }
  return sorted.slice(best[0], best[1]);
}

/** The most requests the log holds in any one second. */
export function busiestSecond(requests: readonly LoggedRequest[]): number {
  return busiestWindow(requests).length;
}
