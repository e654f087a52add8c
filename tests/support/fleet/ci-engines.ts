/**
 * The three CI engines of examples/fleet, run the way each runs its recipe, on this machine:
 *
 * - GitHub Actions: the workflow's jobs in `needs` order; a matrix job once per matrix value (at
 *   most `max-parallel` at a time) in a workspace of its own, `${{ matrix.* }}`, `${{ strategy.* }}`,
 *   `${{ secrets.* }}` and `${{ env.* }}` evaluated, each `run` step by `bash -eo pipefail` in its
 *   `working-directory` with GITHUB_WORKSPACE, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, `if:
 *   always()` honoured; upload-artifact and download-artifact (pattern, merge-multiple) move files
 *   between jobs through an artifact store.
 * - GitLab CI: jobs stage by stage; `parallel: N` as N jobs with CI_NODE_INDEX (1..N) and
 *   CI_NODE_TOTAL; the script's lines in one shell; `artifacts: paths` (when: always) collected and
 *   extracted into the workspace of each job that `needs` them; `when: always`.
 * - Kubernetes: an Indexed Job's pods (`completions`, `parallelism`), each with JOB_COMPLETION_INDEX,
 *   its container's env, command and args, working directory, and the volume mounted where the pod
 *   mounts it (a directory shared by the pods); a failed index retried with the same index up to
 *   `backoffLimitPerIndex`; then the next Job, init containers first.
 *
 * What the runners install (checkout, setup-node, the Pulumi CLI, `npm ci`) is already here: those
 * steps are stood in for (named in each result), and `npx --no-install krcloud-drift` and
 * `krcloud-drift` run this working tree's dist/bin/krcloud-drift.js (a shim on PATH).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parse as parseYaml, parseAllDocuments } from "yaml";
import { mapLimit } from "../../../drift/run";
import { entry } from "../../harness/entries";

export interface JobRun {
  job: string;
  code: number;
  log: string;
  /** Steps stood in for (installs done by this machine already). */
  stoodIn: string[];
}

export interface EngineContext {
  /** The repository: a directory holding the project directory (e.g. `infra`). */
  repo: string;
  /** Environment of the jobs (Pulumi backend, passphrase, PATH to the CLI...). */
  env: Record<string, string>;
  secrets: Record<string, string>;
}

/** A directory with `npx` and `krcloud-drift` shims running this tree's krcloud-drift, to put first on PATH. */
export function shimDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-shims-"));
  const drift = entry("drift");
  fs.writeFileSync(path.join(dir, "krcloud-drift"), `#!/bin/sh\nexec node ${JSON.stringify(drift)} "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(
    path.join(dir, "npx"),
    `#!/bin/sh\n[ "$1" = "--no-install" ] && shift\n[ "$1" = "krcloud-drift" ] || { echo "npx shim: only krcloud-drift" >&2; exit 127; }\nshift\nexec node ${JSON.stringify(drift)} "$@"\n`,
    { mode: 0o755 },
  );
  return dir;
}

function sh(shell: string[], script: string, cwd: string, env: Record<string, string>): Promise<{ code: number; log: string }> {
  return new Promise((resolve) => {
    execFile(shell[0]!, [...shell.slice(1), script], { cwd, env, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      const c = (err as { code?: unknown } | null)?.code;
      const code = err ? (typeof c === "number" ? c : 127) : 0;
      resolve({ code, log: `${stdout}${stderr}` });
    });
  });
}

/** A job's workspace: the repository's files (linked), its own directory otherwise. */
function workspace(ctx: EngineContext, label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `krcloud-${label}-`));
  for (const f of fs.readdirSync(ctx.repo)) fs.symlinkSync(path.join(ctx.repo, f), path.join(dir, f));
  return dir;
}

const glob = (pattern: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);

// ---------------------------------------------------------------- GitHub Actions

type Step = { name?: string; uses?: string; run?: string; with?: Record<string, unknown>; if?: string; "working-directory"?: string };
type GhJob = { needs?: string | string[]; if?: string; strategy?: { "max-parallel"?: number; matrix?: Record<string, unknown[]> }; steps: Step[] };

/**
 * `${{ a.b }}` in `text`, from `context`; an expression the recipe uses that is not there fails the
 * run, except a secret or a variable, which is empty when not set (as on GitHub).
 */
export function expand(text: string, context: Record<string, Record<string, unknown>>): string {
  return text.replace(/\$\{\{\s*([\w-]+)\.([\w-]+)\s*\}\}/g, (m, scope: string, key: string) => {
    const v = context[scope]?.[key] ?? (scope === "secrets" || scope === "vars" ? "" : undefined);
    if (v === undefined) throw new Error(`the recipe uses ${m}, which this run does not define`);
    return typeof v === "string" || typeof v === "number" ? String(v) : JSON.stringify(v);
  });
}

export async function runGithubWorkflow(
  file: string,
  ctx: EngineContext,
): Promise<{ runs: JobRun[]; summaries: string[]; workspaces: Record<string, string>; artifacts: string }> {
  const wf = parseYaml(fs.readFileSync(file, "utf8")) as { env?: Record<string, string>; jobs: Record<string, GhJob> };
  const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-gh-artifacts-"));
  const env = { ...ctx.env, ...Object.fromEntries(Object.entries(wf.env ?? {}).map(([k, v]) => [k, expand(String(v), { secrets: ctx.secrets })])) };
  const runs: JobRun[] = [];
  const summaries: string[] = [];
  const workspaces: Record<string, string> = {};
  const done = new Set<string>();
  const order = Object.keys(wf.jobs);
  while (done.size < order.length) {
    const ready = order.filter((j) => !done.has(j) && [wf.jobs[j]!.needs ?? []].flat().every((n) => done.has(n)));
    for (const name of ready) {
      const job = wf.jobs[name]!;
      const needsFailed = [job.needs ?? []].flat().some((n) => runs.some((r) => r.job.startsWith(`${n}`) && r.code !== 0));
      if (needsFailed && job.if !== "always()") {
        done.add(name);
        continue;
      }
      const values = job.strategy?.matrix ? cartesian(job.strategy.matrix) : [{}];
      const instances = await mapLimit(values, job.strategy?.["max-parallel"] ?? values.length, (matrix) =>
        githubJob(name, job, matrix, values.length, values.indexOf(matrix), env, ctx, artifacts),
      );
      for (const i of instances) {
        runs.push(i.run);
        summaries.push(i.summary);
        workspaces[i.run.job] = i.workspace;
      }
      done.add(name);
    }
  }
  return { runs, summaries, workspaces, artifacts };
}

function cartesian(matrix: Record<string, unknown[]>): Record<string, unknown>[] {
  return Object.entries(matrix).reduce<Record<string, unknown>[]>((acc, [k, vs]) => acc.flatMap((a) => vs.map((v) => ({ ...a, [k]: v }))), [{}]);
}

async function githubJob(
  name: string,
  job: GhJob,
  matrix: Record<string, unknown>,
  total: number,
  index: number,
  baseEnv: Record<string, string>,
  ctx: EngineContext,
  artifacts: string,
): Promise<{ run: JobRun; summary: string; workspace: string }> {
  const ws = workspace(ctx, `gh-${name}`);
  const files = fs.mkdtempSync(path.join(os.tmpdir(), "krcloud-gh-files-"));
  const summaryFile = path.join(files, "summary.md");
  fs.writeFileSync(summaryFile, "");
  const context = { matrix, strategy: { "job-total": total, "job-index": index }, secrets: ctx.secrets, env: baseEnv };
  const env = { ...baseEnv, GITHUB_WORKSPACE: ws, GITHUB_OUTPUT: path.join(files, "output"), GITHUB_STEP_SUMMARY: summaryFile, CI: "true" };
  const label = `${name}${Object.keys(matrix).length ? ` (${Object.values(matrix).join(", ")})` : ""}`;
  const run: JobRun = { job: label, code: 0, log: "", stoodIn: [] };
  for (const step of job.steps) {
    if (run.code !== 0 && step.if !== "always()") continue;
    const title = step.name ? expand(step.name, context) : (step.uses ?? "run");
    const uses = step.uses?.split("@")[0];
    const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v), context)]));
    if (uses === "actions/upload-artifact") {
      const src = path.join(ws, w.path!);
      if (!fs.existsSync(src)) {
        run.log += `upload-artifact: no file ${w.path}\n`;
        if (w["if-no-files-found"] === "error") run.code = 1;
        continue;
      }
      fs.mkdirSync(path.join(artifacts, w.name!), { recursive: true });
      fs.copyFileSync(src, path.join(artifacts, w.name!, path.basename(src)));
    } else if (uses === "actions/download-artifact") {
      const dest = path.join(ws, w.path ?? ".");
      fs.mkdirSync(dest, { recursive: true });
      for (const a of fs.readdirSync(artifacts).filter((n) => glob(w.pattern ?? "*").test(n))) {
        const into = w["merge-multiple"] === "true" ? dest : path.join(dest, a);
        fs.mkdirSync(into, { recursive: true });
        for (const f of fs.readdirSync(path.join(artifacts, a))) fs.copyFileSync(path.join(artifacts, a, f), path.join(into, f));
      }
    } else if (uses === "github/codeql-action/upload-sarif") {
      // Code scanning takes the file: it must be there and be SARIF.
      const sarif = JSON.parse(fs.readFileSync(path.join(ws, w.sarif_file!), "utf8")) as { version?: string };
      if (sarif.version !== "2.1.0") run.code = 1;
    } else if (uses !== undefined || /^Install\b/.test(title)) {
      run.stoodIn.push(title);
    } else if (step.run !== undefined) {
      const cwd = step["working-directory"] ? path.join(ws, expand(step["working-directory"], context)) : ws;
      const r = await sh(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"], expand(step.run, context), cwd, env);
      run.log += r.log;
      run.code = r.code;
    }
  }
  return { run, summary: fs.readFileSync(summaryFile, "utf8"), workspace: ws };
}

// ---------------------------------------------------------------- GitLab CI

type GlJob = {
  stage: string;
  parallel?: number;
  when?: string;
  needs?: { job: string; artifacts?: boolean }[];
  variables?: Record<string, string>;
  before_script?: string[];
  script: string[];
  artifacts?: { when?: string; paths?: string[] };
};

export async function runGitlabPipeline(
  file: string,
  ctx: EngineContext,
): Promise<{ runs: JobRun[]; workspaces: Record<string, string>; artifacts: Record<string, string[]> }> {
  const doc = parseYaml(fs.readFileSync(file, "utf8")) as Record<string, unknown> & { stages: string[]; variables?: Record<string, string> };
  const jobs = Object.entries(doc).filter(([, v]) => typeof v === "object" && v !== null && "script" in v) as [string, GlJob][];
  const artifacts = new Map<string, string[]>();
  const runs: JobRun[] = [];
  const workspaces: Record<string, string> = {};
  for (const stage of doc.stages) {
    for (const [name, job] of jobs.filter(([, j]) => j.stage === stage)) {
      if (runs.some((r) => r.code !== 0) && job.when !== "always") continue;
      const n = job.parallel ?? 1;
      const instances = await mapLimit(
        Array.from({ length: n }, (_, i) => i + 1),
        n,
        async (index) => {
          const ws = workspace(ctx, `gl-${name}`);
          for (const need of job.needs ?? [])
            if (need.artifacts !== false) for (const f of artifacts.get(need.job) ?? []) fs.copyFileSync(f, path.join(ws, path.basename(f)));
          const env = {
            ...ctx.env,
            ...ctx.secrets,
            ...doc.variables,
            ...job.variables,
            CI: "true",
            CI_PROJECT_DIR: ws,
            CI_JOB_NAME: n > 1 ? `${name} ${index}/${n}` : name,
            ...(n > 1 ? { CI_NODE_INDEX: String(index), CI_NODE_TOTAL: String(n) } : {}),
          };
          const r = await sh(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"], job.script.join("\n"), ws, env);
          const kept = (job.artifacts?.when === "always" || r.code === 0 ? (job.artifacts?.paths ?? []) : []).flatMap((p) =>
            fs
              .readdirSync(ws)
              .filter((f) => glob(p).test(f))
              .map((f) => path.join(ws, f)),
          );
          workspaces[env.CI_JOB_NAME] = ws;
          return { run: { job: env.CI_JOB_NAME, code: r.code, log: r.log, stoodIn: (job.before_script ?? []).map((l) => `before_script: ${l}`) }, kept };
        },
      );
      artifacts.set(
        name,
        instances.flatMap((i) => i.kept),
      );
      runs.push(...instances.map((i) => i.run));
    }
  }
  return { runs, workspaces, artifacts: Object.fromEntries([...artifacts].map(([job, files]) => [job, files.map((f) => path.basename(f)).sort()])) };
}

// ---------------------------------------------------------------- Kubernetes Indexed Job

type Container = {
  name: string;
  workingDir?: string;
  env?: { name: string; value: string }[];
  command?: string[];
  args?: string[];
  volumeMounts?: { name: string; mountPath: string }[];
};
type K8sJob = {
  metadata: { name: string };
  spec: {
    completionMode?: string;
    completions?: number;
    parallelism?: number;
    backoffLimitPerIndex?: number;
    template: { spec: { containers: Container[]; initContainers?: Container[] } };
  };
};

/** Runs the file's Jobs in order; `volumes` maps each volume name to a directory; `/repo` is the repository. */
export async function runKubernetesJobs(file: string, ctx: EngineContext, volumes: Record<string, string>): Promise<JobRun[]> {
  const docs = parseAllDocuments(fs.readFileSync(file, "utf8")).map((d) => d.toJS() as K8sJob);
  const runs: JobRun[] = [];
  for (const job of docs) {
    const indexed = job.spec.completionMode === "Indexed";
    const completions = job.spec.completions ?? 1;
    const indexes = Array.from({ length: completions }, (_, i) => i);
    const pods = await mapLimit(indexes, job.spec.parallelism ?? completions, async (index) => {
      let last: JobRun | undefined;
      // A failed index is retried with the same index.
      for (let attempt = 0; attempt <= (indexed ? (job.spec.backoffLimitPerIndex ?? 0) : 0); attempt++) {
        last = await pod(job, indexed ? index : undefined, ctx, volumes);
        if (last.code === 0) break;
      }
      return last!;
    });
    runs.push(...pods);
  }
  return runs;
}

async function pod(job: K8sJob, index: number | undefined, ctx: EngineContext, volumes: Record<string, string>): Promise<JobRun> {
  const run: JobRun = { job: `${job.metadata.name}${index === undefined ? "" : `-${index}`}`, code: 0, log: "", stoodIn: [] };
  const spec = job.spec.template.spec;
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    // Paths as the pod sees them: each mount at its directory, /repo at the repository.
    const mounts = [...(c.volumeMounts ?? []).map((m) => [m.mountPath, volumes[m.name]!] as const), ["/repo", ctx.repo] as const];
    const local = (s: string) => mounts.reduce((acc, [from, to]) => acc.split(from).join(to), s);
    const env = {
      ...ctx.env,
      ...ctx.secrets,
      ...Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value])),
      ...(index === undefined ? {} : { JOB_COMPLETION_INDEX: String(index) }),
    };
    const [shell, ...flags] = (c.command ?? []).map(local);
    const r = await sh([shell!, ...flags], (c.args ?? []).map(local).join(" "), local(c.workingDir ?? "/repo"), env);
    run.log += r.log;
    run.code = r.code;
    if (r.code !== 0) break;
  }
  return run;
}
