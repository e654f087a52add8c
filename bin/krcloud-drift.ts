#!/usr/bin/env node
/**
 * krcloud-drift: reports resources whose cloud state no longer matches what the Pulumi program
 * declares, for one or more stacks, without changing anything.
 *
 *   krcloud-drift --cwd examples/static-site --stack dev [--stack prod] [--json]
 *
 * For each stack it runs a refresh-preview through the Automation API (`pulumi preview --refresh`:
 * read every resource from the cloud, then plan against the program) and lists every step the plan
 * would take, with the properties that differ. Exit status: 0 no drift, 1 drift, 2 error (bad
 * arguments, missing stack, engine failure). Pulumi settings come from the environment as for the
 * CLI: PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE (or a secrets provider), PULUMI_HOME, and the
 * `pulumi` on PATH.
 */
import "./node-version";
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { LocalWorkspace, type EngineEvent, type OpType, type StepEventMetadata } from "@pulumi/pulumi/automation";

const USAGE = `usage: krcloud-drift --stack NAME [--stack NAME ...] [--cwd DIR] [--json]

  --stack NAME  stack to check (repeatable); fully qualified names (org/project/stack) work too
  --cwd DIR     the Pulumi project directory (holding Pulumi.yaml); default: the current directory
  --config-file FILE
                stack config file to use instead of DIR/Pulumi.<stack>.yaml (as pulumi --config-file)
  --json        print a JSON report instead of a table
  --report FILE also write the JSON report to FILE (e.g. for a CI artifact)

Runs \`pulumi preview --refresh\` per stack and reports every change it would make.
Exit status: 0 no drift, 1 drift found, 2 error.
`;

export const EXIT_CLEAN = 0;
export const EXIT_DRIFT = 1;
export const EXIT_ERROR = 2;

/** Operations that change nothing in the cloud. */
const NO_CHANGE: ReadonlySet<string> = new Set(["same", "refresh", "read", "discard", "discard-replaced", "remove-pending-replace"]);
/** The steps of one replacement, reported once as `replace`. */
const REPLACE_STEPS: ReadonlySet<string> = new Set(["replace", "create-replacement", "delete-replaced", "read-replacement", "import-replacement"]);
/** How the event stream shows a secret value. */
const SECRET = "[secret]";
const MAX_PATHS = 25;
const MAX_DEPTH = 6;

export interface DriftedProperty {
  /** `acl.public`, `rules[0].allowedOrigins[0]`. */
  path: string;
  /** Value in the cloud as refresh read it (absent: not set there). */
  cloud?: unknown;
  /** Value the program declares (absent: not declared). */
  program?: unknown;
  /** The value is secret: the event stream hides it, so it could not be compared. */
  secret?: boolean;
}

export interface DriftedResource {
  urn: string;
  name: string;
  /** krcloud token where the engine type is a krcloud dynamic resource, else the engine type. */
  type: string;
  operation: string;
  properties: DriftedProperty[];
  /** Why there is no property list (resource gone, not yet created, removed from the program). */
  note?: string;
}

export interface StackReport {
  stack: string;
  status: "clean" | "drift" | "error";
  resources: DriftedResource[];
  error?: string;
}

// ---------------------------------------------------------------------------------------------
// Analysis of the engine events (pure; exported for tests)

/** Turns the events of one refresh-preview into the resources the next `up` would change. */
export function analyzeEvents(events: readonly EngineEvent[]): DriftedResource[] {
  const gone = new Set<string>();
  const byUrn = new Map<string, DriftedResource>();
  for (const e of events) {
    const out = e.resOutputsEvent?.metadata;
    if (out && out.op === "refresh" && (!out.new || !out.new.id)) gone.add(out.urn);
  }
  for (const e of events) {
    const m = e.resourcePreEvent?.metadata;
    if (!m || NO_CHANGE.has(m.op) || m.type === "pulumi:pulumi:Stack") continue;
    const operation = REPLACE_STEPS.has(m.op) ? "replace" : m.op;
    const existing = byUrn.get(m.urn);
    if (existing) {
      if (operation === "replace" && existing.operation !== "replace") existing.operation = "replace";
      if (existing.properties.length === 0) existing.properties = propertiesOf(m);
      continue;
    }
    const row: DriftedResource = { urn: m.urn, name: logicalName(m.urn), type: displayType(m.type), operation, properties: propertiesOf(m) };
    const note = noteFor(m.op, gone.has(m.urn));
    if (note) row.note = note;
    byUrn.set(m.urn, row);
  }
  return [...byUrn.values()];
}

function noteFor(op: OpType, gone: boolean): string | undefined {
  if (op === "create") return gone ? "deleted outside Pulumi: refresh found it gone, up recreates it" : "not created yet";
  if (op === "delete") return "in the stack but no longer declared by the program";
  return undefined;
}

function propertiesOf(m: StepEventMetadata): DriftedProperty[] {
  if (m.op === "create" || m.op === "delete") return [];
  const cloud = stripInternal(m.old?.inputs);
  const program = stripInternal(m.new?.inputs);
  const out: DriftedProperty[] = [];
  // Prefer what the provider reported; krcloud's dynamic provider reports none, so compare inputs.
  const reported = m.detailedDiff && Object.keys(m.detailedDiff).length > 0 ? Object.keys(m.detailedDiff) : m.diffs && m.diffs.length > 0 ? m.diffs : undefined;
  if (reported) {
    for (const p of reported) out.push(...diffPaths(valueAt(cloud, p), valueAt(program, p), p));
    for (const p of reported) if (!out.some((d) => d.path === p || d.path.startsWith(`${p}.`) || d.path.startsWith(`${p}[`))) out.push({ path: p });
  } else {
    out.push(...diffPaths(cloud, program, ""));
  }
  return out.slice(0, MAX_PATHS);
}

function stripInternal(v: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v ?? {})) if (!k.startsWith("__")) out[k] = x;
  return out;
}

/** Leaf paths where `a` (cloud) and `b` (program) differ. */
export function diffPaths(a: unknown, b: unknown, at: string, depth = 0): DriftedProperty[] {
  if (a === SECRET || b === SECRET) return at ? [{ path: at, secret: true }] : [];
  // Equal text proves nothing where a secret hides the value: descend to flag it.
  if (jsonEqual(a, b) && !hasSecret(a)) return [];
  if (depth < MAX_DEPTH && isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => diffPaths(a[k], b[k], at ? `${at}.${k}` : k, depth + 1));
  }
  if (depth < MAX_DEPTH && Array.isArray(a) && Array.isArray(b)) {
    const out: DriftedProperty[] = [];
    for (let i = 0; i < Math.max(a.length, b.length); i++) out.push(...diffPaths(a[i], b[i], `${at}[${i}]`, depth + 1));
    return out;
  }
  const d: DriftedProperty = { path: at || "(inputs)" };
  if (a !== undefined) d.cloud = a;
  if (b !== undefined) d.program = b;
  return [d];
}

function valueAt(root: unknown, p: string): unknown {
  let cur = root;
  for (const part of p.split(/\.|\[(\d+)\]/).filter((s) => s !== undefined && s !== "")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function hasSecret(v: unknown): boolean {
  if (v === SECRET) return true;
  if (Array.isArray(v)) return v.some(hasSecret);
  return isRecord(v) && Object.values(v).some(hasSecret);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isRecord(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys(v[k])]),
    );
  return v;
}

function logicalName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** `pulumi-nodejs:dynamic/krcloud/objectstorage:Bucket` -> `krcloud:objectstorage:Bucket`. */
function displayType(t: string): string {
  const m = /^pulumi-nodejs:dynamic\/krcloud\/([^:]+):(.+)$/.exec(t);
  return m ? `krcloud:${m[1]}:${m[2]}` : t;
}

// ---------------------------------------------------------------------------------------------
// Running

export async function checkStack(stackName: string, workDir: string, configFile?: string): Promise<StackReport> {
  let stack;
  try {
    stack = await LocalWorkspace.selectStack({ stackName, workDir });
  } catch (e) {
    return { stack: stackName, status: "error", resources: [], error: `selecting stack "${stackName}": ${errorSummary(e)}` };
  }
  const events: EngineEvent[] = [];
  try {
    await stack.preview({ refresh: true, color: "never", configFile, onEvent: (e) => events.push(e) });
  } catch (e) {
    return { stack: stackName, status: "error", resources: [], error: `refresh-preview of stack "${stackName}" failed:\n${errorSummary(e)}` };
  }
  const resources = analyzeEvents(events);
  return { stack: stackName, status: resources.length > 0 ? "drift" : "clean", resources };
}

/**
 * The useful part of an Automation API error, whose message repeats the command, its exit code and
 * its whole output: the Diagnostics section when there is one, else the `error:` lines.
 */
export function errorSummary(e: unknown): string {
  const lines = ((e as Error)?.message ?? String(e)).split("\n").map((l) => l.trimEnd());
  const diag = lines.findIndex((l) => /^\s*Diagnostics:\s*$/.test(l));
  if (diag >= 0) {
    const end = lines.findIndex((l, i) => i > diag && /^\s*(Resources:|Duration:|err\?:)/.test(l));
    return dedent(lines.slice(diag + 1, end < 0 ? undefined : end).filter((l) => l.trim() !== ""))
      .slice(0, 20)
      .join("\n");
  }
  const errors = [...new Set(lines.filter((l) => /^\s*error:/.test(l)).map((l) => l.trim()))];
  if (errors.length > 0) return errors.join("\n");
  return lines
    .filter((l) => l.trim() !== "")
    .slice(0, 10)
    .join("\n");
}

function dedent(lines: string[]): string[] {
  const indent = Math.min(...lines.map((l) => /^\s*/.exec(l)![0].length));
  return lines.map((l) => l.slice(Number.isFinite(indent) ? indent : 0));
}

export function exitCode(reports: readonly StackReport[]): number {
  if (reports.some((r) => r.status === "error")) return EXIT_ERROR;
  return reports.some((r) => r.status === "drift") ? EXIT_DRIFT : EXIT_CLEAN;
}

export function formatTable(reports: readonly StackReport[]): string {
  const rows: string[][] = [];
  for (const r of reports) {
    if (r.status === "clean") rows.push([r.stack, "-", "-", "-", "no drift"]);
    if (r.status === "error") rows.push([r.stack, "-", "-", "error", "see below"]);
    for (const d of r.resources) {
      const props = d.properties.map((p) => (p.secret ? `${p.path} [secret]` : p.path)).join(", ");
      rows.push([r.stack, d.name, d.type, d.operation, props || d.note || "-"]);
    }
  }
  const head = ["STACK", "RESOURCE", "TYPE", "OPERATION", "DRIFTED PROPERTIES"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join("  ");
  const out = [line(head), ...rows.map(line)];

  for (const r of reports) {
    for (const d of r.resources) {
      out.push("", `${r.stack}: ${d.name} (${d.operation})`, `  urn: ${d.urn}`);
      if (d.note) out.push(`  ${d.note}`);
      for (const p of d.properties) {
        if (p.secret) out.push(`  ${p.path}: secret, not compared`);
        else out.push(`  ${p.path}: cloud ${show(p.cloud)}, program ${show(p.program)}`);
      }
    }
    if (r.error) out.push("", `${r.stack}: error`, ...r.error.split("\n").map((l) => `  ${l}`));
  }
  const drifted = reports.filter((r) => r.status === "drift").length;
  const failed = reports.filter((r) => r.status === "error").length;
  out.push("", `${reports.length} stack(s) checked: ${drifted} with drift, ${failed} failed.`);
  return `${out.join("\n")}\n`;
}

function show(v: unknown): string {
  if (v === undefined) return "(not set)";
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

export async function main(argv: string[]): Promise<number> {
  let values: { stack?: string[]; cwd?: string; "config-file"?: string; json?: boolean; report?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        stack: { type: "string", multiple: true },
        cwd: { type: "string" },
        "config-file": { type: "string" },
        json: { type: "boolean", default: false },
        report: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    process.stderr.write(`krcloud-drift: ${(e as Error).message}\n${USAGE}`);
    return EXIT_ERROR;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return EXIT_CLEAN;
  }
  const stacks = values.stack ?? [];
  if (stacks.length === 0) {
    process.stderr.write(`krcloud-drift: at least one --stack is required\n${USAGE}`);
    return EXIT_ERROR;
  }
  const workDir = path.resolve(values.cwd ?? process.cwd());
  if (!fs.existsSync(path.join(workDir, "Pulumi.yaml")) && !fs.existsSync(path.join(workDir, "Pulumi.yml"))) {
    process.stderr.write(`krcloud-drift: ${workDir} is not a Pulumi project (no Pulumi.yaml)\n`);
    return EXIT_ERROR;
  }

  // One after the other: stacks of one project share its directory and Pulumi.<stack>.yaml files.
  const reports: StackReport[] = [];
  const configFile = values["config-file"] === undefined ? undefined : path.resolve(values["config-file"]);
  for (const s of stacks) reports.push(await checkStack(s, workDir, configFile));

  const code = exitCode(reports);
  const json = `${JSON.stringify({ drift: reports.some((r) => r.status === "drift"), exitCode: code, stacks: reports }, null, 2)}\n`;
  if (values.report !== undefined) fs.writeFileSync(values.report, json);
  process.stdout.write(values.json ? json : formatTable(reports));
  return code;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`krcloud-drift: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = EXIT_ERROR;
    },
  );
}
