/**
 * `make bench`: a data-preserving replacement (`dataOnReplace: keep`, docs/changing-stateful-resources.md)
 * of a cluster holding N keys (100,000 by default, `KRCLOUD_BENCH_CACHE_KEYS`) beside a plain one
 * (`discard`: the new cluster empty), measured in one run on the local cloud's real redis-server
 * nodes, driven at the provider as the engine drives a replacement (check with the old inputs,
 * diff, the second check, create, then the old one's delete). Also: the backup's size and how long
 * taking it took; with a new name, how long writes made to the old cluster after the backup do not
 * reach the new one (from the backup request until the replacement runs); with the same name, how
 * long the cluster is unavailable (from the old one's delete until the restore runs). The windows
 * come from the local cloud's request log.
 */
import { randomUUID } from "node:crypto";
import { startLocalCloud, type LocalCloud } from "../local-cloud";
import { closeAllPools } from "../client/core";
import { provider } from "../provider/runtime";
import { STACK_KEY, URN_KEY } from "../provider/core/resource";
import { cacheClient, contents, expectedChecksum, writeKeys } from "../tests/harness/cache-data";
import { sized, type Row, type Study } from "./study";

export interface CacheReplacementFigures {
  keys: number;
  backupBytes: number;
  /** The backup request until the backup is available. */
  backupMs: number;
  /** A plain replacement (a new flavor, `discard`): the new cluster empty. */
  plainMs: number;
  /** The same change keeping the data, a new (generated) name. */
  keepMs: number;
  /** Writes to the old cluster after the backup request are not in the new one until this is over. */
  writesNotCarriedMs: number;
  /** The same name: back up, delete the old, restore under the name. */
  keepSameNameMs: number;
  /** The same name: from the old cluster's delete until the restore runs. */
  unavailableMs: number;
}

type Props = Record<string, unknown>;
const TOKEN = "krcloud:cache:Cluster";

/** One cluster of a stack, replaced the way the engine replaces (and checked the way it checks). */
class Replaced {
  private readonly p = provider(TOKEN);
  private readonly urn: string;
  private readonly stack = randomUUID();
  inputs: Props = {};
  outputs: Props = {};
  id = "";

  constructor(logical: string) {
    this.urn = `urn:pulumi:bench::bench::pulumi-nodejs:dynamic/krcloud/cache:Cluster::${logical}`;
  }

  private async check(olds: Props, args: Props): Promise<Props> {
    const r = await this.p.check(olds, { ...args, [URN_KEY]: this.urn, [STACK_KEY]: this.stack, __provider: "bench" });
    if (r.failures?.length) throw new Error(r.failures.map((f) => f.reason).join("; "));
    return r.inputs as Props;
  }

  async create(args: Props): Promise<void> {
    const inputs = await this.check({}, args);
    const r = await this.p.create(inputs);
    [this.id, this.inputs, this.outputs] = [r.id, inputs, r.outs as Props];
  }

  /** When the last replacement's create returned (the new cluster Running), on the wall clock. */
  createdAt = 0;

  /** A change that replaces; returns its wall time (the old one's delete included). */
  async replace(args: Props): Promise<number> {
    const started = performance.now();
    const inputs = await this.check(this.inputs, args);
    const d = await this.p.diff(this.id, this.outputs, inputs);
    if (!d.replaces?.length) throw new Error("the change does not replace the cluster");
    const fresh = await this.check({}, args);
    const old = { id: this.id, outputs: this.outputs };
    if (d.deleteBeforeReplace) await this.p.delete(old.id, old.outputs);
    const r = await this.p.create(fresh);
    this.createdAt = Date.now();
    if (!d.deleteBeforeReplace) await this.p.delete(old.id, old.outputs);
    [this.id, this.inputs, this.outputs] = [r.id, fresh, r.outs as Props];
    return performance.now() - started;
  }

  async destroy(): Promise<void> {
    if (this.id) await this.p.delete(this.id, this.outputs);
  }
}

const cluster = (over: Props): Props => ({
  version: "7.0.15",
  flavorId: "redis.small",
  parameterGroupId: "default.redis7.0.cluster",
  subnetIds: ["sn-a", "sn-b"],
  securityGroupIds: ["sg-1"],
  shards: [
    { primarySubnetId: "sn-a", replicaSubnetIds: [] },
    { primarySubnetId: "sn-b", replicaSubnetIds: [] },
  ],
  ...over,
});

/** When the first request of `operation` after `seq` was served (the local cloud's clock: real time, never advanced here). */
function firstAt(cloud: LocalCloud, seq: number, operation: string): number {
  const e = cloud.control.requests(seq).find((x) => x.service === "cache" && x.operation === operation);
  if (!e) throw new Error(`no ${operation} request`);
  return Date.parse(e.time);
}

export async function cacheReplacementBenchmarks(keys: number, log: (line: string) => void): Promise<CacheReplacementFigures> {
  const cloud = await startLocalCloud({ port: 0, cacheEngine: "redis" });
  const made: Replaced[] = [];
  try {
    const cred = cloud.control.issueCredentials({});
    if (cred.kind !== "token") throw new Error("expected a token");
    const config: Record<string, string> = { "krcloud:localCloudUrl": cloud.url, "krcloud:authToken": cred.token, "krcloud:projectId": cred.projectId };
    await provider(TOKEN).configure({ config: { get: (k: string) => config[k] } } as never);
    const seqNow = () => cloud.control.requests().at(-1)?.seq ?? 0;
    const filled = async (name: string, over: Props = {}): Promise<Replaced> => {
      const r = new Replaced(name);
      made.push(r);
      await r.create(cluster(over));
      const c = cacheClient(String(r.outputs.primaryEndpoint), true);
      await writeKeys(c, keys);
      c.disconnect();
      return r;
    };
    const holds = async (r: Replaced): Promise<boolean> => {
      const c = cacheClient(String(r.outputs.primaryEndpoint), true);
      try {
        return (await contents(c)).checksum === expectedChecksum(keys);
      } finally {
        c.disconnect();
      }
    };

    log(`cache replacement: ${keys.toLocaleString("en")} keys, a plain replacement`);
    const plain = await filled("plain");
    const plainMs = await plain.replace(cluster({ flavorId: "redis.medium" }));

    log("cache replacement: keeping the data, a new name");
    const kept = await filled("kept", { dataOnReplace: "keep" });
    let seq = seqNow();
    const keepMs = await kept.replace(cluster({ dataOnReplace: "keep", flavorId: "redis.medium" }));
    const writesNotCarriedMs = kept.createdAt - firstAt(cloud, seq, "CreateBackup");
    if (!(await holds(kept))) throw new Error("the replacement that keeps the data lost some");
    const backup = kept.outputs.replacementBackup as { id: string; sizeBytes?: number };
    const backupLog = cloud.control.requests(seq).filter((e) => e.service === "cache");
    const taken = backupLog.find((e) => e.operation === "CreateBackup")!;
    const ready = [...backupLog].reverse().find((e) => e.operation === "GetBackup")!;
    const backupMs = Date.parse(ready.time) - Date.parse(taken.time);

    log("cache replacement: keeping the data, the same name");
    const named = await filled("named", { name: "bench-named", dataOnReplace: "keep" });
    seq = seqNow();
    const keepSameNameMs = await named.replace(cluster({ name: "bench-named", dataOnReplace: "keep", flavorId: "redis.medium" }));
    const unavailableMs = named.createdAt - firstAt(cloud, seq, "DeleteCluster");
    if (!(await holds(named))) throw new Error("the same-name replacement lost some of the data");

    return { keys, backupBytes: backup.sizeBytes ?? 0, backupMs, plainMs, keepMs, writesNotCarriedMs, keepSameNameMs, unavailableMs };
  } finally {
    for (const r of made) await r.destroy().catch(() => undefined);
    await closeAllPools();
    await cloud.close();
  }
}

/** The study of `make bench` (100,000 keys; 1,000 for `make bench-smoke`; KRCLOUD_BENCH_CACHE_KEYS overrides the full size). */
export const cacheReplacementStudy: Study = {
  name: "cache-replacement",
  async run(ctx) {
    const cr = await cacheReplacementBenchmarks(sized(ctx, Number(process.env.KRCLOUD_BENCH_CACHE_KEYS ?? 100_000), 1_000), ctx.log);
    const rows: Row[] = [
      {
        figure: `cache cluster replaced (a new flavor), ${cr.keys.toLocaleString("en")} keys on 2 shards: dataOnReplace keep (backup, restore, wait; a new name) vs a plain replacement (empty) (s)`,
        ours: `${(cr.keepMs / 1000).toFixed(1)} s`,
        baseline: `${(cr.plainMs / 1000).toFixed(1)} s`,
        ratio: `${(cr.keepMs / cr.plainMs).toFixed(2)}x`,
        goal: "every key kept",
      },
      {
        figure:
          "the same, keeping the name (back up, delete, restore under it) vs a new name (s); unavailable from the old one's delete until the restore runs",
        ours: `${(cr.keepSameNameMs / 1000).toFixed(1)} s; unavailable ${(cr.unavailableMs / 1000).toFixed(1)} s`,
        baseline: `${(cr.keepMs / 1000).toFixed(1)} s`,
        ratio: `${(cr.keepSameNameMs / cr.keepMs).toFixed(2)}x`,
        goal: "said in the preview",
      },
      {
        figure: "its backup: size, and the request until available; writes after the backup request not in the new cluster until it runs (a new name)",
        ours: `${(cr.backupBytes / 1e6).toFixed(1)} MB in ${(cr.backupMs / 1000).toFixed(1)} s; ${(cr.writesNotCarriedMs / 1000).toFixed(1)} s`,
        baseline: "-",
        ratio: `${Math.round(cr.backupBytes / cr.keys).toLocaleString("en")} B/key`,
        goal: "said in the docs",
      },
    ];
    return { rows };
  },
};
