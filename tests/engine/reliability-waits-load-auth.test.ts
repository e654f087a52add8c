/**
 * Issue #18 "Waits, load, auth", through the real CLI:
 *
 * - waits tolerate failing polls until their own deadline: a burst of 503 answers on the status
 *   call (several seconds of failed polls) during a long cache cluster create does not end it
 *   (review class 6);
 * - load: 52 resources of all 13 types with `pulumi up --parallel 50` under a 429 fault hitting
 *   40 % of all requests succeed, and the throttling is reported (progress lines, request log);
 * - auth: a token of another project than `krcloud:projectId` is refused before anything is
 *   created in either project, refresh and destroy with it change nothing (a read or delete with it
 *   would find nothing and drop the resources from state), and once the config is right again
 *   `destroy --run-program` removes everything (review class 8).
 */
import { ENGINE_TEST_TIMEOUT_MS, expectFailure, newProject } from "../harness/engine";
import {
  addFault,
  audit,
  clearFaults,
  controlCall,
  faultFired,
  faultsBed,
  hold,
  release,
  stackInventory,
  until,
  type Bed,
} from "../support/faults/reliability";
import { engineFile } from "../harness/engine/engine-file";
import { findings, NONE } from "../support/faults/reliability-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "reliability-wla" });

test("waits: a 503 burst of several seconds on the status call during a long cache cluster create does not end the create", async () => {
  const bed = await faultsBed(engine.cloud, engine.sandbox, "waits", { res: "cluster" });
  await hold(engine.cloud, "cache", "node");
  // 15 answers: the transport tries each poll 5 times, so three polls in a row fail (about 10 s).
  const burst = await addFault(engine.cloud, { service: "cache", operation: "GetCluster", action: "error", status: 503, times: 15 });
  const up = bed.stack.up({ color: "never" });
  const started = Date.now();
  await until("the burst is over", async () => (await faultFired(engine.cloud, burst)) === 15);
  const burstMs = Date.now() - started;
  await release(engine.cloud, "cache", "node");
  const result = await up;
  expect(result.summary.result).toBe("succeeded");
  expect(burstMs).toBeGreaterThan(3_000);
  const failedPolls = result.stdout.match(/reading its state failed \(.*503.*\); trying again/g) ?? [];
  expect(failedPolls.length).toBeGreaterThanOrEqual(3);
  const after = await audit(bed);
  expect(findings(after)).toEqual(NONE);
  expect(after.entries.map((e) => e.outputs.status)).toEqual(["Running"]);
});

test("load: 52 resources of all 13 types with --parallel 50, 40 % of all requests answered 429: every one is created, the throttling is reported", async () => {
  const bed = await faultsBed(engine.cloud, engine.sandbox, "load", {
    res: "bucket,cors,lifecycle,object,pg,cluster,shard,iset,ds,query,hadoop,cipher,datakey",
    copies: "4",
  });
  const seq = ((await controlCall(engine.cloud, "GET", "/requests")) as { lastSeq: number }).lastSeq;
  const storm = await addFault(engine.cloud, { action: "error", status: 429, retryAfter: 1, probability: 0.4 });
  const started = Date.now();
  const up = await bed.stack.up({ color: "never", parallel: 50 });
  const ms = Date.now() - started;
  const fired = await faultFired(engine.cloud, storm);
  await clearFaults(engine.cloud);
  expect(up.summary.result).toBe("succeeded");
  // 52, the stack and its identity (krcloud-stack).
  expect(up.summary.resourceChanges?.create).toBe(54);

  const after = await audit(bed);
  expect(findings(after)).toEqual(NONE);
  expect(after.entries).toHaveLength(52);
  expect(new Set(after.entries.map((e) => e.token)).size).toBe(13);
  // Reported: in the progress lines of the resources that rode it out, and in the request log.
  const reported = up.stdout.match(/: \d+ of \d+ requests were throttled \(429\) and retried/g) ?? [];
  expect(reported.length).toBeGreaterThan(10);
  const log = ((await controlCall(engine.cloud, "GET", `/requests?since=${seq}`)) as { requests: { status: number; fault?: string }[] }).requests;
  const throttled = log.filter((r) => r.status === 429 && r.fault === "error").length;
  expect(throttled).toBe(fired);
  expect(throttled / log.length).toBeGreaterThan(0.25);
  console.log(
    `load: 52 resources in ${(ms / 1000).toFixed(1)} s; ${log.length} requests, ${throttled} answered 429 and retried; ${reported.length} progress lines report throttling`,
  );
  await bed.stack.preview({ expectNoChanges: true, color: "never" });
});

describe("auth: a token of another project", () => {
  let bed: Bed;
  let other: Awaited<ReturnType<typeof newProject>>;

  beforeAll(async () => {
    bed = await faultsBed(engine.cloud, engine.sandbox, "auth", { res: "bucket,cluster,cipher" });
    other = await newProject(engine.cloud, "authother");
  });

  const useToken = (token: string) => bed.stack.setConfig("krcloud:authToken", { value: token, secret: true });
  const inventories = async () => ({
    mine: await stackInventory(bed),
    other: await stackInventory({ cloud: engine.cloud, project: other, resultBucket: "-" }),
  });
  const REFUSED = /the auth token \(krcloud:authToken\) does not belong to project "[^"]+" \(krcloud:projectId\)/;

  test("up is refused before anything is created in either project; destroy is not blocked", async () => {
    await useToken(other.token);
    expect(await expectFailure(() => bed.stack.up({ color: "never" }))).toMatch(REFUSED);
    expect(await inventories()).toEqual({ mine: [], other: [] });
    expect((await audit(bed)).entries).toEqual([]);
    expect((await bed.stack.destroy({ color: "never" })).summary.result).toBe("succeeded");
  });

  test("with resources in state: up, refresh and destroy with the other token are refused and change nothing; with the right token destroy removes everything", async () => {
    await useToken(bed.project.token);
    expect((await bed.stack.up({ color: "never" })).summary.result).toBe("succeeded");
    const made = await inventories();
    expect(made.mine).toHaveLength(2);
    const recordedBefore = (await audit(bed)).entries.map((e) => e.id).sort();
    expect(recordedBefore).toHaveLength(3);

    await useToken(other.token);
    await bed.stack.setConfig("krcloud-test-faults:res", { value: "bucket,cluster,cipher,iset" });
    expect(await expectFailure(() => bed.stack.up({ color: "never" }))).toMatch(REFUSED);
    // Refresh would otherwise find nothing with that token, call the bucket and the cluster gone and drop them.
    expect(await expectFailure(() => bed.stack.refresh({ color: "never" }))).toMatch(REFUSED);
    expect(await expectFailure(() => bed.stack.destroy({ color: "never" }))).toMatch(REFUSED);
    expect(await inventories()).toEqual(made);
    expect((await audit(bed)).entries.map((e) => e.id).sort()).toEqual(recordedBefore);

    // The config is right again. A plain destroy runs the providers with the configuration the last
    // up stored in state (Pulumi's rule: the program does not run), which is the refused token: it
    // is refused again and changes nothing. `--run-program` configures them from the stack's config.
    await useToken(bed.project.token);
    expect(await expectFailure(() => bed.stack.destroy({ color: "never" }))).toMatch(REFUSED);
    expect(await inventories()).toEqual(made);
    expect((await bed.stack.destroy({ color: "never", runProgram: true })).summary.result).toBe("succeeded");
    expect(await inventories()).toEqual({ mine: [], other: [] });
    expect((await audit(bed)).entries).toEqual([]);
  });
});
