/**
 * What credentials that renew themselves cost (`node dist/bench/credentials.js [--resources N]`;
 * part of `make bench`), against a local cloud in this process:
 *
 * - `pulumi preview` of a program declaring N buckets (default 1,000; the dynamic classes), once
 *   with only an access key (the provider has a token issued at its first check, and takes the
 *   project and the endpoints from it) and once with a static token, alternately, medians of two
 *   runs after one warm-up each: wall time and the requests the local cloud counted;
 * - the requests renewal adds: 1,000 reads through the client, 16 at a time, while the control API
 *   expires the token every 250 reads: the token requests and the reads sent again after a 401,
 *   against the same reads with a token that never expires.
 */
import * as path from "node:path";
import { parseArgs } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { startLocalCloud, type LocalCloud } from "../local-cloud";
import { authenticated, closeAllPools, resetTokens, resolveSettings, type Settings } from "../client/core";
import { ObjectStorageClient } from "../client/objectstorage";
import { accessKeyConfig, newProject, providerConfig, Sandbox } from "../tests/harness/engine";
import { lastRequestSeq } from "./measure";
import { writeNodeProgram } from "./program";
import { sized, type Row, type Study } from "./study";

const PROGRAM = `"use strict";
const pulumi = require("@pulumi/pulumi");
const krcloud = require("pulumi-krcloud");
const count = new pulumi.Config().requireNumber("count");
for (let i = 0; i < count; i++) new krcloud.objectstorage.Bucket("b" + i, {});
`;

async function requestsSince(cloud: LocalCloud, seq: number): Promise<{ operation: string; status: number }[]> {
  return ((await (await fetch(`${cloud.controlUrl}/requests?since=${seq}`)).json()) as { requests: { operation: string; status: number }[] }).requests;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface PreviewFigures {
  ms: number;
  requests: number;
  operations: string[];
}

async function preview(cloud: LocalCloud, stack: Stack): Promise<PreviewFigures> {
  const seq = await lastRequestSeq(cloud.controlUrl);
  const t = performance.now();
  await stack.preview({ color: "never" });
  const ms = performance.now() - t;
  const log = await requestsSince(cloud, seq);
  return { ms, requests: log.length, operations: [...new Set(log.map((r) => r.operation))] };
}

/** `reads` reads of one bucket, `concurrency` at a time, the token expired every `expireEvery` reads (never with 0). */
async function reads(
  cloud: LocalCloud,
  settings: Settings,
  bucket: string,
  n: number,
  concurrency: number,
  expireEvery: number,
): Promise<{ requests: number; refused: number; tokens: number }> {
  resetTokens();
  const complete = await authenticated(settings);
  const client = new ObjectStorageClient({ settings: complete });
  const seq = await lastRequestSeq(cloud.controlUrl);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      if (expireEvery > 0 && i > 0 && i % expireEvery === 0) cloud.control.expireTokens({});
      await client.getBucket(bucket);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const log = await requestsSince(cloud, seq);
  return {
    requests: log.length,
    refused: log.filter((r) => r.status === 401).length,
    tokens: log.filter((r) => r.operation === "IssueToken").length,
  };
}

export interface CredentialFigures {
  resources: number;
  accessKey: PreviewFigures;
  staticToken: PreviewFigures;
  steady: { requests: number; refused: number; tokens: number };
  expiring: { requests: number; refused: number; tokens: number };
}

export async function credentialBenchmarks(resources: number, log: (line: string) => void = () => undefined): Promise<CredentialFigures> {
  const cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
  const sandbox = new Sandbox({ label: "bench-credentials" });
  try {
    const p = await newProject(cloud, "benchcreds");
    const dir = writeNodeProgram(path.join(sandbox.root, "programs", "bench-credentials"), "krcloud-bench-credentials", PROGRAM, { linkModules: true });
    const count = { "krcloud-bench-credentials:count": { value: String(resources) } };
    const keyStack = await sandbox.createStack(dir, "access-key", accessKeyConfig(cloud, p, count));
    const tokenStack = await sandbox.createStack(dir, "static-token", providerConfig(p, count));

    await preview(cloud, keyStack);
    await preview(cloud, tokenStack);
    const runs: { key: PreviewFigures[]; token: PreviewFigures[] } = { key: [], token: [] };
    for (let round = 0; round < 2; round++) {
      runs.key.push(await preview(cloud, keyStack));
      runs.token.push(await preview(cloud, tokenStack));
      log(
        `credentials: preview of ${resources} buckets, round ${round + 1}: access key ${(runs.key.at(-1)!.ms / 1000).toFixed(1)} s, static token ${(runs.token.at(-1)!.ms / 1000).toFixed(1)} s`,
      );
    }
    const pick = (xs: PreviewFigures[]): PreviewFigures => ({ ...xs[0]!, ms: median(xs.map((x) => x.ms)) });

    const settings = resolveSettings(
      {},
      (k) => ({ credentialId: p.credentialId, credentialSecret: p.credentialSecret, identityEndpoint: `${cloud.url}/identity` })[k],
      {},
    );
    const bucket = "bench-credentials-reads";
    await new ObjectStorageClient({ settings: await authenticated(settings) }).createBucket({ name: bucket });
    const steady = await reads(cloud, settings, bucket, 1000, 16, 0);
    const expiring = await reads(cloud, settings, bucket, 1000, 16, 250);
    return { resources, accessKey: pick(runs.key), staticToken: pick(runs.token), steady, expiring };
  } finally {
    await closeAllPools();
    await cloud.close();
    sandbox.cleanup();
  }
}

/** The figures as rows of `make bench`'s table. */
export function credentialRows(f: CredentialFigures): Row[] {
  const n = f.resources.toLocaleString("en");
  const added = f.expiring.requests - f.steady.requests;
  return [
    {
      figure: `preview of ${n} buckets: only an access key vs a static token (s; requests)`,
      ours: `${(f.accessKey.ms / 1000).toFixed(1)} s; ${f.accessKey.requests} (${f.accessKey.operations.join(", ") || "none"})`,
      baseline: `${(f.staticToken.ms / 1000).toFixed(1)} s; ${f.staticToken.requests}`,
      ratio: `${(f.accessKey.ms / f.staticToken.ms).toFixed(2)}x the time`,
      goal: `one token request: ${f.accessKey.requests === 1 && f.accessKey.operations[0] === "IssueToken" ? "met" : "missed"}`,
    },
    {
      figure: "1,000 reads, 16 at a time, the token expired every 250: requests renewal adds (token requests; reads sent again after a 401)",
      ours: `+${added} (${f.expiring.tokens}; ${f.expiring.refused})`,
      baseline: `${f.steady.requests.toLocaleString("en")} requests with a token that lives`,
      ratio: `${((added / f.steady.requests) * 100).toFixed(1)} % more requests`,
      goal: `one token per expiry, at most 16 reads sent again each: ${f.expiring.tokens - f.steady.tokens <= 3 && f.expiring.refused <= 3 * 16 ? "met" : "missed"}`,
    },
  ];
}

/** An access key's preview beside a static token's, and what renewal adds, with 1,000 buckets (`make bench-smoke`: 10). */
export const credentialsStudy: Study = {
  name: "credentials",
  async run(ctx) {
    return { rows: credentialRows(await credentialBenchmarks(sized(ctx, 1000, 10), ctx.log)) };
  },
};

if (require.main === module) {
  const { values } = parseArgs({ options: { resources: { type: "string", default: "1000" } } });
  credentialBenchmarks(Number(values.resources), (l) => console.error(l))
    .then((f) => {
      for (const r of credentialRows(f)) console.log(`${r.ratio} | ${r.figure} | ${r.ours} | ${r.baseline} | ${r.goal}`);
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
