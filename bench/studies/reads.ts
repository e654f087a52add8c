/**
 * Fewer reads (issue 36 item 4): requests per resource of a refresh and of a drift check of N
 * resources of every resource type of the registry (N = 1,000; 20 at the smoke size), with reads
 * answered from list pages off (before: `KRCLOUD_READS_FROM_LIST=off`, one read per resource) and on
 * (after: provider/core/list-reads.ts), in one run, all in one project of one local cloud
 * (reads-plant.ts makes them). Requests are the local cloud's request log's count for the type's
 * service.
 *
 * Refresh: each resource read through the provider's own `read` (what `pulumi refresh` and
 * krcloud-drift's refresh-preview call), 16 at a time as an engine with `--parallel 16` sends them.
 *
 * Drift check: krcloud-drift makes the same reads, then lists what no stack manages
 * (drift/unmanaged/discover.ts: every listable type of every service once, and within each bucket
 * its objects and documents). The discovery is measured once over everything planted, per service
 * (D_s requests to service s), and spread over the R_s resources planted in that service:
 * drift-check requests per resource of type T in service s = refresh(T) + D_s / R_s. A project
 * holding only type T would pay the same D_s over fewer resources; the share is of this fleet.
 *
 * The types that declare `readsFromList: { no }` are measured too: before = after is their honest
 * figure (KMS's made-once types read nothing at all).
 */
import { closeAllPools, resolveSettings, type Settings } from "../../client/core";
import { forEachLimit } from "../../client/core/concurrency";
import { discover } from "../../drift/unmanaged/discover";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import { READS_FROM_LIST_ENV } from "../../provider/core/list-reads";
import { allDefinitions } from "../../provider/registry";
import { provider } from "../../provider/runtime";
import { sized, type Row, type Study } from "../study";
import { plantAll, type Planted } from "./reads-plant";

const PARALLEL = 16;

type Mode = "off" | "on";

export const readsStudy: Study = {
  name: "reads",
  async run(ctx) {
    const n = sized(ctx, 1_000, 20);
    const cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
    try {
      const { settings, config } = credentials(cloud);
      const t = performance.now();
      const planted = await plantAll(
        cloud,
        settings,
        n,
        allDefinitions().map((d) => d.token),
      );
      ctx.log(`reads: planted ${planted.length} types x ${n} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const perService = new Map<string, number>();
      for (const p of planted) perService.set(p.service, (perService.get(p.service) ?? 0) + p.ids.length);
      const discovery = { off: await discovered(cloud, settings, "off", perService), on: await discovered(cloud, settings, "on", perService) };
      const rows: Row[] = [];
      for (const p of planted) {
        const before = await refresh(cloud, config, p, "off");
        const after = await refresh(cloud, config, p, "on");
        const share = {
          off: (discovery.off.get(p.service) ?? 0) / perService.get(p.service)!,
          on: (discovery.on.get(p.service) ?? 0) / perService.get(p.service)!,
        };
        const driftBefore = before + share.off;
        const driftAfter = after + share.on;
        ctx.log(
          `reads: ${p.token}: refresh ${before.toFixed(3)} -> ${after.toFixed(3)}, drift check ${driftBefore.toFixed(3)} -> ${driftAfter.toFixed(3)} requests per resource (${p.ids.length})`,
        );
        const type = p.token.split(":").slice(1).join(":");
        const goal = goalOf(p.token);
        rows.push({
          figure: `refresh of ${p.ids.length} ${type}: requests per resource`,
          ours: after.toFixed(3),
          baseline: before.toFixed(3),
          ratio: ratioOf(before, after),
          goal,
        });
        rows.push({
          figure: `drift check of ${p.ids.length} ${type}: requests per resource (refresh + ${share.on.toFixed(3)}, the ${p.service} discovery's share: ${discovery.on.get(p.service) ?? 0} requests / ${perService.get(p.service)} ${p.service} resources)`,
          ours: driftAfter.toFixed(3),
          baseline: driftBefore.toFixed(3),
          ratio: ratioOf(driftBefore, driftAfter),
          goal,
        });
      }
      const notes = [
        `Reads study: ${n} of each of the ${planted.length} resource types in one project; drift check per resource = refresh + the discovery's requests to the type's service / the resources planted in that service (bench/studies/reads.ts).`,
        "KMS Ciphertext and DataKey: made through the client (one encrypt or data-key call each); the service keeps nothing of them, so their read makes no request and no discovery lists them.",
      ];
      return { rows, notes };
    } finally {
      delete process.env[READS_FROM_LIST_ENV];
      await closeAllPools();
      await cloud.close();
    }
  },
};

function ratioOf(before: number, after: number): string {
  return after === before ? "unchanged" : after > 0 ? `${(before / after).toFixed(1)}x fewer` : "none left";
}

function goalOf(token: string): string {
  const r = allDefinitions().find((d) => d.token === token)?.readsFromList;
  if (r === undefined) return "unchanged (declares nothing)";
  if ("no" in r) return `unchanged (declares no: ${r.no})`;
  return r.also !== undefined ? `about 1 per resource: one walk, plus ${r.also}` : "fewer than 1 per resource (one walk)";
}

function setMode(mode: Mode): void {
  if (mode === "off") process.env[READS_FROM_LIST_ENV] = "off";
  else delete process.env[READS_FROM_LIST_ENV];
}

/** The discovery's requests per service (krcloud-drift --unmanaged's listing of the whole project). */
async function discovered(cloud: LocalCloud, settings: Settings, mode: Mode, services: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  setMode(mode);
  const before = new Map([...services.keys()].map((s) => [s, servedBy(cloud, s)]));
  const d = await discover(settings, new Set());
  if (d.errors.length > 0) throw new Error(`reads: the discovery failed: ${d.errors.map((e) => `${e.service}: ${e.error}`).join("; ")}`);
  return new Map([...services.keys()].map((s) => [s, servedBy(cloud, s) - before.get(s)!]));
}

function credentials(cloud: LocalCloud): { settings: Settings; config: Record<string, string> } {
  const token = cloud.control.issueCredentials({});
  if (token.kind !== "token") throw new Error("expected a token");
  const key = cloud.control.issueCredentials({ projectId: token.projectId, kind: "access-key" });
  if (key.kind !== "access-key") throw new Error("expected an access key");
  const settings = resolveSettings(
    { localCloudUrl: cloud.url, authToken: token.token, projectId: token.projectId, credentialId: key.credentialId, credentialSecret: key.credentialSecret },
    () => undefined,
    {},
  );
  const config = {
    "krcloud:localCloudUrl": cloud.url,
    "krcloud:authToken": token.token,
    "krcloud:projectId": token.projectId,
    "krcloud:credentialId": key.credentialId,
    "krcloud:credentialSecret": key.credentialSecret,
  };
  return { settings, config };
}

/** The requests per resource of reading every one of `p`, PARALLEL at a time, through the provider's read. */
async function refresh(cloud: LocalCloud, config: Record<string, string>, p: Planted, mode: Mode): Promise<number> {
  setMode(mode);
  const prov = provider(p.token);
  await prov.configure({ config: { get: (k: string) => config[k] } } as never);
  const before = servedBy(cloud, p.service);
  let gone = 0;
  await forEachLimit(p.ids, PARALLEL, async (id) => {
    if ((await prov.read(id, {}, { progress: () => undefined })).id === "") gone++;
  });
  if (gone > 0) throw new Error(`reads: ${gone} of ${p.ids.length} ${p.token} read as gone`);
  return (servedBy(cloud, p.service) - before) / p.ids.length;
}

function servedBy(cloud: LocalCloud, service: string): number {
  let total = 0;
  for (const [k, v] of Object.entries(cloud.control.counters().byOperation)) if (k.startsWith(`${service}.`)) total += v;
  return total;
}
