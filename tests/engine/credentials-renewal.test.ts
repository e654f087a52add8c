/**
 * Issue 26, tokens that outlive nothing: a local cloud whose tokens live 20 seconds.
 *
 * - A Hadoop cluster create and a cache cluster create, each held 60 seconds, succeed: every poll
 *   of their waits sends the current token, renewed before it expires (the cache stack's tokens
 *   come from a token command, run again at each renewal).
 * - 50 buckets created with `--parallel 50` across an expiry (a YAML program on the native plugin;
 *   the local cloud expires the token while their creates are in flight): all are created, and the
 *   local cloud issued 2 tokens for them, not 50.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startLocalCloud } from "../../local-cloud";
import { accessKeyConfig, ENGINE_TEST_TIMEOUT_MS, tokensIssued } from "../harness/engine";
import { audit, controlCall, faultFired, FAULTS_PROGRAM, NS, projectBed, until } from "../support/faults/reliability";
import { engineFile } from "../harness/engine/engine-file";
import { findings, NONE } from "../support/faults/reliability-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const TTL_MS = 20_000;
const HOLD_MS = 60_000;

const engine = engineFile({ label: "credentials-renewal", plugin: true, start: () => startLocalCloud({ port: 0, tokenTtlMs: TTL_MS }) });

test("a Hadoop cluster and a cache cluster, each held 60 s with tokens of 20 s, are created; the token command runs again at each renewal", async () => {
  const hadoop = await projectBed(engine.cloud, "renewhadoop");
  const hadoopDir = engine.sandbox.copyProgram(FAULTS_PROGRAM, "faults-renewhadoop");
  const hadoopStack = await engine.sandbox.createStack(
    hadoopDir,
    "renewhadoop",
    accessKeyConfig(engine.cloud, hadoop.project, { [`${NS}:res`]: { value: "hadoop" } }),
  );

  // The cache stack's tokens come from a token command asking the identity service, as a
  // credential helper would; it counts its runs.
  const cache = await projectBed(engine.cloud, "renewcache");
  const counter = path.join(engine.sandbox.root, "renewcache-runs");
  const script = path.join(engine.sandbox.root, "renewcache-token.js");
  fs.writeFileSync(
    script,
    `require("fs").appendFileSync(${JSON.stringify(counter)}, "run\\n");
fetch(${JSON.stringify(`${engine.cloud.url}/identity/v3/auth/tokens`)}, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: ${JSON.stringify(JSON.stringify({ auth: { identity: { methods: ["application_credential"], application_credential: { id: cache.project.credentialId, secret: cache.project.credentialSecret } } } }))},
}).then(async (r) => {
  const t = (await r.json()).token;
  process.stdout.write(JSON.stringify({ token: r.headers.get("x-subject-token"), expiresAt: t.expires_at, projectId: t.project.id }));
});
`,
  );
  const cacheDir = engine.sandbox.copyProgram(FAULTS_PROGRAM, "faults-renewcache");
  const cacheStack = await engine.sandbox.createStack(cacheDir, "renewcache", {
    "krcloud:tokenCommand": { value: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}` },
    "krcloud:localCloudUrl": { value: engine.cloud.url },
    [`${NS}:res`]: { value: "cluster" },
  });

  await controlCall(engine.cloud, "PUT", "/transitions", { service: "hadoop", kind: "cluster", mode: "duration", ms: HOLD_MS });
  await controlCall(engine.cloud, "PUT", "/transitions", { service: "cache", kind: "node", mode: "duration", ms: HOLD_MS });
  const started = Date.now();
  try {
    const [h, c] = await Promise.all([hadoopStack.up({ color: "never" }), cacheStack.up({ color: "never" })]);
    expect([h.summary.result, c.summary.result]).toEqual(["succeeded", "succeeded"]);
  } finally {
    await controlCall(engine.cloud, "PUT", "/transitions", { service: "hadoop", kind: "cluster", mode: "immediate" });
    await controlCall(engine.cloud, "PUT", "/transitions", { service: "cache", kind: "node", mode: "immediate" });
  }
  const ms = Date.now() - started;
  expect(ms).toBeGreaterThan(HOLD_MS);
  const runs = fs.readFileSync(counter, "utf8").split("\n").filter(Boolean).length;
  // Once at the start, then about every 15 s (a quarter of 20 s before each expiry) while it polled.
  expect(runs).toBeGreaterThanOrEqual(1 + Math.floor(HOLD_MS / TTL_MS));
  expect(runs).toBeLessThanOrEqual(2 + Math.ceil(ms / (TTL_MS * 0.75)));
  for (const b of [
    { ...hadoop, dir: hadoopDir, stack: hadoopStack, stackName: "renewhadoop", backendDir: engine.sandbox.backendDir },
    { ...cache, dir: cacheDir, stack: cacheStack, stackName: "renewcache", backendDir: engine.sandbox.backendDir },
  ]) {
    const after = await audit(b);
    expect(findings(after)).toEqual(NONE);
    expect(after.entries.map((e) => e.outputs.status)).toEqual(["Running"]);
  }
  console.log(
    `renewal: both creates held ${HOLD_MS / 1000} s took ${(ms / 1000).toFixed(1)} s with tokens of ${TTL_MS / 1000} s; the token command ran ${runs} times`,
  );
  await Promise.all([hadoopStack.destroy({ color: "never" }), cacheStack.destroy({ color: "never" })]);
});

test("50 buckets with --parallel 50 across an expiry (native plugin): all created, 1 or 2 tokens issued, not 50", async () => {
  // The plugin's checks of 50 buckets take a few seconds, well inside the 15 s a 20-s token is used
  // before it is renewed: the tokens counted are the first one and the one the expiry calls for.
  const p = await projectBed(engine.cloud, "renew50");
  const dir = path.join(engine.sandbox.root, "programs", "renew50");
  fs.mkdirSync(dir, { recursive: true });
  const buckets = Array.from({ length: 50 }, (_, i) => `  site${i + 1}:\n    type: krcloud:objectstorage:Bucket\n    properties: { forceDestroy: true }`);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), ["name: krcloud-test-renew50", "runtime: yaml", "resources:", ...buckets, ""].join("\n"));
  const stack = await engine.sandbox.createStack(dir, "renew50", accessKeyConfig(engine.cloud, p.project));
  // The creates are held in the local cloud (authenticated already), the token expires under them,
  // and what each create sends next (reading the bucket back) meets a 401.
  const slow = (await controlCall(engine.cloud, "POST", "/faults", {
    service: "object-storage",
    operation: "CreateBucket",
    action: "latency",
    latencyMs: 5_000,
    times: 50,
  })) as {
    id: string;
  };
  const seq = ((await controlCall(engine.cloud, "GET", "/requests")) as { lastSeq: number }).lastSeq;
  const started = Date.now();
  const up = stack.up({ color: "never", parallel: 50 });
  await until("the 50 creates are in flight", async () => (await faultFired(engine.cloud, slow.id)) === 50);
  const expired = (await controlCall(engine.cloud, "POST", "/tokens/expire", { credentialId: p.project.credentialId })) as { expired: number };
  const result = await up;
  const ms = Date.now() - started;
  expect(result.summary.resourceChanges?.create).toBe(51);

  const log = ((await controlCall(engine.cloud, "GET", `/requests?since=${seq}`)) as { requests: { status: number }[] }).requests;
  const refused = log.filter((r) => r.status === 401).length;
  const issued = await tokensIssued(engine.cloud, p.project.credentialId);
  // The tokens live at the expiry (the first, or also its proactive renewal when the 50 checks took
  // longer than three quarters of a token's life) and the one the expiry calls for: never one per
  // resource.
  expect(expired.expired).toBeGreaterThanOrEqual(1);
  expect(expired.expired).toBeLessThanOrEqual(2);
  expect(refused).toBeGreaterThan(0);
  expect(issued).toBe(expired.expired + 1);
  const after = await audit({ ...p, dir, stack, stackName: "renew50", backendDir: engine.sandbox.backendDir });
  expect(findings(after)).toEqual(NONE);
  expect(after.entries).toHaveLength(50);
  console.log(
    `renewal: 50 buckets across an expiry in ${(ms / 1000).toFixed(1)} s: ${refused} requests refused with the expired token, ${issued} tokens issued in all`,
  );
  await stack.destroy({ color: "never", parallel: 50 });
});
