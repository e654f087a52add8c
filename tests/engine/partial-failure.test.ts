/**
 * Partial failure: the cloud accepts a bucket's creation but a later step of the create fails
 * (UpdateBucketAcl answers 500, more often than the client would ever retry). `up` must fail with the
 * bucket recorded in state, so that the next `up` finishes it instead of creating a second one.
 * The program (tests/programs/partial-failure) declares one public-read bucket: its ACL is set by a
 * second request after CreateBucket.
 */
import * as path from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { DEFAULT_RETRY } from "../../client/core";
import { engineType, ENGINE_TEST_TIMEOUT_MS, eventCollector, expectFailure, REPO_ROOT, resourcesOfType } from "../harness/engine";
import { engineFile } from "../harness/engine/engine-file";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const BUCKET = "krcloud:objectstorage:Bucket";
const OS = "object-storage";

const engine = engineFile({ label: "partial-failure", project: "partial-failure" });

describe("a public-read bucket", () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await engine.stack(engine.sandbox.copyProgram(path.join(REPO_ROOT, "tests/programs/partial-failure")), "partial");
  });

  async function bucketsInCloud(): Promise<string[]> {
    return (await engine.inventory())
      .filter((e) => e.kind === "bucket")
      .map((e) => e.id)
      .sort();
  }

  async function createBucketCount(): Promise<number> {
    return (await engine.project.control.counters()).byOperation[`${OS}.CreateBucket`] ?? 0;
  }

  async function aclOf(name: string): Promise<string> {
    const rec = await engine.project.control.getResource<{ acl: { public?: string } | null }>(OS, "bucket", name);
    return rec?.acl?.public ?? "deny";
  }

  test("a create that fails after the cloud accepted it is recorded, and the next up completes it", async () => {
    // Which buckets the program makes public (their ACL is a second request after CreateBucket).
    const { events, onEvent } = eventCollector();
    await stack.preview({ color: "never", onEvent });
    const publicBuckets = events
      .map((e) => e.resourcePreEvent?.metadata)
      .filter((m) => m?.op === "create" && m.type === engineType(BUCKET) && m.new?.inputs?.acl?.public === "read-only");
    expect(publicBuckets).toHaveLength(1);

    const createsBefore = await createBucketCount();
    const fault = await engine.project.control.addFault({
      service: OS,
      operation: "UpdateBucketAcl",
      action: "error",
      status: 500,
      times: DEFAULT_RETRY.maxAttempts * 3,
    });
    const failure = await expectFailure(() => stack.up({ color: "never" }));
    expect(failure).toMatch(/setting the ACL of bucket/);
    expect((await engine.project.control.faults()).find((f) => f.id === fault.id)?.fired).toBeGreaterThan(0);

    // The bucket exists once in the cloud, with the ACL not yet applied, and state knows it.
    const created = await bucketsInCloud();
    expect(created).toHaveLength(publicBuckets.length);
    for (const name of created) expect(await aclOf(name)).toBe("deny");
    const recorded = resourcesOfType(await stack.exportStack(), BUCKET);
    expect(recorded.map((r) => r.id).sort()).toEqual(created);

    await engine.project.control.removeFault(fault.id);
    const up = await stack.up({ color: "never" });
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges?.update ?? 0).toBeGreaterThanOrEqual(publicBuckets.length);

    // Completed in place: same buckets, no second one, public now.
    expect(await bucketsInCloud()).toEqual(created);
    expect((await createBucketCount()) - createsBefore).toBe(publicBuckets.length);
    for (const name of created) expect(await aclOf(name)).toBe("read-only");
    await stack.preview({ refresh: true, expectNoChanges: true, color: "never" });

    await stack.destroy({ color: "never" });
    expect(await engine.inventory()).toEqual([]);
  });
});
