/**
 * The engine-level side of the reliability tests (tests/engine/reliability-*.test.ts): a stack of
 * tests/programs/faults (any mix of the 13 resource types) in a project of its own, the local
 * cloud's setup it needs (a KMS key, a MySQL instance, a result bucket), faults through the control
 * API, the real CLI run as a child process that a test can SIGKILL, and the same comparison of the
 * recorded state with the cloud's inventory as the fault matrix (matrix.ts `compareState`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Deployment, Stack } from "@pulumi/pulumi/automation";
import type { LocalCloud } from "../../../local-cloud";
import { resolveSettings } from "../../../client/core";
import { DataQueryClient, type QueryResultPage } from "../../../client/dataquery";
import { newProject, providerConfig, pulumiBinDir, REPO_ROOT, SECRET_SIG, type CloudProject, type Sandbox } from "../../harness/engine";
import { cloudView, compareState, type Counts, type FaultBody, type InventoryItem } from "./matrix";
import { projectClients, type ProjectClients } from "./project";
import type { Entry } from "./sim-stack";

export const FAULTS_PROGRAM = path.join(REPO_ROOT, "tests", "programs", "faults");
export const NS = "krcloud-test-faults";

export interface Bed extends ProjectClients {
  cloud: LocalCloud;
  project: CloudProject;
  dir: string;
  stack: Stack;
  stackName: string;
  /** The file backend: its history holds every create key the stack ever recorded. */
  backendDir: string;
}

/** The project's clients and setup, without a stack (SDK-level tests). */
export async function projectBed(cloud: LocalCloud, label: string): Promise<Omit<Bed, "dir" | "stack" | "stackName" | "backendDir">> {
  const project = await newProject(cloud, label);
  const settings = resolveSettings({
    localCloudUrl: cloud.url,
    authToken: project.token,
    projectId: project.projectId,
    credentialId: project.credentialId,
    credentialSecret: project.credentialSecret,
  });
  const clients = await projectClients(settings, project.projectId, (service, kind, id, body) => project.control.patchResource(service, kind, id, body));
  return { cloud, project, ...clients };
}

/** A project, its setup, and a stack of tests/programs/faults declaring `res` (plus other program config). */
export async function faultsBed(cloud: LocalCloud, sandbox: Sandbox, label: string, config: Record<string, string>): Promise<Bed> {
  const p = await projectBed(cloud, label);
  const dir = sandbox.copyProgram(FAULTS_PROGRAM, `faults-${label}`);
  const program: Record<string, string> = { keyId: p.keyId, instanceId: p.instanceId, resultBucket: p.resultBucket, ...config };
  const stack = await sandbox.createStack(
    dir,
    label,
    providerConfig(p.project, Object.fromEntries(Object.entries(program).map(([k, v]) => [`${NS}:${k}`, { value: v }]))),
  );
  return { ...p, dir, stack, stackName: label, backendDir: sandbox.backendDir };
}

/** Runs `sql` and waits for its end (transitions are immediate): its state, error and rows. */
export async function runSql(
  dq: DataQueryClient,
  sql: string,
  bucketName: string,
  dataSource?: string,
): Promise<{ state: string; error?: string; rows: string[][] }> {
  let started;
  try {
    started = await dq.runQuery({ query: sql, bucketName, path: "probe", ...(dataSource ? { dataSource, database: "shop" } : {}) });
  } catch (e) {
    return { state: "REFUSED", error: (e as Error).message, rows: [] };
  }
  let page: QueryResultPage | undefined;
  for (let i = 0; i < 50; i++) {
    page = await dq.getQueryResult(started.queryId);
    if (["FINISHED", "FAILED", "ABORTED"].includes(page.queryInfo.state)) break;
  }
  const state = page!.queryInfo.state;
  const rows = state === "FINISHED" ? (await dq.getRows(started.queryId, 100)).rows : [];
  return { state, ...(page!.queryInfo.errorMessage ? { error: page!.queryInfo.errorMessage } : {}), rows };
}

// ---------------------------------------------------------------------------------------------
// Faults, over HTTP as a script would add them

export async function addFault(cloud: LocalCloud, body: FaultBody): Promise<string> {
  const r = await controlCall(cloud, "POST", "/faults", body);
  return (r as { id: string }).id;
}

export async function faultFired(cloud: LocalCloud, id: string): Promise<number> {
  const r = (await controlCall(cloud, "GET", "/faults")) as { faults: { id: string; fired: number }[] };
  return r.faults.find((f) => f.id === id)?.fired ?? 0;
}

export async function clearFaults(cloud: LocalCloud): Promise<void> {
  await controlCall(cloud, "DELETE", "/faults");
}

export async function controlCall(cloud: LocalCloud, method: string, route: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${cloud.controlUrl}${route}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} /_control${route}: ${res.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** Holds a kind's status transitions for an hour of the local cloud's clock. */
export async function hold(cloud: LocalCloud, service: string, kind: string): Promise<void> {
  await controlCall(cloud, "PUT", "/transitions", { service, kind, mode: "duration", ms: 3_600_000 });
}

/** Ends held transitions (the clock moves past them); new ones happen at once again. */
export async function release(cloud: LocalCloud, service: string, kind: string): Promise<void> {
  await controlCall(cloud, "PUT", "/transitions", { service, kind, mode: "immediate" });
  await controlCall(cloud, "POST", "/clock/advance", { ms: 7_200_000 });
}

// ---------------------------------------------------------------------------------------------
// State against the cloud

/** A secret envelope of `stack export --show-secrets`, opened. */
function open(v: unknown): unknown {
  if (v !== null && typeof v === "object" && SECRET_SIG in v) {
    const plain = (v as { plaintext?: string }).plaintext;
    return plain === undefined ? undefined : (JSON.parse(plain) as unknown);
  }
  if (Array.isArray(v)) return v.map(open);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, open(x)]));
  return v;
}

/** `pulumi-nodejs:dynamic/krcloud/cache:Cluster` (dynamic) or `krcloud:cache:Cluster` (native) -> the token. */
function tokenOf(type: string): string | undefined {
  const m = /^pulumi-nodejs:dynamic\/krcloud\/([a-z]+):([A-Za-z]+)$/.exec(type);
  // The stack's identity is state only: nothing of it is in the cloud.
  if (m) return m[1] === "index" ? undefined : `krcloud:${m[1]}:${m[2]}`;
  return /^krcloud:[a-z]+:[A-Z][A-Za-z]+$/.test(type) ? type : undefined;
}

export interface PendingOperation {
  type: string;
  resource: { urn: string; type: string; id?: string };
}

/** The krcloud resources a deployment records, as the fault matrix's entries, and its pending operations. */
export function recorded(d: Deployment): { entries: Entry[]; pending: PendingOperation[] } {
  const dep = d.deployment as {
    resources?: { urn: string; type: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }[];
    pending_operations?: PendingOperation[];
  };
  const entries: Entry[] = [];
  for (const r of dep.resources ?? []) {
    const token = tokenOf(r.type);
    if (!token || !r.id) continue;
    entries.push({
      logical: r.urn.slice(r.urn.lastIndexOf("::") + 2),
      token,
      id: r.id,
      inputs: open(r.inputs ?? {}) as Record<string, unknown>,
      outputs: open(r.outputs ?? {}) as Record<string, unknown>,
    });
  }
  return { entries, pending: dep.pending_operations ?? [] };
}

export interface Audit extends Counts {
  entries: Entry[];
  pending: PendingOperation[];
}

/**
 * Orphans, duplicates and ghosts of the stack's state against the project's part of the cloud. A
 * query run is an orphan only when no checkpoint of the backend (its history included) ever
 * recorded its create key: the run of a query since replaced is history, not an orphan.
 */
export async function audit(bed: Bed): Promise<Audit> {
  const { entries, pending } = recorded(await bed.stack.exportStack());
  const inventory = (await controlCall(bed.cloud, "GET", "/inventory")) as { resources: InventoryItem[] };
  const view = await cloudView(
    inventory.resources,
    { id: bed.project.projectId, cache: bed.cache, dq: bed.dq, kms: bed.kms, resultBucket: bed.resultBucket },
    entries,
  );
  const keys = new Set(entries.map((e) => e.inputs.__krcloudCreateKey).filter((k): k is string => typeof k === "string"));
  for (const k of keysRecorded(bed.backendDir)) keys.add(k);
  return { ...compareState(entries, view, keys), entries, pending };
}

/** Every create key in the backend's checkpoints, current and past. */
function keysRecorded(dir: string): string[] {
  const out: string[] = [];
  const visit = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.name.endsWith(".json")) for (const m of fs.readFileSync(p, "utf8").matchAll(/"__krcloudCreateKey":\s*"([0-9a-f]{32})"/g)) out.push(m[1]!);
    }
  };
  if (fs.existsSync(dir)) visit(dir);
  return out;
}

/** The project's inventory without its setup (the KMS key, the result bucket and what lies in it). */
export async function stackInventory(bed: Pick<Bed, "cloud" | "project" | "resultBucket">): Promise<string[]> {
  const inventory = (await controlCall(bed.cloud, "GET", "/inventory")) as { resources: InventoryItem[] };
  return inventory.resources
    .filter((e) => e.projectId === bed.project.projectId && e.kind !== "key" && e.id !== bed.resultBucket && !e.id.startsWith(`${bed.resultBucket}/`))
    .map((e) => `${e.service}/${e.kind}:${e.id}`)
    .sort();
}

// ---------------------------------------------------------------------------------------------
// The CLI as a child process (to be killed)

/** How a CLI run ended: its exit code, or the signal that ended it, and its output. */
export interface CliEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

export interface CliRun {
  child: ChildProcess;
  output(): string;
  done: Promise<CliEnd>;
}

/**
 * `pulumi <args>` in `cwd` with the sandbox's environment, as a child process a test can SIGKILL
 * (the CLI alone: its language host and provider processes live on, as after a real kill, each in
 * a process group of its own; `endDescendants` ends them by their ids).
 */
export function spawnPulumi(sandbox: Sandbox, args: string[], cwd: string): CliRun {
  const child = spawn(path.join(pulumiBinDir(), "pulumi"), args, { cwd, env: { ...process.env, ...sandbox.env() }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString()));
  child.stderr.on("data", (b: Buffer) => (out += b.toString()));
  const done = new Promise<CliEnd>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, output: out })));
  return { child, output: () => out, done };
}

/** The ids of every process below `pid` now (from /proc). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid)!.push(Number(entry));
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const c of children.get(queue.shift()!) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** SIGKILLs the given processes (those a killed CLI left behind), by their ids. */
export function endProcesses(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Polls `check` (between event-loop turns and control API calls, no timer) until it returns true, or fails after `limitMs`. */
export async function until(what: string, check: () => Promise<boolean>, limitMs = 120_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting until ${what}`);
}
