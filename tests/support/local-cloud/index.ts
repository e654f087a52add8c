/**
 * Shared harness for provider tests against the in-process local cloud, over real loopback HTTP.
 *
 * The provider is driven the way the Pulumi engine's dynamic provider host drives it
 * (@pulumi/pulumi/cmd/dynamic-provider): `configure` once per provider with the stack config,
 * `check(oldInputs, news)` with `__provider` (and the `__logicalName` the resource classes add),
 * `diff(id, oldOutputs, checkedInputs)`, `create(checkedInputs)`, `read(id, state)`,
 * `update(id, oldOutputs, checkedInputs)`, `delete(id, state)`; `__provider` is put back into every
 * result, and every value crosses a JSON boundary as it would cross gRPC.
 *
 * Lookups (getBucket, ...) run in the program process and read the program's stack config
 * (`pulumi.runtime.getConfig`): `start` sets the same values there. No KRCLOUD_* variable is set
 * (those present are removed for the test's duration): settings that reached a provider only
 * through the environment would hide a broken `configure`.
 *
 * Progress lines, which providers write to stdout for the `pulumi up` display, are captured per
 * provider call (`progress()`), so tests can assert them and the test output stays readable.
 */
import * as pulumi from "@pulumi/pulumi";
import { startLocalCloud, type LocalCloud, type RequestLogEntry } from "../../../local-cloud";
import { URN_KEY } from "../../../provider/core/resource";
import { setListReadTiming } from "../../../provider/core/list-reads";
import { provider } from "../../../provider/runtime";
import { closeAllPools, resolveSettings, type Settings } from "../../../client/core";
import { ObjectStorageClient } from "../../../client/objectstorage";
import { forEachLimit } from "../../../client/core/concurrency";

export const SERVICE = "object-storage";
export const PROJECT_ID = "krtestproject0001";

export const TOKENS = {
  bucket: "krcloud:objectstorage:Bucket",
  cors: "krcloud:objectstorage:BucketCors",
  lifecycle: "krcloud:objectstorage:BucketLifecycle",
  object: "krcloud:objectstorage:BucketObject",
} as const;

type Props = Record<string, unknown>;

/** What the engine keeps for one resource between operations. */
export interface ResourceState {
  id: string;
  /** The checked inputs recorded in state (check's `olds` next time). */
  inputs: Props;
  /** The outputs recorded in state (diff's and update's `olds`, read's and delete's props). */
  outputs: Props;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

/** Per-operation request counts of the local cloud, e.g. `{ CreateBucket: 1 }`. */
export type OpCounts = Record<string, number>;

/** A gRPC-like boundary: plain JSON in, plain JSON out (undefined keys vanish, as in a protobuf Struct). */
function wire<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

const PROGRESS: string[] = [];
/** Distinct URNs for the resources the tests declare (check). */
let URNS = 0;

/** Runs one provider call with stdout captured into PROGRESS (provider calls are sequential in these tests). */
async function capturingProgress<T>(call: () => Promise<T>): Promise<T> {
  // Restored as it was; never called unbound.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const write = process.stdout.write;
  process.stdout.write = (chunk: unknown, ...rest: unknown[]) => {
    PROGRESS.push(
      ...String(chunk)
        .split("\n")
        .filter((l) => l !== ""),
    );
    const cb = rest.find((r) => typeof r === "function") as (() => void) | undefined;
    cb?.();
    return true;
  };
  try {
    return await call();
  } finally {
    process.stdout.write = write;
  }
}

/** Check failures as one readable error, so a failed precondition names the offending property. */
export class CheckFailed extends Error {
  constructor(readonly failures: CheckFailure[]) {
    super(`check failed: ${failures.map((f) => f.reason).join("; ")}`);
  }
}

/**
 * One resource type as the engine sees it: the raw provider methods (with `__provider` handling)
 * plus `up` / `plan` / `apply` / `refresh` / `destroy` compositions of them.
 */
export class EngineResource {
  /** Stands in for the serialized provider text the engine stores in `__provider`. */
  readonly providerText: string;
  private readonly p: ReturnType<typeof provider>;

  constructor(readonly token: string) {
    this.p = provider(token);
    this.providerText = `serialized-stub(${token})`;
  }

  async configure(config: Record<string, string>): Promise<void> {
    await this.p.configure({ config: { get: (k: string) => config[k] } } as never);
  }

  /**
   * `news` are program args; the resource class adds `__logicalName` and the URN, the engine
   * `__provider`. Each call stands for another resource of the program (tests reuse logical names),
   * so its URN is unique unless the test passes `__krcloudSeed` to act as the same resource again.
   */
  async check(olds: Props, news: Props, logicalName?: string): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const urn = `urn:pulumi:test::tests::${this.token}::${logicalName ?? "res"}#${++URNS}`;
    const args = wire({
      [URN_KEY]: urn,
      ...news,
      __provider: this.providerText,
      ...(logicalName !== undefined ? { __logicalName: logicalName } : {}),
    });
    const r = await capturingProgress(() => this.p.check(wire(olds), args));
    const inputs = wire({ ...(r.inputs ?? args), __provider: this.providerText });
    return { inputs, failures: r.failures ?? [] };
  }

  async diff(id: string, oldOutputs: Props, news: Props) {
    return wire(await capturingProgress(() => this.p.diff(id, wire(oldOutputs), wire(news))));
  }

  async create(inputs: Props): Promise<ResourceState> {
    const r = await capturingProgress(() => this.p.create(wire(inputs)));
    return { id: r.id, inputs: wire(inputs), outputs: wire({ ...r.outs, __provider: inputs.__provider }) };
  }

  async read(id: string, props: Props): Promise<{ id: string; props: Props; inputs?: Props }> {
    const r = await capturingProgress(() => this.p.read(id, wire(props)));
    return wire({
      id: r.id ?? "",
      props: { ...(r.props ?? {}), __provider: props.__provider },
      ...(r.inputs ? { inputs: { ...r.inputs, __provider: props.__provider } } : {}),
    });
  }

  async update(id: string, oldOutputs: Props, news: Props): Promise<Props> {
    const r = await capturingProgress(() => this.p.update(id, wire(oldOutputs), wire(news)));
    return wire({ ...(r.outs ?? {}), __provider: news.__provider });
  }

  async delete(id: string, props: Props): Promise<void> {
    await capturingProgress(() => this.p.delete(id, wire(props)));
  }

  /** check + create of a new resource; check failures throw. */
  async up(args: Props, logicalName = "res"): Promise<ResourceState> {
    const { inputs, failures } = await this.check({}, args, logicalName);
    if (failures.length) throw new CheckFailed(failures);
    return this.create(inputs);
  }

  /** A preview step for new args against existing state: check then diff. */
  async plan(state: ResourceState, args: Props, logicalName = "res") {
    const { inputs, failures } = await this.check(state.inputs, args, logicalName);
    if (failures.length) throw new CheckFailed(failures);
    const diff = await this.diff(state.id, state.outputs, inputs);
    return { inputs, diff };
  }

  /** An in-place update step (plan, then update); a diff that replaces is an error here. */
  async apply(state: ResourceState, args: Props, logicalName = "res"): Promise<ResourceState & { diff: Awaited<ReturnType<EngineResource["diff"]>> }> {
    const { inputs, diff } = await this.plan(state, args, logicalName);
    if (diff.replaces?.length) throw new Error(`apply: the diff replaces ${diff.replaces.join(", ")}`);
    if (!diff.changes) return { ...state, diff };
    const outputs = await this.update(state.id, state.outputs, inputs);
    return { id: state.id, inputs, outputs, diff };
  }

  /** `pulumi refresh` for one resource. */
  async refresh(state: ResourceState): Promise<ResourceState | undefined> {
    const r = await this.read(state.id, state.outputs);
    if (r.id === "") return undefined;
    return { id: r.id, inputs: r.inputs ?? state.inputs, outputs: r.props };
  }

  async destroy(state: ResourceState): Promise<void> {
    await this.delete(state.id, state.outputs);
  }
}

export interface TestCloud {
  readonly cloud: LocalCloud;
  readonly projectId: string;
  /** The stack config handed to `configure` (`krcloud:*` keys). */
  readonly config: Readonly<Record<string, string>>;
  readonly settings: Settings;
  /** The client (client/objectstorage) with the test credentials, for arranging and checking state directly. */
  readonly sdk: ObjectStorageClient;
  readonly bucket: EngineResource;
  readonly cors: EngineResource;
  readonly lifecycle: EngineResource;
  readonly object: EngineResource;
  /** Another resource type's provider, configured like the four above (`krcloud:cache:Cluster`, ...). */
  resource(token: string): Promise<EngineResource>;
  /** The local cloud's per-operation counters now (of the test's service only, without its prefix). */
  counts(): OpCounts;
  /** Requests counted since `before` (from `counts()`), per operation; operations with 0 omitted. */
  countsSince(before: OpCounts): OpCounts;
  /** Total service requests counted so far. */
  totalRequests(): number;
  /** A cursor into the request log: pass it to `requestsSince`. */
  logCursor(): number;
  /** The test's service's requests logged after `cursor` (seq order). */
  requestsSince(cursor: number): RequestLogEntry[];
  /** Every service's requests logged after `cursor` (seq order). */
  anyRequestsSince(cursor: number): RequestLogEntry[];
  /** Calls the control API over HTTP, as a test script or the CLI would. */
  controlApi(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Progress lines the providers printed since the last `reset`. */
  progress(): string[];
  /** Empties the local cloud (resources, faults, log, counters) and the progress lines; credentials survive. */
  reset(): void;
  close(): Promise<void>;
}

const envKeys = (): string[] => Object.keys(process.env).filter((k) => k.startsWith("KRCLOUD_"));

/**
 * Starts a local cloud on an ephemeral loopback port, issues a token, configures the four object
 * storage providers with it through `configure` (as the engine does) and the program's config for
 * lookups. Cache nodes are real redis-server processes where one is installed, unless the test asks
 * for `cacheEngine: "simulated"`.
 */
export async function startTestCloud(o: { service?: string; cacheEngine?: "redis" | "simulated" } = {}): Promise<TestCloud> {
  const service = o.service ?? SERVICE;
  const cloud = await startLocalCloud({ port: 0, ...(o.cacheEngine ? { cacheEngine: o.cacheEngine } : {}) });
  const cred = cloud.control.issueCredentials({ projectId: PROJECT_ID });
  if (cred.kind !== "token") throw new Error("expected a token credential");
  // The same project's access key, for the services that authenticate with one (data query, Hadoop).
  const key = cloud.control.issueCredentials({ projectId: PROJECT_ID, kind: "access-key" });
  if (key.kind !== "access-key") throw new Error("expected an access key");
  const config: Record<string, string> = {
    "krcloud:localCloudUrl": cloud.url,
    "krcloud:authToken": cred.token,
    "krcloud:projectId": cred.projectId,
    "krcloud:credentialId": key.credentialId,
    "krcloud:credentialSecret": key.credentialSecret,
  };
  const savedEnv: Record<string, string | undefined> = {};
  for (const k of envKeys()) {
    savedEnv[k] = process.env[k];
    delete process.env[k];
  }
  const savedProgramConfig = pulumi.runtime.allConfig();
  // A test's steps stand for separate commands (each its own provider process): no walk of a
  // type's list outlives the reads it was made for (list-reads.ts; tests/local/list-reads.test.ts tests the keep).
  const savedTiming = setListReadTiming({ keepMs: 0 });
  pulumi.runtime.setAllConfig({ ...savedProgramConfig, ...config });

  const settings = resolveSettings({
    localCloudUrl: cloud.url,
    authToken: cred.token,
    projectId: cred.projectId,
    credentialId: key.credentialId,
    credentialSecret: key.credentialSecret,
  });
  const resources = {
    bucket: new EngineResource(TOKENS.bucket),
    cors: new EngineResource(TOKENS.cors),
    lifecycle: new EngineResource(TOKENS.lifecycle),
    object: new EngineResource(TOKENS.object),
  };
  for (const r of Object.values(resources)) await r.configure(config);

  const counts = (): OpCounts => {
    const out: OpCounts = {};
    for (const [k, n] of Object.entries(cloud.control.counters().byOperation)) {
      if (k.startsWith(`${service}.`)) out[k.slice(service.length + 1)] = n;
    }
    return out;
  };

  return {
    cloud,
    projectId: cred.projectId,
    config,
    settings,
    sdk: new ObjectStorageClient({ settings }),
    ...resources,
    counts,
    countsSince(before) {
      const out: OpCounts = {};
      for (const [k, n] of Object.entries(counts())) if (n - (before[k] ?? 0) > 0) out[k] = n - (before[k] ?? 0);
      return out;
    },
    totalRequests: () => cloud.control.counters().total,
    logCursor() {
      const all = cloud.control.requests();
      return all.length ? all[all.length - 1]!.seq : 0;
    },
    requestsSince: (cursor) => cloud.control.requests(cursor).filter((e) => e.service === service),
    anyRequestsSince: (cursor) => cloud.control.requests(cursor),
    async resource(token) {
      const r = new EngineResource(token);
      await r.configure(config);
      return r;
    },
    async controlApi(method, path, body) {
      const res = await fetch(`${cloud.controlUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    progress: () => [...PROGRESS],
    reset() {
      cloud.control.reset();
      PROGRESS.length = 0;
    },
    async close() {
      await closeAllPools();
      await cloud.close();
      pulumi.runtime.setAllConfig(savedProgramConfig);
      setListReadTiming(savedTiming);
      for (const [k, v] of Object.entries(savedEnv)) if (v !== undefined) process.env[k] = v;
    },
  };
}

/** Creates buckets directly through the client, a few at a time. */
export async function createBuckets(sdk: ObjectStorageClient, names: readonly string[], concurrency = 16): Promise<void> {
  await forEachLimit(names, concurrency, async (name) => {
    await sdk.createBucket({ name });
  });
}

/** Puts small objects directly through the client, a few at a time. */
export async function putObjects(sdk: ObjectStorageClient, bucket: string, keys: readonly string[], concurrency = 16): Promise<void> {
  await forEachLimit(keys, concurrency, async (key) => {
    await sdk.putObject(bucket, key, key);
  });
}

export { rejection } from "../assertions";
