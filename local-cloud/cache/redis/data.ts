/**
 * Data on real nodes: backups are each primary's RDB file (`SAVE`, then a copy under
 * `{root}/backups/<project>/<name>/`); a restore starts a throw-away standalone server on each
 * file and copies every key into the new nodes with DUMP/PTTL/RESTORE (transfer.ts), so the data
 * lands wherever the new slots are.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { Cluster } from "ioredis";
import type { StoredBackup } from "../model";
import type { RestoreFiles } from "../engine";
import type { StoredCluster, StoredNode } from "../model";
import { message, primaryOf, tmpDir, type Deployment } from "./deployment";
import { loadRdb, migrateRdb, restoreCommands, saveRdb, type DumpedKey } from "./transfer";
import { clientOptions } from "./security";

/**
 * Copies every key of `files` into the deployment's nodes: a cluster's by MIGRATE from a throw-away
 * server on each file to the primary of each key's slot (TLS nodes: through a cluster client), an
 * instance set's into its primary.
 */
export async function restoreInto(deployment: Deployment, files: string[]): Promise<void> {
  if (deployment.cluster.clusterEnabled && !deployment.security.tls) {
    const owners = deployment.cluster.shards.map((s) => ({ slots: s.slots, port: deployment.serving(primaryOf(s))!.port }));
    const portOf = (slot: number): number => owners.find((o) => o.slots.some(([a, b]) => slot >= a && slot <= b))!.port;
    // A backup is a file per shard, their keys distinct: each on its own throw-away server, all at once.
    await Promise.all(
      files.map(async (file) => {
        await migrateRdb(file, deployment.tmpDir, portOf, deployment.security.login);
        if (file.startsWith(deployment.tmpDir)) rmSync(file, { force: true });
      }),
    );
    return;
  }
  await restoreThroughClient(deployment, files);
}

/** Copies every key of `files` with DUMP / PTTL / RESTORE through a client (a cluster client, or the instance set's primary). */
async function restoreThroughClient(deployment: Deployment, files: string[]): Promise<void> {
  let sink: (batch: DumpedKey[]) => Promise<void>;
  let client: Cluster | undefined;
  if (deployment.cluster.clusterEnabled) {
    client = new Cluster(
      deployment.members().map((m) => ({ host: "127.0.0.1", port: m.server.port })),
      {
        enableReadyCheck: true,
        // A batch of RESTOREs goes out as one write per node, not one per key.
        enableAutoPipelining: true,
        redisOptions: { maxRetriesPerRequest: 3, disconnectTimeout: 100, ...clientOptions(deployment.security) },
      },
    );
    client.on("error", () => undefined);
    const cluster = client;
    sink = async (batch) => {
      await Promise.all(restoreCommands(batch).map(([name, ...args]) => cluster.call(String(name), ...args)));
    };
  } else {
    const primary = deployment.serving(primaryOf(deployment.cluster.shards[0]!))!;
    sink = async (batch) => {
      const results = await primary.pipeline(restoreCommands(batch));
      const bad = results.find(([e]) => e);
      if (bad) throw bad[0]!;
    };
  }
  try {
    const load = async (file: string) => {
      await loadRdb(file, deployment.tmpDir, sink);
      if (file.startsWith(deployment.tmpDir)) rmSync(file, { force: true });
    };
    // A cluster's backup is a file per shard, their keys distinct: each on its own throw-away server,
    // all at once. An instance set's files (a user's, from object storage) load in order: a later
    // file's key wins.
    if (deployment.cluster.clusterEnabled) await Promise.all(files.map(load));
    else for (const file of files) await load(file);
  } finally {
    client?.disconnect();
  }
}

/** The RDB files behind backup records: written when a backup is taken, removed when it is dropped. */
export class BackupFiles {
  /** Backups being written, by backup directory. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    private readonly root: string,
    private readonly warn: (message: string) => void,
    /** A backup's size or failure was recorded: persist it. */
    private readonly changed: () => void,
  ) {}

  private dir(b: StoredBackup): string {
    return join(this.root, "backups", b.projectId, b.name);
  }

  /**
   * Saves each primary's data of `cluster` (served by `deployment`, when it still runs); then the
   * backup's `size` is the bytes written, or its `failure` says why nothing could be.
   */
  taken(cluster: StoredCluster, backup: StoredBackup, deployment: Deployment | undefined): void {
    const dir = this.dir(backup);
    const primaries = cluster.shards.map((s) => s.nodes.find((n) => n.role === "primary")).filter((n): n is StoredNode => n !== undefined);
    const work = (async () => {
      mkdirSync(dir, { recursive: true });
      let bytes = 0;
      for (const [i, n] of primaries.entries()) {
        const server = deployment?.serving(n);
        if (!server) continue;
        const file = join(dir, `${String(i).padStart(4, "0")}.rdb`);
        await saveRdb(server, file);
        bytes += statSync(file).size;
      }
      backup.size = bytes;
    })()
      .catch((e: unknown) => {
        backup.failure = message(e);
        if (!deployment?.removed) this.warn(`backup ${backup.name} of ${cluster.name}: ${message(e)}`);
      })
      .finally(() => this.changed());
    this.writing.set(dir, work);
    // The cluster's processes stay until its backups are written (a delete right after a backup keeps it).
    if (deployment) deployment.backupsWriting = Promise.all([deployment.backupsWriting, work]).then(() => undefined);
  }

  dropped(backup: StoredBackup): void {
    const dir = this.dir(backup);
    this.writing.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  }

  /** The RDB files of a backup, once they are written. */
  files(backup: StoredBackup): RestoreFiles {
    const dir = this.dir(backup);
    return async () => {
      await this.writing.get(dir);
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((f) => f.endsWith(".rdb"))
        .sort()
        .map((f) => join(dir, f));
    };
  }

  /** A directory for files a restore brings in (removed once loaded). */
  incomingDir(): string {
    mkdirSync(tmpDir(this.root), { recursive: true });
    return tmpDir(this.root);
  }

  /** Until every backup being written is. */
  async written(): Promise<void> {
    await Promise.all(this.writing.values());
  }

  reset(): void {
    this.writing.clear();
  }
}
