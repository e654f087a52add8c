/**
 * `krcloud-drift --unmanaged`: lists what none of the given stacks tracks, with the coverage per
 * service, and writes what adopts it (a `pulumi import --file` document, a TypeScript program).
 *
 * Each stack's state (`pulumi stack export`) says what it tracks; its config (`pulumi config
 * --show-secrets`, decrypted in memory only) plus the environment give the settings the provider
 * would use, so the cloud is listed with the stack's own endpoint and credentials. Stacks with the
 * same settings are listed once. Nothing is written anywhere but the files asked for.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { authenticated, resolveSettings, type Settings } from "../../client/core";
import { displayType } from "../analyze";
import type { Io, Outputs } from "../io";
import { EXIT } from "../model";
import { packageVersion } from "../report";
import { errorSummary, mapLimit, resolveStacks, type RunOptions } from "../run";
import { coverageOf, discover, plural, trackedKey, type CloudResource, type Coverage, type Discovery } from "./discover";
import { importFileOf, namesOf, readForAdoption, typescriptProgram, type GeneratedProgram } from "./generate";

export interface UnmanagedOptions {
  patterns: string[];
  workDir: string;
  configFile?: string;
  importFile?: string;
  programDir?: string;
  formats: Outputs;
  io: Io;
  runOpts: RunOptions;
}

export interface UnmanagedReport {
  version: 1;
  stacks: { stack: string; resources: number; error?: string }[];
  /** The projects (accounts) listed, once each. */
  projects: { projectId?: string; region: string }[];
  resources: (CloudResource & { logicalName?: string })[];
  coverage: Coverage[];
  /** Services that failed to list: the check is partial. */
  errors: { service: string; error: string }[];
  /** Services the stacks' settings give no endpoint or credentials for: not listed, not a failure. */
  skipped: { service: string; reason: string }[];
  exitCode: number;
}

const run = promisify(execFile);

/** Where the Pulumi CLI runs for a stack's state and config: the project, its config file, the run's environment. */
export type ProjectOptions = Pick<UnmanagedOptions, "workDir" | "configFile" | "runOpts">;

async function pulumi(args: string[], o: ProjectOptions): Promise<string> {
  const { stdout } = await run("pulumi", [...args, "--non-interactive"], {
    cwd: o.workDir,
    env: { ...process.env, ...o.runOpts.env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout;
}

export interface StackFacts {
  stack: string;
  /** `trackedKey`s of what its state holds. */
  tracked: string[];
  settings?: Settings;
  error?: string;
}

/** What a stack's state tracks and the settings its provider would use (config decrypted in memory only). */
export async function factsOf(stack: string, o: ProjectOptions, known?: { tracked: string[] }): Promise<StackFacts> {
  try {
    const cfgArgs = ["config", "--show-secrets", "--json", "--stack", stack, ...(o.configFile ? ["--config-file", o.configFile] : [])];
    // The state and the config side by side (a stack checked in this run has its state read already).
    const [tracked, configText] = await Promise.all([known ? Promise.resolve(known.tracked) : trackedOf(stack, o), pulumi(cfgArgs, o)]);
    const config = JSON.parse(configText) as Record<string, { value?: string }>;
    const configured = resolveSettings({}, (k) => config[`krcloud:${k}`]?.value, process.env);
    // The project and the endpoints a token of the access key names; when no token can be had,
    // listing each service says why.
    const settings = await authenticated(configured).catch(() => configured);
    return { stack, tracked, settings };
  } catch (e) {
    return { stack, tracked: [], error: `reading stack "${stack}": ${errorSummary(e)}` };
  }
}

async function trackedOf(stack: string, o: ProjectOptions): Promise<string[]> {
  const state = JSON.parse(await pulumi(["stack", "export", "--stack", stack], o)) as { deployment?: { resources?: { type: string; id?: string }[] } };
  return trackedKeysOf(state.deployment?.resources ?? []);
}

/** What a stack's state tracks, as `trackedKey`s. */
export function trackedKeysOf(resources: readonly { type: string; id?: string }[]): string[] {
  return resources.filter((r) => r.id).map((r) => trackedKey(displayType(r.type), r.id!));
}

/** Settings that reach the same account list the same resources. */
export function accountKey(s: Settings): string {
  return JSON.stringify([s.projectId, s.region, s.endpoints]);
}

export async function runUnmanaged(o: UnmanagedOptions): Promise<number> {
  const { stacks, unmatched } = await resolveStacks(o.patterns, o.runOpts);
  const facts = await mapLimit(stacks, 4, (s) => factsOf(s, o));
  for (const p of unmatched) facts.push({ stack: p, tracked: [], error: `no stack of the project matches "${p}"` });
  const tracked = new Set(facts.flatMap((f) => f.tracked));

  const accounts = new Map<string, Settings>();
  for (const f of facts) if (f.settings) accounts.set(accountKey(f.settings), f.settings);
  const found: Discovery = { resources: [], errors: [], skipped: [] };
  for (const settings of accounts.values()) {
    const d = await discover(settings, tracked);
    found.resources.push(...d.resources);
    found.errors.push(...d.errors);
    for (const k of d.skipped) if (!found.skipped.some((x) => x.service === k.service && x.reason === k.reason)) found.skipped.push(k);
  }
  const unmanaged = found.resources.filter((r) => !r.managed);
  const names = namesOf(unmanaged);
  const stackErrors = facts.filter((f) => f.error);
  const exitCode =
    facts.length === stackErrors.length
      ? EXIT.error
      : stackErrors.length > 0 || found.errors.length > 0
        ? EXIT.partial
        : unmanaged.length > 0
          ? EXIT.drift
          : EXIT.clean;
  const report: UnmanagedReport = {
    version: 1,
    stacks: facts.map((f) => ({ stack: f.stack, resources: f.tracked.length, ...(f.error ? { error: f.error } : {}) })),
    projects: [...accounts.values()].map((s) => ({ projectId: s.projectId, region: s.region })),
    resources: found.resources.map((r) => (r.managed ? r : { ...r, logicalName: names.get(r) })),
    coverage: coverageOf(found.resources),
    errors: found.errors,
    skipped: found.skipped,
    exitCode,
  };

  const notes: string[] = [];
  const [settings] = accounts.values();
  const adopted = (o.importFile || o.programDir) && unmanaged.length > 0 ? await readForAdoption(unmanaged, settings!) : [];
  if (o.importFile && unmanaged.length > 0) {
    fs.mkdirSync(path.dirname(path.resolve(o.importFile)), { recursive: true });
    fs.writeFileSync(o.importFile, `${JSON.stringify(importFileOf(unmanaged), null, 2)}\n`);
    notes.push(`wrote ${o.importFile}: \`pulumi import --file ${o.importFile}\` in a project on the native plugin (YAML, Python, Go) generates the code`);
    for (const a of adopted.filter((x) => x.fromConfig.length > 0)) {
      const props = a.fromConfig.map((f) => f.property);
      notes.push(
        `  ${a.logicalName}: the cloud does not give back ${props.join(", ")}: declare ${props.length > 1 ? "them" : "it"} in the generated code (a secret from a secret config value); the first \`pulumi up\` records ${props.length > 1 ? "them" : "it"} without a change in the cloud`,
      );
    }
  }
  if (o.programDir && unmanaged.length > 0) {
    const program = typescriptProgram(adopted, path.basename(path.resolve(o.programDir)), programDependencies());
    fs.mkdirSync(o.programDir, { recursive: true });
    for (const [f, text] of Object.entries(program.files)) fs.writeFileSync(path.join(o.programDir, f), text);
    notes.push(...programNotes(o.programDir, program));
  }

  const text = formatUnmanaged(report, notes);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  for (const f of o.formats.files) fs.writeFileSync(f.file, f.format === "json" ? json : text);
  o.io.stdout(o.formats.stdout.map((f) => (f === "json" ? json : text)).join("\n"));
  return exitCode;
}

/** What the run says about the program it wrote: where, and what its stack needs (a list only when there is one). */
export function programNotes(dir: string, program: Pick<GeneratedProgram, "configKeys" | "leftOut">): string[] {
  const notes = [
    `wrote a TypeScript program adopting them in ${dir} (each protected, as pulumi import protects what it imports)${program.configKeys.length > 0 ? "; its stack needs:" : ""}`,
  ];
  for (const k of program.configKeys) notes.push(`  pulumi config set${k.secret ? " --secret" : ""} ${k.key} <value>`);
  if (program.leftOut.length > 0) notes.push("left out of the program (no adopt input; use the import file):");
  for (const l of program.leftOut) notes.push(`  ${l}`);
  return notes;
}

/**
 * What the generated program's package.json depends on: pulumi-krcloud as the README installs it
 * (its git repository at this version's tag, which npm builds with the prepare script; the registry
 * does not have it), and the @pulumi/pulumi this package depends on (one copy in the program).
 */
export function programDependencies(): { krcloud: string; pulumi: string } {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, "utf8")) as PackageJson;
      if (pkg.name === "pulumi-krcloud") return { krcloud: installSpec(pkg), pulumi: pkg.dependencies?.["@pulumi/pulumi"] ?? "^3.0.0" };
    }
    if (path.dirname(dir) === dir) return { krcloud: `^${packageVersion()}`, pulumi: "^3.0.0" };
  }
}

interface PackageJson {
  name?: string;
  version?: string;
  repository?: { url?: string };
  dependencies?: Record<string, string>;
}

/** `git+https://github.com/…/pulumi-krcloud.git#v<version>`: the release tag of this version. */
export function installSpec(pkg: PackageJson): string {
  const url = pkg.repository?.url;
  return url ? `${url}#v${pkg.version}` : `^${pkg.version}`;
}

export function formatUnmanaged(r: UnmanagedReport, notes: readonly string[] = []): string {
  const rows = r.resources
    .filter((x) => !x.managed)
    .map((x) => [
      x.service,
      x.kind,
      x.name,
      x.id,
      `${x.token} ${x.logicalName ?? ""}`.trim() + (x.objects ? `  (${x.objects.total} ${plural("object", x.objects.total)})` : ""),
    ]);
  const out: string[] = [];
  if (rows.length === 0)
    out.push(
      r.skipped.length === 0
        ? "Every resource of the project is managed by the given stacks."
        : "Every resource listed is managed by the given stacks (the services skipped below were not listed).",
    );
  else {
    const head = ["SERVICE", "KIND", "NAME", "ID", "IMPORT AS"];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ");
    out.push(`${rows.length} resource(s) no stack manages:`, "", line(head), ...rows.map(line));
  }
  out.push("", "Coverage:");
  const services = [...new Set(r.coverage.map((c) => c.service))];
  for (const s of services) {
    const parts = r.coverage.filter((c) => c.service === s).map((c) => `${c.managed} of ${c.total} ${plural(c.kind, c.total)} managed`);
    out.push(`  ${s}: ${parts.join("; ")}`);
  }
  for (const e of r.errors) out.push(`  ${e.service}: not listed: ${e.error}`);
  for (const k of r.skipped) out.push(`  ${k.service}: skipped: ${k.reason}`);
  for (const s of r.stacks.filter((x) => x.error)) out.push("", `${s.stack}: ${s.error}`);
  if (notes.length > 0) out.push("", ...notes);
  out.push(
    "",
    `Exit ${r.exitCode}: ${["every resource listed is managed", "error", "unmanaged resources found", "partial: some stacks or services could not be read"][r.exitCode]}.`,
  );
  return `${out.join("\n")}\n`;
}
