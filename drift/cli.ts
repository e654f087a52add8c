/**
 * krcloud-drift's command line: arguments, the run, the outputs, the exit code. See USAGE and
 * docs/drift.md.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { runCheck, writeOutputs } from "./check";
import { MergeError, mergeReports, parseShard, readReport, type Shard } from "./fleet";
import { FORMAT_NAMES, FORMATS } from "./formats";
import { IGNORE_FILE, IgnoreFileError, loadBaseline, loadIgnoreFile, type IgnoreRule } from "./ignore";
import type { Io, Outputs } from "./io";
import { EXIT } from "./model";
import { shareOf } from "./pacer";
import { packDir } from "./policy";
import { DEFAULT_RETRY_BUDGET, defaultConcurrency, READ_ERRORS_ENV, RETRY_BUDGET_ENV, type RunOptions } from "./run";

export const USAGE = `usage: krcloud-drift --stack NAME|GLOB [--stack ...] [options]
       krcloud-drift --unmanaged --stack NAME [--stack ...] [options]   (resources no stack manages)
       krcloud-drift merge REPORT.json... [--format FORMAT]... [--out FORMAT=FILE]...   (a fleet's shards, one report)

Checks stacks for drift: resources changed or deleted outside Pulumi. Runs \`pulumi preview
--refresh\` per stack (several at a time) and changes nothing, neither in the cloud nor in any state.

  --stack NAME|GLOB     stack to check (repeatable); a glob (prod-*) matches the project's stacks
  --cwd DIR             the Pulumi project directory (holding Pulumi.yaml); default: the current one
  --config-file FILE    stack config file instead of DIR/Pulumi.<stack>.yaml (as pulumi --config-file)
  --format FORMAT       print the report in FORMAT (repeatable): ${FORMAT_NAMES.join(", ")}; default: table
  --out FORMAT=FILE     also write the report in FORMAT to FILE (repeatable)
  --ignore-file FILE    ignore rules (YAML); default: DIR/${IGNORE_FILE} when it exists
  --baseline FILE       fingerprints of known drift: only drift not in it fails the check
  --write-baseline      record today's drift in the --baseline FILE
  --concurrency N       stacks checked at a time (default: ${defaultConcurrency()}, the machine's CPUs)
  --retry-budget N      transport retries allowed per provider process (default: ${DEFAULT_RETRY_BUDGET})
  --source-root DIR     paths in SARIF and annotations are relative to it (default: the git root)
  --json                same as --format json;  --report FILE: same as --out json=FILE

What the cloud holds now, against a policy pack (docs/policy.md):
  --state-out FILE      write the refreshed managed resources and the unmanaged ones (the accounts'
                        resources no checked stack manages) as one state file for
                        \`pulumi policy analyze --file FILE --policy-pack DIR\`
  --policy PACK         run a policy pack on it (a directory, or krcloud for pulumi-krcloud/policy)
  --policy-config FILE  the pack's configuration (as pulumi --policy-pack-config)

Fleets (docs/fleet.md):
  --shard K/N           check shard K of N (K from 1): the same stacks on every runner, by name
  --request-budget R    at most R requests per second to the account, all N shards together;
                        requests wait their turn, and a 429 is retried after its Retry-After

Unmanaged resources (--unmanaged): lists what none of the given stacks tracks, with coverage per
service, and writes what adopts it:
  --import-file FILE    a \`pulumi import --file\` document for the native plugin (YAML, Python, Go)
  --program-dir DIR     a TypeScript program that adopts every resource (adopt: true)

Exit status: 0 no drift, 1 error, 2 drift, 3 partial (some resources or stacks could not be read;
the rest is reported), 4 a mandatory policy violation (--policy). Precedence: 1, 4, 3, 2.
`;

interface Args {
  stack?: string[];
  cwd?: string;
  "config-file"?: string;
  format?: string[];
  out?: string[];
  json?: boolean;
  report?: string;
  "ignore-file"?: string;
  baseline?: string;
  "write-baseline"?: boolean;
  concurrency?: string;
  "retry-budget"?: string;
  "source-root"?: string;
  unmanaged?: boolean;
  "import-file"?: string;
  "program-dir"?: string;
  "state-out"?: string;
  policy?: string;
  "policy-config"?: string;
  shard?: string;
  "request-budget"?: string;
  help?: boolean;
}

const PROCESS_IO: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  now: () => new Date(),
  env: process.env,
};

class UsageError extends Error {}

function parse(argv: string[]): Args {
  try {
    return parseArgs({
      args: argv,
      options: {
        stack: { type: "string", multiple: true },
        cwd: { type: "string" },
        "config-file": { type: "string" },
        format: { type: "string", multiple: true },
        out: { type: "string", multiple: true },
        json: { type: "boolean" },
        report: { type: "string" },
        "ignore-file": { type: "string" },
        baseline: { type: "string" },
        "write-baseline": { type: "boolean" },
        concurrency: { type: "string" },
        "retry-budget": { type: "string" },
        "source-root": { type: "string" },
        unmanaged: { type: "boolean" },
        "import-file": { type: "string" },
        "program-dir": { type: "string" },
        "state-out": { type: "string" },
        policy: { type: "string" },
        "policy-config": { type: "string" },
        shard: { type: "string" },
        "request-budget": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function count(flag: string, v: string | undefined, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min) throw new UsageError(`--${flag} must be a whole number of at least ${min} (got "${v}")`);
  return Number(v);
}

export function outputsOf(a: Pick<Args, "format" | "json" | "out" | "report">): Outputs {
  const stdout = [...(a.format ?? []), ...(a.json ? ["json"] : [])];
  const files = (a.out ?? []).map((o) => {
    const m = /^([a-z]+)=(.+)$/.exec(o);
    if (!m) throw new UsageError(`--out takes FORMAT=FILE (got "${o}")`);
    return { format: m[1]!, file: m[2]! };
  });
  if (a.report !== undefined) files.push({ format: "json", file: a.report });
  for (const f of [...stdout, ...files.map((x) => x.format)]) {
    if (!FORMATS[f]) throw new UsageError(`unknown format "${f}": one of ${FORMAT_NAMES.join(", ")}`);
  }
  return { stdout: stdout.length > 0 ? stdout : ["table"], files };
}

/** The project directory, checked; a --config-file that does not exist is refused at once, by name. */
function projectDir(a: Args): { workDir: string; configFile?: string } {
  const workDir = path.resolve(a.cwd ?? process.cwd());
  if (!fs.existsSync(path.join(workDir, "Pulumi.yaml")) && !fs.existsSync(path.join(workDir, "Pulumi.yml"))) {
    throw new UsageError(`${workDir} is not a Pulumi project (no Pulumi.yaml)`);
  }
  if (a["config-file"] === undefined) return { workDir };
  const configFile = path.resolve(a["config-file"]);
  if (!fs.existsSync(configFile) || !fs.statSync(configFile).isFile()) throw new UsageError(`--config-file ${a["config-file"]}: no such file (${configFile})`);
  return { workDir, configFile };
}

export async function main(argv: string[], io: Io = PROCESS_IO): Promise<number> {
  try {
    if (argv[0] === "merge") return runMerge(argv.slice(1), io);
    return await run(parse(argv), io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof IgnoreFileError || e instanceof MergeError) {
      io.stderr(`krcloud-drift: ${e.message}\n${e instanceof UsageError ? `\n${USAGE}` : ""}`);
      return EXIT.error;
    }
    throw e;
  }
}

/** `krcloud-drift merge REPORT.json...`: the shards' JSON reports as one report, in every format asked for. */
function runMerge(argv: string[], io: Io): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { format: { type: "string", multiple: true }, out: { type: "string", multiple: true }, json: { type: "boolean" }, report: { type: "string" } },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (parsed.positionals.length === 0) throw new UsageError("merge needs the shards' JSON reports (--out json=FILE of each shard)");
  const outputs = outputsOf(parsed.values);
  const merged = mergeReports(parsed.positionals.map((file) => ({ file, report: readReport(file) })));
  writeOutputs(merged, outputs, io);
  return merged.exitCode;
}

function shardOption(a: Args): Shard | undefined {
  if (a.shard === undefined) return undefined;
  try {
    return parseShard(a.shard);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function budgetOption(a: Args, shard: Shard | undefined): number | undefined {
  const v = a["request-budget"];
  if (v === undefined) return undefined;
  const budget = Number(v);
  if (!/^\d+(\.\d+)?$/.test(v) || !(budget > 0)) throw new UsageError(`--request-budget takes requests per second, a positive number (got "${v}")`);
  const shards = shard?.count ?? 1;
  if (shareOf(budget, shards) < 1) {
    throw new UsageError(
      `--request-budget ${v} is less than 1 request per second for each of the ${shards} shards: raise it to ${shards} or more, or use fewer shards`,
    );
  }
  return budget;
}

function policyOption(a: Args): string | undefined {
  if (a["policy-config"] !== undefined && a.policy === undefined) throw new UsageError("--policy-config goes with --policy");
  if (a["policy-config"] !== undefined && !fs.existsSync(a["policy-config"])) throw new UsageError(`--policy-config ${a["policy-config"]}: no such file`);
  if (a.policy === undefined) return undefined;
  try {
    return packDir(a.policy);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

async function run(a: Args, io: Io): Promise<number> {
  if (a.help) {
    io.stdout(USAGE);
    return EXIT.clean;
  }
  const patterns = a.stack ?? [];
  if (patterns.length === 0) throw new UsageError("at least one --stack is required");
  const { workDir, configFile } = projectDir(a);
  const concurrency = count("concurrency", a.concurrency, defaultConcurrency(), 1);
  const retryBudget = count("retry-budget", a["retry-budget"], DEFAULT_RETRY_BUDGET, 0);
  const env: Record<string, string> = { [READ_ERRORS_ENV]: "report", [RETRY_BUDGET_ENV]: String(retryBudget) };
  const runOpts: RunOptions = { workDir, configFile, env };

  if (a.unmanaged) {
    const formats = outputsOf(a);
    const other = [...formats.stdout, ...formats.files.map((f) => f.format)].find((f) => f !== "table" && f !== "json");
    if (other) throw new UsageError(`--unmanaged reports as table or json (got ${other})`);
    for (const f of ["shard", "state-out", "policy", "request-budget"] as const)
      if (a[f] !== undefined) throw new UsageError(`--${f} goes with a drift check, not --unmanaged`);
    const { runUnmanaged } = await import("./unmanaged/cli");
    return runUnmanaged({ patterns, workDir, configFile, importFile: a["import-file"], programDir: a["program-dir"], formats, io, runOpts });
  }
  if (a["import-file"] !== undefined || a["program-dir"] !== undefined) throw new UsageError("--import-file and --program-dir go with --unmanaged");

  const outputs = outputsOf(a);
  if (a["write-baseline"] && a.baseline === undefined) throw new UsageError("--write-baseline needs --baseline FILE (where to write it)");
  if (a["write-baseline"] && a.shard !== undefined) throw new UsageError("--write-baseline records one run's drift: run it without --shard");
  const shard = shardOption(a);
  const requestBudget = budgetOption(a, shard);
  const policy = policyOption(a);
  const ignoreFile = a["ignore-file"] ?? (fs.existsSync(path.join(workDir, IGNORE_FILE)) ? path.join(workDir, IGNORE_FILE) : undefined);
  const rules: IgnoreRule[] = ignoreFile === undefined ? [] : loadIgnoreFile(ignoreFile);
  const baseline = a.baseline !== undefined && !(a["write-baseline"] && !fs.existsSync(a.baseline)) ? loadBaseline(a.baseline) : new Set<string>();

  return runCheck(
    {
      patterns,
      runOpts,
      concurrency,
      outputs,
      rules,
      ignoreFile,
      baseline,
      baselineFile: a.baseline,
      writeBaseline: a["write-baseline"] === true,
      sourceRoot: a["source-root"],
      cwdArg: a.cwd,
      configFileArg: a["config-file"],
      shard,
      stateOut: a["state-out"],
      policy,
      policyConfig: a["policy-config"],
      requestBudget,
    },
    io,
  );
}
