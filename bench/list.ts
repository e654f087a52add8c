/**
 * Listing through the native plugin (`node dist/bench/list.js [--buckets N]`; part of `make bench`),
 * against a local cloud in this process with the real Pulumi CLI: a project holding N buckets
 * (default 1,000) made outside Pulumi, listed by `pulumi do krcloud:objectstorage:Bucket list --all`
 * (the plugin's List, page after page), beside `krcloud-drift --unmanaged` on the same project (the
 * same `list`, over every listable type, and each bucket's objects, CORS policy and lifecycle
 * configuration). Each: wall time (CLI and plugin start included) and the HTTP requests the local
 * cloud counted.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { resolveSettings } from "../client/core";
import { ObjectStorageClient } from "../client/objectstorage";
import { pulumiBinDir, runNode, runPulumi } from "../tests/harness/engine";
import { lastRequestSeq, timed } from "./measure";
import { entry } from "../tests/harness/entries";
import { withBed } from "./bed";
import { figuresStudy, runAlone } from "./study";

export interface ListFigures {
  buckets: number;
  doMs: number;
  doRequests: number;
  driftMs: number;
  driftRequests: number;
}

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(cmd, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${path.basename(cmd)} ${args.join(" ")}: ${err.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

export async function listBenchmarks(o: { buckets: number }, log: (line: string) => void): Promise<ListFigures> {
  return withBed({ label: "list", project: "benchlist", plugin: true }, async ({ cloud, sandbox, project }) => {
    const env = {
      ...sandbox.env(),
      KRCLOUD_LOCAL_CLOUD_URL: cloud.url,
      KRCLOUD_PROJECT_ID: project.projectId,
      KRCLOUD_AUTH_TOKEN: project.token,
      KRCLOUD_CREDENTIAL_ID: project.credentialId,
      KRCLOUD_CREDENTIAL_SECRET: project.credentialSecret,
    };
    const c = new ObjectStorageClient({
      settings: resolveSettings({ localCloudUrl: cloud.url, authToken: project.token, projectId: project.projectId }, () => undefined, {}),
    });
    const names = Array.from({ length: o.buckets }, (_, i) => `listed-${String(i).padStart(5, "0")}`);
    for (let i = 0; i < names.length; i += 32) await Promise.all(names.slice(i, i + 32).map((name) => c.createBucket({ name })));

    // An empty stack: krcloud-drift --unmanaged reports what no stack manages, so it needs one.
    const dir = path.join(sandbox.root, "bench-list");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: krcloud-bench-list\nruntime: yaml\n");
    await runPulumi(sandbox, ["stack", "init", "dev"], dir);

    let before = await lastRequestSeq(cloud.controlUrl);
    const [doMs, out] = await timed(() =>
      run(path.join(pulumiBinDir(), "pulumi"), ["do", "krcloud:objectstorage:Bucket", "list", "--all", "--color", "never"], dir, env),
    );
    const doRequests = (await lastRequestSeq(cloud.controlUrl)) - before;
    const listed = (JSON.parse(out) as unknown[]).length;
    if (listed !== o.buckets) throw new Error(`pulumi do … list listed ${listed} buckets of ${o.buckets}`);
    log(`pulumi do krcloud:objectstorage:Bucket list --all of ${o.buckets} buckets: ${(doMs / 1000).toFixed(1)} s; ${doRequests} requests`);

    before = await lastRequestSeq(cloud.controlUrl);
    const [driftMs, r] = await timed(() => runNode(entry("drift"), ["--cwd", dir, "--stack", "dev", "--unmanaged", "--format", "json"], env));
    const driftRequests = (await lastRequestSeq(cloud.controlUrl)) - before;
    // Exit 2: it found what no stack manages, which is every bucket here.
    if (r.code !== 2) throw new Error(`krcloud-drift --unmanaged exited ${r.code}: ${r.stderr}${r.stdout.slice(0, 2000)}`);
    const found = (JSON.parse(r.stdout) as { resources: { token: string }[] }).resources.filter((x) => x.token === "krcloud:objectstorage:Bucket").length;
    if (found !== o.buckets) throw new Error(`krcloud-drift --unmanaged found ${found} buckets of ${o.buckets}`);
    log(`krcloud-drift --unmanaged on the same project: ${(driftMs / 1000).toFixed(1)} s; ${driftRequests} requests`);
    return { buckets: o.buckets, doMs, doRequests, driftMs, driftRequests };
  });
}

/** The plugin's List through `pulumi do` beside krcloud-drift --unmanaged, on 1,000 buckets (`make bench-smoke`: 10). */
export const listStudy = figuresStudy("list", { full: { buckets: 1000 }, smoke: { buckets: 10 } }, listBenchmarks, (l) => {
  return {
    rows: [
      {
        figure: `pulumi do krcloud:objectstorage:Bucket list --all of ${l.buckets.toLocaleString("en")} buckets vs krcloud-drift --unmanaged on the same project (s; requests)`,
        ours: `${(l.doMs / 1000).toFixed(1)} s; ${l.doRequests}`,
        baseline: `${(l.driftMs / 1000).toFixed(1)} s; ${l.driftRequests}`,
        ratio: `${(l.driftMs / l.doMs).toFixed(2)}x faster`,
        goal: "-",
      },
    ],
  };
});

if (require.main === module) {
  runAlone("bench-list", listStudy, { print: false });
}
