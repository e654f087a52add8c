/**
 * The fault matrix (tests/faults): every resource type × create, update, read and delete × a fault
 * injected through the local cloud's control API (`POST /_control/faults`, held transitions, a
 * FAILED status), driven at the provider level by an engine stand-in that records state by the
 * engine's rules (sim-stack.ts). After each cell the local cloud's inventory of the cell's own
 * project is compared with the recorded state:
 *
 * - orphans: in the cloud, not in state (a shard no resource manages, a query run nobody recorded);
 * - duplicates: a second cloud resource of a kind the stack holds one of, an extra shard, a query
 *   run twice;
 * - ghosts: in state, not in the cloud (a ciphertext that does not decrypt counts as absent);
 *
 * and a failure's message must name the resource, the operation and the cause, without a
 * JavaScript stack. Then the user's next step runs (the fault cleared, the cause fixed: the same
 * `up`, `refresh` or `destroy` again) and everything must converge: the counts are 0 and a refresh
 * followed by a preview shows no change (after a destroy: nothing left).
 *
 * Each cell runs in a project of its own, so inventories never mix; the local cloud is shared.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { closeAllPools, resolveSettings, verifyTokenProject, type Settings } from "../../sdk/core";
import { CacheClient } from "../../sdk/cache";
import { DataQueryClient } from "../../sdk/dataquery";
import { KmsClient } from "../../sdk/kms";
import { ObjectStorageClient } from "../../sdk/objectstorage";
import { EngineResource, startTestCloud, type TestCloud } from "./local-cloud";
import { SimStack, StepError, type Declared, type Entry, type Props } from "./sim-stack";

export type Op = "create" | "update" | "read" | "delete";
export const OPS: readonly Op[] = ["create", "update", "read", "delete"];

export type FaultName = "429" | "503b" | "500∞" | "drop" | "LR/fresh" | "LR/reused" | "stuck" | "FAILED";
export const FAULT_NAMES: readonly FaultName[] = ["429", "503b", "500∞", "drop", "LR/fresh", "LR/reused", "stuck", "FAILED"];

/** The control API's fault body (emulator/core/faults.ts FaultSpec). */
export interface FaultBody {
  service?: string;
  operation?: string;
  method?: string;
  pathRegex?: string;
  probability?: number;
  times?: number;
  action: "error" | "latency" | "drop" | "lose-response";
  status?: number;
  body?: unknown;
  retryAfter?: number;
  latencyMs?: number;
}

export interface FaultKind {
  /** What is injected on the cell's target operation; absent for the faults that are not a control API fault. */
  spec?: Omit<FaultBody, "service" | "operation">;
  /** What the fault stands for, for docs/reliability.md. */
  meaning: string;
  /** What an error's message must show as the cause. */
  cause: RegExp;
}

export const FAULTS: Readonly<Record<FaultName, FaultKind>> = {
  "429": {
    spec: { action: "error", status: 429, retryAfter: 1, times: 2 },
    meaning: "The operation's request is throttled twice (429 with `Retry-After: 1`), then served.",
    cause: /429|throttl/i,
  },
  "503b": {
    spec: { action: "error", status: 503, times: 2 },
    meaning: "A burst of two 503 answers without Retry-After (not processed, but the client cannot know), then served.",
    cause: /\b503\b/,
  },
  "500∞": {
    spec: { action: "error", status: 500 },
    meaning: "Every attempt of the operation's request answers 500 until the fault is cleared; then the user runs the same command again.",
    cause: /\b500\b/,
  },
  drop: {
    spec: { action: "drop", times: 1 },
    meaning: "The connection is closed before the request is handled: nothing is applied, and the client cannot tell.",
    cause: /closed|socket|reset|may or may not/i,
  },
  "LR/fresh": {
    spec: { action: "lose-response", times: 1 },
    meaning: "The request is applied, then its connection is cut before the answer (a lost answer), on a connection the process opened for it.",
    cause: /closed|socket|reset|may or may not/i,
  },
  "LR/reused": {
    spec: { action: "lose-response", times: 1 },
    meaning: "The same lost answer, after the process's pool has served other requests (a keep-alive connection is there to be reused).",
    cause: /closed|socket|reset|may or may not/i,
  },
  stuck: {
    meaning:
      "The resource's status transition is held (a duration of an hour on the local cloud's clock) and the `timeouts` input is 1s: the wait times out. Then the clock moves past the transition and the user runs `up` again.",
    cause: /within|timed out|timeout/i,
  },
  FAILED: {
    meaning:
      "A terminal failure: a cache node (or instance) turned FAILED while the resource was created or changed, a Hadoop create-failure, a query with bad SQL. Then the cause is removed (the node repaired, the failure rule dropped, the SQL fixed) and the user runs `up` again.",
    cause: /FAILED|Terminated|failed/,
  },
};

/** How a resource type meets a FAILED cell. */
export type FailedHow = "node" | "instance" | "hadoop-create-failure" | "bad-sql";

export interface MatrixProject {
  id: string;
  config: Record<string, string>;
  settings: Settings;
  os: ObjectStorageClient;
  cache: CacheClient;
  dq: DataQueryClient;
  kms: KmsClient;
  /** A symmetric KMS key of the project (setup, not the stack's). */
  keyId: string;
  /** A MySQL instance of the project holding database `shop` (setup). */
  instanceId: string;
  /** A bucket for query results (setup). */
  resultBucket: string;
}

/** One resource type's row of the matrix. */
export interface TypeSpec {
  token: string;
  /** The control API service its requests belong to. */
  service: string;
  /** Resources it depends on (created before it, in the same stack). */
  deps?: (p: MatrixProject) => Declared[];
  /** The program's arguments; `timeouts` is merged in for the stuck cells. */
  args: (p: MatrixProject, s: SimStack) => Props;
  /** The arguments of the update column; absent: the type has no update that reaches the cloud. */
  updated?: (p: MatrixProject, s: SimStack) => Props;
  /** The operation each column's fault targets (the request that makes the change); absent: n/a. */
  ops: Partial<Record<Op, string>>;
  /** Why a column is n/a. */
  na?: Partial<Record<Op, string>>;
  /** The status transition the stuck cells hold, per column (its kind in the control API's transitions). */
  stuck?: { service: string; kind: Partial<Record<Op, string>> };
  /** How the FAILED cells fail, per column. */
  failed?: Partial<Record<Op, FailedHow>>;
  /** Words that name the resource in a message besides its recorded name and id (a query has no name). */
  noun?: RegExp;
}

// ---------------------------------------------------------------------------------------------
// The cloud as it is, per project

export interface CloudEntry {
  kind: string;
  id: string;
  /** The create key a query run carries in its SQL comment. */
  marker?: string;
}

/** An entry of the control API's inventory. */
export interface InventoryItem {
  service: string;
  kind: string;
  id: string;
  projectId: string;
}

export interface Counts {
  orphans: string[];
  duplicates: string[];
  ghosts: string[];
}

const MARKER = /^\/\* krcloud:([0-9a-f]+) \*\//;

/** What each state entry should have in the cloud (kind/id), as `cloudView` names it. */
function expectedOf(e: Entry): CloudEntry[] {
  const o = e.outputs;
  switch (e.token) {
    case "krcloud:objectstorage:Bucket":
      return [{ kind: "object-storage/bucket", id: e.id }];
    case "krcloud:objectstorage:BucketCors":
      return [{ kind: "object-storage/bucket-cors", id: e.id }];
    case "krcloud:objectstorage:BucketLifecycle":
      return [{ kind: "object-storage/bucket-lifecycle", id: e.id }];
    case "krcloud:objectstorage:BucketObject":
      return [{ kind: "object-storage/object", id: e.id }];
    case "krcloud:cache:ParameterGroup":
      return [{ kind: "cache/parameter-group", id: e.id }];
    case "krcloud:cache:Cluster":
      return [
        { kind: "cache/cluster", id: e.id },
        ...((o.managedShardIds as string[] | undefined) ?? []).map((s) => ({ kind: "cache/shard", id: `${e.id}/${s}` })),
      ];
    case "krcloud:cache:Shard":
      return [{ kind: "cache/shard", id: e.id }];
    case "krcloud:cache:InstanceSet":
      return [{ kind: "cache/instance-set", id: e.id }];
    case "krcloud:dataquery:DataSource":
      return [{ kind: "data-query/data-source", id: e.id }];
    case "krcloud:dataquery:Query":
      return [{ kind: "data-query/query", id: e.id }];
    case "krcloud:hadoop:Cluster":
      return [{ kind: "hadoop/cluster", id: e.id }];
    case "krcloud:kms:Ciphertext":
    case "krcloud:kms:DataKey":
      return [{ kind: "kms/ciphertext", id: e.id }];
    default:
      throw new Error(`no cloud mapping for ${e.token}`);
  }
}

const key = (c: CloudEntry) => `${c.kind}:${c.id}`;

/**
 * The project's resources in the local cloud: the control API's inventory, plus what it does not
 * list: each cache cluster's shards, the project's query runs (with the create key each carries),
 * and, for the KMS entries of the state, whether their ciphertext decrypts (it then "exists").
 */
export async function cloudView(
  inventory: readonly InventoryItem[],
  p: Pick<MatrixProject, "id" | "cache" | "dq" | "kms" | "resultBucket">,
  state: readonly Entry[],
): Promise<CloudEntry[]> {
  const inv = inventory.filter((e) => e.projectId === p.id);
  const out: CloudEntry[] = [];
  for (const e of inv) {
    // Setup, not the stack's: the KMS key, the query result bucket and what queries write there.
    if (e.service === "kms" && e.kind === "key") continue;
    if (e.service === "object-storage" && (e.id === p.resultBucket || e.id.startsWith(`${p.resultBucket}/`))) continue;
    if (e.service === "cache" && e.kind === "backup") continue;
    out.push({ kind: `${e.service}/${e.kind}`, id: e.id });
    if (e.service === "cache" && e.kind === "cluster") {
      for (const s of await p.cache.shards.list(e.id)) out.push({ kind: "cache/shard", id: `${e.id}/${s.id}` });
    }
  }
  if (state.some((e) => e.token.startsWith("krcloud:dataquery:"))) {
    for (const q of await p.dq.listQueries({ size: 100 })) {
      const m = MARKER.exec(q.queryInfo.queryTextPreview ?? "");
      out.push({ kind: "data-query/query", id: q.queryInfo.queryId, ...(m ? { marker: m[1] } : {}) });
    }
  }
  for (const e of state) {
    if (e.token !== "krcloud:kms:Ciphertext" && e.token !== "krcloud:kms:DataKey") continue;
    const o = e.outputs;
    const plain = await p.kms
      .decrypt(String(o.keyId), { ciphertext: String(o.ciphertext), ...(typeof o.aad === "string" ? { aad: o.aad } : {}) })
      .catch(() => undefined);
    if (plain !== undefined && (e.token === "krcloud:kms:DataKey" || plain === o.plaintext)) out.push({ kind: "kms/ciphertext", id: e.id });
  }
  return out;
}

/** Orphans, duplicates and ghosts of `state` against `cloud` (see the file comment). */
export function compareState(state: readonly Entry[], cloud: readonly CloudEntry[], createKeys: ReadonlySet<string>): Counts {
  const expected = state.flatMap(expectedOf);
  const want = new Set(expected.map(key));
  const have = new Set(cloud.map(key));
  const counts: Counts = { orphans: [], duplicates: [], ghosts: [] };
  for (const c of cloud) {
    if (want.has(key(c))) continue;
    // A query run is history, not a resource: it is an orphan only when no run of this stack made it.
    if (c.kind === "data-query/query" && (c.marker === undefined || createKeys.has(c.marker))) continue;
    counts.orphans.push(key(c));
  }
  for (const x of expected) if (!have.has(key(x))) counts.ghosts.push(key(x));
  const kinds = new Set(cloud.map((c) => c.kind));
  for (const kind of kinds) {
    if (kind === "data-query/query") continue;
    const wanted = expected.filter((x) => x.kind === kind).length;
    const present = cloud.filter((c) => c.kind === kind).length;
    if (wanted > 0 && present > wanted) counts.duplicates.push(`${present - wanted} extra ${kind}`);
  }
  const runs = new Map<string, number>();
  for (const c of cloud) if (c.kind === "data-query/query" && c.marker !== undefined) runs.set(c.marker, (runs.get(c.marker) ?? 0) + 1);
  for (const [marker, n] of runs) if (n > 1) counts.duplicates.push(`query run ${n} times (${marker.slice(0, 8)})`);
  return counts;
}

export const total = (c: Counts) => c.orphans.length + c.duplicates.length + c.ghosts.length;

// ---------------------------------------------------------------------------------------------
// The environment: one local cloud, a project per cell

const DB_SEED = {
  shop: `CREATE TABLE orders(id INTEGER, region VARCHAR, amount INTEGER);
         INSERT INTO orders VALUES (1, 'kr', 10), (2, 'us', 20), (3, 'kr', 5);`,
};

export class MatrixEnv {
  private readonly resources = new Map<string, EngineResource>();
  private projects = 0;

  private constructor(readonly tc: TestCloud) {}

  static async start(): Promise<MatrixEnv> {
    return new MatrixEnv(await startTestCloud({ cacheEngine: "simulated" }));
  }

  resource(token: string): EngineResource {
    let r = this.resources.get(token);
    if (!r) {
      r = new EngineResource(token);
      this.resources.set(token, r);
    }
    return r;
  }

  /** The control API over HTTP; a non-2xx answer throws. */
  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await this.tc.controlApi(method, path, body);
    if (r.status >= 300) throw new Error(`${method} /_control${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  }

  async inventory(): Promise<InventoryItem[]> {
    return (await this.control<{ resources: InventoryItem[] }>("GET", "/inventory")).resources;
  }

  /** A new project with its own credentials, configured as the stack config of the next provider calls, with its setup. */
  async project(label: string): Promise<MatrixProject> {
    const n = ++this.projects;
    const id = `fm${n}${label.replace(/[^a-z0-9]/gi, "").toLowerCase()}`.slice(0, 24) + Math.random().toString(16).slice(2, 8);
    const token = await this.control<{ token: string }>("POST", "/credentials", { projectId: id, kind: "token" });
    const key = await this.control<{ credentialId: string; credentialSecret: string }>("POST", "/credentials", { projectId: id, kind: "access-key" });
    const config: Record<string, string> = {
      "krcloud:localCloudUrl": this.tc.cloud.url,
      "krcloud:authToken": token.token,
      "krcloud:projectId": id,
      "krcloud:credentialId": key.credentialId,
      "krcloud:credentialSecret": key.credentialSecret,
    };
    await this.resource("krcloud:objectstorage:Bucket").configure(config);
    const settings = resolveSettings({
      localCloudUrl: this.tc.cloud.url,
      authToken: token.token,
      projectId: id,
      credentialId: key.credentialId,
      credentialSecret: key.credentialSecret,
    });
    const p: MatrixProject = {
      id,
      config,
      settings,
      os: new ObjectStorageClient({ settings }),
      cache: new CacheClient({ settings }),
      dq: new DataQueryClient({ settings }),
      kms: new KmsClient({ settings }),
      keyId: `key-${id}`,
      instanceId: `mysql-${id}`,
      resultBucket: `results-${id.toLowerCase()}`,
    };
    await this.control("PATCH", `/resources/kms/key/${p.keyId}`, { projectId: id, type: "symmetric" });
    await this.control("PATCH", `/resources/data-query/instance/${p.instanceId}`, { projectId: id, engine: "mysql", databases: DB_SEED });
    await p.os.createBucket({ name: p.resultBucket });
    return p;
  }

  /** Holds a kind's status transitions (an hour on the local cloud's clock). */
  async hold(service: string, kind: string): Promise<void> {
    await this.control("PUT", "/transitions", { service, kind, mode: "duration", ms: 3_600_000 });
  }

  /** Lets held transitions end (the clock moves past them) and new ones happen at once again. */
  async release(service: string, kind: string): Promise<void> {
    await this.control("PUT", "/transitions", { service, kind, mode: "immediate" });
    await this.control("POST", "/clock/advance", { ms: 7_200_000 });
  }

  progress(): string[] {
    return this.tc.progress();
  }

  async close(): Promise<void> {
    await this.tc.close();
  }
}

// ---------------------------------------------------------------------------------------------
// One cell

export interface MessageCheck {
  resource: boolean;
  operation: boolean;
  cause: boolean;
  /** No JavaScript stack frame in what the engine would print. */
  stackless: boolean;
}

export interface CellResult {
  type: string;
  op: Op;
  fault: FaultName;
  /** Why the cell does not apply. */
  na?: string;
  /** The target operation. */
  operation?: string;
  /** Requests the fault hit. */
  fired: number;
  /** The first run's error (the cell's command failed). */
  error?: string;
  message?: MessageCheck;
  /** After the failed command, before the user's next step. */
  after: Counts;
  /** The user's next step's error, if it failed too. */
  nextError?: string;
  /** After the next step (the cell's verdict). */
  final: Counts;
  converged: boolean;
  /** For 429 cells of changes: a progress line said how many requests were throttled. */
  throttleReported?: boolean;
  notes: string[];
  ms: number;
}

/** Verbs that say what was being done (lower case, as messages phrase them: "creating bucket ..."). */
const OPERATION_WORDS: Record<Op, RegExp> = {
  create: /\b(creating|adding|running the|encrypting|generating|uploading|setting|putting)\b/,
  // An update reads the resource first: "reading" names the step that failed.
  update: /\b(updating|adding|scaling|modifying|setting|putting|uploading|reading|removing)\b/,
  read: /\b(reading|listing|looking)\b/,
  delete: /\b(deleting|removing|aborting|emptying)\b/,
};

const NAME_KEYS = ["name", "bucket", "clusterId", "keyId"];

function checkMessage(err: Error & Record<string, unknown>, op: Op, fault: FaultName, names: readonly string[], noun: RegExp | undefined): MessageCheck {
  const text = err.message;
  // What the dynamic provider host prints for check, diff, read and delete: `${e}: ${e.stack}`.
  const printed = `${String(err)}: ${String(err.stack)}`;
  return {
    resource: names.some((n) => n !== "" && text.includes(n)) || (noun?.test(text) ?? false),
    operation: OPERATION_WORDS[op].test(text),
    cause: FAULTS[fault].cause.test(text),
    stackless: !/\n\s+at /.test(printed),
  };
}

/** The letter code of a cell: R, F, or what went wrong. */
export function verdict(r: CellResult): string {
  if (r.na) return "n/a";
  const problems: string[] = [];
  // Not hit: the fault never fired, or a held transition or terminal state did not fail the command.
  if (r.fault === "stuck" || r.fault === "FAILED" ? r.error === undefined : r.fired === 0) problems.push("N");
  if (r.final.orphans.length) problems.push("O");
  if (r.final.duplicates.length) problems.push("D");
  if (r.final.ghosts.length) problems.push("G");
  if (!r.converged) problems.push("S");
  if (r.message && !(r.message.resource && r.message.operation && r.message.cause && r.message.stackless)) problems.push("M");
  if (r.throttleReported === false) problems.push("T");
  if (problems.length) return problems.join("+");
  // °: something was left outside state between the failure and the next step, which took it over.
  return `${r.error ? "F" : "R"}${r.after.orphans.length ? "°" : ""}`;
}

function names(...sources: (Props | undefined)[]): string[] {
  const out: string[] = [];
  for (const s of sources) for (const k of NAME_KEYS) if (typeof s?.[k] === "string") out.push(s[k]);
  return out;
}

async function attempt(fn: () => Promise<unknown>): Promise<(Error & Record<string, unknown>) | undefined> {
  try {
    await fn();
    return undefined;
  } catch (e) {
    const err = e instanceof StepError ? e.error : (e as Error & Record<string, unknown>);
    return err;
  }
}

/**
 * Fails a cache node (or instance) that is still starting, once one shows up, while `until` runs:
 * the resource's wait must see it and stop. Returns what it failed, to repair it afterwards.
 */
async function failAStartingNode(env: MatrixEnv, p: MatrixProject, how: "node" | "instance", until: Promise<unknown>): Promise<string | undefined> {
  let settled = false;
  void until.finally(() => (settled = true)).catch(() => undefined);
  for (let i = 0; i < 2000 && !settled; i++) {
    for (const c of await p.cache.clusters.list()) {
      const pending =
        how === "node"
          ? (await p.cache.clusterTopology(c.id)).unsettledNodes.map((n) => n.nodeId)
          : Object.entries((await p.cache.instanceSetTopology(c.id)).instanceStates)
              .filter(([, s]) => s !== "running")
              .map(([id]) => id);
      if (pending[0] !== undefined) {
        await env.control("PATCH", `/resources/cache/${how}/${pending[0]}`, { status: "FAILED" });
        return pending[0];
      }
    }
    await new Promise((r) => setImmediate(r));
  }
  return undefined;
}

/** Why a cell does not apply (the operation makes no request, the type has no wait or no terminal state), or undefined. */
export function notApplicable(t: TypeSpec, op: Op, fault: FaultName): string | undefined {
  if (t.ops[op] === undefined) return t.na?.[op] ?? "no request";
  if (op === "update" && !t.updated) return t.na?.update ?? "no update";
  if (fault === "stuck" && t.stuck?.kind[op] === undefined) return t.stuck ? "no wait" : "no transition";
  if (fault === "FAILED" && !t.failed?.[op]) return "no terminal state";
  return undefined;
}

const withTimeouts = (args: Props, op: Op): Props => ({ ...args, timeouts: { [op]: "1s" } });

/** Runs one cell: arrange, fault, the command, the user's next step, and the comparisons. */
export async function runCell(env: MatrixEnv, t: TypeSpec, op: Op, fault: FaultName): Promise<CellResult> {
  const started = Date.now();
  const type = t.token.replace(/^krcloud:/, "");
  const blank: Counts = { orphans: [], duplicates: [], ghosts: [] };
  const na = (why: string): CellResult => ({ type, op, fault, na: why, fired: 0, after: blank, final: blank, converged: true, notes: [], ms: 0 });
  const operation = t.ops[op];
  const why = notApplicable(t, op, fault);
  if (why !== undefined || operation === undefined) return na(why ?? "no request");
  const stuckHere = fault === "stuck";
  const failedHow = fault === "FAILED" ? t.failed?.[op] : undefined;

  const p = await env.project(`${type.split(":")[1]}${op}`);
  const stack = new SimStack(p.id, (token) => env.resource(token));
  const deps = t.deps?.(p) ?? [];
  const timed = (args: Props) => (stuckHere && (op === "create" || op === "update") ? withTimeouts(args, op) : args);
  const good = (s: SimStack) => timed(t.args(p, s));
  const programOf = (args: (s: SimStack) => Props): Declared[] => [...deps, { logical: "target", token: t.token, args }];
  const createArgs = (s: SimStack) => (failedHow === "bad-sql" ? { ...good(s), query: "select * from no_such_table" } : good(s));
  const initial = programOf(op === "create" ? createArgs : good);
  const changed = programOf((s) => timed(t.updated!(p, s)));
  // The program after the cell: what the user's next step declares.
  const final = op === "update" ? changed : programOf(good);

  // Arrange: the dependencies (and for update, read and delete: the resource itself).
  await stack.up(op === "create" ? deps : initial);
  await verifyTokenProject(p.settings);
  let targetInputs: Props | undefined;
  let armed = true;
  stack.beforeCreate = async (d, inputs) => {
    if (d.logical !== "target") return;
    targetInputs = inputs;
    if (armed && failedHow === "hadoop-create-failure" && typeof inputs.name === "string") {
      await env.control("PATCH", `/resources/hadoop/create-failure/${inputs.name}`, { reason: "no capacity for m2a.xlarge (injected)" });
    }
  };

  // The resource as recorded before the command (update, read, delete): its names for the message check.
  const before = stack.entries.get("target");
  const notes: string[] = [];
  let faultId: string | undefined;
  const spec = FAULTS[fault].spec;
  if (stuckHere) await env.hold(t.stuck!.service, t.stuck!.kind[op]!);
  if (failedHow === "node" || failedHow === "instance") await env.hold("cache", failedHow);
  if (spec) faultId = (await env.control<{ id: string }>("POST", "/faults", { service: t.service, operation, ...spec })).id;
  if (fault === "LR/fresh") await closeAllPools();
  if (fault === "LR/reused") await p.os.listBuckets();
  const progressBefore = env.progress().length;

  // The command.
  const command = (program: Declared[]) => (op === "read" ? stack.refresh() : op === "delete" ? stack.destroy() : stack.up(program).then(() => undefined));
  const run = command(op === "update" ? changed : initial);
  const failedNode = failedHow === "node" || failedHow === "instance" ? failAStartingNode(env, p, failedHow, run) : undefined;
  const error = await attempt(() => run);
  armed = false;
  const broken = await failedNode;
  if ((failedHow === "node" || failedHow === "instance") && broken === undefined) notes.push("no starting node was seen to fail");

  // The fault is cleared, the cause removed.
  let fired = 0;
  if (faultId) {
    fired = (await env.control<{ faults: { id: string; fired: number }[] }>("GET", "/faults")).faults.find((f) => f.id === faultId)?.fired ?? 0;
    await env.control("DELETE", `/faults/${faultId}`);
  }
  const progress = env.progress().slice(progressBefore);
  const after = compareState([...stack.entries.values()], await cloudView(await env.inventory(), p, [...stack.entries.values()]), stack.createKeys);
  if (stuckHere) await env.release(t.stuck!.service, t.stuck!.kind[op]!);
  if (broken) await env.control("PATCH", `/resources/cache/${failedHow}/${broken}`, { status: "Running" });
  if (failedHow === "node" || failedHow === "instance") await env.release("cache", failedHow);
  if (failedHow === "hadoop-create-failure" && typeof targetInputs?.name === "string") {
    await env.control("DELETE", `/resources/hadoop/create-failure/${targetInputs.name}`);
  }

  // The user's next step.
  let nextError: (Error & Record<string, unknown>) | undefined;
  if (error) {
    nextError = await attempt(() => command(final));
  }
  const state = [...stack.entries.values()];
  const finalCounts = compareState(state, await cloudView(await env.inventory(), p, state), stack.createKeys);

  // Converged: after a destroy nothing is left; otherwise a refresh and a preview show no change.
  let converged = nextError === undefined;
  if (converged && op === "delete") {
    converged = stack.entries.size === 0;
    if (!converged) notes.push(`left in state: ${[...stack.entries.keys()].join(", ")}`);
  } else if (converged) {
    const refreshed = await attempt(() => stack.refresh());
    if (refreshed) {
      converged = false;
      notes.push(`refresh failed: ${refreshed.message.split("\n")[0]}`);
    } else {
      const steps = await stack.plan(final);
      const changes = Object.entries(steps).filter(([, s]) => s !== "same");
      if (changes.length) {
        converged = false;
        notes.push(`preview after refresh: ${changes.map(([l, s]) => `${l} ${s}`).join(", ")}`);
      }
    }
  }

  const target = stack.entries.get("target");
  const result: CellResult = {
    type,
    op,
    fault,
    operation,
    fired,
    after,
    final: finalCounts,
    converged,
    notes,
    ms: Date.now() - started,
  };
  if (error) {
    result.error = error.message;
    result.message = checkMessage(
      error,
      op,
      fault,
      [...names(targetInputs, target?.inputs, target?.outputs, before?.outputs), ...[target?.id, before?.id].filter((x) => x !== undefined)],
      t.noun,
    );
  }
  if (nextError) result.nextError = nextError.message;
  if (fault === "429" && !error && op !== "read") {
    result.throttleReported = progress.some((l) => /\d+ of \d+ requests were throttled \(429\) and retried/.test(l));
  }
  await env.control("DELETE", "/faults");
  return result;
}

// ---------------------------------------------------------------------------------------------
// The table

export function renderMatrix(results: readonly CellResult[], faults: readonly FaultName[] = FAULT_NAMES): string {
  const rows = new Map<string, Map<string, string>>();
  for (const r of results) {
    const row = `${r.type} | ${r.op}`;
    if (!rows.has(row)) rows.set(row, new Map());
    rows.get(row)!.set(r.fault, verdict(r));
  }
  const lines = [`| resource | op | ${faults.join(" | ")} |`, `|---|---|${faults.map(() => "---").join("|")}|`];
  for (const [row, cells] of rows) lines.push(`| ${row} | ${faults.map((f) => cells.get(f) ?? "").join(" | ")} |`);
  return lines.join("\n");
}

export function totals(results: readonly CellResult[]) {
  const run = results.filter((r) => !r.na);
  return {
    cells: run.length,
    recovered: run.filter((r) => verdict(r).startsWith("R") && passed(r)).length,
    failedCleanly: run.filter((r) => verdict(r).startsWith("F") && passed(r)).length,
    problems: run.filter((r) => !passed(r)).length,
    orphans: run.reduce((n, r) => n + r.final.orphans.length, 0),
    duplicates: run.reduce((n, r) => n + r.final.duplicates.length, 0),
    ghosts: run.reduce((n, r) => n + r.final.ghosts.length, 0),
    orphansBeforeNextStep: run.reduce((n, r) => n + r.after.orphans.length, 0),
    ms: run.reduce((n, r) => n + r.ms, 0),
  };
}

/** A cell passes when it recovered (R) or failed cleanly (F) and then converged; n/a cells pass. */
export function passed(r: CellResult): boolean {
  return r.na !== undefined || /^[RF]°?$/.test(verdict(r));
}

/** One line per cell that is not R or F, with what went wrong: for the test's failure message. */
export function describeProblems(results: readonly CellResult[]): string {
  return results
    .filter((r) => !passed(r))
    .map(
      (r) =>
        `${r.type} ${r.op} ${r.fault} [${verdict(r)}] fired=${r.fired} error=${r.error?.split("\n")[0] ?? "-"} next=${r.nextError?.split("\n")[0] ?? "-"} ` +
        `final=${JSON.stringify(r.final)} after=${JSON.stringify(r.after)} message=${JSON.stringify(r.message)} notes=${r.notes.join("; ")}`,
    )
    .join("\n");
}

// ---------------------------------------------------------------------------------------------
// The jest suite of a group of rows

/**
 * One test per applicable cell of `types` (n/a cells are only shown in the table); after the last,
 * the table and the totals are printed, and written as JSON to `$KRCLOUD_FAULT_MATRIX_JSON/<label>.json`
 * when that variable names a directory (docs/reliability.md is made from those files).
 */
export function defineMatrix(label: string, types: readonly TypeSpec[], faults: readonly FaultName[] = FAULT_NAMES): void {
  let env: MatrixEnv;
  const results: CellResult[] = [];
  const started = Date.now();
  // Read now: the test cloud hides every KRCLOUD_* variable while it runs.
  const dir = process.env.KRCLOUD_FAULT_MATRIX_JSON;
  beforeAll(async () => {
    env = await MatrixEnv.start();
  });
  afterAll(async () => {
    const all = types.flatMap((t) =>
      OPS.flatMap((op) =>
        faults.map((fault) => results.find((r) => r.type === t.token.replace(/^krcloud:/, "") && r.op === op && r.fault === fault) ?? naResult(t, op, fault)),
      ),
    );
    const sums = totals(all);
    const wall = Date.now() - started;
    console.log(`Fault matrix (${label}): ${sums.cells} cells in ${(wall / 1000).toFixed(1)} s\n\n${renderMatrix(all, faults)}\n\n${JSON.stringify(sums)}`);
    if (dir) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${label}.json`), JSON.stringify({ label, wallMs: wall, results: all }, null, 1));
    }
    await env?.close();
  });
  for (const t of types) {
    describe(t.token, () => {
      for (const op of OPS) {
        for (const fault of faults) {
          if (notApplicable(t, op, fault) !== undefined) continue;
          test(`${op} × ${fault}: nothing orphaned, duplicated or lost; the next step converges`, async () => {
            const r = await runCell(env, t, op, fault);
            results.push(r);
            if (!passed(r)) throw new Error(describeProblems([r]));
          });
        }
      }
    });
  }
}

function naResult(t: TypeSpec, op: Op, fault: FaultName): CellResult {
  const blank: Counts = { orphans: [], duplicates: [], ghosts: [] };
  return {
    type: t.token.replace(/^krcloud:/, ""),
    op,
    fault,
    na: notApplicable(t, op, fault) ?? "not run",
    fired: 0,
    after: blank,
    final: blank,
    converged: true,
    notes: [],
    ms: 0,
  };
}
