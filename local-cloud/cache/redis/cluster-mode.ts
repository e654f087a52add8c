/**
 * A cluster's topology work on real nodes (a Redis Cluster formed by hand, cluster.ts): forming it,
 * adding and removing shards and replicas, moving slots, and reading back what the nodes agree on.
 * The API's roles and slots are the nodes' consensus: an automatic failover shows as the replica
 * becoming primary. Each function runs as one queued step of a Deployment.
 */
import type { RestoreFiles } from "../engine";
import type { StoredNode, StoredShard } from "../model";
import { forget, form, meetAll, moveSlots, observe, planMoves, replicate, replicating, slotList, until, type Consensus } from "./cluster";
import { restoreInto } from "./data";
import { primaryOf, SETTLE_MS, type Deployment, type DeploymentMode } from "./deployment";

/**
 * One look at the nodes: when they agree, the stored roles and slots become what they agree on and
 * the deployment's `nodesAgree` holds (every replica also replicating its primary).
 */
export async function checkClusterAgreement(deployment: Deployment): Promise<boolean> {
  const dead = deployment
    .nodes()
    .filter((n) => n.redisId && !deployment.serving(n))
    .map((n) => n.redisId!);
  const consensus = await observe(deployment.members(), dead);
  let agreed = consensus !== undefined && acceptConsensus(deployment, consensus);
  for (const shard of agreed ? deployment.cluster.shards : []) {
    const primary = deployment.serving(primaryOf(shard))!;
    const replicas = shard.nodes.filter((n) => n.role === "replica").flatMap((n) => deployment.serving(n) ?? []);
    if (!(await replicating(primary, replicas))) agreed = false;
  }
  deployment.nodesAgree = agreed && !deployment.removed;
  return deployment.nodesAgree;
}

/**
 * The stored roles and slots become the nodes' consensus, when it fits the stored shards: each
 * shard has exactly one serving primary and its other serving nodes replicate it. False otherwise
 * (nothing changes).
 */
function acceptConsensus(deployment: Deployment, consensus: Consensus): boolean {
  const plan: { shard: StoredShard; primary: StoredNode }[] = [];
  for (const shard of deployment.cluster.shards) {
    const serving = shard.nodes.filter((n) => n.redisId && deployment.serving(n));
    const primaries = serving.filter((n) => consensus.nodes.get(n.redisId!)?.primary);
    if (primaries.length !== 1) return false;
    const primary = primaries[0]!;
    if (serving.some((n) => n !== primary && consensus.nodes.get(n.redisId!)?.primaryId !== primary.redisId)) return false;
    plan.push({ shard, primary });
  }
  let changed = false;
  for (const { shard, primary } of plan) {
    for (const n of shard.nodes) {
      const role = n === primary ? "primary" : "replica";
      if (n.role !== role) changed = true;
      n.role = role;
    }
    const slots = consensus.nodes.get(primary.redisId!)!.slots;
    if (JSON.stringify(slots) !== JSON.stringify(shard.slots)) changed = true;
    shard.slots = slots;
  }
  if (changed) deployment.hooks.changed();
  return true;
}

export function settleCluster(deployment: Deployment): Promise<void> {
  return until(
    `every node of ${deployment.cluster.name} agreeing on the topology`,
    () => checkClusterAgreement(deployment),
    SETTLE_MS,
    () => !deployment.removed,
  );
}

/** Until the serving nodes (newcomers included) all know each other, whatever their roles; their view then. */
async function untilAllKnown(deployment: Deployment): Promise<Consensus> {
  let seen: Consensus | undefined;
  await until(
    `every node of ${deployment.cluster.name} knowing the new nodes`,
    async () => {
      seen = await observe(deployment.members());
      return seen !== undefined;
    },
    SETTLE_MS,
    () => !deployment.removed,
  );
  return seen!;
}

export async function formCluster(deployment: Deployment, restore: RestoreFiles | undefined): Promise<void> {
  await Promise.all(deployment.nodes().map((n) => deployment.startNode(n)));
  await form(
    deployment.cluster.shards.map((s) => ({
      primary: deployment.member(primaryOf(s)),
      replicas: s.nodes.filter((n) => n.role === "replica").map((n) => deployment.member(n)),
      slots: s.slots,
    })),
  );
  await settleCluster(deployment);
  if (restore) await restoreInto(deployment, await restore());
  deployment.starting.clear();
}

/** Moves slots as `planMoves` says, between primaries known by their cluster ids. */
async function rebalance(deployment: Deployment, consensus: Consensus, joining: string[], leaving: string[]): Promise<void> {
  const primaries = deployment.members().filter((m) => consensus.nodes.get(m.redisId)?.primary);
  const owners = new Map(primaries.filter((m) => !joining.includes(m.redisId)).map((m) => [m.redisId, slotList(consensus.nodes.get(m.redisId)!.slots)]));
  const byId = new Map(primaries.map((m) => [m.redisId, m]));
  for (const move of planMoves(owners, joining, leaving)) {
    const from = byId.get(move.from)!;
    const to = byId.get(move.to)!;
    await moveSlots(
      move.slots,
      from,
      to,
      primaries.filter((p) => p !== from && p !== to),
    );
  }
}

/** The shard's nodes start, join, replicate its primary, and slots move to it until every primary holds an even share. */
export async function addShard(deployment: Deployment, shard: StoredShard): Promise<void> {
  await Promise.all(shard.nodes.map((n) => deployment.startNode(n)));
  const newcomers = shard.nodes.map((n) => deployment.member(n));
  await meetAll(newcomers, deployment.members());
  await untilAllKnown(deployment);
  const primary = primaryOf(shard);
  await Promise.all(shard.nodes.filter((n) => n !== primary).map((n) => replicate(deployment.member(n), deployment.member(primary))));
  await settleCluster(deployment);
  await rebalance(deployment, await untilAllKnown(deployment), [primary.redisId!], []);
  await settleCluster(deployment);
  for (const n of shard.nodes) deployment.starting.delete(n.id);
}

/** The shard's slots move to the others first; then its nodes stop and every other node forgets them. */
export async function removeShard(deployment: Deployment, shard: StoredShard): Promise<void> {
  const consensus = await untilAllKnown(deployment);
  const primary = shard.nodes.find((n) => n.redisId && consensus.nodes.get(n.redisId)?.primary && deployment.serving(n));
  if (primary) await rebalance(deployment, consensus, [], [primary.redisId!]);
  const gone = shard.nodes.map((n) => n.redisId).filter((x): x is string => x !== undefined);
  // Replicas first: a primary stopped before its replicas would make them try to fail over.
  for (const n of [...shard.nodes.filter((x) => x.role === "replica"), ...shard.nodes.filter((x) => x.role === "primary")]) await deployment.stopNode(n);
  deployment.cluster.shards = deployment.cluster.shards.filter((s) => s !== shard);
  deployment.drainingShards.delete(shard);
  await forget(gone, deployment.members());
  await settleCluster(deployment);
}

/** A new replica starts, joins and replicates the shard's primary. */
export async function addReplica(deployment: Deployment, shard: StoredShard, node: StoredNode): Promise<void> {
  const primary = primaryOf(shard);
  await deployment.startNode(node);
  await meetAll([deployment.member(node)], deployment.members());
  await untilAllKnown(deployment);
  await replicate(deployment.member(node), deployment.member(primary));
  await settleCluster(deployment);
}

/** The node stops and every other node forgets it. */
export async function removeReplica(deployment: Deployment, node: StoredNode): Promise<void> {
  await deployment.stopNode(node);
  if (node.redisId) await forget([node.redisId], deployment.members());
  await settleCluster(deployment);
}

/** A cluster's part of its deployment: agreement is the nodes' consensus; a failed primary is Redis Cluster's own failover. */
export const clusterMode: DeploymentMode = { checkAgreement: checkClusterAgreement };
