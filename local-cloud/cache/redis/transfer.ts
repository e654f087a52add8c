/**
 * Data in and out of the nodes: a backup is each primary's RDB file (SAVE, then a copy); a restore
 * starts a throw-away standalone server on each RDB file and copies every key into the new cluster or
 * instance set, so a backup of any shard layout loads into any other: with MIGRATE … COPY REPLACE
 * from that server to the primary serving each key's slot (server to server, nothing through this
 * process), or, where MIGRATE cannot reach (TLS nodes, an instance set's single primary is simpler
 * either way), with DUMP / PTTL / RESTORE through a client.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { RedisServer } from "./server";

export interface DumpedKey {
  key: Buffer;
  /** Milliseconds to live; 0 for none. */
  ttl: number;
  value: Buffer;
}

const SCAN_COUNT = 5_000;

/** SAVE on `server`, then its dump.rdb copied to `dest`. */
export async function saveRdb(server: RedisServer, dest: string): Promise<void> {
  // A primary whose replica has just attached is writing its data for the replica's full sync
  // (a background save): SAVE is refused until it ends, so it is asked again, for up to a minute.
  // An admin connection closed under it (seen while a shard was being added to the cluster) is no
  // answer either: SAVE is asked again on a new connection.
  for (let attempt = 0; ; attempt++) {
    try {
      await server.command("SAVE");
      break;
    } catch (e) {
      if (attempt >= 600 || !/in progress|connection is closed/i.test(e instanceof Error ? e.message : String(e))) throw e;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  mkdirSync(join(dest, ".."), { recursive: true });
  copyFileSync(join(server.spec.dir, "dump.rdb"), dest);
}

/**
 * A throw-away standalone server loading a copy of the RDB file `file` (in a directory of its own
 * below `workDir`), and `each` called with every non-empty batch of its keys (SCAN); the server is
 * stopped and its directory removed after.
 */
async function eachKeyBatch(file: string, workDir: string, each: (server: RedisServer, keys: Buffer[]) => Promise<void>): Promise<void> {
  mkdirSync(workDir, { recursive: true });
  const dir = mkdtempSync(join(workDir, "restore-"));
  copyFileSync(file, join(dir, "dump.rdb"));
  const server = new RedisServer({ dir, cluster: false });
  try {
    await server.start();
    let cursor = "0";
    do {
      const [next, keys] = (await server.commandBuffer("SCAN", cursor, "COUNT", SCAN_COUNT)) as [Buffer, Buffer[]];
      cursor = next.toString();
      if (keys.length > 0) await each(server, keys);
    } while (cursor !== "0");
  } finally {
    await server.stop(false);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every key of the RDB file `file`, handed to `sink` a few hundred at a time. Returns the number of keys. */
export async function loadRdb(file: string, workDir: string, sink: (batch: DumpedKey[]) => Promise<void>): Promise<number> {
  let total = 0;
  await eachKeyBatch(file, workDir, async (server, keys) => {
    const replies = await server.pipeline(
      keys.flatMap((k) => [
        ["DUMP", k],
        ["PTTL", k],
      ]),
      true,
    );
    const batch: DumpedKey[] = [];
    keys.forEach((key, i) => {
      const [dumpError, value] = replies[2 * i]!;
      const [, ttl] = replies[2 * i + 1]!;
      // Gone meanwhile (expired): nothing to copy.
      if (dumpError || value === null || Number(ttl) === -2) return;
      batch.push({ key, ttl: Math.max(0, Number(ttl)), value: value as Buffer });
    });
    total += batch.length;
    if (batch.length) await sink(batch);
  });
  return total;
}

/** RESTORE commands for a batch (REPLACE: a restore over keys already loaded from another file wins). */
export function restoreCommands(batch: readonly DumpedKey[]): (string | number | Buffer)[][] {
  return batch.map((k) => ["RESTORE", k.key, k.ttl, k.value, "REPLACE"]);
}

/**
 * The hash slot of a key (Redis Cluster's rule: CRC16-XMODEM of the key, or of its `{hash tag}` when
 * it has a non-empty one, modulo 16384).
 */
export function keySlot(key: Buffer): number {
  let data = key;
  const open = key.indexOf(0x7b);
  if (open >= 0) {
    const close = key.indexOf(0x7d, open + 1);
    if (close > open + 1) data = key.subarray(open + 1, close);
  }
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/** Keys MIGRATE moves in one command. */
const MIGRATE_BATCH = 1_000;

/**
 * Every key of the RDB file `file` copied into the cluster by the servers themselves: a throw-away
 * server loads the file, and MIGRATE … COPY REPLACE … KEYS sends each batch of keys to the primary
 * serving their slot (`portOf(slot)`), logged in with `login` where the nodes need one. TTLs come
 * along. Returns the number of keys.
 */
export async function migrateRdb(
  file: string,
  workDir: string,
  portOf: (slot: number) => number,
  login: { username: string; password: string } | undefined,
): Promise<number> {
  const auth = login ? ["AUTH2", login.username, login.password] : [];
  let total = 0;
  await eachKeyBatch(file, workDir, async (server, keys) => {
    const byPort = new Map<number, Buffer[]>();
    for (const k of keys) {
      const port = portOf(keySlot(k));
      byPort.set(port, [...(byPort.get(port) ?? []), k]);
    }
    for (const [port, ks] of byPort) {
      for (let i = 0; i < ks.length; i += MIGRATE_BATCH) {
        const batch = ks.slice(i, i + MIGRATE_BATCH);
        // NOKEY: every key of the batch expired meanwhile.
        await server.commandBuffer("MIGRATE", "127.0.0.1", port, "", 0, 60_000, "COPY", "REPLACE", ...auth, "KEYS", ...batch);
        total += batch.length;
      }
    }
  });
  return total;
}
