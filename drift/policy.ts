/**
 * `--policy PACK`: the pack run on the state file (state-out.ts) by `pulumi policy analyze --file
 * FILE --policy-pack PACK --json`, offline and with no login, and its violations read from the
 * engine events it prints, each tied back to its resource (managed or not, its stack, its line).
 *
 * `PACK` is a policy pack directory (PulumiPolicy.yaml), or `krcloud` for pulumi-krcloud/policy.
 * The analyze command exits 1 when a mandatory rule is broken; that is a finding, not a failure.
 * Anything else that keeps the pack from running is the policy run's error: the report is partial.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { PolicyResult, PolicyViolation } from "./model";
import { sortViolations } from "./fleet";
import { errorSummary } from "./run";
import type { Subject } from "./state-out";

/**
 * The package's own pack (`pulumi-krcloud/policy/pack`), where policy/index.ts's PACK_DIR is; not
 * imported from there, so that the native plugin, which ships drift/ without policy/ and its
 * @pulumi/policy, loads (its krcloud-drift takes a pack's path).
 */
const PACK_DIR = path.resolve(__dirname, "..", "..", "policy", "pack");

/** The pack directory `--policy` names: `krcloud` is pulumi-krcloud/policy's. Throws naming what is missing. */
export function packDir(spec: string): string {
  const dir = spec === "krcloud" ? PACK_DIR : path.resolve(spec);
  if (!fs.existsSync(path.join(dir, "PulumiPolicy.yaml"))) {
    throw new Error(`--policy ${spec}: ${dir} is not a policy pack (no PulumiPolicy.yaml); \`--policy krcloud\` runs pulumi-krcloud/policy`);
  }
  return dir;
}

interface AnalyzeEvent {
  policyEvent?: {
    resourceUrn?: string;
    message: string;
    policyName: string;
    policyPackName: string;
    policyPackVersion: string;
    enforcementLevel: string;
  };
  summaryEvent?: { PolicyPacks?: Record<string, string>; policyPacks?: Record<string, string>; result?: string };
}

/**
 * The violations of `pulumi policy analyze --json`'s events. A message is the rule's description,
 * a line break, then what the rule said of the resource: the description is dropped (every
 * violation of a rule repeats it).
 */
export function violationsOf(
  jsonLines: string,
  subjects: ReadonlyMap<string, Subject>,
  lineOf: (urn: string, s: Subject) => number | undefined = () => undefined,
): { violations: PolicyViolation[]; packs: { name: string; version: string }[]; sawSummary: boolean } {
  const violations: PolicyViolation[] = [];
  const packs = new Map<string, string>();
  let sawSummary = false;
  for (const text of jsonLines.split("\n")) {
    if (!text.trim().startsWith("{")) continue;
    let e: AnalyzeEvent;
    try {
      e = JSON.parse(text) as AnalyzeEvent;
    } catch {
      continue;
    }
    if (e.summaryEvent) {
      sawSummary = true;
      for (const [name, version] of Object.entries(e.summaryEvent.PolicyPacks ?? e.summaryEvent.policyPacks ?? {})) packs.set(name, version);
    }
    const p = e.policyEvent;
    if (!p) continue;
    if (p.enforcementLevel !== "mandatory" && p.enforcementLevel !== "advisory") continue;
    const urn = p.resourceUrn ?? "";
    const subject = subjects.get(urn);
    const message = p.message.includes("\n") ? p.message.slice(p.message.indexOf("\n") + 1) : p.message;
    const v: PolicyViolation = {
      policy: p.policyName,
      pack: p.policyPackName,
      packVersion: p.policyPackVersion,
      level: p.enforcementLevel,
      message: message.trim(),
      urn,
      name: subject?.name ?? urn.split("::").pop() ?? "",
      type: subject?.type ?? urn.split("::")[2] ?? "",
      stack: subject?.stack ?? /^urn:pulumi:([^:]*)::/.exec(urn)?.[1] ?? "",
      managed: subject?.managed ?? true,
    };
    const line = subject?.managed ? lineOf(urn, subject) : undefined;
    if (line !== undefined) v.line = line;
    violations.push(v);
  }
  return {
    violations: oncePerResource(sortViolations(violations), subjects),
    packs: [...packs].map(([name, version]) => ({ name, version })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    sawSummary,
  };
}

/**
 * An unmanaged resource is in the file once per stack of its account: a rule it breaks under several
 * of them is one finding, kept under the first stack (by name; the list is sorted by stack).
 */
function oncePerResource(violations: PolicyViolation[], subjects: ReadonlyMap<string, Subject>): PolicyViolation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${subjects.get(v.urn)?.key ?? v.urn}|${v.policy}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A child's exit code from execFile's error: a number when it ran, 127 when it could not start (ENOENT). */
function childExitCode(err: Error): number {
  const c = (err as { code?: unknown }).code;
  return typeof c === "number" ? c : 127;
}

/** Runs the pack on the state file; `env` is the Pulumi environment (PULUMI_HOME, the CLI on PATH). */
export async function analyzeStateFile(
  stateFile: string,
  pack: string,
  opts: { config?: string; env: NodeJS.ProcessEnv; subjects: ReadonlyMap<string, Subject>; lineOf?: (urn: string, s: Subject) => number | undefined },
): Promise<PolicyResult> {
  const args = [
    "policy",
    "analyze",
    "--file",
    stateFile,
    "--policy-pack",
    pack,
    ...(opts.config ? ["--policy-pack-config", opts.config] : []),
    "--json",
    "--non-interactive",
  ];
  const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number }>((resolve) => {
    execFile("pulumi", args, { env: opts.env, maxBuffer: 256 * 1024 * 1024 }, (err, so, se) =>
      resolve({ stdout: so, stderr: se, code: err ? childExitCode(err) : 0 }),
    );
  });
  const found = violationsOf(stdout, opts.subjects, opts.lineOf);
  const result: PolicyResult = { packs: found.packs, violations: found.violations };
  // Exit 1 with mandatory violations is the analysis's verdict; any other failure kept the pack from judging.
  const verdict = code === 1 && found.violations.some((v) => v.level === "mandatory") && found.sawSummary;
  if (code !== 0 && !verdict) {
    result.error = `pulumi policy analyze --file ${stateFile} --policy-pack ${pack} failed (exit ${code}):\n${errorSummary(new Error(`${stderr}\n${stdout}`))}`;
  }
  return result;
}
