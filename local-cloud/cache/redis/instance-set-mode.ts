/**
 * An instance set's work on real nodes: standalone servers (never cluster mode) replicating the
 * primary with REPLICAOF. A promote hands over with FAILOVER while the old primary serves (writes
 * pause until the new one has caught up: nothing is lost); with high availability a failed primary
 * is replaced by the replica furthest along. Each function runs as one queued step of a Deployment.
 */
import type { RestoreFiles } from "../engine";
import type { StoredNode, StoredShard } from "../model";
import { replicating, until } from "./cluster";
import { restoreInto } from "./data";
import { primaryOf, SETTLE_MS, type Deployment, type DeploymentMode } from "./deployment";
import type { RedisServer } from "./server";

/** One look: the stored primary serves as primary and every serving replica replicates it. */
export async function checkReplication(deployment: Deployment): Promise<boolean> {
  const nodes = deployment.nodes();
  const primary = nodes.find((n) => n.role === "primary");
  const server = primary && deployment.serving(primary);
  let agreed = server !== undefined && (await server.info("replication").catch(() => undefined))?.role === "master";
  if (server && agreed)
    agreed = await replicating(
      server,
      nodes.flatMap((n) => (n === primary ? [] : (deployment.serving(n) ?? []))),
    );
  deployment.nodesAgree = agreed && !deployment.removed;
  return deployment.nodesAgree;
}

export function settleInstanceSet(deployment: Deployment): Promise<void> {
  return until(
    `the replicas of ${deployment.cluster.name} replicating their primary`,
    () => checkReplication(deployment),
    SETTLE_MS,
    () => !deployment.removed,
  );
}

/** The primary starts (and gets the restored data), then the replicas, replicating it. */
export async function formInstanceSet(deployment: Deployment, restore: RestoreFiles | undefined): Promise<void> {
  const primary = primaryOf(deployment.cluster.shards[0]!);
  const server = await deployment.startNode(primary);
  if (restore) await restoreInto(deployment, await restore());
  await Promise.all(
    deployment
      .nodes()
      .filter((n) => n !== primary)
      .map((n) => deployment.startNode(n, server.port)),
  );
  await settleInstanceSet(deployment);
  deployment.starting.clear();
}

/** A new replica starts replicating the serving primary. */
export async function addInstance(deployment: Deployment, group: StoredShard, node: StoredNode): Promise<void> {
  const primary = deployment.serving(primaryOf(group));
  if (!primary) throw new Error("the instance set has no serving primary to replicate");
  await deployment.startNode(node, primary.port);
  await settleInstanceSet(deployment);
}

/**
 * The stored primary becomes the servers' primary. While the one serving as primary now is up,
 * it hands over with FAILOVER, which pauses writes until the new primary has caught up (a promote
 * loses nothing); otherwise (it failed) the new one stops replicating. The others then replicate it.
 */
export async function followStoredPrimary(deployment: Deployment): Promise<void> {
  const primary = primaryOf(deployment.cluster.shards[0]!);
  const target = deployment.serving(primary);
  if (!target) throw new Error(`primary ${primary.id} is not serving`);
  const others = deployment.nodes().flatMap((n) => (n === primary ? [] : (deployment.serving(n) ?? [])));
  const role = async (s: RedisServer) => (await s.info("replication")).role;
  const mine = await target.info("replication");
  if (mine.role !== "master") {
    const current = others.find((o) => String(o.port) === mine.master_port);
    const handover =
      current && (await role(current)) === "master"
        ? await current.command("FAILOVER", "TO", "127.0.0.1", target.port, "TIMEOUT", 10_000).then(
            () => true,
            () => false,
          )
        : false;
    if (handover)
      await until(
        `${deployment.cluster.name}: the primary handing over to 127.0.0.1:${target.port}`,
        async () => (await role(target)) === "master",
        15_000,
        () => !deployment.removed,
      );
    else await target.command("REPLICAOF", "NO", "ONE");
  }
  for (const replica of others) {
    const info = await replica.info("replication");
    if (info.role !== "slave" || info.master_port !== String(target.port)) await replica.command("REPLICAOF", "127.0.0.1", target.port);
  }
  deployment.primaryEndpoint?.retarget();
  deployment.readEndpoint?.retarget();
  await settleInstanceSet(deployment);
}

/** High availability: the serving replica furthest along takes over from a failed primary. */
export async function failover(deployment: Deployment, failed: StoredNode): Promise<void> {
  if (failed.role !== "primary" || !deployment.cluster.recoveryEnabled) return;
  let best: { node: StoredNode; offset: number } | undefined;
  for (const n of deployment.nodes()) {
    const replica = n.role === "replica" ? deployment.serving(n) : undefined;
    const info = replica && (await replica.info("replication").catch(() => undefined));
    const offset = Number(info?.slave_repl_offset ?? -1);
    if (info && (!best || offset > best.offset)) best = { node: n, offset };
  }
  if (!best) throw new Error("no serving replica to fail over to");
  failed.role = "replica";
  best.node.role = "primary";
  deployment.hooks.changed();
  await followStoredPrimary(deployment);
}

/** An instance set's part of its deployment: agreement is replication; with high availability a failed primary fails over. */
export const instanceSetMode: DeploymentMode = { checkAgreement: checkReplication, failover };
