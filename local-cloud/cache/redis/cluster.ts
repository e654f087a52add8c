/**
 * Redis Cluster by hand, as `redis-cli --cluster` does it but for any shard count (it refuses fewer
 * than 3 primaries): distinct config epochs, ADDSLOTSRANGE, MEET between every pair, REPLICATE;
 * slots moved with IMPORTING / MIGRATING / MIGRATE / SETSLOT NODE, many slots per round trip; nodes
 * removed with FORGET on every other node. `observe` reads every node's CLUSTER NODES and says
 * whether they all agree (same members, roles and slots; no handshake, no failure, no open slot
 * migration).
 */
import type { RedisServer } from "./server";

export const SLOTS = 16384;
const BATCH = 128;

export interface Member {
  /** The node's Redis cluster id (CLUSTER MYID). */
  redisId: string;
  server: RedisServer;
}

/** One node as a CLUSTER NODES line describes it. */
export interface NodeLine {
  redisId: string;
  port: number;
  flags: string[];
  /** For a replica, its primary's id. */
  primaryId: string | undefined;
  slots: [number, number][];
  /** `[slot->-id]` / `[slot-<-id]` entries: a slot migration is open. */
  migrating: boolean;
}

export function parseNodes(text: string): NodeLine[] {
  return text
    .trim()
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((line) => {
      const [redisId = "", addr = "", flags = "", primary = "-", , , , , ...slotParts] = line.trim().split(/\s+/);
      const slots: [number, number][] = [];
      let migrating = false;
      for (const part of slotParts) {
        if (part.startsWith("[")) {
          migrating = true;
          continue;
        }
        const [a, b] = part.split("-");
        slots.push([Number(a), Number(b ?? a)]);
      }
      return {
        redisId,
        port: Number(addr.split("@")[0]!.split(":").at(-1)),
        flags: flags.split(","),
        primaryId: primary === "-" ? undefined : primary,
        slots,
        migrating,
      };
    });
}

/** What every live node agrees on: each member's role, primary and slots, and who is marked failed. */
export interface Consensus {
  nodes: Map<string, { primary: boolean; primaryId: string | undefined; slots: [number, number][]; failed: boolean }>;
}

const BAD_FLAGS = new Set(["handshake", "noaddr", "pfail", "fail?"]);

/**
 * Every live member's view of the cluster, reduced to one Consensus when they all agree on the
 * members (exactly `members`, plus `dead` ones only as failed), the roles and the slots, no node is
 * in handshake or doubt, no migration is open and every node says cluster_state:ok.
 */
export async function observe(members: readonly Member[], dead: readonly string[] = []): Promise<Consensus | undefined> {
  const live = members.filter((m) => m.server.alive);
  if (live.length === 0) return undefined;
  const expected = new Set([...live.map((m) => m.redisId), ...dead]);
  let reference: string | undefined;
  let consensus: Consensus | undefined;
  for (const m of live) {
    let lines: NodeLine[];
    let info: string;
    try {
      [lines, info] = await Promise.all([
        m.server.command("CLUSTER", "NODES").then((t) => parseNodes(String(t))),
        m.server.command("CLUSTER", "INFO").then(String),
      ]);
    } catch {
      return undefined;
    }
    if (!info.includes("cluster_state:ok")) return undefined;
    if (lines.length !== expected.size || lines.some((l) => !expected.has(l.redisId) || l.migrating || l.flags.some((f) => BAD_FLAGS.has(f)))) return undefined;
    const failed = (l: NodeLine) => l.flags.includes("fail");
    if (lines.some((l) => failed(l) !== dead.includes(l.redisId))) return undefined;
    const canonical = lines
      .map((l) => `${l.redisId} ${l.flags.includes("master") ? "m" : `s:${l.primaryId ?? ""}`} ${l.slots.map((s) => s.join("-")).join(",")} ${failed(l)}`)
      .sort()
      .join("\n");
    if (reference === undefined) {
      reference = canonical;
      consensus = {
        nodes: new Map(lines.map((l) => [l.redisId, { primary: l.flags.includes("master"), primaryId: l.primaryId, slots: l.slots, failed: failed(l) }])),
      };
    } else if (canonical !== reference) {
      return undefined;
    }
  }
  return consensus;
}

/**
 * `replicas` replicate `primary`: each says its link is up and its initial sync done, and the
 * primary lists each as an online replica (not one it is still sending a snapshot to).
 */
export async function replicating(primary: RedisServer, replicas: readonly RedisServer[]): Promise<boolean> {
  if (replicas.length === 0) return true;
  const mine = await primary.info("replication").catch(() => undefined);
  if (!mine) return false;
  const online = new Set(
    Object.entries(mine)
      .filter(([k]) => /^slave\d+$/.test(k))
      .map(([, v]) => Object.fromEntries(v.split(",").map((kv) => kv.split("="))) as Record<string, string>)
      .filter((r) => r.state === "online")
      .map((r) => r.port),
  );
  for (const r of replicas) {
    if (!online.has(String(r.port))) return false;
    const info = await r.info("replication").catch(() => undefined);
    if (!info || info.role !== "slave" || info.master_port !== String(primary.port) || info.master_link_status !== "up" || info.master_sync_in_progress !== "0")
      return false;
  }
  return true;
}

function check(results: [Error | null, unknown][], what: string): void {
  const failed = results.find(([e]) => e);
  if (failed) throw new Error(`${what}: ${failed[0]!.message}`);
}

/** Polls `done` every 25 ms until it holds; fails after `ms` naming `what`. */
export async function until(what: string, done: () => Promise<boolean>, ms = 60_000, alive: () => boolean = () => true): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (!alive()) throw new Error(`${what}: abandoned`);
    if (await done().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`${what}: not done within ${Math.round(ms / 1000)} s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function clusterIdOf(server: RedisServer): Promise<string> {
  return String(await server.command("CLUSTER", "MYID"));
}

/** Every node MEETs every other it does not know yet (a full mesh converges in a fraction of a second). */
export async function meetAll(newcomers: readonly Member[], everyone: readonly Member[]): Promise<void> {
  await Promise.all(
    newcomers.map((n) =>
      n.server
        .pipeline(everyone.filter((o) => o !== n && o.server.alive).map((o) => ["CLUSTER", "MEET", "127.0.0.1", o.server.port, o.server.busPort]))
        .then((r) => check(r, "CLUSTER MEET")),
    ),
  );
}

/** The first formation of a cluster: epochs, slots on the primaries, the mesh, then the replicas. */
export async function form(shards: readonly { primary: Member; replicas: Member[]; slots: [number, number][] }[]): Promise<void> {
  const everyone = shards.flatMap((s) => [s.primary, ...s.replicas]);
  await Promise.all(everyone.map((m, i) => m.server.command("CLUSTER", "SET-CONFIG-EPOCH", i + 1)));
  await Promise.all(
    shards.map((s) => s.primary.server.pipeline(s.slots.map(([a, b]) => ["CLUSTER", "ADDSLOTSRANGE", a, b])).then((r) => check(r, "ADDSLOTSRANGE"))),
  );
  await meetAll(everyone, everyone);
  await Promise.all(shards.flatMap((s) => s.replicas.map((r) => replicate(r, s.primary))));
}

/** CLUSTER REPLICATE, retried until the replica has heard of its primary through the mesh. */
export async function replicate(replica: Member, primary: Member): Promise<void> {
  await until(`CLUSTER REPLICATE on port ${replica.server.port}`, async () => {
    await replica.server.command("CLUSTER", "REPLICATE", primary.redisId);
    return true;
  });
}

/**
 * Moves `slots` from one primary to another with their keys, `BATCH` slots per round trip: the
 * target imports, the source migrates, keys move with MIGRATE (one slot per call), then both and
 * every other primary learn the new owner. Clients see ASK and MOVED, which cluster clients follow.
 */
export async function moveSlots(slots: readonly number[], from: Member, to: Member, others: readonly Member[]): Promise<void> {
  for (let i = 0; i < slots.length; i += BATCH) {
    const batch = slots.slice(i, i + BATCH);
    check(await to.server.pipeline(batch.map((s) => ["CLUSTER", "SETSLOT", s, "IMPORTING", from.redisId])), "SETSLOT IMPORTING");
    check(await from.server.pipeline(batch.map((s) => ["CLUSTER", "SETSLOT", s, "MIGRATING", to.redisId])), "SETSLOT MIGRATING");
    for (;;) {
      const found = await from.server.pipeline(batch.map((s) => ["CLUSTER", "GETKEYSINSLOT", s, 1000]));
      check(found, "GETKEYSINSLOT");
      const withKeys = found.map(([, keys]) => keys as string[]).filter((keys) => keys.length > 0);
      if (withKeys.length === 0) break;
      // The target refuses a MIGRATE without the login its clients need.
      const login = to.server.spec.security?.login;
      const auth = login ? ["AUTH2", login.username, login.password] : [];
      await Promise.all(
        withKeys.map((keys) => from.server.command("MIGRATE", "127.0.0.1", to.server.port, "", 0, 10_000, "REPLACE", ...auth, "KEYS", ...keys)),
      );
    }
    check(await to.server.pipeline(batch.map((s) => ["CLUSTER", "SETSLOT", s, "NODE", to.redisId])), "SETSLOT NODE (target)");
    check(await from.server.pipeline(batch.map((s) => ["CLUSTER", "SETSLOT", s, "NODE", to.redisId])), "SETSLOT NODE (source)");
    // The others would learn it from gossip; telling them saves clients a redirection.
    await Promise.all(
      others
        .filter((o) => o.server.alive)
        .map((o) => o.server.pipeline(batch.map((s) => ["CLUSTER", "SETSLOT", s, "NODE", to.redisId])).catch(() => undefined)),
    );
  }
}

/** Every remaining node forgets `gone` (FORGET bans the id for 60 s, so it cannot come back by gossip). */
export async function forget(gone: readonly string[], remaining: readonly Member[]): Promise<void> {
  await Promise.all(
    remaining
      .filter((m) => m.server.alive)
      .map((m) =>
        m.server.pipeline(gone.map((id) => ["CLUSTER", "FORGET", id])).then((results) => {
          const bad = results.find(([e]) => e && !/unknown node/i.test(e.message));
          if (bad) throw new Error(`CLUSTER FORGET: ${bad[0]!.message}`);
        }),
      ),
  );
}

/** Inclusive ranges as a sorted list of slots. */
export function slotList(ranges: readonly [number, number][]): number[] {
  const out: number[] = [];
  for (const [a, b] of ranges) for (let s = a; s <= b; s++) out.push(s);
  return out.sort((x, y) => x - y);
}

/** A sorted list of slots as inclusive ranges. */
export function slotRanges(slots: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const s of [...slots].sort((x, y) => x - y)) {
    const last = out.at(-1);
    if (last && last[1] === s - 1) last[1] = s;
    else out.push([s, s]);
  }
  return out;
}

/**
 * Which slots move where so that `owners` (primary id to its slots) end up even: `joining` primaries
 * (no slots yet) receive from the others' ends, `leaving` ones give everything to the rest, the
 * fewest-first. Returns moves `{from, to, slots}`.
 */
export function planMoves(
  owners: ReadonlyMap<string, number[]>,
  joining: readonly string[],
  leaving: readonly string[],
): { from: string; to: string; slots: number[] }[] {
  const stay = [...owners.keys(), ...joining].filter((id) => !leaving.includes(id));
  const holding = new Map<string, number[]>(stay.map((id) => [id, [...(owners.get(id) ?? [])]]));
  const target = new Map(stay.map((id, i) => [id, Math.floor(SLOTS / stay.length) + (i < SLOTS % stay.length ? 1 : 0)]));
  // A pool of slots to hand out: everything the leaving primaries hold, and what the staying ones hold above their target.
  const pool: { from: string; slot: number }[] = [];
  for (const id of leaving) for (const slot of owners.get(id) ?? []) pool.push({ from: id, slot });
  for (const id of stay) {
    const mine = holding.get(id)!;
    const extra = mine.length - target.get(id)!;
    if (extra > 0) for (const slot of mine.splice(mine.length - extra)) pool.push({ from: id, slot });
  }
  const moves = new Map<string, { from: string; to: string; slots: number[] }>();
  let next = 0;
  for (const id of [...stay].sort((a, b) => holding.get(a)!.length - holding.get(b)!.length)) {
    const mine = holding.get(id)!;
    while (mine.length < target.get(id)! && next < pool.length) {
      const { from, slot } = pool[next++]!;
      mine.push(slot);
      const key = `${from}>${id}`;
      if (!moves.has(key)) moves.set(key, { from, to: id, slots: [] });
      moves.get(key)!.slots.push(slot);
    }
  }
  return [...moves.values()];
}
