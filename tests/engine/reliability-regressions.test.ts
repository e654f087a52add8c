/**
 * Regression tests of the review's classes at the level a user meets them, `pulumi up` and
 * `pulumi destroy` through the real CLI:
 *
 * - class 1: a lost answer to each non-idempotent create (cache Cluster, InstanceSet,
 *   ParameterGroup, Hadoop Cluster, DataSource) leaves no orphan and makes no duplicate; a data
 *   source whose listing fails right after its create stays in state;
 * - class 2: no request that is not idempotent is sent twice: AddShard and a RunQuery of an INSERT
 *   under a lost answer make one shard and one row;
 * - class 9: errors reach the user without JavaScript stacks (a failed delete in `pulumi destroy`);
 *
 * and a sample of the fault matrix's cells through the CLI: a create answered 500 until the fault is
 * cleared, a create stuck past its timeout, a query that ends FAILED (then fixed: a replacement),
 * deletes whose answers are lost; and replacements, which the engine checks a second time without
 * their old inputs (tests/faults/replacement.test.ts has every type).
 *
 * The other classes: 3 in reliability-kill.test.ts; 6 and 8 in reliability-waits-load-auth.test.ts;
 * 4, 5 and 7 in tests/faults/regressions.test.ts. The fault matrix (tests/faults) runs every class
 * of fault against every resource type at the provider level.
 */
import { ENGINE_TEST_TIMEOUT_MS, expectFailure } from "../harness/engine";
import { addFault, audit, clearFaults, faultFired, faultsBed, hold, release, runSql, stackInventory } from "../support/faults/reliability";
import { engineFile } from "../harness/engine/engine-file";
import { findings, NONE } from "../support/faults/reliability-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const engine = engineFile({ label: "reliability-regressions" });

afterEach(() => clearFaults(engine.cloud));

const kinds = (inventory: string[]) => inventory.map((e) => e.slice(0, e.indexOf(":"))).sort();

test("class 1: the answer to each non-idempotent create is lost once; up recovers each, once, with nothing left over", async () => {
  const bed = await faultsBed(engine.cloud, engine.sandbox, "lostcreate", { res: "pg,cluster,iset,ds,hadoop" });
  const faults = [
    await addFault(engine.cloud, { service: "cache", operation: "CreateParameterGroup", action: "lose-response", times: 1 }),
    await addFault(engine.cloud, { service: "cache", operation: "CreateCluster", action: "lose-response", times: 1 }),
    await addFault(engine.cloud, { service: "cache", operation: "CreateInstanceSet", action: "lose-response", times: 1 }),
    await addFault(engine.cloud, { service: "data-query", operation: "CreateDataSource", action: "lose-response", times: 1 }),
    await addFault(engine.cloud, { service: "hadoop", operation: "CreateCluster", action: "lose-response", times: 1 }),
  ];
  const up = await bed.stack.up({ color: "never" });
  for (const f of faults) expect(await faultFired(engine.cloud, f)).toBe(1);
  expect(up.summary.result).toBe("succeeded");
  expect(up.stdout).toMatch(
    /the answer to the create request was lost, and it carries this stack's ownership marker \(made by an earlier attempt\); taking over/,
  );

  const after = await audit(bed);
  expect(findings(after)).toEqual(NONE);
  expect(kinds(await stackInventory(bed))).toEqual([
    "cache/cluster",
    "cache/instance-set",
    "cache/parameter-group",
    "data-query/data-source",
    "hadoop/cluster",
  ]);
  await bed.stack.preview({ expectNoChanges: true, color: "never" });
});

test("class 1: a data source whose listing fails right after its create stays in state, and the next up finishes it", async () => {
  const bed = await faultsBed(engine.cloud, engine.sandbox, "dslist", { res: "ds" });
  // Five answers: every attempt of the one listing the create makes to read what it made.
  await addFault(engine.cloud, { service: "data-query", operation: "ListDataSources", action: "error", status: 500, times: 5 });
  const failure = await expectFailure(() => bed.stack.up({ color: "never" }));
  expect(failure).toMatch(/reading data source "ds_[0-9a-f]{7}".*500/);
  const failed = await audit(bed);
  expect(findings(failed)).toEqual(NONE);
  expect(failed.entries.map((e) => [e.logical, e.outputs.__krcloudIncomplete !== undefined])).toEqual([["ds", true]]);

  await clearFaults(engine.cloud);
  expect((await bed.stack.up({ color: "never" })).summary.result).toBe("succeeded");
  const after = await audit(bed);
  expect(findings(after)).toEqual(NONE);
  expect(after.entries.map((e) => e.id)).toEqual(failed.entries.map((e) => e.id));
  expect(kinds(await stackInventory(bed))).toEqual(["data-query/data-source"]);
});

test("class 2: AddShard and a RunQuery of an INSERT lose their answers on a reused connection: one shard, one row", async () => {
  const INSERT = "insert into orders values (99, 'dup', 1)";
  const bed = await faultsBed(engine.cloud, engine.sandbox, "noresend", { res: "cluster,shard,ds,query", sql: INSERT });
  const addShard = await addFault(engine.cloud, { service: "cache", operation: "AddShard", action: "lose-response", times: 1 });
  const runQuery = await addFault(engine.cloud, { service: "data-query", operation: "RunQuery", action: "lose-response", times: 1 });
  const up = await bed.stack.up({ color: "never" });
  expect(await faultFired(engine.cloud, addShard)).toBe(1);
  expect(await faultFired(engine.cloud, runQuery)).toBe(1);
  expect(up.summary.result).toBe("succeeded");

  const after = await audit(bed);
  expect(findings(after)).toEqual(NONE);
  // The cluster's own shard and the Shard resource's, nothing more.
  const cluster = after.entries.find((e) => e.logical === "cluster")!;
  expect((await bed.cache.shards.list(cluster.id)).map((s) => s.id).sort()).toEqual(
    [...(cluster.outputs.managedShardIds as string[]), after.entries.find((e) => e.logical === "shard")!.outputs.shardId as string].sort(),
  );
  // The INSERT ran once: one run of it, and one row with id 99.
  expect((await bed.dq.listQueries({ size: 10 })).map((q) => q.queryInfo.queryId)).toEqual([after.entries.find((e) => e.logical === "query")!.id]);
  const ds = after.entries.find((e) => e.logical === "ds")!.id;
  expect(await runSql(bed.dq, `select count(*) from ${ds}.shop.orders where id = 99`, bed.resultBucket)).toEqual({ state: "FINISHED", rows: [["1"]] });
});

test("class 9: a failed delete reaches the user as one line per resource, without a JavaScript stack", async () => {
  const bed = await faultsBed(engine.cloud, engine.sandbox, "stackless", { res: "bucket,object" });
  expect((await bed.stack.up({ color: "never" })).summary.result).toBe("succeeded");
  await addFault(engine.cloud, { service: "object-storage", operation: "DeleteBucket", action: "error", status: 500 });
  const failure = await expectFailure(() => bed.stack.destroy({ color: "never" }));
  expect(failure).toMatch(/deleting bucket "site-[0-9a-f]{7}".*500/);
  expect(failure).not.toMatch(/^\s+at .+[(:]\d+/m);
  expect(failure).not.toMatch(/\.(ts|js):\d+:\d+/);

  await clearFaults(engine.cloud);
  expect((await bed.stack.destroy({ color: "never" })).summary.result).toBe("succeeded");
  expect(await stackInventory(bed)).toEqual([]);
});

test("matrix sample through the CLI: 500 until cleared, stuck past the timeout, FAILED, then lost answers to deletes", async () => {
  const BAD = "select * from no_such_table";
  const bed = await faultsBed(engine.cloud, engine.sandbox, "sample", { res: "bucket,cluster,ds,query,hadoop", sql: BAD, createTimeout: "1s" });
  // cache:Cluster create x 500 (every attempt); hadoop:Cluster create x stuck; dataquery:Query create x FAILED.
  await addFault(engine.cloud, { service: "cache", operation: "CreateCluster", action: "error", status: 500 });
  await hold(engine.cloud, "hadoop", "cluster");
  // --continue-on-error: the engine otherwise stops starting creates after the first failure.
  const failure = await expectFailure(() => bed.stack.up({ color: "never", continueOnError: true }));
  expect(failure).toMatch(/creating cache cluster "cluster-[0-9a-f]{7}": the request may or may not have been applied \(.*500/);
  expect(failure).toMatch(/creating Hadoop cluster "hadoop-[0-9a-f]{7}": timed out .* Initializing/);
  expect(failure).toMatch(/creating a new data query: data query "[^"]+" ended FAILED: .*no_such_table/);
  const failed = await audit(bed);
  expect(findings(failed)).toEqual(NONE);
  expect(failed.entries.map((e) => e.logical).sort()).toEqual(["ds", "hadoop", "query", "site"]);

  // The user's next step: the fault is gone, the cluster is up, the SQL is fixed.
  await clearFaults(engine.cloud);
  await release(engine.cloud, "hadoop", "cluster");
  await bed.stack.setConfig("krcloud-test-faults:sql", { value: "select count(*) from orders" });
  await bed.stack.removeConfig("krcloud-test-faults:createTimeout");
  const up = await bed.stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges).toMatchObject({ create: 1, replace: 1 });
  const after = await audit(bed);
  expect(findings(after)).toEqual(NONE);
  await bed.stack.preview({ refresh: true, expectNoChanges: true, color: "never" });

  // Deletes whose answers are lost once each: destroy still completes, nothing is left.
  for (const [service, operation] of [
    ["object-storage", "DeleteBucket"],
    ["cache", "DeleteCluster"],
    ["data-query", "DeleteDataSource"],
    ["hadoop", "DeleteCluster"],
  ]) {
    await addFault(engine.cloud, { service, operation, action: "lose-response", times: 1 });
  }
  expect((await bed.stack.destroy({ color: "never" })).summary.result).toBe("succeeded");
  expect(await stackInventory(bed)).toEqual([]);
});

test("replacements through the CLI: a data source whose description changes and a query whose SQL changes are really replaced", async () => {
  const bed = await faultsBed(engine.cloud, engine.sandbox, "replace", { res: "ds,query", desc: "one", sql: "select 1 as a" });
  expect((await bed.stack.up({ color: "never" })).summary.result).toBe("succeeded");
  const first = await audit(bed);
  await bed.stack.setConfig("krcloud-test-faults:desc", { value: "two" });
  await bed.stack.setConfig("krcloud-test-faults:sql", { value: "select 2 as b" });
  const up = await bed.stack.up({ color: "never" });
  expect(up.summary.result).toBe("succeeded");
  expect(up.summary.resourceChanges?.replace).toBe(2);

  const after = await audit(bed);
  expect(findings(after)).toEqual(NONE);
  const ds = after.entries.find((e) => e.logical === "ds")!;
  expect(ds.id).not.toBe(first.entries.find((e) => e.logical === "ds")!.id);
  // The service shows the program's description with the ownership tag of the new create.
  expect((await bed.dq.findDataSource(ds.id))?.description).toMatch(/^two \[k:[0-9a-z]{13}\]$/);
  expect(await stackInventory(bed)).toEqual([`data-query/data-source:${ds.id}`]);
  // The new SQL ran, as a run of its own; the first run is history.
  const runs = (await bed.dq.listQueries({ size: 10 })).map((q) => [
    q.queryInfo.queryId,
    q.queryInfo.queryTextPreview?.replace(/^\/\*k:[0-9a-z]{13}\*\/ /, ""),
  ]);
  expect(runs).toHaveLength(2);
  expect(runs).toContainEqual([after.entries.find((e) => e.logical === "query")!.id, "select 2 as b"]);
  await bed.stack.preview({ refresh: true, expectNoChanges: true, color: "never" });
});
