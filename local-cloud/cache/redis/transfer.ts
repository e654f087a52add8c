/**
 * Data in and out of the nodes: a backup is each primary's RDB file (SAVE, then a copy); a restore
 * starts a throw-away standalone server on each RDB file and copies every key into the new cluster or
 * instance set with DUMP / PTTL / RESTORE, so a backup of any shard layout loads into any other.
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

const SCAN_COUNT = 500;

/** SAVE on `server`, then its dump.rdb copied to `dest`. */
export async function saveRdb(server: RedisServer, dest: string): Promise<void> {
  await server.command("SAVE");
  mkdirSync(join(dest, ".."), { recursive: true });
  copyFileSync(join(server.spec.dir, "dump.rdb"), dest);
}

/** Every key of the RDB file `file`, handed to `sink` a few hundred at a time. Returns the number of keys. */
export async function loadRdb(file: string, workDir: string, sink: (batch: DumpedKey[]) => Promise<void>): Promise<number> {
  mkdirSync(workDir, { recursive: true });
  const dir = mkdtempSync(join(workDir, "restore-"));
  copyFileSync(file, join(dir, "dump.rdb"));
  const server = new RedisServer({ dir, cluster: false });
  let total = 0;
  try {
    await server.start();
    let cursor = "0";
    do {
      const [next, keys] = (await server.commandBuffer("SCAN", cursor, "COUNT", SCAN_COUNT)) as [Buffer, Buffer[]];
      cursor = next.toString();
      if (keys.length === 0) continue;
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
    } while (cursor !== "0");
  } finally {
    await server.stop(false);
    rmSync(dir, { recursive: true, force: true });
  }
  return total;
}

/** RESTORE commands for a batch (REPLACE: a restore over keys already loaded from another file wins). */
export function restoreCommands(batch: readonly DumpedKey[]): (string | number | Buffer)[][] {
  return batch.map((k) => ["RESTORE", k.key, k.ttl, k.value, "REPLACE"]);
}
