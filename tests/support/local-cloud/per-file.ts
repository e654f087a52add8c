/**
 * What a test file opens before its tests and closes after them, registered with Jest's hooks in
 * one call: the local cloud of tests/local (local-cloud.ts `startTestCloud`), reset before each test
 * and given the bucket the file's tests work in; a temp directory. Each hands what it opened to
 * `set` (`(c) => (tc = c)`), so the file keeps its own variable.
 *
 * And checks every resource's tests make: bad input (`check` names the failing input, and no
 * request reaches the cloud), and "disappears" (deleted behind Pulumi's back).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findRedisServer } from "../../../local-cloud/cache/redis/server";
import { startCacheTestBed, type CacheTestBed } from "../cache";
import { startTestCloud, type EngineResource, type ResourceState, type TestCloud } from "./index";

export interface TestCloudOptions {
  service?: string;
  cacheEngine?: "redis" | "simulated";
  /** Reset the cloud before each test. */
  reset?: boolean;
  /** Reset the cloud before each test, then put back what the file's tests start from (records, say). */
  seed?: (tc: TestCloud) => Promise<unknown>;
  /** Reset the cloud before each test, then (after `seed`) create this bucket. */
  bucket?: string;
}

/**
 * A local cloud for the file (closed after its tests), handed to `set` (which may also make what
 * the file's tests share from it) before the `beforeAll`s registered after this call run.
 */
export function testCloudForFile(opts: TestCloudOptions, set: (tc: TestCloud) => unknown): void {
  let tc: TestCloud | undefined;
  beforeAll(async () => {
    tc = await startTestCloud({ service: opts.service, cacheEngine: opts.cacheEngine });
    await set(tc);
  });
  afterAll(async () => {
    await tc?.close();
  });
  if (opts.reset || opts.seed || opts.bucket !== undefined) {
    beforeEach(async () => {
      tc!.reset();
      await opts.seed?.(tc!);
      if (opts.bucket !== undefined) await tc!.sdk.createBucket({ name: opts.bucket });
    });
  }
}

/**
 * The cache test bed (cache.ts `startCacheTestBed`: a local cloud of the cache service and its
 * resources) for the file, reset before each test, closed after them. Real Redis nodes need
 * redis-server: without it the file fails at once, saying how to install it.
 */
export function cacheBedForFile(opts: { cacheEngine?: "redis" | "simulated"; reset?: boolean }, set: (bed: CacheTestBed) => void): void {
  let bed: CacheTestBed | undefined;
  beforeAll(async () => {
    if (opts.cacheEngine === "redis" && !findRedisServer()) {
      throw new Error("redis-server is not installed: run `make redis` (scripts/redis.sh installs Debian's) or set KRCLOUD_REDIS_SERVER");
    }
    bed = await startCacheTestBed(opts.cacheEngine ? { cacheEngine: opts.cacheEngine } : {});
    set(bed);
  });
  afterAll(async () => {
    await bed?.tc.close();
  });
  if (opts.reset) beforeEach(() => bed!.tc.reset());
}

/** A temp directory named `<prefix>XXXXXX` for the file, removed with what it holds after the file's tests. */
export function tempDirForFile(prefix: string, set: (dir: string) => void): void {
  let dir: string | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    set(dir);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
}

/**
 * `check` of `args` (for the resource `logicalName`) fails naming the top-level input of `property`
 * (the engine prints that input's value), with a reason that starts with the full path and matches
 * `reason` (`property` "": a failure of the whole input, such as an unknown property); no request
 * is sent.
 */
export async function expectCheckNames(
  tc: TestCloud,
  resource: EngineResource,
  logicalName: string,
  args: Record<string, unknown>,
  property: string,
  reason: RegExp,
): Promise<void> {
  const before = tc.totalRequests();
  const { failures } = await resource.check({}, args, logicalName);
  const failure = failures.find((f) => (property === "" ? f.property === "" : f.reason.startsWith(`${property}: `)));
  expect(failure?.property).toBe(property.split(/[.[]/)[0]);
  expect(failure!.reason).toMatch(reason);
  expect(tc.totalRequests()).toBe(before);
}

/**
 * The resource of `state`, deleted behind Pulumi's back (`DELETE <controlPath>` on the control API,
 * answered 204), is gone for Pulumi: its refresh drops it (`via` "refresh") or its read answers
 * no id ("read"); and its delete succeeds.
 */
export async function expectGoneWhenDeleted(
  tc: TestCloud,
  resource: EngineResource,
  state: ResourceState,
  controlPath: string,
  via: "refresh" | "read",
): Promise<void> {
  expect((await tc.controlApi("DELETE", controlPath)).status).toBe(204);
  if (via === "refresh") expect(await resource.refresh(state)).toBeUndefined();
  else expect(await resource.read(state.id, state.outputs)).toMatchObject({ id: "" });
  await expect(resource.destroy(state)).resolves.toBeUndefined();
}

/**
 * A document of a bucket (its CORS policy, its lifecycle configuration: `kind` in the control API)
 * made from `args`, then deleted behind the provider's back, reads as gone; so does one whose bucket
 * was deleted. Both deletes succeed.
 */
export async function expectBucketDocumentGone(
  tc: TestCloud,
  resource: EngineResource,
  kind: string,
  args: { bucket: string; [input: string]: unknown },
): Promise<void> {
  const state = await resource.up(args);
  await expectGoneWhenDeleted(tc, resource, state, `/resources/object-storage/${kind}/${args.bucket}`, "read");
  const again = await resource.up(args);
  await expectGoneWhenDeleted(tc, resource, again, `/resources/object-storage/bucket/${args.bucket}`, "read");
}
