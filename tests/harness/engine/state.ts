/**
 * What an engine run leaves and how it went (re-exported by index.ts): the stack's state and its
 * secrets, the backend's files at rest, the steps of a run's events; and the small helpers the
 * runs share (an expected failure, a node script, an object's body, the test timeout).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Deployment, EngineEvent } from "@pulumi/pulumi/automation";
import type { CloudProject } from "./cloud";
import { REPO_ROOT } from "./paths";

// ---------------------------------------------------------------------------------------------
// State

/** `krcloud:objectstorage:Bucket` -> `pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket`. */
export function engineType(token: string): string {
  const [pkg, mod, type] = token.split(":");
  return `pulumi-nodejs:dynamic/${pkg}/${mod}:${type}`;
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  /** Where the program declared it: `project:///index.ts#12,5`. */
  sourcePosition?: string;
}

export function stateResources(d: Deployment): StateResource[] {
  return (d.deployment as { resources?: StateResource[] }).resources ?? [];
}

export function resourcesOfType(d: Deployment, token: string): StateResource[] {
  return stateResources(d).filter((r) => r.type === engineType(token));
}

export function logicalName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** Pulumi's representation of a secret in state: `{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext}`. */
export const SECRET_SIG = "4dabf18193072939515e22adb298388d";

export function isSecret(v: unknown): boolean {
  return v !== null && typeof v === "object" && (v as Record<string, unknown>)[SECRET_SIG] === "1b47061264138c4ac30d75fd1eb44270";
}

/**
 * `value` with every secret envelope replaced by a marker. `stack.exportStack()` runs `pulumi stack
 * export --show-secrets`, so secrets come back decrypted, but still inside their envelopes: what
 * is left after this holds only what Pulumi does not know to be secret.
 */
export function withoutSecrets(value: unknown): unknown {
  if (isSecret(value)) return "[secret]";
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, withoutSecrets(v)]));
  }
  return value;
}

/** Every file of the file backend (checkpoints, history, backups), as text: what is stored at rest. */
export function backendFiles(backendDir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const visit = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (e.isFile()) out.push({ file: path.relative(backendDir, p), text: fs.readFileSync(p, "utf8") });
    }
  };
  visit(backendDir);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Engine runs

/** Collects the engine events of one operation (for assertions on steps and diffs). */
export function eventCollector(): { events: EngineEvent[]; onEvent: (e: EngineEvent) => void } {
  const events: EngineEvent[] = [];
  return { events, onEvent: (e) => events.push(e) };
}

/** The step ops per URN seen in a run's events (resourcePreEvent), excluding `same`. */
export function changedSteps(events: EngineEvent[]): { urn: string; op: string }[] {
  return events
    .map((e) => e.resourcePreEvent?.metadata)
    .filter((m): m is NonNullable<typeof m> => m !== undefined && m.op !== "same")
    .map((m) => ({ urn: m.urn, op: m.op }));
}

/** Steps in the order of their URNs: steps the engine runs at once (deletes of independent providers) come in any order. */
export function byUrn<T extends { urn: string }>(steps: readonly T[]): T[] {
  return [...steps].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
}

/** Logical name -> step op of a preview or up, for the krcloud resources (not the stack). */
export function krcloudOps(events: EngineEvent[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of changedSteps(events)) if (s.urn.includes("dynamic/krcloud")) out[logicalName(s.urn)] = s.op;
  return out;
}

/** An object's body, read through the object storage API with the project's token. */
export async function objectText(project: CloudProject, bucket: string, key: string): Promise<string> {
  const res = await fetch(`${project.cloud.url}/object-storage/v1/${project.projectId}/${bucket}/${key}`, { headers: { "x-auth-token": project.token } });
  expect(res.status).toBe(200);
  return res.text();
}

/** Runs `fn`, expecting it to reject; returns the error's text (message plus captured output). */
export async function expectFailure(fn: () => Promise<unknown>): Promise<string> {
  let result: unknown;
  try {
    result = await fn();
  } catch (e) {
    const err = e as { message?: string; commandResult?: { stdout?: string; stderr?: string } };
    return [err.message ?? String(e), err.commandResult?.stdout ?? "", err.commandResult?.stderr ?? ""].join("\n");
  }
  throw new Error(`expected the operation to fail, it succeeded: ${JSON.stringify(result)?.slice(0, 500)}`);
}

/** How a command ended: its exit status and output. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a node script (e.g. dist/bin/krcloud-drift.js) and returns its exit code and output. */
export function runNode(script: string, args: string[], env: Record<string, string>, cwd = REPO_ROOT): Promise<CommandResult> {
  return runCommand(process.execPath, [script, ...args], env, cwd);
}

/** Runs `file` with `args`, resolving (never rejecting) with its exit status and output. */
export function runCommand(file: string, args: string[], env: Record<string, string>, cwd = REPO_ROOT): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

export function md5(s: string): string {
  return createHash("md5").update(s).digest("hex");
}

/** Generous: one Pulumi operation takes seconds; a test runs several and the machine may be busy. */
export const ENGINE_TEST_TIMEOUT_MS = 300_000;
