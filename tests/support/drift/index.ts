/**
 * Helpers of the krcloud-drift engine tests: the proof that a check is read-only (the backend's
 * files and the local cloud's mutating requests before and after), the JSON report's types, and the
 * tool run as a child process.
 */
import { createHash } from "node:crypto";
import type { DriftReport, ResourceResult, StackReport } from "../../../drift/model";
import * as path from "node:path";
import { backendFiles, pulumiBinDir, runCommand, runNode, type Sandbox } from "../../harness/engine";
import { entry } from "../../harness/entries";

export const DRIFT_BIN = entry("drift");

export function runDrift(sandbox: Sandbox, args: string[], env: Record<string, string> = {}, cwd?: string) {
  return runNode(DRIFT_BIN, args, { ...sandbox.env(), ...env }, cwd);
}

/**
 * krcloud-drift as a YAML, Python, Go or Java team runs it: `pulumi plugin run krcloud-drift -- ARGS`
 * in the project's directory (the tool plugin, installDriftTool). The exit status is the tool's.
 */
export function runDriftTool(sandbox: Sandbox, args: string[], cwd: string, env: Record<string, string> = {}) {
  return runCommand(path.join(pulumiBinDir(), "pulumi"), ["plugin", "run", "krcloud-drift", "--", ...args], { ...sandbox.env(), ...env }, cwd);
}

/** Every file of the file backend with its SHA-256: equal before and after means no state was written. */
export function backendDigest(backendDir: string): Record<string, string> {
  return Object.fromEntries(backendFiles(backendDir).map((f) => [f.file, createHash("sha256").update(f.text).digest("hex")]));
}

interface LoggedRequest {
  method: string;
  service: string;
  operation: string;
}

/**
 * Requests the local cloud received that could change something (any method but GET and HEAD):
 * `GET /_control/counters`' `mutating` where the local cloud has it, else counted from the request log.
 */
export async function mutatingRequests(controlUrl: string): Promise<{ count: number; operations: string[] }> {
  const log = (await (await fetch(`${controlUrl}/requests`)).json()) as { requests: LoggedRequest[] };
  const mutating = log.requests.filter((r) => !["GET", "HEAD"].includes(r.method.toUpperCase()));
  const counters = (await (await fetch(`${controlUrl}/counters`)).json()) as { mutating?: unknown };
  const count = typeof counters.mutating === "number" ? counters.mutating : mutating.length;
  return { count, operations: mutating.map((r) => `${r.service}.${r.operation}`) };
}

/** Requests the local cloud received so far, by `service.operation`. */
export async function requestCount(controlUrl: string): Promise<number> {
  const log = (await (await fetch(`${controlUrl}/requests`)).json()) as { requests: unknown[] };
  return log.requests.length;
}

export function parseReport(stdout: string): DriftReport {
  return JSON.parse(stdout) as DriftReport;
}

export function resourceNamed(s: StackReport | undefined, name: string): ResourceResult {
  const r = s?.resources.find((x) => x.name === name);
  if (!r) throw new Error(`no resource "${name}" in the report of ${s?.stack}: ${s?.resources.map((x) => x.name).join(", ")}`);
  return r;
}

/** `[path, cloud, program]` of a resource's drifted properties (pending ones left out). */
export function driftedPaths(r: ResourceResult): [string, unknown, unknown][] {
  return r.properties.filter((p) => p.origin !== "program").map((p) => [p.path, p.cloud, p.program]);
}
